#pragma once
// A node group (block) on the canvas. Expanded, it is a titled frame behind its layers;
// collapsed, one card in their place with a port for each edge that enters or leaves the
// block (the scene hides the layers inside and reroutes the outside edges to the card). The
// arrow in the title collapses and expands it.
#include <string>

#include <QGraphicsItem>

namespace lf::ui {

class GroupItem : public QGraphicsItem {
public:
    enum { Type = UserType + 3 };
    static constexpr double kTitle = 26;

    explicit GroupItem(std::string id);
    const std::string& id() const { return id_; }
    int type() const override { return Type; }

    // `members`: the layers' bounds in scene coordinates; `detail`: the card's second line.
    void setContent(const QString& title, const QString& detail, bool collapsed, const QRectF& members,
                    int inputs, int outputs);
    bool collapsed() const { return collapsed_; }
    QString title() const { return title_; }
    QPointF inputPortPos(int slot) const;  // collapsed card, scene coordinates
    QPointF outputPortPos(int slot) const;
    bool toggleAt(QPointF scenePos) const;

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QRectF frame() const;  // local coordinates
    QPointF portAt(double x, int slot, int count) const;
    std::string id_;
    QString title_, detail_;
    bool collapsed_ = false;
    QSizeF size_;
    int inputs_ = 0, outputs_ = 0;
};

}  // namespace lf::ui
