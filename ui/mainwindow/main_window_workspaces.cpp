// The workspaces after Design: one line each, so panels can be added without touching the rest
// of the window.
#include "mainwindow/main_window.h"

namespace lf::ui {

void MainWindow::createWorkspaces() {
}

}  // namespace lf::ui
