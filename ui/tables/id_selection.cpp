#include "tables/id_selection.h"

#include <QAbstractItemView>
#include <QItemSelectionModel>
#include <algorithm>

namespace lf::ui {

QList<qint64> selectedIds(const QAbstractItemView* view, int idRole) {
    QModelIndexList rows = view->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    QList<qint64> ids;
    for (const QModelIndex& i : rows) ids.append(i.data(idRole).toLongLong());
    return ids;
}

void selectIds(QAbstractItemView* view, const QList<qint64>& ids, int idRole) {
    const QAbstractItemModel* model = view->model();
    QItemSelection selection;
    for (int r = 0; r < model->rowCount(); ++r) {
        const QModelIndex i = model->index(r, 0);
        if (ids.contains(i.data(idRole).toLongLong())) selection.select(i, i);
    }
    view->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

}  // namespace lf::ui
