#include "analysis/layer_cost_model.h"

#include "document/model_stats.h"

namespace lf::ui {

QVariant LayerCostModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const LayerCost& l = row(index.row());
    if (role == NodeRole) return QString::fromStdString(l.node);
    if (role == Qt::TextAlignmentRole && index.column() >= Params)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != SortRole) return {};
    const bool sort = role == SortRole;
    auto number = [&](std::int64_t v, QString (*format)(std::int64_t)) {
        if (!l.shaped) return sort ? QVariant(qlonglong(-1)) : QVariant(QStringLiteral("?"));
        return sort ? QVariant(qlonglong(v)) : QVariant(format(v));
    };
    switch (index.column()) {
    case Layer: return QString::fromStdString(l.name);
    case Type: return QString::fromStdString(l.type);
    case Output: return l.shaped ? QString::fromStdString(l.output.str()) : QStringLiteral("?");
    case Params: return number(l.params, formatCount);
    case Flops: return number(l.flops, formatCount);
    case Activations: return number(l.activation_bytes, formatBytes);
    case Weights: return number(l.weight_bytes, formatBytes);
    case Training: return number(l.training_bytes, formatBytes);
    default: return {};
    }
}

QVariant LayerCostModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Layer: return tr("Layer");
    case Type: return tr("Type");
    case Output: return tr("Output");
    case Params: return tr("Parameters");
    case Flops: return tr("FLOPs / sample");
    case Activations: return tr("Output memory");
    case Weights: return tr("Weight memory");
    case Training: return tr("Training memory");
    default: return {};
    }
}

}  // namespace lf::ui
