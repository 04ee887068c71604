#include "training/training_worker.h"

#include <new>
#include <utility>

#include "layerforge/train/event_text.h"

namespace lf::ui {

namespace {

constexpr auto kStepLogInterval = std::chrono::seconds(2);  // the log shows a step line this often

}  // namespace

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

void TrainingWorker::on_event(const TrainEvent& e) {
    if (e.kind == EventKind::Step) return onStep(e);
    flushSteps();
    if (e.kind != EventKind::Failed) {  // the controller reports failures as such
        if (std::string text = event_text(e); !text.empty())
            send([this, line = QString::fromStdString(text)] { Q_EMIT logLine(line); });
    }
    send([this, e] { Q_EMIT trainEvent(e); });
}

void TrainingWorker::onStep(const TrainEvent& e) {
    pending_.push_back(e);
    const auto now = Clock::now();
    if (now - lastStep_ < interval_) return;
    lastStep_ = now;
    if (now - lastLog_ >= kStepLogInterval) {
        lastLog_ = now;
        send([this, text = QString::fromStdString(event_text(e))] { Q_EMIT logLine(text); });
    }
    flushSteps();
    send([this, e] { Q_EMIT trainEvent(e); });
}

void TrainingWorker::flushSteps() {
    if (pending_.empty()) return;
    send([this, steps = std::exchange(pending_, {})] { Q_EMIT stepsLogged(steps); });
}

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
