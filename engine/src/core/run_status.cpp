#include "layerforge/core/run_status.h"

#include <iterator>

namespace lf {

namespace {

constexpr const char* kNames[] = {"running", "finished", "early_stopped", "stopped", "failed", "interrupted"};
static_assert(std::size(kNames) == std::size_t(RunStatus::Interrupted) + 1, "one name per RunStatus");

}  // namespace

const char* to_string(RunStatus s) { return kNames[std::size_t(s)]; }

std::optional<RunStatus> parse_run_status(std::string_view text) {
    for (std::size_t i = 0; i < std::size(kNames); ++i)
        if (text == kNames[i]) return RunStatus(i);
    return std::nullopt;
}

}  // namespace lf
