#pragma once
// Training events as the one-line progress text that the CLI prints and the studio's log shows.
#include <string>

#include "layerforge/train/trainer.h"

namespace lf {

std::string metrics_text(const Metrics& m);  // "loss 0.4123  accuracy 0.8512" (lr left out)
std::string duration_text(double seconds);   // "1:05", "2:03:04"
// "epoch 1/5  step 20/60  loss ...  812 img/s  ETA 0:41"; empty for events that say nothing.
std::string event_text(const TrainEvent& e);

}  // namespace lf
