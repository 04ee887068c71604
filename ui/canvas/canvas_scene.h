#pragma once
// The canvas scene mirrors a ProjectDocument: it listens to the document's change signal and
// keeps id -> item maps for nodes and edges. Mouse gestures are handled by tool objects; the
// scene only turns finished gestures (a move, a connection) into undo commands.
#include <map>
#include <memory>
#include <unordered_map>

#include <QGraphicsScene>

#include "document/project_document.h"

namespace lf::ui {

class NodeItem;
class EdgeItem;
class GroupItem;
class ConnectTool;

class CanvasScene : public QGraphicsScene {
    Q_OBJECT
public:
    static constexpr double kGrid = 20;

    explicit CanvasScene(ProjectDocument* doc, QObject* parent = nullptr);
    ~CanvasScene() override;
    ProjectDocument* document() const { return doc_; }

    NodeItem* nodeItem(const std::string& id) const;
    EdgeItem* edgeItem(const Edge& edge) const;
    GroupItem* groupItem(const std::string& id) const;
    std::vector<std::string> selectedGroupIds() const;  // groups of the selected layers
    std::size_t edgeCount() const { return edges_.size(); }
    std::vector<std::string> selectedNodeIds() const;
    std::vector<Edge> selectedEdges() const;
    void selectNodes(const std::vector<std::string>& ids);

    bool snapToGrid() const { return snap_; }
    void setSnapToGrid(bool on) { snap_ = on; }
    QPointF snap(QPointF p) const;

    void nodeItemMoved(NodeItem* item);  // called by NodeItem while dragged: edges follow

Q_SIGNALS:
    void statusMessage(const QString& message);

protected:
    void mousePressEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseMoveEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseReleaseEvent(QGraphicsSceneMouseEvent* event) override;
    void drawBackground(QPainter* painter, const QRectF& rect) override;

private:
    void onChanged(const DocumentChange& change);
    void syncNodes();
    void syncEdges();
    void syncGroups();  // frames and cards; hides what collapsed groups hold and reroutes edges
    void placeEdge(const Edge& e, EdgeItem* item);
    void refreshLabels();                                    // every card and edge label
    void refreshLabels(const std::vector<std::string>& ids);  // these cards and the labels leaving them
    void refreshNode(const Node& n, const QString& error);
    void refreshEdges(const std::string& from, const std::vector<EdgeItem*>& edges);
    void placeEdges(const std::string& nodeId);
    void commitMoves();

    ProjectDocument* doc_;
    std::unordered_map<std::string, NodeItem*> nodes_;
    std::map<std::string, EdgeItem*> edges_;  // key: "from:port>to:port"
    std::vector<EdgeItem*> edgeOrder_;         // edges_ in the document's edge order (set by syncEdges)
    std::unordered_map<std::string, std::vector<EdgeItem*>> leaving_;  // by producer id (set by syncEdges)
    std::unordered_map<std::string, int> usedPorts_;  // by consumer id: highest connected input port + 1
    std::unordered_map<std::string, GroupItem*> groups_;
    // An edge with an end inside a collapsed group starts or ends at a port of its card.
    struct Route {
        GroupItem *from = nullptr, *to = nullptr;
        int fromSlot = 0, toSlot = 0;
    };
    std::unordered_map<std::string, Route> routes_;  // by edgeKey
    std::unique_ptr<ConnectTool> connectTool_;
    bool snap_ = true;
    bool syncing_ = false;
};

std::string edgeKey(const Edge& e);

}  // namespace lf::ui
