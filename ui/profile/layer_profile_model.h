#pragma once
// A training plan's profile (Plan::profile) as a table: layer, type, forward and backward time
// per step, total time, its share of the step, memory. Steps that run nothing (Input, views,
// layers folded into the one before) are left out. SortRole gives the raw numbers.
#include <QString>
#include <vector>

#include "layerforge/backend/plan.h"
#include "layerforge/graph/graph.h"
#include "tables/row_table_model.h"

namespace lf::ui {

struct LayerProfileRow {
    QString node, name, type;
    double forward_ms = 0, backward_ms = 0;  // per step (pass)
    double total_ms = 0;                     // over the whole run so far
    double share = 0;                        // of all layers' total time, 0..1
    qint64 bytes = 0;
};

// Rows for the steps that ran a kernel; names and types from `graph` (the node id when absent).
std::vector<LayerProfileRow> profileRows(const PlanProfile& profile, const Graph& graph);
// The card line: "0.12+0.30 ms · 1.21 MB" (forward + backward per step, memory).
QString profileCardText(const LayerProfileRow& row);

class LayerProfileModel : public RowTableModel<LayerProfileRow> {
    Q_OBJECT
public:
    enum Column { Layer, Type, Forward, Backward, Total, Share, Memory, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit LayerProfileModel(QObject* parent = nullptr) : RowTableModel(ColumnCount, parent) {}
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
};

}  // namespace lf::ui
