#include "canvas/canvas_scene.h"

#include <QGraphicsSceneMouseEvent>
#include <QPainter>
#include <cmath>
#include <set>

#include "canvas/connect_tool.h"
#include "canvas/edge_item.h"
#include "canvas/node_item.h"
#include "canvas/theme.h"
#include "document/connection_rules.h"
#include "document/move_nodes.h"

namespace lf::ui {

std::string edgeKey(const Edge& e) { return e.from.str() + ">" + e.to.str(); }

CanvasScene::CanvasScene(ProjectDocument* doc, QObject* parent)
    : QGraphicsScene(parent), doc_(doc), connectTool_(std::make_unique<ConnectTool>(this)) {
    setItemIndexMethod(QGraphicsScene::NoIndex);
    connect(doc_, &ProjectDocument::changed, this, &CanvasScene::onChanged);
    onChanged({DocumentChange::Reset, {}});
}

CanvasScene::~CanvasScene() = default;

NodeItem* CanvasScene::nodeItem(const std::string& id) const {
    auto it = nodes_.find(id);
    return it == nodes_.end() ? nullptr : it->second;
}

EdgeItem* CanvasScene::edgeItem(const Edge& edge) const {
    auto it = edges_.find(edgeKey(edge));
    return it == edges_.end() ? nullptr : it->second;
}

std::vector<std::string> CanvasScene::selectedNodeIds() const {
    std::vector<std::string> ids;
    for (const Node& n : doc_->graph().nodes)  // document order: stable copies and deletes
        if (NodeItem* item = nodeItem(n.id); item && item->isSelected()) ids.push_back(n.id);
    return ids;
}

std::vector<Edge> CanvasScene::selectedEdges() const {
    std::vector<Edge> out;
    for (QGraphicsItem* item : selectedItems())
        if (item->type() == EdgeItem::Type) out.push_back(static_cast<EdgeItem*>(item)->edge());
    return out;
}

void CanvasScene::selectNodes(const std::vector<std::string>& ids) {
    clearSelection();
    for (const std::string& id : ids)
        if (NodeItem* item = nodeItem(id)) item->setSelected(true);
}

QPointF CanvasScene::snap(QPointF p) const {
    if (!snap_ || syncing_) return p;
    return QPointF(std::round(p.x() / kGrid) * kGrid, std::round(p.y() / kGrid) * kGrid);
}

void CanvasScene::onChanged(const DocumentChange& change) {
    syncing_ = true;
    if (change.kind == DocumentChange::NodesMoved) {
        for (const QString& id : change.nodes)
            if (NodeItem* item = nodeItem(id.toStdString())) {
                const Node* n = doc_->graph().find(id.toStdString());
                item->setPos(n->x, n->y);
            }
    } else if (change.kind == DocumentChange::NodesEdited) {
        refreshLabels();  // same nodes and edges: only texts, badges and shapes change
    } else if (change.kind != DocumentChange::SettingsChanged) {
        syncNodes();
        syncEdges();
        refreshLabels();
    }
    // Room to scroll around the graph, however far it extends.
    setSceneRect(itemsBoundingRect().adjusted(-1500, -1000, 1500, 1000).united(QRectF(-1500, -1000, 3000, 2000)));
    syncing_ = false;
}

void CanvasScene::syncNodes() {
    std::set<std::string> live;
    for (const Node& n : doc_->graph().nodes) {
        live.insert(n.id);
        NodeItem*& item = nodes_[n.id];
        if (!item) {
            item = new NodeItem(n.id);
            addItem(item);
        }
        if (item->pos() != QPointF(n.x, n.y)) item->setPos(n.x, n.y);
    }
    for (auto it = nodes_.begin(); it != nodes_.end();) {
        if (live.count(it->first)) { ++it; continue; }
        delete it->second;
        it = nodes_.erase(it);
    }
}

void CanvasScene::syncEdges() {
    std::set<std::string> live;
    edgeOrder_.clear();
    for (const Edge& e : doc_->graph().edges) {
        std::string key = edgeKey(e);
        live.insert(key);
        EdgeItem*& item = edges_[key];
        if (!item) {
            item = new EdgeItem(e);
            addItem(item);
        }
        edgeOrder_.push_back(item);
    }
    for (auto it = edges_.begin(); it != edges_.end();) {
        if (live.count(it->first)) { ++it; continue; }
        delete it->second;
        it = edges_.erase(it);
    }
}

void CanvasScene::refreshLabels() {
    const Analysis& a = doc_->analysis();
    const Graph& g = doc_->graph();
    std::unordered_map<std::string, QString> errors;
    for (const Diagnostic& d : a.diagnostics) {
        if (d.node.empty() || d.severity != Severity::Error) continue;
        QString& text = errors[d.node];
        if (!text.isEmpty()) text += "\n";
        text += (d.field.empty() || d.field == "inputs" ? QString() : QString::fromStdString(d.field) + ": ") +
                QString::fromStdString(d.message);
    }
    std::unordered_map<std::string, int> ports;
    for (const Edge& e : g.edges) ports[e.to.node] = std::max(ports[e.to.node], e.to.port + 1);
    for (const Node& n : g.nodes) {
        auto info = a.nodes.find(n.id);
        const NodeInfo* ni = info == a.nodes.end() ? nullptr : &info->second;
        const LayerSpec* spec = ni ? ni->spec : nullptr;
        int visible = visibleInputPorts(spec, ports[n.id]);
        nodes_[n.id]->setContent(n, ni, spec ? QString::fromStdString(spec->category) : QString(), visible,
                                 errors[n.id]);
    }
    std::unordered_map<std::string, QString> shapes;  // per producer: edges leaving one node share it
    for (std::size_t i = 0; i < g.edges.size(); ++i) {
        const Edge& e = g.edges[i];
        EdgeItem* item = edgeOrder_[i];
        auto [label, fresh] = shapes.try_emplace(e.from.node);
        if (fresh) {
            auto info = a.nodes.find(e.from.node);
            bool shaped = info != a.nodes.end() && info->second.shaped;
            label->second = shaped ? QString::fromStdString(info->second.layer.output.str()) : QStringLiteral("?");
        }
        item->setLabel(label->second);
        NodeItem* from = nodeItem(e.from.node);
        NodeItem* to = nodeItem(e.to.node);
        if (from && to) item->setEnds(from->outputPortPos(), to->inputPortPos(e.to.port));
    }
}

void CanvasScene::placeEdges(const std::string& nodeId) {
    for (const Edge& e : doc_->graph().edges) {
        if (e.from.node != nodeId && e.to.node != nodeId) continue;
        NodeItem* from = nodeItem(e.from.node);
        NodeItem* to = nodeItem(e.to.node);
        EdgeItem* item = edgeItem(e);
        if (from && to && item) item->setEnds(from->outputPortPos(), to->inputPortPos(e.to.port));
    }
}

void CanvasScene::nodeItemMoved(NodeItem* item) { placeEdges(item->id()); }

void CanvasScene::commitMoves() {
    MoveNodesCommand::Positions moved;
    for (const Node& n : doc_->graph().nodes) {
        NodeItem* item = nodeItem(n.id);
        if (item && item->pos() != QPointF(n.x, n.y)) moved[n.id] = item->pos();
    }
    if (moved.empty()) return;
    QString text = tr("Move %n layer(s)", nullptr, int(moved.size()));
    doc_->push(new MoveNodesCommand(doc_, std::move(moved), text));
}

void CanvasScene::mousePressEvent(QGraphicsSceneMouseEvent* event) {
    if (event->button() == Qt::LeftButton && connectTool_->press(event->scenePos())) {
        event->accept();
        return;
    }
    QGraphicsScene::mousePressEvent(event);
}

void CanvasScene::mouseMoveEvent(QGraphicsSceneMouseEvent* event) {
    if (connectTool_->active()) {
        connectTool_->move(event->scenePos());
        return;
    }
    QGraphicsScene::mouseMoveEvent(event);
}

void CanvasScene::mouseReleaseEvent(QGraphicsSceneMouseEvent* event) {
    if (connectTool_->active()) {
        connectTool_->release(event->scenePos());
        return;
    }
    QGraphicsScene::mouseReleaseEvent(event);
    if (event->button() == Qt::LeftButton) commitMoves();
}

void CanvasScene::drawBackground(QPainter* painter, const QRectF& rect) {
    const QPalette pal = palette();
    painter->fillRect(rect, theme::canvasBackground(pal));
    const double step = kGrid * 2;
    if (painter->worldTransform().m11() < 0.4) return;  // zoomed far out: no grid
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, false);
    painter->setPen(QPen(theme::gridColor(pal), 0));
    QVector<QLineF> lines;
    for (double x = std::floor(rect.left() / step) * step; x < rect.right(); x += step)
        lines.append(QLineF(x, rect.top(), x, rect.bottom()));
    for (double y = std::floor(rect.top() / step) * step; y < rect.bottom(); y += step)
        lines.append(QLineF(rect.left(), y, rect.right(), y));
    painter->drawLines(lines);
    painter->restore();
}

}  // namespace lf::ui
