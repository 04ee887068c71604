#include "canvas/node_item.h"

#include <QFontInfo>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QLocale>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include "canvas/canvas_scene.h"
#include "canvas/theme.h"
#include "layerforge/graph/analysis.h"
#include "training/param_text.h"

namespace lf::ui {

namespace {

constexpr double kHeader = 24, kPortRadius = 6, kPortSpacing = 22;
// The overview card's name may grow to this many scene units (most of the card's height) to
// stay at least kLegiblePx on screen when zoomed out.
constexpr double kOverviewNameMax = 40;
// The parameters that say what a layer is, in the order the card lists them.
const char* const kKeyParams[] = {"units", "filters", "kernel_size", "pool_size", "strides", "rate", "shape", "target_shape"};

QString keyParamsText(const Node& node) {
    Params key;
    for (const char* name : kKeyParams)
        if (auto it = node.params.find(name); it != node.params.end()) key.insert(*it);
    return paramsToText(key);
}

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
    if (const QString key = keyParamsText(node); !key.isEmpty()) type += QStringLiteral("  ") + key;
    QString detail;
    if (info && info->shaped)  // a frozen layer (trainable: false) says so where its weights are counted
        detail = (!node.trainable && info->param_count > 0 ? QObject::tr("%1 params, frozen") : QObject::tr("%1 params"))
                     .arg(QLocale().toString(qlonglong(info->param_count)));
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

bool NodeItem::showsOverview(double zoom, double fontPixels) { return fontPixels * zoom < kLegiblePx; }

double NodeItem::overviewNameSize(double zoom) { return std::min(kOverviewNameMax, kLegiblePx * 1.3 / zoom); }

double NodeItem::nameScreenPixels(double zoom, double fontPixels) {
    return showsOverview(zoom, fontPixels) ? overviewNameSize(zoom) * zoom : fontPixels * zoom;
}

// Zoomed out: one coloured card with the name as large as the card allows (down to the
// legible size, then on two lines), and the type and key parameters under it while there is room.
void NodeItem::paintOverview(QPainter* p, double zoom, bool selected, const QPalette& pal) const {
    const QRectF body(0, 0, kWidth, height());
    p->setRenderHint(QPainter::Antialiasing);
    p->setPen(Qt::NoPen);
    p->setBrush(selected ? pal.color(QPalette::Highlight) : error_.isEmpty() ? theme::categoryColor(category_) : theme::errorColor());
    p->drawRoundedRect(body, 7, 7);
    const double width = kWidth - 12, floor = std::min(kOverviewNameMax, kLegiblePx / zoom);
    QFont f = p->font();
    f.setBold(true);
    double size = overviewNameSize(zoom);
    f.setPixelSize(std::max(1, int(size)));
    while (size * 0.9 >= floor && QFontMetricsF(f).horizontalAdvance(title_) > width) {
        size *= 0.9;
        f.setPixelSize(std::max(1, int(size)));
    }
    p->setFont(f);
    p->setPen(Qt::white);
    const QFontMetricsF fm(f);
    const bool oneLine = fm.horizontalAdvance(title_) <= width;
    const double nameHeight = fm.height() * (oneLine ? 1 : 2);
    const QRectF nameRect(6, 2, width, std::min(nameHeight, body.height() - 4));
    const QString name = oneLine ? title_ : fm.elidedText(title_, Qt::ElideRight, width * 2 - fm.averageCharWidth());
    p->drawText(nameRect, Qt::AlignCenter | (oneLine ? 0 : Qt::TextWrapAnywhere), name);
    const double typeSize = body.height() - nameRect.height() - 6;
    if (typeSize * zoom < kLegiblePx * 0.8) return;
    f.setBold(false);
    f.setPixelSize(int(std::min(typeSize, size * 0.7)));
    p->setFont(f);
    p->drawText(QRectF(6, nameRect.bottom(), width, typeSize), Qt::AlignCenter,
                p->fontMetrics().elidedText(type_, Qt::ElideRight, int(width)));
}

void NodeItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) {
    const QPalette pal = widget ? widget->palette() : QPalette();
    const QColor accent = theme::categoryColor(category_);
    const QRectF body(0, 0, kWidth, height());
    bool selected = option->state & QStyle::State_Selected;
    const double zoom = option->levelOfDetailFromTransform(p->worldTransform());
    if (showsOverview(zoom, QFontInfo(p->font()).pixelSize())) return paintOverview(p, zoom, selected, pal);
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
    p->drawText(QRectF(14, kHeader + 4, kWidth - 28, 18), Qt::AlignLeft | Qt::AlignVCenter,
                p->fontMetrics().elidedText(type_, Qt::ElideRight, int(kWidth - 28)));
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
