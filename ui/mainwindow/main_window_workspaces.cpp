// The workspaces after Design, and the wiring between them (resume from the checkpoint browser
// goes to the training controller, ...), so panels can be added without touching the rest of
// the window.
#include <QTabWidget>

#include "charts/training_charts.h"
#include "checkpoints/checkpoint_browser.h"
#include "dataset/dataset_panel.h"
#include "document/project_document.h"
#include "evaluation/evaluation_view.h"
#include "explorer/runs_explorer.h"
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
    train->setStartGuard([this] { return placeForRuns(); });
    connect(session_, &StudioSession::projectSwitched, this, [this] { copyOf_.clear(); });
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
    addWorkspace(new RunsExplorer(session_), tr("Runs"));

    auto* evaluation = new EvaluationView(session_);
    evaluation->acceptImageDropsOn(this);  // an image file dropped on the window is predicted
    addWorkspace(evaluation, tr("Evaluate"));

    auto* profile = new LayerProfileView(doc_, scene_);
    profile->follow(train->controller());
    addWorkspace(profile, tr("Profile"));
}

// The live charts on the Train page: a run (new or resumed) continues its stored curves, then
// takes every step from the controller and the per-epoch validation metrics.
void MainWindow::connectCharts(TrainingPanel* train) {
    auto* charts = new TrainingCharts;
    train->setChartsWidget(charts);
    charts->setStorePath(session_->storePath());
    connect(doc_, &ProjectDocument::fileNameChanged, charts, [this, charts] { charts->setStorePath(session_->storePath()); });
    connect(session_, &StudioSession::projectSwitched, charts, [this, charts] {
        charts->setStorePath(session_->storePath());
        charts->beginLiveRun(QString());  // the previous project's curves and overlays go
        for (qint64 id : charts->overlayRuns()) charts->removeOverlay(id);
    });
    TrainingController* controller = train->controller();
    connect(controller, &TrainingController::started, charts, [this, charts](qint64 runId) {
        charts->setStorePath(session_->storePath());
        charts->continueLiveRun(tr("run %1").arg(runId), runId);
    });
    connect(controller, &TrainingController::stepsLogged, charts, [charts](const std::vector<lf::TrainEvent>& steps) {
        for (const lf::TrainEvent& e : steps) charts->addTrainStep(e);
    });
    connect(controller, &TrainingController::trainEvent, charts, [charts](const lf::TrainEvent& e) {
        if (e.kind == lf::EventKind::EpochEnd) charts->addEpoch(e.step, double(e.epoch), e.elapsed_seconds, e.metrics);
    });
}

}  // namespace lf::ui
