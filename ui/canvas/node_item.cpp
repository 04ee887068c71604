#include "canvas/node_item.h"

#include <QGraphicsScene>
#include <QLocale>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include "canvas/canvas_scene.h"
#include "canvas/theme.h"
#include "layerforge/graph/analysis.h"

namespace lf::ui {

namespace {

constexpr double kDetailZoom = 0.45, kHeader = 24, kPortRadius = 6, kPortSpacing = 22;

class BadgeItem : public QGraphicsEllipseItem {
public:
    explicit BadgeItem(QGraphicsItem* parent) : QGraphicsEllipseItem(-9, -9, 18, 18, parent) {
        setBrush(theme::errorColor());
        setPen(QPen(Qt::white, 1.5));
        setZValue(2);
    }
    void paint(QPainter* p, const QStyleOptionGraphicsItem* o, QWidget* w) override {
        QGraphicsEllipseItem::paint(p, o, w);
        p->setPen(Qt::white);
        QFont f = p->font();
        f.setBold(true);
        p->setFont(f);
        p->drawText(rect(), Qt::AlignCenter, QStringLiteral("!"));
    }
};

}  // namespace

NodeItem::NodeItem(std::string id) : id_(std::move(id)) {
    setFlags(ItemIsMovable | ItemIsSelectable | ItemSendsGeometryChanges);
    setAcceptHoverEvents(true);
    setZValue(1);
    badge_ = new BadgeItem(this);
    badge_->setPos(kWidth - 4, 4);
    badge_->setVisible(false);
}

void NodeItem::setContent(const Node& node, const NodeInfo* info, const QString& category, int inputPorts,
                          const QString& error) {
    QString title = QString::fromStdString(node.name), type = QString::fromStdString(node.type);
    QString detail;
    if (info && info->shaped)
        detail = QObject::tr("%1 params").arg(QLocale().toString(qlonglong(info->param_count)));
    if (title == title_ && type == type_ && detail == detail_ && category == category_ && error == error_ &&
        inputPorts == inputs_)
        return;
    if (inputPorts != inputs_) prepareGeometryChange();
    title_ = title, type_ = type, detail_ = detail, category_ = category, error_ = error, inputs_ = inputPorts;
    badge_->setVisible(!error.isEmpty());
    badge_->setToolTip(error);
    setToolTip(error.isEmpty() ? QObject::tr("%1 (%2)").arg(title, type) : error);
    update();
}

void NodeItem::setProfileText(const QString& text) {
    if (text == profile_) return;
    const bool resized = text.isEmpty() != profile_.isEmpty();
    if (resized) prepareGeometryChange();
    profile_ = text;
    update();
    if (auto* canvas = qobject_cast<CanvasScene*>(scene()); canvas && resized) canvas->nodeItemMoved(this);  // the output port moved
}

double NodeItem::height() const {
    return std::max(profile_.isEmpty() ? 64.0 : 82.0, kHeader + kPortSpacing * inputs_ + 8);
}

QRectF NodeItem::boundingRect() const {
    return QRectF(-kPortRadius - 1, -10, kWidth + 2 * kPortRadius + 12, height() + 12);
}

QPointF NodeItem::localInputPort(int port) const { return QPointF(0, kHeader + kPortSpacing * (port + 0.5) + 4); }
QPointF NodeItem::inputPortPos(int port) const { return mapToScene(localInputPort(port)); }
QPointF NodeItem::outputPortPos() const { return mapToScene(QPointF(kWidth, kHeader + (height() - kHeader) / 2)); }

std::optional<NodeItem::PortHit> NodeItem::portAt(QPointF scenePos) const {
    const double r2 = (kPortRadius + 5) * (kPortRadius + 5);
    auto near = [&](QPointF p) { QPointF d = p - scenePos; return d.x() * d.x() + d.y() * d.y() <= r2; };
    if (near(outputPortPos())) return PortHit{true, 0};
    for (int i = 0; i < inputs_; ++i)
        if (near(inputPortPos(i))) return PortHit{false, i};
    return std::nullopt;
}

void NodeItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) {
    const QPalette pal = widget ? widget->palette() : QPalette();
    const QColor accent = theme::categoryColor(category_);
    const QRectF body(0, 0, kWidth, height());
    bool selected = option->state & QStyle::State_Selected;
    if (option->levelOfDetailFromTransform(p->worldTransform()) < kDetailZoom) {  // zoomed far out: a coloured block
        p->fillRect(body, selected ? pal.color(QPalette::Highlight) : error_.isEmpty() ? accent : theme::errorColor());
        return;
    }
    p->setRenderHint(QPainter::Antialiasing);
    p->setPen(QPen(selected ? pal.color(QPalette::Highlight) : (error_.isEmpty() ? accent.darker(120) : theme::errorColor()),
                   selected || !error_.isEmpty() ? 2.2 : 1.0));
    p->setBrush(theme::nodeBody(pal));
    p->drawRoundedRect(body, 7, 7);
    QPainterPath header;
    header.setFillRule(Qt::WindingFill);  // the rounded top and the square bottom overlap
    header.addRoundedRect(QRectF(0, 0, kWidth, kHeader), 7, 7);
    header.addRect(QRectF(0, kHeader / 2, kWidth, kHeader / 2));
    p->fillPath(header.simplified(), accent);
    p->setPen(Qt::white);
    QFont f = p->font();
    f.setBold(true);
    p->setFont(f);
    p->drawText(QRectF(10, 0, kWidth - 20, kHeader), Qt::AlignVCenter | Qt::AlignLeft,
                p->fontMetrics().elidedText(title_, Qt::ElideRight, int(kWidth - 20)));
    f.setBold(false);
    p->setFont(f);
    p->setPen(theme::nodeText(pal));
    p->drawText(QRectF(14, kHeader + 4, kWidth - 28, 18), Qt::AlignLeft | Qt::AlignVCenter, type_);
    p->setPen(pal.color(QPalette::PlaceholderText));
    p->drawText(QRectF(14, kHeader + 22, kWidth - 28, 18), Qt::AlignLeft | Qt::AlignVCenter, detail_);
    if (!profile_.isEmpty())
        p->drawText(QRectF(14, kHeader + 40, kWidth - 28, 18), Qt::AlignLeft | Qt::AlignVCenter,
                    p->fontMetrics().elidedText(profile_, Qt::ElideRight, int(kWidth - 28)));
    p->setPen(QPen(accent.darker(130), 1.2));
    p->setBrush(theme::nodeBody(pal));
    for (int i = 0; i < inputs_; ++i) p->drawEllipse(localInputPort(i), kPortRadius, kPortRadius);
    p->setBrush(accent);
    p->drawEllipse(mapFromScene(outputPortPos()), kPortRadius, kPortRadius);
}

QVariant NodeItem::itemChange(GraphicsItemChange change, const QVariant& value) {
    auto* canvas = qobject_cast<CanvasScene*>(scene());
    if (change == ItemPositionChange && canvas) return canvas->snap(value.toPointF());
    if (change == ItemPositionHasChanged && canvas) canvas->nodeItemMoved(this);
    return QGraphicsItem::itemChange(change, value);
}

}  // namespace lf::ui
