#include "canvas/theme.h"

#include <QHash>

namespace lf::ui::theme {

bool isDark(const QPalette& p) { return p.color(QPalette::Window).lightness() < 128; }

QColor categoryColor(const QString& category) {
    static const QHash<QString, QColor> colors = {
        {"Core", QColor(0x4c, 0x78, 0xa8)},          {"Convolution", QColor(0xf5, 0x85, 0x18)},
        {"Pooling", QColor(0x54, 0xa2, 0x4b)},       {"Normalization", QColor(0xb2, 0x79, 0xa2)},
        {"Activation", QColor(0xe4, 0x57, 0x56)},    {"Merge", QColor(0x2f, 0x9e, 0x98)},
    };
    return colors.value(category, QColor(0x9d, 0x75, 0x5d));  // plugin layers
}

QColor canvasBackground(const QPalette& p) { return isDark(p) ? QColor(0x1e, 0x21, 0x26) : QColor(0xf6, 0xf7, 0xf9); }
QColor gridColor(const QPalette& p) { return isDark(p) ? QColor(0x2c, 0x30, 0x37) : QColor(0xe3, 0xe6, 0xeb); }
QColor nodeBody(const QPalette& p) { return isDark(p) ? QColor(0x2d, 0x31, 0x38) : QColor(Qt::white); }
QColor nodeText(const QPalette& p) { return isDark(p) ? QColor(0xe8, 0xea, 0xed) : QColor(0x20, 0x24, 0x2a); }
QColor edgeColor(const QPalette& p) { return isDark(p) ? QColor(0x9a, 0xa3, 0xb0) : QColor(0x6b, 0x74, 0x80); }
QColor errorColor() { return QColor(0xd9, 0x30, 0x25); }
QColor okColor() { return QColor(0x2e, 0x9d, 0x48); }

}  // namespace lf::ui::theme
