#pragma once
// One layer on the canvas: a card with a category-coloured header, typed input ports on the
// left, one output port on the right, the type with its key parameters ("Conv2D filters=32
// kernel_size=[3, 3]"), the parameter count, the last run's profile (time and memory) when
// there is one, and an error badge whose tooltip says what is wrong. Zoomed out so far that
// its text would be under ~9 px on screen, it is drawn as an overview card: one coloured block
// with the name in a font scaled to stay readable.
#include <optional>
#include <string>

#include <QGraphicsItem>
#include <QPalette>

namespace lf {
struct Node;
struct NodeInfo;
}  // namespace lf

namespace lf::ui {

class CanvasScene;

class NodeItem : public QGraphicsItem {
public:
    static constexpr double kWidth = 180;
    static constexpr double kLegiblePx = 9;  // on-screen text below this is not read
    enum { Type = UserType + 1 };

    explicit NodeItem(std::string id);
    const std::string& id() const { return id_; }
    int type() const override { return Type; }

    // Refreshes what the card shows; repaints only when something differs.
    void setContent(const Node& node, const NodeInfo* info, const QString& category, int inputPorts,
                    const QString& error);
    QString errorText() const { return error_; }
    QString detailText() const { return detail_; }  // "1,234 params", "1,234 params, frozen"
    // One line under the parameter count, e.g. "0.12+0.30 ms · 1.21 MB"; empty: none.
    void setProfileText(const QString& text);
    QString profileText() const { return profile_; }
    QGraphicsItem* badge() const { return badge_; }

    QPointF inputPortPos(int port) const;  // scene coordinates
    QPointF outputPortPos() const;
    int inputPortCount() const { return inputs_; }
    struct PortHit {
        bool output = false;
        int port = 0;
    };
    std::optional<PortHit> portAt(QPointF scenePos) const;

    QString typeText() const { return type_; }  // the type and key parameters
    // Whether a card is drawn as the overview at this zoom for a `fontPixels` font, and how tall
    // its name then is on screen.
    static bool showsOverview(double zoom, double fontPixels);
    static double nameScreenPixels(double zoom, double fontPixels);

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

protected:
    QVariant itemChange(GraphicsItemChange change, const QVariant& value) override;

private:
    double height() const;
    static double overviewNameSize(double zoom);  // scene units
    void paintOverview(QPainter* p, double zoom, bool selected, const QPalette& pal) const;
    QPointF localInputPort(int port) const;
    std::string id_;
    QString title_, type_, detail_, category_, error_, profile_;
    int inputs_ = 1;
    QGraphicsItem* badge_ = nullptr;
};

}  // namespace lf::ui
