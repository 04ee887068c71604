#include "training/event_router.h"

#include <utility>

#include "layerforge/train/event_text.h"

namespace lf::ui {

namespace {

constexpr auto kStepLogInterval = std::chrono::seconds(2);  // the log shows a step line this often

}  // namespace

bool EventRouter::route(const TrainEvent& e, Clock::time_point now) {
    if (e.kind == EventKind::Step) return step(e, now);
    flush();
    if (e.kind != EventKind::Failed) {  // the controller reports failures as such
        if (std::string text = event_text(e); !text.empty()) sink_.log(QString::fromStdString(text));
    }
    sink_.event(e);
    return true;
}

bool EventRouter::step(const TrainEvent& e, Clock::time_point now) {
    pending_.push_back(e);
    if (now - lastStep_ < interval_) return false;
    lastStep_ = now;
    if (now - lastLog_ >= kStepLogInterval) {
        lastLog_ = now;
        sink_.log(QString::fromStdString(event_text(e)));
    }
    flush();
    sink_.event(e);
    return true;
}

void EventRouter::flush() {
    if (!pending_.empty()) sink_.steps(std::exchange(pending_, {}));
}

}  // namespace lf::ui
