#pragma once
// The port-to-port drag: press on an output port, drag to an input port (or onto a layer),
// release to connect. While dragging, the preview turns red and shows the reason when the
// connection would make a cycle or join incompatible shapes; such a drop is refused.
#include <optional>
#include <string>

#include <QPointF>
#include <QString>

#include "layerforge/graph/graph.h"

class QGraphicsPathItem;
class QGraphicsSimpleTextItem;

namespace lf::ui {

class CanvasScene;

class ConnectTool {
public:
    explicit ConnectTool(CanvasScene* scene);
    ~ConnectTool();
    bool press(QPointF scenePos);  // true when the press starts a connection
    void move(QPointF scenePos);
    void release(QPointF scenePos);
    bool active() const { return !from_.empty(); }

private:
    std::optional<Edge> targetAt(QPointF scenePos) const;
    void finish();

    CanvasScene* scene_;
    std::string from_;
    QGraphicsPathItem* preview_ = nullptr;
    QGraphicsSimpleTextItem* reason_ = nullptr;
    std::optional<Edge> checked_;  // last checked candidate and its problem (checks are cached)
    QString problem_;
};

}  // namespace lf::ui
