#include "evaluation/rotated_label.h"

#include <QPainter>

namespace lf::ui {

RotatedLabel::RotatedLabel(const QString& text, QWidget* parent) : QLabel(text, parent) {}

QSize RotatedLabel::sizeHint() const { return QLabel::sizeHint().transposed(); }

QSize RotatedLabel::minimumSizeHint() const { return QSize(QLabel::minimumSizeHint().height(), 0); }

void RotatedLabel::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.translate(0, height());
    p.rotate(-90);
    p.drawText(QRect(0, 0, height(), width()), Qt::AlignCenter, text());
}

}  // namespace lf::ui
