#include "canvas/edge_item.h"

#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QHash>
#include <QPainter>
#include <QPainterPathStroker>
#include <QStyleOptionGraphicsItem>
#include <QWidget>

#include "canvas/node_item.h"
#include "canvas/theme.h"

namespace lf::ui {

EdgeItem::EdgeItem(Edge edge) : edge_(std::move(edge)) {
    setFlag(ItemIsSelectable);
    setZValue(0);
}

QPainterPath EdgeItem::curve(QPointF from, QPointF to) {
    QPainterPath path(from);
    double dx = std::max(40.0, std::abs(to.x() - from.x()) / 2);
    path.cubicTo(from + QPointF(dx, 0), to - QPointF(dx, 0), to);
    return path;
}

namespace {

// Shapes repeat across edges ("(?, 64)"): measure each text once, not once per edge.
QSizeF labelSizeOf(const QString& label) {
    static const QFontMetricsF fm{QFont()};
    static QHash<QString, QSizeF> sizes;
    auto it = sizes.find(label);
    if (it == sizes.end()) it = sizes.insert(label, QSizeF(fm.horizontalAdvance(label) + 10, fm.height() + 2));
    return *it;
}

}  // namespace

void EdgeItem::setEnds(QPointF from, QPointF to) {
    if (from == from_ && to == to_ && !path().isEmpty()) return;
    prepareGeometryChange();
    from_ = from;
    to_ = to;
    // The curve at t = 1/2 is (P0 + 3 P1 + 3 P2 + P3) / 8; with P1 = P0 + (dx, 0) and
    // P2 = P3 - (dx, 0) the offsets cancel: the midpoint of the two ends.
    mid_ = (from + to) / 2;
    setPath(curve(from, to));
}

void EdgeItem::setLabel(const QString& label) {
    if (label == label_) return;
    prepareGeometryChange();
    label_ = label;
    labelSize_ = label.isEmpty() ? QSizeF() : labelSizeOf(label);
    setToolTip(QObject::tr("%1 → %2: %3")
                   .arg(QString::fromStdString(edge_.from.str()), QString::fromStdString(edge_.to.str()), label));
    update();
}

QRectF EdgeItem::labelRect() const {
    const QSizeF size = labelSize_;
    return QRectF(mid_ - QPointF(size.width() / 2, size.height() / 2), size);
}

QRectF EdgeItem::boundingRect() const {
    return QGraphicsPathItem::boundingRect().united(labelRect()).adjusted(-3, -3, 3, 3);
}

QPainterPath EdgeItem::shape() const {
    QPainterPathStroker stroker;
    stroker.setWidth(10);
    QPainterPath s = stroker.createStroke(path());
    s.addRect(labelRect());
    return s;
}

// A label that would sit on a card is left out (the tooltip still has it): between close cards
// it was clipped by one and overlapped the other's.
bool EdgeItem::labelShown() const {
    if (label_.isEmpty() || !scene()) return false;
    const QRectF r = mapRectToScene(labelRect());
    for (QGraphicsItem* item : scene()->items(r, Qt::IntersectsItemBoundingRect))
        if (item->type() == NodeItem::Type && item->sceneBoundingRect().intersects(r)) return false;
    return true;
}

void EdgeItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) {
    const QPalette pal = widget ? widget->palette() : QPalette();
    bool selected = option->state & QStyle::State_Selected;
    QColor color = selected ? pal.color(QPalette::Highlight) : theme::edgeColor(pal);
    if (option->levelOfDetailFromTransform(p->worldTransform()) < 0.45) {  // zoomed far out: no label
        p->setPen(QPen(color, 0));
        p->drawLine(from_, to_);
        return;
    }
    p->setRenderHint(QPainter::Antialiasing);
    p->setPen(QPen(color, selected ? 2.6 : 1.8));
    p->setBrush(Qt::NoBrush);
    p->drawPath(path());
    if (!labelShown()) return;
    QRectF r = labelRect();
    p->setPen(QPen(color, 1));
    p->setBrush(theme::canvasBackground(pal));
    p->drawRoundedRect(r, 6, 6);
    p->setPen(theme::nodeText(pal));
    p->drawText(r, Qt::AlignCenter, label_);
}

}  // namespace lf::ui
