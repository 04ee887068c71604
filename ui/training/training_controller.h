#pragma once
// Runs training for the studio on a background thread (a QThread with a TrainingWorker) so the
// GUI thread never waits on the engine; with options().processes > 1 as a job of layerforge-cli
// processes under mpirun (DistributedJob), whose events take the same path. start() trains a
// snapshot of the document's project as it is at that moment (an unsaved project records its
// run in StudioSession::storePath()); engine events come back as queued signals. When a run
// ends with weights they become the session's current weights, and every committed checkpoint
// calls notifyStoreChanged(). Opening another project stops a run: its remaining events would
// belong to the previous project.
#include <QObject>
#include <QList>
#include <QPointer>
#include <memory>
#include <vector>

#include "training/training_types.h"

class QThread;

namespace lf {
class TrainingSession;
}

namespace lf::ui {

class DistributedJob;
class Mailbox;
class StudioSession;
class TrainingWorker;

class TrainingController : public QObject {
    Q_OBJECT
public:
    enum class State { Idle, Running, Paused, Stopping };
    Q_ENUM(State)

    explicit TrainingController(StudioSession* session, QObject* parent = nullptr);
    ~TrainingController() override;  // stops a run and waits for it: only at application exit

    StudioSession* session() const { return session_; }
    const TrainingOptions& options() const { return options_; }
    void setOptions(const TrainingOptions& options) { options_ = options; }

    State state() const { return state_; }
    bool isActive() const { return state_ != State::Idle; }
    qint64 runId() const { return runId_; }  // the current or last run; 0 before any
    bool abandoned() const { return abandoned_; }  // the last run was stopped by opening another project
    // The run is a job of several processes (options().processes > 1): it cannot pause.
    bool isJob() const { return !job_.isNull(); }
    // The layerforge-cli a job's ranks run; empty (the default): the one beside the studio.
    void setCliPath(const QString& path) { cliPath_ = path; }

    // false (and a log line saying so) when a run is already going, or a job of processes
    // cannot start (jobProblem). Errors found later (the
    // graph, the data, the store) end the run with failed() and finished(RunStatus::Failed, ...).
    bool start();
    bool resumeFrom(qint64 checkpointId);  // continues that checkpoint's run
    void pause();
    void resume();
    void stop();

Q_SIGNALS:
    void stateChanged(lf::ui::TrainingController::State state);
    void started(qint64 runId);                 // the run is recorded in the store
    void trainEvent(const lf::TrainEvent& e);  // RunStarted, coalesced Steps, EpochEnd, Paused, ...
    void stepsLogged(const std::vector<lf::TrainEvent>& steps);  // every step, batched: for the charts
    void checkpointSaved(qint64 checkpointId);
    void rankThroughput(const QList<double>& imagesPerSecond);  // a job's ranks, at each shown step
    // Every run ends with finished(status, message): Finished, EarlyStopped, Stopped or Failed.
    void finished(lf::RunStatus status, const QString& message);
    void failed(const QString& message);  // before finished(RunStatus::Failed, ...)
    void logLine(const QString& text);

private:
    bool launch(const QString& resumeSpec);
    bool launchJob(const QString& resumeSpec);
    template <class Source>
    void connectSource(Source* source);
    void begin(const QString& resumeSpec);
    void onEvent(const lf::TrainEvent& e);
    void onDone(const lf::ui::TrainingOutcome& outcome);
    void setState(State s);

    StudioSession* session_;
    TrainingOptions options_;
    QThread* thread_;
    Mailbox* mailbox_;  // the worker's signals reach this thread through it
    QPointer<TrainingWorker> worker_;
    std::shared_ptr<TrainingSession> run_;
    QPointer<DistributedJob> job_;  // instead of worker_ and run_: a run of several processes
    QString cliPath_;
    State state_ = State::Idle;
    qint64 runId_ = 0;
    bool abandoned_ = false;  // another project was opened: the run stops, its events are dropped
};

}  // namespace lf::ui
