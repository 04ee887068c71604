#pragma once
// Lives on the training thread: runs one TrainingSession and turns what it reports into Qt
// signals, emitted on the controller's thread through its Mailbox. It takes every step (as the
// run store does) and passes them on as EventRouter says.
#include <QObject>
#include <memory>
#include <mutex>
#include <vector>

#include "layerforge/run/session.h"
#include "session/mailbox.h"
#include "training/event_router.h"
#include "training/training_types.h"

namespace lf::ui {

class TrainingWorker : public QObject, public TrainObserver, public SessionListener {
    Q_OBJECT
public:
    TrainingWorker(int eventIntervalMs, Mailbox* mailbox);
    // The session reports to this worker, so it is made after it. The lock hands the session,
    // made on the UI thread, to run() on the training thread.
    void setSession(std::shared_ptr<TrainingSession> session);

    Q_INVOKABLE void run();  // on the training thread; ends with `done`

    void on_event(const TrainEvent& e) override;
    bool wants_every_step() const override { return true; }
    void on_line(const std::string& text) override;
    void on_run_created(std::int64_t run, const std::string& store) override;
    void on_resumed(std::int64_t run, const CheckpointInfo& from) override;
    void on_checkpoint(const CheckpointInfo& c) override;

Q_SIGNALS:
    void runRecorded(qint64 runId);
    void trainEvent(const lf::TrainEvent& e);
    void stepsLogged(const std::vector<lf::TrainEvent>& steps);  // every step, in order
    void checkpointSaved(qint64 id);
    void logLine(const QString& text);
    void done(const lf::ui::TrainingOutcome& outcome);

private:
    void send(std::function<void()> emitOnUiThread) { mailbox_->post(std::move(emitOnUiThread)); }

    Mailbox* mailbox_;
    std::mutex sessionMutex_;
    std::shared_ptr<TrainingSession> session_;
    EventRouter events_;  // on the training thread
    qint64 run_ = 0;
};

}  // namespace lf::ui
