#include "canvas/group_item.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <QWidget>

#include "canvas/node_item.h"
#include "canvas/theme.h"

namespace lf::ui {

namespace {

constexpr double kPad = 16, kPortRadius = 6, kPortSpacing = 22;

}  // namespace

GroupItem::GroupItem(std::string id) : id_(std::move(id)) { setFlag(ItemIsSelectable); }

void GroupItem::setContent(const QString& title, const QString& detail, bool collapsed, const QRectF& members,
                           int inputs, int outputs) {
    prepareGeometryChange();
    title_ = title, detail_ = detail, collapsed_ = collapsed, inputs_ = inputs, outputs_ = outputs;
    if (collapsed) {
        setPos(members.topLeft());
        size_ = QSizeF(NodeItem::kWidth, std::max(64.0, kTitle + kPortSpacing * std::max(inputs, outputs) + 8));
    } else {
        setPos(members.topLeft() - QPointF(kPad, kPad + kTitle));
        size_ = members.size() + QSizeF(2 * kPad, 2 * kPad + kTitle);
    }
    setZValue(collapsed ? 1 : -1);  // a card among the cards; a frame behind them
    setToolTip(collapsed ? QObject::tr("%1: %2 (click the arrow to expand)").arg(title, detail)
                         : QObject::tr("%1 (click the arrow to collapse)").arg(title));
    update();
}

QRectF GroupItem::frame() const { return QRectF(QPointF(0, 0), size_); }

QRectF GroupItem::boundingRect() const { return frame().adjusted(-kPortRadius - 1, -1, kPortRadius + 1, 1); }

QPointF GroupItem::portAt(double x, int slot, int count) const {
    if (count <= 1) return QPointF(x, kTitle + (size_.height() - kTitle) / 2);
    return QPointF(x, kTitle + kPortSpacing * (slot + 0.5) + 4);
}

QPointF GroupItem::inputPortPos(int slot) const { return mapToScene(portAt(0, slot, inputs_)); }
QPointF GroupItem::outputPortPos(int slot) const { return mapToScene(portAt(size_.width(), slot, outputs_)); }

bool GroupItem::toggleAt(QPointF scenePos) const {
    return QRectF(0, 0, kTitle + 6, kTitle).contains(mapFromScene(scenePos));
}

void GroupItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) {
    const QPalette pal = widget ? widget->palette() : QPalette();
    const QColor accent = option->state & QStyle::State_Selected ? pal.color(QPalette::Highlight) : theme::edgeColor(pal);
    p->setRenderHint(QPainter::Antialiasing);
    QColor fill = pal.color(QPalette::Highlight);
    fill.setAlpha(collapsed_ ? 255 : 28);
    p->setPen(QPen(accent, collapsed_ ? 1.4 : 1.2, collapsed_ ? Qt::SolidLine : Qt::DashLine));
    p->setBrush(collapsed_ ? theme::nodeBody(pal) : fill);
    p->drawRoundedRect(frame(), 9, 9);
    p->setPen(collapsed_ ? theme::nodeText(pal) : accent.darker(110));
    QFont f = p->font();
    f.setBold(true);
    p->setFont(f);
    const QString arrow = collapsed_ ? QStringLiteral("▸") : QStringLiteral("▾");
    p->drawText(QRectF(8, 0, kTitle, kTitle), Qt::AlignCenter, arrow);
    p->drawText(QRectF(kTitle + 6, 0, size_.width() - kTitle - 12, kTitle), Qt::AlignVCenter | Qt::AlignLeft,
                p->fontMetrics().elidedText(title_, Qt::ElideRight, int(size_.width() - kTitle - 12)));
    if (!collapsed_) return;
    f.setBold(false);
    p->setFont(f);
    p->setPen(pal.color(QPalette::PlaceholderText));
    p->drawText(QRectF(14, kTitle + 4, size_.width() - 28, 18), Qt::AlignLeft | Qt::AlignVCenter, detail_);
    p->setPen(QPen(accent, 1.2));
    p->setBrush(theme::nodeBody(pal));
    for (int i = 0; i < inputs_; ++i) p->drawEllipse(portAt(0, i, inputs_), kPortRadius, kPortRadius);
    p->setBrush(accent);
    for (int i = 0; i < outputs_; ++i) p->drawEllipse(portAt(size_.width(), i, outputs_), kPortRadius, kPortRadius);
}

}  // namespace lf::ui
