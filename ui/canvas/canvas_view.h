#pragma once
// The canvas widget: zoom (wheel, keys, fit), pan (middle button or Alt+drag), rubber-band
// selection, arrow-key nudging, palette drops (QMimeData carrying a layer type name), and a
// layer's context menu with the fine-tuning actions.
#include <QGraphicsView>

class QMenu;

namespace lf::ui {

class CanvasScene;

class CanvasView : public QGraphicsView {
    Q_OBJECT
public:
    static constexpr double kFitMargin = 40, kMaxFitZoom = 1.5;  // what fitToView() leaves and allows

    explicit CanvasView(CanvasScene* scene, QWidget* parent = nullptr);
    CanvasScene* canvas() const { return canvas_; }
    double zoom() const { return transform().m11(); }
    // The context menu of layer `node`: Replace head, Freeze up to here, Freeze block. The
    // caller owns it; each action is one undo step.
    QMenu* layerMenu(const std::string& node, QWidget* parent = nullptr);

public Q_SLOTS:
    void zoomIn();
    void zoomOut();
    void resetZoom();
    void fitToView();  // all layers, with a margin; never zoomed in past kMaxFitZoom (then 100%)

protected:
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dragMoveEvent(QDragMoveEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void scaleBy(double factor);
    void nudge(QPointF delta);
    CanvasScene* canvas_;
    bool panning_ = false;
    QPoint panFrom_;
};

}  // namespace lf::ui
