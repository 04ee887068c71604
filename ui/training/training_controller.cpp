#include "training/training_controller.h"

#include <QThread>

#include "document/project_document.h"
#include "document/set_training.h"
#include "layerforge/core/kernel_thread_signals.h"
#include "layerforge/run/session.h"
#include "session/mailbox.h"
#include "session/studio_session.h"
#include "training/distributed_job.h"
#include "training/job_project.h"
#include "training/training_worker.h"

namespace lf::ui {

TrainingController::TrainingController(StudioSession* session, QObject* parent)
    : QObject(parent), session_(session), thread_(new QThread(this)), mailbox_(new Mailbox(this)) {
    qRegisterMetaType<lf::TrainEvent>();
    qRegisterMetaType<lf::ui::TrainingOutcome>();
    thread_->setObjectName("training");
    // The engine's kernels run on this thread (and its OpenMP workers): no signal handler may
    // run there (layerforge/core/kernel_thread_signals.h).
    connect(thread_, &QThread::started, thread_, [] { block_async_signals(); }, Qt::DirectConnection);
    thread_->start();
    connect(session_, &StudioSession::projectSwitched, this, [this] {
        if (!isActive()) return;
        abandoned_ = true;
        Q_EMIT logLine(tr("another project was opened: stopping the run"));
        stop();
    });
}

TrainingController::~TrainingController() {
    delete job_.data();  // ends a job still running, before this object's slots go
    if (run_) run_->request_stop(/*finish_up=*/false);  // no test pass or weights while the app closes
    thread_->quit();
    thread_->wait();  // application exit: the run stops at its next step
    delete worker_.data();
}

bool TrainingController::start() { return launch(QString()); }

bool TrainingController::resumeFrom(qint64 checkpointId) { return launch(QString::number(checkpointId)); }

bool TrainingController::launch(const QString& resumeSpec) {
    if (isActive()) {
        Q_EMIT logLine(tr("A training run is already going; stop it first."));
        return false;
    }
    if (options_.processes > 1) return launchJob(resumeSpec);
    SessionOptions o;
    o.project_path = runProjectPath(*session_).toStdString();
    o.store_path = session_->storePath().toStdString();
    o.checkpoints.every_steps = options_.checkpointEverySteps;
    o.checkpoints.every_epochs = options_.checkpointEveryEpochs;
    o.keep = options_.keep;
    o.best_metric = options_.bestMetric.toStdString();
    o.best_mode = options_.bestMode.toStdString();
    o.device = options_.device.toStdString();
    o.log_every = options_.logEvery;
    o.tensorboard_dir = options_.tensorboardDir.toStdString();
    o.write_project = false;  // the class list goes through the document (onDone)
    if (!resumeSpec.isEmpty()) o.resume = resumeSpec.toStdString();

    auto* worker = new TrainingWorker(options_.eventIntervalMs, mailbox_);
    o.observers.push_back(worker);
    Project project = session_->document()->project();
    if (options_.limitTrain > 0) project.dataset.limit_train = options_.limitTrain;  // a quick run
    run_ = std::make_shared<TrainingSession>(std::move(project), std::move(o), worker);
    worker->setSession(run_);
    worker->moveToThread(thread_);
    connectSource(worker);
    worker_ = worker;
    begin(resumeSpec);
    QMetaObject::invokeMethod(worker, "run", Qt::QueuedConnection);  // by name: see mailbox.h
    return true;
}

bool TrainingController::launchJob(const QString& resumeSpec) {
    const MpiHost host = thisHost();
    QString problem = jobProblem(*session_, options_, host.mpirun), project;
    if (problem.isEmpty()) project = writeJobProject(*session_, &problem);
    if (!problem.isEmpty()) {
        Q_EMIT logLine(tr("Cannot train: %1").arg(problem));
        return false;
    }
    const QString cli = cliPath_.isEmpty() ? cliBesideStudio() : cliPath_;
    auto* job = new DistributedJob(mpiTrainCommand(host, cli, project, options_, resumeSpec), options_.eventIntervalMs, this);
    connectSource(job);
    connect(job, &DistributedJob::rankThroughput, this, [this](const QList<double>& rates) {
        if (!abandoned_) Q_EMIT rankThroughput(rates);
    });
    job_ = job;
    begin(resumeSpec);
    Q_EMIT logLine(tr("%1 processes: %2 %3").arg(options_.processes).arg(host.mpirun, job->command().arguments.join(' ')));
    job->start();
    return true;
}

// The two sources of a run, the in-process worker and a job of processes, emit the same signals.
template <class Source>
void TrainingController::connectSource(Source* source) {
    connect(source, &Source::runRecorded, this, [this](qint64 id) {
        runId_ = id;
        if (!abandoned_) Q_EMIT started(id);  // else: the charts would load the old run into the new project's
    });
    connect(source, &Source::trainEvent, this, &TrainingController::onEvent);
    connect(source, &Source::stepsLogged, this, [this](const std::vector<lf::TrainEvent>& steps) {
        if (!abandoned_) Q_EMIT stepsLogged(steps);
    });
    connect(source, &Source::checkpointSaved, this, [this](qint64 id) {
        session_->notifyStoreChanged();
        Q_EMIT checkpointSaved(id);
    });
    connect(source, &Source::logLine, this, &TrainingController::logLine);
    connect(source, &Source::done, this, &TrainingController::onDone);
}

void TrainingController::begin(const QString& resumeSpec) {
    runId_ = 0;
    abandoned_ = false;
    setState(State::Running);
    Q_EMIT logLine(resumeSpec.isEmpty() ? tr("starting a new run of %1").arg(session_->document()->displayName())
                                        : tr("resuming from checkpoint %1").arg(resumeSpec));
}

void TrainingController::pause() {
    if (state_ != State::Running || !run_) return;
    run_->request_pause();
}

void TrainingController::resume() {
    if (state_ != State::Paused || !run_) return;
    run_->request_resume();
}

void TrainingController::stop() {
    if ((!run_ && !job_) || state_ == State::Idle || state_ == State::Stopping) return;
    if (job_) job_->stop();
    else run_->request_stop();
    setState(State::Stopping);
}

void TrainingController::onEvent(const lf::TrainEvent& e) {
    if (abandoned_) return;
    if (state_ != State::Stopping) {
        if (e.kind == EventKind::Paused) setState(State::Paused);
        else if (e.kind == EventKind::Resumed) setState(State::Running);
    }
    Q_EMIT trainEvent(e);
}

// The run's end: weights into the session, a first scan's class list into the document.
void TrainingController::onDone(const lf::ui::TrainingOutcome& outcome) {
    if (worker_) worker_->deleteLater();
    worker_ = nullptr;
    if (job_) job_->deleteLater();
    job_ = nullptr;
    run_.reset();
    if (outcome.run) runId_ = outcome.run;
    if (!outcome.weights.isEmpty() && !abandoned_) session_->setWeights(outcome.weights.toStdString(), tr("run %1").arg(outcome.run));
    if (outcome.run) session_->notifyStoreChanged();  // the run's final status
    ProjectDocument* doc = session_->document();
    if (!abandoned_ && doc->project().dataset.kind == "image-folder" && doc->project().dataset.classes.empty() &&
        !outcome.classNames.isEmpty()) {
        DatasetBinding d = doc->project().dataset;
        for (const QString& c : outcome.classNames) d.classes.push_back(c.toStdString());
        doc->push(new SetTrainingCommand(doc, doc->project().training, d));
    }
    setState(State::Idle);
    if (outcome.status == RunStatus::Failed) Q_EMIT failed(outcome.message);
    Q_EMIT finished(outcome.status, outcome.message);
}

void TrainingController::setState(State s) {
    if (s == state_) return;
    state_ = s;
    Q_EMIT stateChanged(s);
}

}  // namespace lf::ui
