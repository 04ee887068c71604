#pragma once
// Prints trainer events as progress lines or JSON objects.
#include "command.h"
#include "layerforge/train/trainer.h"

namespace lf::cli {

Json metrics_json(const Metrics& m);
std::string metrics_text(const Metrics& m);  // "loss 0.4123  accuracy 0.8512"

class ProgressPrinter : public TrainObserver {
public:
    explicit ProgressPrinter(const Reporter& out) : out_(out) {}
    void on_event(const TrainEvent& e) override;

private:
    const Reporter& out_;
};

}  // namespace lf::cli
