#include "evaluation/confusion_model.h"

#include <QColor>

namespace lf::ui {

ConfusionModel::ConfusionModel(QObject* parent) : QAbstractTableModel(parent) {}

void ConfusionModel::setMatrix(ConfusionMatrix matrix, QStringList classNames) {
    beginResetModel();
    matrix_ = std::move(matrix);
    names_ = std::move(classNames);
    endResetModel();
}

int ConfusionModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(matrix_.classes()); }
int ConfusionModel::columnCount(const QModelIndex& parent) const { return rowCount(parent); }

QVariant ConfusionModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const int t = index.row(), p = index.column();
    const double share = matrix_.row_fraction(t, p);
    switch (role) {
    case Qt::DisplayRole: return qint64(matrix_.at(t, p));
    case FractionRole: return share;
    case Qt::TextAlignmentRole: return int(Qt::AlignCenter);
    case Qt::BackgroundRole: {  // white to a deep blue; off-diagonal mistakes in orange
        const QColor hot = t == p ? QColor(31, 90, 170) : QColor(214, 96, 20);
        const double a = share;
        return QColor(int(255 + (hot.red() - 255) * a), int(255 + (hot.green() - 255) * a), int(255 + (hot.blue() - 255) * a));
    }
    case Qt::ForegroundRole: return share > 0.5 ? QColor(Qt::white) : QColor(Qt::black);
    case Qt::ToolTipRole:
        return tr("true %1, predicted %2: %3 (%4% of the class)")
            .arg(names_.value(t), names_.value(p))
            .arg(matrix_.at(t, p))
            .arg(share * 100, 0, 'f', 1);
    }
    return {};
}

QVariant ConfusionModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role == Qt::DisplayRole) return names_.value(section);
    if (role == Qt::ToolTipRole)
        return orientation == Qt::Vertical ? tr("true class %1").arg(names_.value(section))
                                           : tr("predicted as %1").arg(names_.value(section));
    return QAbstractTableModel::headerData(section, orientation, role);
}

}  // namespace lf::ui
