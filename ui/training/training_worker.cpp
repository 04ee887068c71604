#include "training/training_worker.h"

#include <new>
#include <utility>

namespace lf::ui {

TrainingWorker::TrainingWorker(int eventIntervalMs, Mailbox* mailbox)
    : mailbox_(mailbox),
      events_(std::chrono::milliseconds(eventIntervalMs),
              {[this](const QString& line) { send([this, line] { Q_EMIT logLine(line); }); },
               [this](std::vector<TrainEvent> steps) { send([this, steps = std::move(steps)] { Q_EMIT stepsLogged(steps); }); },
               [this](const TrainEvent& e) { send([this, e] { Q_EMIT trainEvent(e); }); }}) {}

void TrainingWorker::setSession(std::shared_ptr<TrainingSession> session) {
    std::lock_guard lock(sessionMutex_);
    session_ = std::move(session);
}

void TrainingWorker::run() {
    std::shared_ptr<TrainingSession> session;
    {
        std::lock_guard lock(sessionMutex_);
        session = session_;
    }
    TrainingOutcome out;
    try {
        SessionResult r = session->run();
        out.status = r.fit.status;
        out.message = QString::fromStdString(r.fit.message);
        out.run = r.run;
        out.weights = QByteArray::fromStdString(r.weights);
        for (const std::string& c : r.class_names) out.classNames << QString::fromStdString(c);
    } catch (const std::bad_alloc&) {
        out.status = RunStatus::Failed;
        out.message = tr("out of memory: lower the batch size or the model's size, then start again");
    } catch (const std::exception& e) {
        out.status = RunStatus::Failed;
        out.message = QString::fromUtf8(e.what());
    }
    if (out.run == 0) out.run = run_;
    send([this, out] { Q_EMIT done(out); });
}

void TrainingWorker::on_event(const TrainEvent& e) { events_.route(e); }

void TrainingWorker::on_line(const std::string& text) {
    send([this, line = QString::fromStdString(text)] { Q_EMIT logLine(line); });
}

void TrainingWorker::on_run_created(std::int64_t run, const std::string&) {
    run_ = run;
    send([this, run] { Q_EMIT runRecorded(run); });
}

void TrainingWorker::on_resumed(std::int64_t run, const CheckpointInfo&) {
    run_ = run;
    send([this, run] { Q_EMIT runRecorded(run); });
}

void TrainingWorker::on_checkpoint(const CheckpointInfo& c) {
    send([this, id = c.id] { Q_EMIT checkpointSaved(id); });
}

}  // namespace lf::ui
