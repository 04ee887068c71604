// The workspaces after Design, and the wiring between them (resume from the checkpoint browser
// goes to the training controller, ...), so panels can be added without touching the rest of
// the window.
#include <QTabWidget>

#include "checkpoints/checkpoint_browser.h"
#include "dataset/dataset_panel.h"
#include "evaluation/evaluation_view.h"
#include "mainwindow/main_window.h"
#include "training/message_views.h"
#include "training/training_controller.h"
#include "training/training_panel.h"

namespace lf::ui {

void MainWindow::createWorkspaces() {
    addWorkspace(new DatasetPanel(doc_), tr("Data"));

    auto* train = new TrainingPanel(session_);
    addWorkspace(train, tr("Train"));
    installMessageViews(this, train->controller());  // log dock + error banner, wired to training

    auto* checkpoints = new CheckpointBrowser(session_);
    addWorkspace(checkpoints, tr("Checkpoints"));
    connect(checkpoints, &CheckpointBrowser::resumeRequested, this, [this, train](qint64 id) {
        workspaces_->setCurrentWidget(train);
        train->controller()->resumeFrom(id);
    });

    auto* evaluation = new EvaluationView(session_);
    evaluation->acceptImageDropsOn(this);  // an image file dropped on the window is predicted
    addWorkspace(evaluation, tr("Evaluate"));
}

}  // namespace lf::ui
