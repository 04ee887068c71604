#pragma once
// Colours of the studio, derived from the application palette so light and dark systems both
// look right, plus one colour per layer category.
#include <QColor>
#include <QPalette>
#include <QString>

namespace lf::ui::theme {

bool isDark(const QPalette& p);
QColor categoryColor(const QString& category);
QColor canvasBackground(const QPalette& p);
QColor gridColor(const QPalette& p);
QColor nodeBody(const QPalette& p);
QColor nodeText(const QPalette& p);
QColor edgeColor(const QPalette& p);
QColor errorColor();
QColor okColor();

}  // namespace lf::ui::theme
