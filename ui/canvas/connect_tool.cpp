#include "canvas/connect_tool.h"

#include <QGraphicsPathItem>
#include <QGraphicsSimpleTextItem>
#include <QPen>

#include "canvas/canvas_scene.h"
#include "canvas/edge_item.h"
#include "canvas/node_item.h"
#include "canvas/theme.h"
#include "document/connect_ports.h"
#include "document/connection_rules.h"

namespace lf::ui {

ConnectTool::ConnectTool(CanvasScene* scene) : scene_(scene) {}
ConnectTool::~ConnectTool() = default;

bool ConnectTool::press(QPointF scenePos) {
    for (QGraphicsItem* item : scene_->items(scenePos, Qt::IntersectsItemBoundingRect)) {
        if (item->type() != NodeItem::Type) continue;
        auto* node = static_cast<NodeItem*>(item);
        auto hit = node->portAt(scenePos);
        if (!hit || !hit->output) continue;
        from_ = node->id();
        preview_ = scene_->addPath(EdgeItem::curve(node->outputPortPos(), scenePos));
        preview_->setZValue(3);
        reason_ = scene_->addSimpleText(QString());
        reason_->setZValue(4);
        reason_->setBrush(theme::errorColor());
        move(scenePos);
        return true;
    }
    return false;
}

std::optional<Edge> ConnectTool::targetAt(QPointF scenePos) const {
    for (QGraphicsItem* item : scene_->items(scenePos, Qt::IntersectsItemBoundingRect)) {
        if (item->type() != NodeItem::Type) continue;
        auto* node = static_cast<NodeItem*>(item);
        if (node->id() == from_ && !node->portAt(scenePos)) continue;
        int port = 0;
        if (auto hit = node->portAt(scenePos); hit && !hit->output) {
            port = hit->port;
        } else {  // over the card: the first free input port
            const auto& edges = scene_->document()->graph().edges;
            auto used = [&](int p) {
                for (const Edge& e : edges)
                    if (e.to.node == node->id() && e.to.port == p) return true;
                return false;
            };
            while (port + 1 < node->inputPortCount() && used(port)) ++port;
        }
        return Edge{{from_, 0}, {node->id(), port}};
    }
    return std::nullopt;
}

void ConnectTool::move(QPointF scenePos) {
    NodeItem* source = scene_->nodeItem(from_);
    if (!source) return finish();
    std::optional<Edge> target = targetAt(scenePos);
    if (target && target != checked_) {
        checked_ = target;
        problem_ = connectionProblem(*scene_->document(), *target);
    }
    QPointF end = scenePos;
    QColor color = theme::edgeColor(scene_->palette());
    QString reason;
    if (target) {
        if (NodeItem* to = scene_->nodeItem(target->to.node)) end = to->inputPortPos(target->to.port);
        color = problem_.isEmpty() ? theme::okColor() : theme::errorColor();
        reason = problem_;
    }
    preview_->setPath(EdgeItem::curve(source->outputPortPos(), end));
    preview_->setPen(QPen(color, 2.2, target ? Qt::SolidLine : Qt::DashLine));
    reason_->setText(reason);
    reason_->setPos(scenePos + QPointF(14, 10));
    if (!reason.isEmpty()) Q_EMIT scene_->statusMessage(reason);
}

void ConnectTool::release(QPointF scenePos) {
    move(scenePos);
    std::optional<Edge> target = active() ? targetAt(scenePos) : std::nullopt;
    if (target && problem_.isEmpty()) {
        ProjectDocument* doc = scene_->document();
        finish();
        doc->push(new ConnectPortsCommand(doc, *target));
        Q_EMIT scene_->statusMessage(QObject::tr("Connected."));  // replaces a refusal shown while dragging
        return;
    }
    if (target) Q_EMIT scene_->statusMessage(QObject::tr("Not connected: %1").arg(problem_));
    finish();
}

void ConnectTool::finish() {
    delete preview_;
    delete reason_;
    preview_ = nullptr;
    reason_ = nullptr;
    from_.clear();
    checked_.reset();
    problem_.clear();
}

}  // namespace lf::ui
