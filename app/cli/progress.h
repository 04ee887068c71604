#pragma once
// Prints trainer events as progress lines or JSON objects.
#include "command.h"
#include "layerforge/train/event_text.h"
#include "layerforge/train/trainer.h"

namespace lf::cli {

Json metrics_json(const Metrics& m);

class ProgressPrinter : public TrainObserver {
public:
    explicit ProgressPrinter(const Reporter& out) : out_(out) {}
    void on_event(const TrainEvent& e) override;

private:
    const Reporter& out_;
};

}  // namespace lf::cli
