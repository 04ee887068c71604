#include "profile/layer_profile_model.h"

#include <unordered_map>

#include "document/model_stats.h"

namespace lf::ui {

namespace {

double ms(std::int64_t ns) { return double(ns) / 1e6; }

QString msText(double v) { return QString::number(v, 'f', v < 10 ? 3 : 1) + QStringLiteral(" ms"); }

// Three significant digits ("652 kB", "2.21 MB"): the card has room for about 24 characters.
QString shortBytes(qint64 bytes) {
    static const char* const units[] = {"B", "kB", "MB", "GB", "TB"};
    double v = double(bytes);
    int u = 0;
    for (; v >= 999.5 && u < 4; ++u) v /= 1000;
    return QString::number(v, 'f', u == 0 || v >= 99.95 ? 0 : v >= 9.995 ? 1 : 2) + ' ' + units[u];
}

}  // namespace

std::vector<LayerProfileRow> profileRows(const PlanProfile& profile, const Graph& graph) {
    std::unordered_map<std::string, const Node*> nodes;
    for (const Node& n : graph.nodes) nodes.emplace(n.id, &n);
    std::vector<LayerProfileRow> rows;
    double all = 0;
    for (const LayerProfile& p : profile) {
        if (p.forwards == 0) continue;  // runs nothing: an Input, a view, a folded layer
        LayerProfileRow r;
        r.node = QString::fromStdString(p.node);
        auto it = nodes.find(p.node);
        r.name = it == nodes.end() || it->second->name.empty() ? r.node : QString::fromStdString(it->second->name);
        r.type = it == nodes.end() ? QString() : QString::fromStdString(it->second->type);
        // Per pass over the timed passes; the total as if every pass had taken that long.
        const double forwards = double(p.timed_forwards ? p.timed_forwards : p.forwards);
        const double backwards = double(p.timed_backwards ? p.timed_backwards : p.backwards);
        r.forward_ms = ms(p.forward_ns) / forwards;
        r.backward_ms = backwards > 0 ? ms(p.backward_ns) / backwards : 0;
        r.total_ms = r.forward_ms * double(p.forwards) + r.backward_ms * double(p.backwards);
        r.bytes = qint64(p.bytes);
        all += r.total_ms;
        rows.push_back(std::move(r));
    }
    for (LayerProfileRow& r : rows) r.share = all > 0 ? r.total_ms / all : 0;
    return rows;
}

QString profileCardText(const LayerProfileRow& row) {
    return QObject::tr("%1+%2 ms · %3")
        .arg(row.forward_ms, 0, 'f', 2)
        .arg(row.backward_ms, 0, 'f', 2)
        .arg(shortBytes(row.bytes));
}

QVariant LayerProfileModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const LayerProfileRow& r = row(index.row());
    if (role == Qt::TextAlignmentRole && index.column() >= Forward)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != SortRole) return {};
    const bool sort = role == SortRole;
    switch (index.column()) {
    case Layer: return r.name;
    case Type: return r.type;
    case Forward: return sort ? QVariant(r.forward_ms) : QVariant(msText(r.forward_ms));
    case Backward: return sort ? QVariant(r.backward_ms) : QVariant(msText(r.backward_ms));
    case Total: return sort ? QVariant(r.total_ms) : QVariant(msText(r.total_ms));
    case Share: return sort ? QVariant(r.share) : QVariant(QString::number(r.share * 100, 'f', 1) + "%");
    case Memory: return sort ? QVariant(r.bytes) : QVariant(formatBytes(r.bytes));
    default: return {};
    }
}

QVariant LayerProfileModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Layer: return tr("Layer");
    case Type: return tr("Type");
    case Forward: return tr("Forward / step");
    case Backward: return tr("Backward / step");
    case Total: return tr("Total time");
    case Share: return tr("Share");
    case Memory: return tr("Memory");
    default: return {};
    }
}

}  // namespace lf::ui
