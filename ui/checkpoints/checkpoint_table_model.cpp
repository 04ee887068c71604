#include "checkpoints/checkpoint_table_model.h"

#include "document/model_stats.h"

namespace lf::ui {

namespace {

enum Trailing { Created, Size, Pinned, Best, TrailingCount };

}  // namespace

CheckpointTableModel::CheckpointTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void CheckpointTableModel::setCheckpoints(std::vector<CheckpointRow> rows) {
    beginResetModel();
    rows_ = std::move(rows);
    metrics_.clear();
    for (const CheckpointRow& r : rows_)
        for (const auto& [name, value] : r.metrics)
            if (!metrics_.contains(name)) metrics_.append(name);
    metrics_.sort();
    endResetModel();
}

const CheckpointRow* CheckpointTableModel::find(qint64 id) const {
    for (const CheckpointRow& r : rows_)
        if (r.info.id == id) return &r;
    return nullptr;
}

int CheckpointTableModel::columnOf(const QString& header) const {
    for (int c = 0; c < columnCount(); ++c)
        if (headerData(c, Qt::Horizontal).toString() == header) return c;
    return -1;
}

int CheckpointTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(rows_.size()); }

int CheckpointTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : FixedBefore + int(metrics_.size()) + TrailingCount;
}

QVariant CheckpointTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
    if (section == Run) return tr("Run");
    if (section == Step) return tr("Step");
    if (section == Epoch) return tr("Epoch");
    if (section < FixedBefore + metrics_.size()) return metrics_[section - FixedBefore];
    switch (section - FixedBefore - int(metrics_.size())) {
    case Created: return tr("Created");
    case Size: return tr("Size");
    case Pinned: return tr("Pinned");
    case Best: return tr("Best");
    }
    return {};
}

QVariant CheckpointTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const CheckpointRow& row = rows_[std::size_t(index.row())];
    if (role == IdRole) return qint64(row.info.id);
    if (role == SortRole) return cell(row, index.column(), true);
    if (role == Qt::DisplayRole) return cell(row, index.column(), false);
    if (role == Qt::TextAlignmentRole && index.column() != Run) return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) return QString::fromStdString(row.info.metrics);
    return {};
}

QVariant CheckpointTableModel::cell(const CheckpointRow& row, int column, bool forSort) const {
    const CheckpointInfo& c = row.info;
    if (column == Run) return forSort ? QVariant(qint64(c.run)) : QVariant(QString("#%1 %2").arg(c.run).arg(row.runName));
    if (column == Step) return qint64(c.step);
    if (column == Epoch) return qint64(c.epoch);
    if (column < FixedBefore + metrics_.size()) {
        const QString& name = metrics_[column - FixedBefore];
        for (const auto& [metric, value] : row.metrics)
            if (metric == name) return forSort ? QVariant(value) : QVariant(QString::number(value, 'g', 5));
        return forSort ? QVariant(-qInf()) : QVariant(QString());  // missing sorts first
    }
    switch (column - FixedBefore - int(metrics_.size())) {
    case Created:
        return forSort ? QVariant(row.created) : QVariant(row.created.toLocalTime().toString("yyyy-MM-dd HH:mm:ss"));
    case Size: return forSort ? QVariant(qint64(c.bytes)) : QVariant(formatBytes(c.bytes));
    case Pinned: return forSort ? QVariant(c.pinned) : QVariant(c.pinned ? tr("pinned") : QString());
    case Best: return forSort ? QVariant(row.best) : QVariant(row.best ? tr("best") : QString());
    }
    return {};
}

}  // namespace lf::ui
