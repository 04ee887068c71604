#include "start/template_preview.h"

#include <QPainter>
#include <QPalette>
#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "canvas/node_item.h"
#include "canvas/theme.h"
#include "document/model_stats.h"
#include "layerforge/graph/analysis.h"

namespace lf::ui {

namespace {

constexpr double kCardHeight = 64;

QString categoryOf(const std::string& type) {
    const LayerSpec* spec = LayerRegistry::instance().find(type);
    return spec ? QString::fromStdString(spec->category) : QString();
}

// A long chain drawn at its canvas positions is a hairline at this size: it is folded into
// bands stacked under each other until its shape is close to the picture's.
std::vector<QPointF> foldedPositions(const Graph& graph, QSize size) {
    double x0 = graph.nodes[0].x, y0 = graph.nodes[0].y, x1 = x0, y1 = y0;
    for (const Node& n : graph.nodes) {
        x0 = std::min(x0, n.x), y0 = std::min(y0, n.y);
        x1 = std::max(x1, n.x + NodeItem::kWidth), y1 = std::max(y1, n.y + kCardHeight);
    }
    const double w = x1 - x0, h = y1 - y0, target = double(size.width()) / size.height();
    const int bands = std::max(1, int(std::lround(std::sqrt(w / h / target))));
    const double band = w / bands;
    std::vector<QPointF> at;
    for (const Node& n : graph.nodes) {
        const int k = std::min(bands - 1, int((n.x - x0) / band));
        at.emplace_back(n.x - x0 - k * band, n.y - y0 + k * h * 1.5);
    }
    return at;
}

}  // namespace

QImage graphPicture(const Graph& graph, QSize size) {
    QImage img(size, QImage::Format_ARGB32_Premultiplied);
    img.fill(QPalette().color(QPalette::Base));
    if (graph.nodes.empty()) return img;
    const std::vector<QPointF> at = foldedPositions(graph, size);
    double w = 0, h = 0;  // the folded positions start at (0, 0)
    for (const QPointF& p : at) w = std::max(w, p.x() + NodeItem::kWidth), h = std::max(h, p.y() + kCardHeight);
    const double margin = 6;
    const double scale = std::min((size.width() - 2 * margin) / w, (size.height() - 2 * margin) / h);
    const QPointF offset(margin + (size.width() - 2 * margin - w * scale) / 2,
                         margin + (size.height() - 2 * margin - h * scale) / 2);
    std::unordered_map<std::string, QRectF> cards;
    for (std::size_t i = 0; i < graph.nodes.size(); ++i)
        cards.emplace(graph.nodes[i].id, QRectF(offset + at[i] * scale, QSizeF(std::max(3.0, NodeItem::kWidth * scale),
                                                                               std::max(3.0, kCardHeight * scale))));
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(QPalette().color(QPalette::Mid), 1));
    for (const Edge& e : graph.edges) {
        auto from = cards.find(e.from.node), to = cards.find(e.to.node);
        if (from == cards.end() || to == cards.end()) continue;
        const QRectF &a = from->second, &b = to->second;
        p.drawLine(QPointF(a.right(), a.center().y()), QPointF(b.left(), b.center().y()));
    }
    p.setPen(Qt::NoPen);
    for (const Node& n : graph.nodes) {
        p.setBrush(theme::categoryColor(categoryOf(n.type)));
        p.drawRoundedRect(cards.at(n.id), 2, 2);
    }
    return img;
}

QString templateLine(const Project& project) {
    const Analysis a = analyze(project.graph);
    if (!a.ok()) return QString::fromStdString(a.error_report()).section('\n', 0, 0);
    QString input, output;
    if (a.inputs.size() == 1) input = QString::fromStdString(a.nodes.at(a.inputs[0]).layer.output.str());
    if (a.outputs.size() == 1) output = QString::number(a.nodes.at(a.outputs[0]).layer.output.elements());
    return QObject::tr("Input %1 · %2 layers · %3 parameters · %4 outputs")
        .arg(input)
        .arg(project.graph.nodes.size())
        .arg(formatCount(a.total_params), output);
}

}  // namespace lf::ui
