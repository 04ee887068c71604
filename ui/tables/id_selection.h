#pragma once
// A table's selection by the ids its rows carry (an id role), not by row number: the
// checkpoint browser and the runs explorer keep what the user selected across the model resets
// of a refresh this way.
#include <QList>

class QAbstractItemView;

namespace lf::ui {

// The selected rows' ids, top to bottom as the view shows them.
QList<qint64> selectedIds(const QAbstractItemView* view, int idRole);
// Selects exactly the rows whose id is in `ids` (whole rows), as one selection change.
void selectIds(QAbstractItemView* view, const QList<qint64>& ids, int idRole);

}  // namespace lf::ui
