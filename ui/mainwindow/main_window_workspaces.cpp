// The workspaces after Design: one line each, so panels can be added without touching the rest
// of the window.
#include "dataset/dataset_panel.h"
#include "mainwindow/main_window.h"

namespace lf::ui {

void MainWindow::createWorkspaces() {
    addWorkspace(new DatasetPanel(doc_), tr("Data"));
}

}  // namespace lf::ui
