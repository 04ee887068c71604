#pragma once
// The part every read-only table of rows shares: a vector of plain rows replaced at once, and
// the row and column counts. Subclasses say what each cell shows (data, headerData).
#include <QAbstractTableModel>
#include <vector>

namespace lf::ui {

template <class Row>
class RowTableModel : public QAbstractTableModel {
public:
    RowTableModel(int columns, QObject* parent) : QAbstractTableModel(parent), columns_(columns) {}

    void setRows(std::vector<Row> rows) {
        beginResetModel();
        rows_ = std::move(rows);
        endResetModel();
    }
    const std::vector<Row>& rows() const { return rows_; }
    const Row& row(int r) const { return rows_[std::size_t(r)]; }

    int rowCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : int(rows_.size()); }
    int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : columns_; }

private:
    int columns_;
    std::vector<Row> rows_;
};

}  // namespace lf::ui
