// The workspaces after Design: one line each, so panels can be added without touching the rest
// of the window.
#include "mainwindow/main_window.h"

#include "checkpoints/checkpoint_browser.h"
#include "evaluation/evaluation_view.h"

namespace lf::ui {

void MainWindow::createWorkspaces() {
    addWorkspace(new CheckpointBrowser(session_), tr("Checkpoints"));
    auto* evaluation = new EvaluationView(session_);
    evaluation->acceptImageDropsOn(this);  // an image file dropped on the window is predicted
    addWorkspace(evaluation, tr("Evaluate"));
}

}  // namespace lf::ui
