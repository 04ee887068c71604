#include "training/memory_bar.h"

#include <QPainter>

namespace lf::ui {

QString byteText(quint64 bytes) {
    const double b = double(bytes);
    if (b >= 1024.0 * 1024 * 1024) return QObject::tr("%1 GiB").arg(b / (1024.0 * 1024 * 1024), 0, 'f', 1);
    if (b >= 1024.0 * 1024) return QObject::tr("%1 MiB").arg(b / (1024.0 * 1024), 0, 'f', 0);
    return QObject::tr("%1 KiB").arg(b / 1024.0, 0, 'f', 0);
}

MemoryBar::MemoryBar(const QString& label, QWidget* parent) : QWidget(parent), label_(label) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void MemoryBar::setValues(quint64 value, quint64 peak, quint64 total) {
    value_ = value;
    peak_ = peak;
    total_ = total;
    setToolTip(text());
    update();
}

QString MemoryBar::text() const {
    return tr("%1  %2 / %3 (peak %4)").arg(label_, byteText(value_), byteText(total_), byteText(peak_));
}

void MemoryBar::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const QRectF r = QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5);
    p.setPen(palette().mid().color());
    p.setBrush(palette().base());
    p.drawRect(r);
    auto x = [&](quint64 v) { return total_ ? r.left() + r.width() * std::min(1.0, double(v) / double(total_)) : r.left(); };
    p.fillRect(QRectF(r.left(), r.top(), x(value_) - r.left(), r.height()), palette().highlight().color().lighter(130));
    p.setPen(QPen(Qt::red, 2));  // the peak marker
    p.drawLine(QPointF(x(peak_), r.top()), QPointF(x(peak_), r.bottom()));
    p.setPen(palette().text().color());
    p.drawText(r.adjusted(4, 0, -4, 0), Qt::AlignVCenter | Qt::AlignLeft, text());
}

}  // namespace lf::ui
