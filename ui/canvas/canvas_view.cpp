#include "canvas/canvas_view.h"

#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QScrollBar>
#include <QWheelEvent>

#include "canvas/canvas_scene.h"
#include "canvas/fine_tune_operations.h"
#include "canvas/node_item.h"
#include "document/add_nodes.h"
#include "document/fragment.h"
#include "document/move_nodes.h"

namespace lf::ui {

CanvasView::CanvasView(CanvasScene* scene, QWidget* parent) : QGraphicsView(scene, parent), canvas_(scene) {
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(QGraphicsView::RubberBandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setOptimizationFlags(QGraphicsView::DontAdjustForAntialiasing);
    setAcceptDrops(true);
    setFocusPolicy(Qt::StrongFocus);
    setToolTip(QString());
}

void CanvasView::scaleBy(double factor) {
    double z = zoom() * factor;
    if (z < 0.1 || z > 4) return;
    scale(factor, factor);
}

void CanvasView::zoomIn() { scaleBy(1.25); }
void CanvasView::zoomOut() { scaleBy(1 / 1.25); }
void CanvasView::resetZoom() { setTransform(QTransform()); }

void CanvasView::fitToView() {
    QRectF bounds = canvas_->itemsBoundingRect();
    if (bounds.isEmpty()) return resetZoom();
    fitInView(bounds.adjusted(-kFitMargin, -kFitMargin, kFitMargin, kFitMargin), Qt::KeepAspectRatio);
    if (zoom() > kMaxFitZoom) resetZoom(), centerOn(bounds.center());
}

void CanvasView::wheelEvent(QWheelEvent* event) {
    if (event->modifiers() & Qt::ShiftModifier) return QGraphicsView::wheelEvent(event);
    scaleBy(std::pow(1.0015, event->angleDelta().y()));
    event->accept();
}

void CanvasView::mousePressEvent(QMouseEvent* event) {
    bool pan = event->button() == Qt::MiddleButton ||
               (event->button() == Qt::LeftButton && event->modifiers() & Qt::AltModifier);
    if (!pan) return QGraphicsView::mousePressEvent(event);
    panning_ = true;
    panFrom_ = event->position().toPoint();
    viewport()->setCursor(Qt::ClosedHandCursor);
    event->accept();
}

void CanvasView::mouseMoveEvent(QMouseEvent* event) {
    if (!panning_) return QGraphicsView::mouseMoveEvent(event);
    QPoint d = event->position().toPoint() - panFrom_;
    panFrom_ = event->position().toPoint();
    horizontalScrollBar()->setValue(horizontalScrollBar()->value() - d.x());
    verticalScrollBar()->setValue(verticalScrollBar()->value() - d.y());
}

void CanvasView::mouseReleaseEvent(QMouseEvent* event) {
    if (!panning_) return QGraphicsView::mouseReleaseEvent(event);
    panning_ = false;
    viewport()->unsetCursor();
}

void CanvasView::nudge(QPointF delta) {
    ProjectDocument* doc = canvas_->document();
    MoveNodesCommand::Positions to;
    for (const std::string& id : canvas_->selectedNodeIds()) {
        const Node* n = doc->graph().find(id);
        to[id] = QPointF(n->x, n->y) + delta;
    }
    if (!to.empty()) doc->push(new MoveNodesCommand(doc, std::move(to), tr("Move")));
}

void CanvasView::keyPressEvent(QKeyEvent* event) {
    const double step = event->modifiers() & Qt::ShiftModifier ? CanvasScene::kGrid * 5 : CanvasScene::kGrid;
    switch (event->key()) {
    case Qt::Key_Left: return nudge({-step, 0});
    case Qt::Key_Right: return nudge({step, 0});
    case Qt::Key_Up: return nudge({0, -step});
    case Qt::Key_Down: return nudge({0, step});
    default: QGraphicsView::keyPressEvent(event);
    }
}

void CanvasView::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasFormat(kLayerMimeType)) event->acceptProposedAction();
    else QGraphicsView::dragEnterEvent(event);
}

void CanvasView::dragMoveEvent(QDragMoveEvent* event) {
    if (event->mimeData()->hasFormat(kLayerMimeType)) event->acceptProposedAction();
    else QGraphicsView::dragMoveEvent(event);
}

void CanvasView::dropEvent(QDropEvent* event) {
    if (!event->mimeData()->hasFormat(kLayerMimeType)) return QGraphicsView::dropEvent(event);
    std::string type = QString::fromUtf8(event->mimeData()->data(kLayerMimeType)).toStdString();
    if (!LayerRegistry::instance().find(type)) return event->ignore();
    ProjectDocument* doc = canvas_->document();
    QPointF at = canvas_->snap(mapToScene(event->position().toPoint()) - QPointF(NodeItem::kWidth / 2, 20));
    Graph fragment;
    fragment.nodes.push_back(newLayerNode(*doc, type, at));
    doc->push(new AddNodesCommand(doc, fragment, tr("Add %1").arg(QString::fromStdString(type))));
    canvas_->selectNodes({fragment.nodes[0].id});
    event->acceptProposedAction();
    setFocus();
}

QMenu* CanvasView::layerMenu(const std::string& node, QWidget* parent) {
    ProjectDocument* doc = canvas_->document();
    auto* menu = new QMenu(parent);
    QString why;
    const std::int64_t classes = boundClassCount(doc->project(), &why);
    QAction* head = menu->addAction(tr("Replace head (%1 classes)").arg(classes), this, [this, doc, node] {
        QString error;
        if (!replaceHead(doc, node, &error)) QMessageBox::warning(this, tr("Replace head"), error);
    });
    head->setEnabled(classes > 0);
    head->setToolTip(classes > 0 ? tr("Remove the layers after this one and attach global pooling and a Dense "
                                      "softmax layer with the bound dataset's classes")
                                 : why);
    menu->addAction(tr("Freeze up to here"), this, [doc, node] { freezeUpToHere(doc, node); });
    QAction* block = menu->addAction(tr("Freeze block"), this, [doc, node] { freezeBlock(doc, node); });
    block->setEnabled(doc->graph().group_of(node) != nullptr);
    return menu;
}

void CanvasView::contextMenuEvent(QContextMenuEvent* event) {
    for (QGraphicsItem* item = itemAt(event->pos()); item; item = item->parentItem())
        if (item->type() == NodeItem::Type) {
            const std::string& id = static_cast<NodeItem*>(item)->id();
            canvas_->selectNodes({id});  // the inspector shows the layer the menu acts on
            QMenu* menu = layerMenu(id, this);
            menu->setAttribute(Qt::WA_DeleteOnClose);
            menu->popup(event->globalPos());
            event->accept();
            return;
        }
    QGraphicsView::contextMenuEvent(event);
}

}  // namespace lf::ui
