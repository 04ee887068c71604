#pragma once
// One edge on the canvas: a curve from an output port to an input port, labelled with the
// tensor shape that flows along it, "(?, 14, 14, 32)".
#include <QGraphicsPathItem>

#include "layerforge/graph/graph.h"

namespace lf::ui {

class EdgeItem : public QGraphicsPathItem {
public:
    enum { Type = UserType + 2 };
    explicit EdgeItem(Edge edge);
    int type() const override { return Type; }
    const Edge& edge() const { return edge_; }

    void setEnds(QPointF from, QPointF to);
    void setLabel(const QString& label);  // repaints only when it differs
    QString label() const { return label_; }
    bool labelShown() const;  // drawn: it has a label and no card is under it

    static QPainterPath curve(QPointF from, QPointF to);
    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QRectF labelRect() const;
    Edge edge_;
    QString label_;
    QSizeF labelSize_;
    QPointF from_, to_, mid_;  // mid_: the curve's point at t = 0.5, where the label sits
};

}  // namespace lf::ui
