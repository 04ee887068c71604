#pragma once
// The network report's per-layer costs as a table: layer, type, output shape, parameters,
// FLOPs, output memory, weight memory, training memory. SortRole gives the raw numbers.
#include "layerforge/graph/network_report.h"
#include "tables/row_table_model.h"

namespace lf::ui {

class LayerCostModel : public RowTableModel<LayerCost> {
    Q_OBJECT
public:
    enum Column { Layer, Type, Output, Params, Flops, Activations, Weights, Training, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int NodeRole = Qt::UserRole + 2;  // the node id

    explicit LayerCostModel(QObject* parent = nullptr) : RowTableModel(ColumnCount, parent) {}
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
};

}  // namespace lf::ui
