#pragma once
// The Help menu's windows: every menu action with its keys, and About with the versions a bug
// report needs (Layerforge, Qt, each compute backend's library, CUDA or why there is none).
class QDialog;
class QMainWindow;
class QString;

namespace lf::ui {

QString aboutText();
// A table of the window's menu actions that have keys ("Edit > Redo: Ctrl+Shift+Z, Ctrl+Y").
QDialog* shortcutsDialog(QMainWindow* window);

}  // namespace lf::ui
