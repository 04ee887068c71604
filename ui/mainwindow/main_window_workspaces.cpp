// The workspaces after Design: one line each, so panels can be added without touching the rest
// of the window.
#include "mainwindow/main_window.h"
#include "training/message_views.h"
#include "training/training_panel.h"

namespace lf::ui {

void MainWindow::createWorkspaces() {
    auto* train = new TrainingPanel(session_);
    addWorkspace(train, tr("Train"));
    installMessageViews(this, train->controller());  // log dock + error banner, wired to training
}

}  // namespace lf::ui
