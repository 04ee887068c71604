#pragma once
// The run store's checkpoints as a table: Run, Step, Epoch, one column per metric any
// checkpoint reports, Created, Size, Pinned, Best. Display text is formatted; SortRole gives
// the raw number (or text) so a QSortFilterProxyModel sorts numerically.
#include <QAbstractTableModel>
#include <QStringList>
#include <vector>

#include "checkpoints/store_snapshot.h"

namespace lf::ui {

class CheckpointTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int SortRole = Qt::UserRole;
    static constexpr int IdRole = Qt::UserRole + 1;  // the checkpoint id (qint64) of any cell

    explicit CheckpointTableModel(QObject* parent = nullptr);

    void setCheckpoints(std::vector<CheckpointRow> rows);
    const std::vector<CheckpointRow>& checkpoints() const { return rows_; }
    const CheckpointRow* find(qint64 id) const;
    QStringList metricNames() const { return metrics_; }
    int columnOf(const QString& header) const;  // -1 when absent

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    enum Fixed { Run, Step, Epoch, FixedBefore };  // then the metrics, then Created, Size, Pinned, Best
    QVariant cell(const CheckpointRow& row, int column, bool forSort) const;

    std::vector<CheckpointRow> rows_;
    QStringList metrics_;
};

}  // namespace lf::ui
