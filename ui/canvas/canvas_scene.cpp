#include "canvas/canvas_scene.h"

#include <QGraphicsSceneMouseEvent>
#include <QLocale>
#include <QPainter>
#include <cmath>
#include <set>
#include <unordered_set>

#include "canvas/connect_tool.h"
#include "canvas/edge_item.h"
#include "canvas/group_item.h"
#include "canvas/node_item.h"
#include "canvas/theme.h"
#include "document/change_groups.h"
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

GroupItem* CanvasScene::groupItem(const std::string& id) const {
    auto it = groups_.find(id);
    return it == groups_.end() ? nullptr : it->second;
}

std::vector<std::string> CanvasScene::selectedGroupIds() const {
    std::vector<std::string> ids;
    for (const NodeGroup& g : doc_->graph().groups) {
        bool selected = groupItem(g.id) && groupItem(g.id)->isSelected();
        for (const std::string& n : g.nodes)
            if (NodeItem* item = nodeItem(n); item && item->isSelected()) selected = true;
        if (selected) ids.push_back(g.id);
    }
    return ids;
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
        syncGroups();  // frames follow their layers
    } else if (change.kind == DocumentChange::GroupsChanged) {
        syncGroups();
    } else if (change.kind == DocumentChange::NodesEdited) {
        // Same nodes and edges: only the edited cards and those the analysis changed.
        std::vector<std::string> ids = change.reanalysed;
        for (const QString& id : change.nodes) ids.push_back(id.toStdString());
        refreshLabels(ids);
    } else if (change.kind != DocumentChange::SettingsChanged) {
        syncNodes();
        syncEdges();
        refreshLabels();
        syncGroups();
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
    leaving_.clear();
    usedPorts_.clear();
    for (const Edge& e : doc_->graph().edges) {
        std::string key = edgeKey(e);
        live.insert(key);
        EdgeItem*& item = edges_[key];
        if (!item) {
            item = new EdgeItem(e);
            addItem(item);
        }
        edgeOrder_.push_back(item);
        leaving_[e.from.node].push_back(item);
        usedPorts_[e.to.node] = std::max(usedPorts_[e.to.node], e.to.port + 1);
    }
    for (auto it = edges_.begin(); it != edges_.end();) {
        if (live.count(it->first)) { ++it; continue; }
        delete it->second;
        it = edges_.erase(it);
    }
}

namespace {

// Error diagnostics of `nodes` (all nodes when null), one text per node for the badge.
std::unordered_map<std::string, QString> errorTexts(const Analysis& a, const std::unordered_set<std::string>* nodes) {
    std::unordered_map<std::string, QString> errors;
    for (const Diagnostic& d : a.diagnostics) {
        if (d.node.empty() || d.severity != Severity::Error || (nodes && !nodes->count(d.node))) continue;
        QString& text = errors[d.node];
        if (!text.isEmpty()) text += "\n";
        text += (d.field.empty() || d.field == "inputs" ? QString() : QString::fromStdString(d.field) + ": ") +
                QString::fromStdString(d.message);
    }
    return errors;
}

}  // namespace

void CanvasScene::refreshNode(const Node& n, const QString& error) {
    const Analysis& a = doc_->analysis();
    auto info = a.nodes.find(n.id);
    const NodeInfo* ni = info == a.nodes.end() ? nullptr : &info->second;
    const LayerSpec* spec = ni ? ni->spec : nullptr;
    nodes_[n.id]->setContent(n, ni, spec ? QString::fromStdString(spec->category) : QString(),
                             visibleInputPorts(spec, usedPorts_[n.id]), error);
}

// Edges leaving one node share its output shape.
void CanvasScene::refreshEdges(const std::string& from, const std::vector<EdgeItem*>& edges) {
    const Analysis& a = doc_->analysis();
    auto info = a.nodes.find(from);
    bool shaped = info != a.nodes.end() && info->second.shaped;
    const QString label = shaped ? QString::fromStdString(info->second.layer.output.str()) : QStringLiteral("?");
    for (EdgeItem* item : edges) item->setLabel(label);
}

void CanvasScene::refreshLabels() {
    const Graph& g = doc_->graph();
    auto errors = errorTexts(doc_->analysis(), nullptr);
    for (const Node& n : g.nodes) refreshNode(n, errors[n.id]);
    for (const auto& [from, edges] : leaving_) refreshEdges(from, edges);
    for (std::size_t i = 0; i < g.edges.size(); ++i) placeEdge(g.edges[i], edgeOrder_[i]);
}

void CanvasScene::refreshLabels(const std::vector<std::string>& ids) {
    const std::unordered_set<std::string> only(ids.begin(), ids.end());
    auto errors = errorTexts(doc_->analysis(), &only);
    for (const Node& n : doc_->graph().nodes) {
        if (!only.count(n.id)) continue;
        refreshNode(n, errors[n.id]);
        if (auto it = leaving_.find(n.id); it != leaving_.end()) refreshEdges(n.id, it->second);
    }
}

void CanvasScene::placeEdge(const Edge& e, EdgeItem* item) {
    NodeItem* from = nodeItem(e.from.node);
    NodeItem* to = nodeItem(e.to.node);
    if (!from || !to || !item) return;
    auto route = routes_.find(edgeKey(e));
    const Route r = route == routes_.end() ? Route{} : route->second;
    item->setEnds(r.from ? r.from->outputPortPos(r.fromSlot) : from->outputPortPos(),
                  r.to ? r.to->inputPortPos(r.toSlot) : to->inputPortPos(e.to.port));
}

void CanvasScene::placeEdges(const std::string& nodeId) {
    for (const Edge& e : doc_->graph().edges)
        if (e.from.node == nodeId || e.to.node == nodeId) placeEdge(e, edgeItem(e));
}

void CanvasScene::nodeItemMoved(NodeItem* item) {
    placeEdges(item->id());
    if (!syncing_ && doc_->graph().group_of(item->id())) syncGroups();  // the frame follows a dragged layer
}

void CanvasScene::syncGroups() {
    const Graph& g = doc_->graph();
    if (g.groups.empty() && groups_.empty()) return;  // nothing hidden, nothing rerouted
    const Analysis& a = doc_->analysis();
    struct Card {
        const NodeGroup* group;
        QRectF bounds;            // the layers', in scene coordinates
        std::int64_t params = 0;
        int inputs = 0;                      // outside edges coming in
        std::map<std::string, int> outputs;  // inside layers feeding out -> output slot
    };
    std::map<GroupItem*, Card> cards;
    std::unordered_map<std::string, GroupItem*> collapsedOf;  // node id -> card of its collapsed group
    for (const NodeGroup& group : g.groups) {
        GroupItem*& item = groups_[group.id];
        if (!item) addItem(item = new GroupItem(group.id));
        Card& card = cards[item] = Card{&group};
        for (const std::string& id : group.nodes)
            if (NodeItem* n = nodeItem(id)) {
                card.bounds = card.bounds.isNull() ? n->sceneBoundingRect() : card.bounds.united(n->sceneBoundingRect());
                if (group.collapsed) collapsedOf[id] = item;
                if (auto info = a.nodes.find(id); info != a.nodes.end()) card.params += info->second.param_count;
            }
    }
    for (auto it = groups_.begin(); it != groups_.end();) {
        if (cards.count(it->second)) { ++it; continue; }
        delete it->second;
        it = groups_.erase(it);
    }
    for (const auto& [id, item] : nodes_) item->setVisible(!collapsedOf.count(id));
    routes_.clear();
    for (std::size_t i = 0; i < g.edges.size(); ++i) {
        const Edge& e = g.edges[i];
        auto from = collapsedOf.find(e.from.node), to = collapsedOf.find(e.to.node);
        GroupItem* fromCard = from == collapsedOf.end() ? nullptr : from->second;
        GroupItem* toCard = to == collapsedOf.end() ? nullptr : to->second;
        edgeOrder_[i]->setVisible(!fromCard || fromCard != toCard);  // hidden inside one collapsed group
        if (fromCard == toCard) continue;
        Route& r = routes_[edgeKey(e)];
        if (fromCard) {
            auto& outs = cards[fromCard].outputs;
            r.from = fromCard;
            r.fromSlot = outs.emplace(e.from.node, int(outs.size())).first->second;
        }
        if (toCard) {
            r.to = toCard;
            r.toSlot = cards[toCard].inputs++;
        }
    }
    for (const auto& [item, card] : cards) {
        const QString detail = tr("%n layer(s), %1 params", nullptr, int(card.group->nodes.size()))
                                   .arg(QLocale().toString(qlonglong(card.params)));
        item->setContent(QString::fromStdString(card.group->name), detail, card.group->collapsed, card.bounds,
                         card.inputs, int(card.outputs.size()));
    }
    for (std::size_t i = 0; i < g.edges.size(); ++i) placeEdge(g.edges[i], edgeOrder_[i]);
}

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
    for (const auto& [id, group] : groups_)
        if (event->button() == Qt::LeftButton && group->isVisible() && group->toggleAt(event->scenePos())) {
            if (auto* command = setCollapsedCommand(doc_, id, !group->collapsed())) doc_->push(command);
            event->accept();
            return;
        }
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
