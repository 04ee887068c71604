#pragma once
// A multi-process run: mpirun with N layerforge-cli ranks in a QProcess (asynchronous: the GUI
// thread never waits on it). Rank 0's JSON lines become the same signals the in-process worker
// emits, so the controller and the dashboard cannot tell the sources apart.
//
// Stop is a clean stop first: SIGUSR1 to mpirun, which forwards it to every rank; the ranks
// agree on the step to stop at, write the end-of-run checkpoint, run the test pass and save the
// weights, and the run ends "stopped" with its weights, as a single-process Stop. Ranks that
// have not reported the stop (a Stopped event) within stopGraceMs are ended by force: SIGINT to
// mpirun (it sends SIGTERM, then SIGKILL, to its ranks), and mpirun itself is killed after
// killGraceMs more; the run then keeps its last checkpoint. Once the ranks have reported the
// stop they finish up without a deadline (a rank that hangs ends the job through --rank-timeout).
// A job still running when this object goes (the studio closes) gets SIGTERM, then is killed.
#include <QObject>
#include <QProcess>
#include <QStringList>
#include <optional>

#include "training/cli_event_parser.h"
#include "training/mpi_command.h"
#include "training/event_router.h"
#include "training/training_types.h"

class QTimer;

namespace lf::ui {

class DistributedJob : public QObject {
    Q_OBJECT
public:
    DistributedJob(ProcessCommand command, int eventIntervalMs, QObject* parent = nullptr);
    ~DistributedJob() override;

    const ProcessCommand& command() const { return command_; }
    void start();  // ends with `done`, also when mpirun cannot be started
    void stop();
    // After Stop: how long the ranks have to report the stop before they are ended by force,
    // and how long mpirun has after that SIGINT before it is killed.
    static constexpr int kStopGraceMs = 60000;
    static constexpr int kKillGraceMs = 10000;
    // Shorter periods, for tests that check the forced path (values <= 0 restore the defaults).
    static void setGracePeriods(int stopMs, int killMs);

Q_SIGNALS:
    void runRecorded(qint64 runId);
    void trainEvent(const lf::TrainEvent& e);
    void stepsLogged(const std::vector<lf::TrainEvent>& steps);  // every step, in order
    void rankThroughput(const QList<double>& imagesPerSecond);  // by rank, at each shown step
    void checkpointSaved(qint64 id);
    void logLine(const QString& text);
    void done(const lf::ui::TrainingOutcome& outcome);

private:
    void readOutput();
    void readErrors();
    void handle(const CliEvent& c);
    void routeEpochsLastStep(const TrainEvent& epochEnd);
    void end(int exitCode, QProcess::ExitStatus status);
    void force();  // the clean stop took too long: SIGINT to mpirun, then kill
    TrainingOutcome outcome(int exitCode) const;

    ProcessCommand command_;
    QProcess* process_;
    QTimer* force_;  // started by Stop: the clean stop's deadline
    QTimer* kill_;   // started by force(): mpirun's
    CliEventParser parser_;
    EventRouter events_;
    QByteArray errors_;       // stderr not yet ended by a newline
    QStringList rankErrors_;  // "rank 1 (host vm): ..." lines: what a failed job tells the user
    QString error_;           // the CLI's error object, when rank 0 printed one
    QString failed_;          // a Failed event's message
    std::optional<CliEvent> result_;
    QStringList classes_;
    std::optional<TrainEvent> lastStep_;
    qint64 run_ = 0;
    bool stopping_ = false, forced_ = false, ended_ = false;
};

}  // namespace lf::ui
