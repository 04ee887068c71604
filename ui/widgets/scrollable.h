#pragma once
// Wraps a form, panel or stack of charts in a frameless QScrollArea that resizes it, so its
// minimum size no longer adds to the window's: on a small screen the content scrolls instead
// of pushing the window past the screen's edge.
class QScrollArea;
class QWidget;

namespace lf::ui {

QScrollArea* scrollable(QWidget* content);

}  // namespace lf::ui
