#pragma once
// The network report's per-layer costs as a table: layer, type, output shape, parameters,
// FLOPs, output memory, weight memory, training memory. SortRole gives the raw numbers.
#include <QAbstractTableModel>
#include <vector>

#include "layerforge/graph/network_report.h"

namespace lf::ui {

class LayerCostModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Layer, Type, Output, Params, Flops, Activations, Weights, Training, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int NodeRole = Qt::UserRole + 2;  // the node id

    using QAbstractTableModel::QAbstractTableModel;
    void setLayers(std::vector<LayerCost> layers);
    const LayerCost& layer(int row) const { return layers_[std::size_t(row)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<LayerCost> layers_;
};

}  // namespace lf::ui
