#pragma once
// Where a training run stands: one enum for the trainer's result, the run store, the CLI and
// the studio. The run store keeps to_string's text, so stores written before it read the same.
#include <optional>
#include <string_view>

namespace lf {

enum class RunStatus {
    Running,       // training now, or resumed
    Finished,      // every epoch ran
    EarlyStopped,  // EarlyStopping ended it
    Stopped,       // stopped by request
    Failed,        // an error ended it
    Interrupted,   // stored as running, but the process training it has ended (killed, disk full)
};

// "running", "finished", "early_stopped", "stopped", "failed", "interrupted"
const char* to_string(RunStatus s);
// The status that to_string spells `text`; nullopt for any other text.
std::optional<RunStatus> parse_run_status(std::string_view text);

}  // namespace lf
