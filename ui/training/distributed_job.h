#pragma once
// A multi-process run: mpirun with N layerforge-cli ranks in a QProcess (asynchronous: the GUI
// thread never waits on it). Rank 0's JSON lines become the same signals the in-process worker
// emits, so the controller and the dashboard cannot tell the sources apart. Stop sends SIGINT
// to mpirun, which ends its ranks; a job that outlives the grace period is killed. A job still
// running when this object goes (the studio closes) is ended the same way.
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
    static constexpr int kGraceMs = 10000;  // after Stop, before the job is killed

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
    TrainingOutcome outcome(int exitCode) const;

    ProcessCommand command_;
    QProcess* process_;
    QTimer* kill_;
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
    bool stopping_ = false, ended_ = false;
};

}  // namespace lf::ui
