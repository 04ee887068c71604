#include "training/distributed_job.h"

#include <QFile>
#include <QRegularExpression>
#include <QTimer>
#include <csignal>

namespace lf::ui {

namespace {

// What a rank that fails prints before Open MPI's own MPI_ABORT banner.
bool namesRank(const QString& line) {
    static const QRegularExpression rank(R"(^rank \d+ \(host [^)]*\): )");
    return rank.match(line).hasMatch();
}

int stopGraceMs = DistributedJob::kStopGraceMs;
int killGraceMs = DistributedJob::kKillGraceMs;

}  // namespace

void DistributedJob::setGracePeriods(int stopMs, int killMs) {
    stopGraceMs = stopMs > 0 ? stopMs : kStopGraceMs;
    killGraceMs = killMs > 0 ? killMs : kKillGraceMs;
}

DistributedJob::DistributedJob(ProcessCommand command, int eventIntervalMs, QObject* parent)
    : QObject(parent), command_(std::move(command)), process_(new QProcess(this)), force_(new QTimer(this)),
      kill_(new QTimer(this)),
      events_(std::chrono::milliseconds(eventIntervalMs),
              {[this](const QString& line) { Q_EMIT logLine(line); },
               [this](std::vector<TrainEvent> steps) { Q_EMIT stepsLogged(steps); },
               [this](const TrainEvent& e) { Q_EMIT trainEvent(e); }}) {
    force_->setSingleShot(true);
    connect(force_, &QTimer::timeout, this, &DistributedJob::force);
    kill_->setSingleShot(true);
    connect(kill_, &QTimer::timeout, process_, &QProcess::kill);
    connect(process_, &QProcess::readyReadStandardOutput, this, &DistributedJob::readOutput);
    connect(process_, &QProcess::readyReadStandardError, this, &DistributedJob::readErrors);
    connect(process_, &QProcess::finished, this, &DistributedJob::end);
    connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e != QProcess::FailedToStart || ended_) return;
        ended_ = true;
        TrainingOutcome out;
        out.message = tr("%1 could not be started; check that Open MPI is installed (apt install openmpi-bin)")
                          .arg(command_.program);
        Q_EMIT done(out);
    });
}

DistributedJob::~DistributedJob() {
    if (process_->state() == QProcess::NotRunning) return;
    // The studio is closing: mpirun forwards SIGTERM to its ranks; a job that ignores it is killed.
    process_->disconnect(this);
    process_->terminate();
    if (!process_->waitForFinished(3000)) {
        process_->kill();
        process_->waitForFinished(1000);
    }
}

void DistributedJob::start() {
    // Ranks that wait for a message yield the core instead of spinning: they share it with the studio.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!env.contains("OMPI_MCA_mpi_yield_when_idle")) env.insert("OMPI_MCA_mpi_yield_when_idle", "1");
    process_->setProcessEnvironment(env);
    process_->start(command_.program, command_.arguments);
}

void DistributedJob::stop() {
    if (stopping_ || process_->state() == QProcess::NotRunning) return;
    stopping_ = true;
    // mpirun forwards SIGUSR1 to every rank: layerforge-cli stops after the step, as on Ctrl-C.
    ::kill(pid_t(process_->processId()), SIGUSR1);
    force_->start(stopGraceMs);
}

void DistributedJob::force() {
    if (ended_ || process_->state() == QProcess::NotRunning) return;
    forced_ = true;
    Q_EMIT logLine(tr("the training processes did not stop within %1 s: ending them").arg(stopGraceMs / 1000.0));
    ::kill(pid_t(process_->processId()), SIGINT);  // mpirun ends its ranks on SIGINT
    kill_->start(killGraceMs);
}

void DistributedJob::readOutput() {
    for (const CliEvent& c : parser_.feed(process_->readAllStandardOutput())) handle(c);
}

void DistributedJob::readErrors() {
    errors_ += process_->readAllStandardError();
    qsizetype start = 0;
    for (qsizetype end; (end = errors_.indexOf('\n', start)) >= 0; start = end + 1) {
        const QString line = QString::fromUtf8(errors_.sliced(start, end - start)).trimmed();
        if (line.isEmpty()) continue;
        if (namesRank(line)) rankErrors_ << line;
        Q_EMIT logLine(line);  // Open MPI's own lines stay in the log, for whoever diagnoses the job
    }
    errors_.remove(0, start);
}

void DistributedJob::handle(const CliEvent& c) {
    switch (c.type) {
    case CliEvent::Type::Train:
        if (c.train.kind == EventKind::EpochEnd) routeEpochsLastStep(c.train);
        if (c.train.kind == EventKind::Step) lastStep_ = c.train;
        if (events_.route(c.train) && !c.rankImagesPerSecond.isEmpty()) Q_EMIT rankThroughput(c.rankImagesPerSecond);
        if (c.train.kind == EventKind::Failed) failed_ = QString::fromStdString(c.train.message);
        // The ranks took the stop (or the run ended anyway): they finish up on their own.
        if (stopping_ && !forced_ &&
            (c.train.kind == EventKind::Stopped || c.train.kind == EventKind::Finished || c.train.kind == EventKind::Failed))
            force_->stop();
        break;
    case CliEvent::Type::Run:
        run_ = c.id;
        Q_EMIT runRecorded(c.id);
        break;
    case CliEvent::Type::Checkpoint: Q_EMIT checkpointSaved(c.id); break;
    case CliEvent::Type::Data: classes_ = c.classes; break;
    case CliEvent::Type::Result: result_ = c; break;
    case CliEvent::Type::Error: error_ = c.message; break;
    }
}

// The CLI reports an epoch's last step by its EpochEnd only; the charts get it as a step, as an
// in-process run gives it: the epoch's training metrics are the running means at that step, and
// the learning rate is the step before's (the CLI does not print it at epoch ends).
void DistributedJob::routeEpochsLastStep(const TrainEvent& epochEnd) {
    if (!lastStep_ || epochEnd.step <= lastStep_->step) return;
    TrainEvent step = *lastStep_;
    step.epoch = epochEnd.epoch;
    step.step = epochEnd.step;
    step.elapsed_seconds = epochEnd.elapsed_seconds;
    step.metrics.clear();
    for (const auto& m : epochEnd.metrics)
        if (m.first.rfind("val_", 0) != 0) step.metrics.push_back(m);
    lastStep_ = step;
    events_.route(step);
}

void DistributedJob::end(int exitCode, QProcess::ExitStatus) {
    if (ended_) return;
    ended_ = true;
    force_->stop();
    kill_->stop();
    readOutput();
    for (const CliEvent& c : parser_.finish()) handle(c);
    readErrors();
    events_.flush();
    Q_EMIT done(outcome(exitCode));
}

TrainingOutcome DistributedJob::outcome(int exitCode) const {
    TrainingOutcome out;
    out.run = result_ && result_->id ? result_->id : run_;
    out.classNames = classes_;
    if (result_ && result_->status != RunStatus::Failed) {
        out.status = result_->status;
        out.message = result_->message;
        QFile weights(result_->path);
        if (!result_->path.isEmpty() && weights.open(QIODevice::ReadOnly)) out.weights = weights.readAll();
        return out;
    }
    if (stopping_) {
        out.status = RunStatus::Stopped;
        out.message = tr("stopped: the processes were ended; the run keeps its last checkpoint");
        return out;
    }
    out.status = RunStatus::Failed;
    if (!rankErrors_.isEmpty()) out.message = rankErrors_.join('\n');
    else if (!error_.isEmpty()) out.message = error_;
    else if (result_ && !result_->message.isEmpty()) out.message = result_->message;
    else if (!failed_.isEmpty()) out.message = failed_;
    else out.message = tr("the training processes ended unexpectedly (exit code %1); the log has mpirun's output").arg(exitCode);
    return out;
}

}  // namespace lf::ui
