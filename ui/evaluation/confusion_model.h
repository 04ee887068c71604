#pragma once
// A confusion matrix as a heat-map table: rows are the true classes, columns the predicted
// ones, cells show counts and are coloured by the share of their row (recall on the diagonal).
#include <QAbstractTableModel>
#include <QStringList>

#include "layerforge/train/confusion.h"

namespace lf::ui {

class ConfusionModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int FractionRole = Qt::UserRole;  // the row-normalised share, 0..1

    explicit ConfusionModel(QObject* parent = nullptr);
    void setMatrix(ConfusionMatrix matrix, QStringList classNames);
    const ConfusionMatrix& matrix() const { return matrix_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    ConfusionMatrix matrix_;
    QStringList names_;
};

}  // namespace lf::ui
