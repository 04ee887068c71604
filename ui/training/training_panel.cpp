#include "training/training_panel.h"

#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>

#include "document/model_stats.h"
#include "document/project_document.h"
#include "session/studio_session.h"
#include "training/device_gauge.h"
#include "training/job_project.h"
#include "training/mpi_command.h"
#include "training/run_options_form.h"
#include "training/training_progress.h"
#include "training/training_settings_form.h"
#include "widgets/scrollable.h"

namespace lf::ui {

namespace {

QGroupBox* group(const QString& title, QWidget* content) {
    auto* g = new QGroupBox(title);
    auto* l = new QVBoxLayout(g);
    l->addWidget(content);
    return g;
}

}  // namespace

TrainingPanel::TrainingPanel(StudioSession* session, QWidget* parent)
    : QWidget(parent), mpirun_(findMpirun()), controller_(new TrainingController(session, this)),
      settings_(new TrainingSettingsForm(session->document())), runOptions_(new RunOptionsForm(mpirun_)),
      progress_(new TrainingProgress), gauge_(new DeviceGauge), chartsSplitter_(new QSplitter(Qt::Vertical)),
      start_(new QPushButton(tr("Start"))), pause_(new QPushButton(tr("Pause"))),
      resume_(new QPushButton(tr("Resume"))), stop_(new QPushButton(tr("Stop"))), blocked_(new QLabel) {
    setObjectName("trainPanel");
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->addWidget(group(tr("Training settings"), settings_));
    leftLayout->addWidget(group(tr("Checkpoints and device"), runOptions_));
    leftLayout->addStretch(1);
    QScrollArea* scroll = scrollable(left);

    auto* placeholder = new QLabel(tr("Live charts appear here."));
    placeholder->setAlignment(Qt::AlignCenter);
    placeholder->setObjectName("chartsPlaceholder");
    chartsSplitter_->addWidget(placeholder);
    chartsSplitter_->addWidget(scrollable(group(tr("Memory"), gauge_)));  // the charts get the height
    chartsSplitter_->setStretchFactor(0, 4);
    chartsSplitter_->setStretchFactor(1, 1);

    auto* right = new QWidget;
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->addWidget(buildControls());
    rightLayout->addWidget(progress_);
    rightLayout->addWidget(chartsSplitter_, 1);

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(scroll);
    split->addWidget(right);
    split->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    controller_->setOptions(runOptions_->options(controller_->options()));
    settings_->setDevice(controller_->options().device);
    connect(runOptions_, &RunOptionsForm::changed, this, [this] {
        controller_->setOptions(runOptions_->options(controller_->options()));
        gauge_->setDevice(controller_->options().device);
        settings_->setDevice(controller_->options().device);
        updateButtons();  // Processes and the device decide whether a job can start
    });
    connect(controller_, &TrainingController::stateChanged, this, &TrainingPanel::updateButtons);
    connect(session->document(), &ProjectDocument::changed, this, &TrainingPanel::updateButtons);
    // A job's processes read the saved file: saving can let a job start.
    connect(session->document(), &ProjectDocument::modifiedChanged, this, &TrainingPanel::updateButtons);
    connect(session->document(), &ProjectDocument::fileNameChanged, this, &TrainingPanel::updateButtons);
    connect(controller_, &TrainingController::trainEvent, progress_, &TrainingProgress::showTrainEvent);
    connect(controller_, &TrainingController::rankThroughput, progress_, &TrainingProgress::showRankThroughput);
    connect(controller_, &TrainingController::finished, progress_, [this](lf::RunStatus status, const QString& message) {
        if (!controller_->abandoned()) progress_->showEnd(status, message);  // else: the previous project's run
    });
    connect(session, &StudioSession::projectSwitched, progress_, &TrainingProgress::clear);
    updateButtons();
}

QWidget* TrainingPanel::buildControls() {
    auto* row = new QWidget;
    auto* l = new QHBoxLayout(row);
    l->setContentsMargins(0, 0, 0, 0);
    for (QPushButton* b : {start_, pause_, resume_, stop_}) l->addWidget(b);
    blocked_->setObjectName("trainBlocked");
    blocked_->setWordWrap(true);
    blocked_->setStyleSheet("color: #a15c00");
    l->addWidget(blocked_, 4);
    l->addStretch(1);  // the buttons keep their size while the reason is hidden
    connect(start_, &QPushButton::clicked, this, [this] {
        if (startGuard_ && !startGuard_()) return;
        progress_->clear();
        controller_->start();
    });
    connect(pause_, &QPushButton::clicked, controller_, &TrainingController::pause);
    connect(resume_, &QPushButton::clicked, controller_, &TrainingController::resume);
    connect(stop_, &QPushButton::clicked, controller_, &TrainingController::stop);
    return row;
}

void TrainingPanel::updateButtons() {
    using S = TrainingController::State;
    const S s = controller_->state();
    // What training requires of the graph, as the engine checks it when a run starts.
    QString problem = trainingProblem(controller_->session()->document()->analysis());
    if (problem.isEmpty()) problem = jobProblem(*controller_->session(), controller_->options(), mpirun_);
    start_->setEnabled(s == S::Idle && problem.isEmpty());
    start_->setToolTip(problem.isEmpty() ? tr("Train the project as it is now; later edits apply to the next run")
                                         : tr("Cannot train: %1").arg(problem));
    blocked_->setText(problem.isEmpty() ? QString() : tr("Cannot train: %1").arg(problem));
    blocked_->setVisible(!problem.isEmpty());
    const bool job = controller_->isJob() || (s == S::Idle && controller_->options().processes > 1);
    pause_->setEnabled(s == S::Running && !job);
    pause_->setToolTip(job ? tr("A run of several processes cannot pause: Stop ends it, and resuming from its last "
                                "checkpoint (Checkpoints page) continues it")
                           : tr("Pause between steps; Resume continues the run"));
    resume_->setEnabled(s == S::Paused);
    stop_->setEnabled(s == S::Running || s == S::Paused);
    runOptions_->setEnabled(s == S::Idle);
}

void TrainingPanel::setChartsWidget(QWidget* charts) {
    QWidget* old = chartsSplitter_->widget(0);
    chartsSplitter_->replaceWidget(0, charts);
    delete old;
    chartsSplitter_->setStretchFactor(0, 4);
    chartsSplitter_->setSizes({400, 90});
}

QWidget* TrainingPanel::chartsWidget() const { return chartsSplitter_->widget(0); }

}  // namespace lf::ui
