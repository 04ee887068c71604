// The workspaces after Design, and the wiring between them (resume from the checkpoint browser
// goes to the training controller, ...), so panels can be added without touching the rest of
// the window.
#include <QTabWidget>

#include "charts/training_charts.h"
#include "checkpoints/checkpoint_browser.h"
#include "dataset/dataset_panel.h"
#include "document/project_document.h"
#include "evaluation/evaluation_view.h"
#include "export/export_dialog.h"
#include "mainwindow/main_window.h"
#include "profile/layer_profile_view.h"
#include "session/studio_session.h"
#include "training/message_views.h"
#include "training/training_controller.h"
#include "training/training_panel.h"

namespace lf::ui {

void MainWindow::createWorkspaces() {
    addWorkspace(new DatasetPanel(doc_), tr("Data"));

    auto* train = new TrainingPanel(session_);
    addWorkspace(train, tr("Train"));
    installMessageViews(this, train->controller());  // log dock + error banner, wired to training
    connectCharts(train);

    auto* checkpoints = new CheckpointBrowser(session_);
    addWorkspace(checkpoints, tr("Checkpoints"));
    connect(checkpoints, &CheckpointBrowser::resumeRequested, this, [this, train](qint64 id) {
        workspaces_->setCurrentWidget(train);
        train->controller()->resumeFrom(id);
    });
    connect(checkpoints, &CheckpointBrowser::exportRequested, this,
            [this](qint64 id) { showExportDialog(this, session_, std::int64_t(id)); });

    auto* evaluation = new EvaluationView(session_);
    evaluation->acceptImageDropsOn(this);  // an image file dropped on the window is predicted
    addWorkspace(evaluation, tr("Evaluate"));

    auto* profile = new LayerProfileView(doc_, scene_);
    profile->follow(train->controller());
    addWorkspace(profile, tr("Profile"));
}

// The live charts on the Train page: a run (new or resumed) continues its stored curves, then
// takes the controller's coalesced step events and the per-epoch validation metrics.
void MainWindow::connectCharts(TrainingPanel* train) {
    auto* charts = new TrainingCharts;
    train->setChartsWidget(charts);
    charts->setStorePath(session_->storePath());
    connect(doc_, &ProjectDocument::fileNameChanged, charts, [this, charts] { charts->setStorePath(session_->storePath()); });
    TrainingController* controller = train->controller();
    connect(controller, &TrainingController::started, charts, [this, charts](qint64 runId) {
        charts->setStorePath(session_->storePath());
        charts->continueLiveRun(tr("run %1").arg(runId), runId);
    });
    connect(controller, &TrainingController::trainEvent, charts, [charts](const lf::TrainEvent& e) {
        if (e.kind == lf::EventKind::Step && e.steps_per_epoch > 0)
            charts->addStep(e.step, double(e.step) / double(e.steps_per_epoch), e.elapsed_seconds, e.metrics);
        else if (e.kind == lf::EventKind::EpochEnd)
            charts->addEpochEnd(e.step, double(e.epoch), e.elapsed_seconds, e.metrics);
    });
}

}  // namespace lf::ui
