#pragma once
// How a run's events reach the GUI thread, the same for both sources (the in-process worker and
// a multi-process job's output): every step reaches the charts, in batches of one interval,
// while the progress gets one Step event per interval and the log one line per 2 s; other
// events always pass, after the steps before them, with their log line (a failure's message is
// the controller's to report).
#include <QString>
#include <chrono>
#include <functional>
#include <vector>

#include "layerforge/train/trainer.h"

namespace lf::ui {

class EventRouter {
public:
    using Clock = std::chrono::steady_clock;
    struct Sink {
        std::function<void(const QString&)> log;
        std::function<void(std::vector<TrainEvent>)> steps;  // for the charts
        std::function<void(const TrainEvent&)> event;        // for the progress, the log, the controller
    };
    EventRouter(std::chrono::milliseconds interval, Sink sink) : interval_(interval), sink_(std::move(sink)) {}

    // Returns true when `e` was passed on (a step may wait for the end of its interval).
    bool route(const TrainEvent& e, Clock::time_point now = Clock::now());
    void flush();  // the steps not yet sent (a job that ends without a last event)

private:
    bool step(const TrainEvent& e, Clock::time_point now);

    std::chrono::milliseconds interval_;
    Sink sink_;
    Clock::time_point lastStep_{}, lastLog_{};
    std::vector<TrainEvent> pending_;  // steps not yet sent to the charts
};

}  // namespace lf::ui
