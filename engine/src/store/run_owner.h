#pragma once
// Which process is training a run. A run whose process was killed, or could not write its
// final status (a full disk), stays `running` in the store; readers compare the owner recorded
// with the processes alive on this machine and show such a run as `interrupted`.
#include <string>

namespace lf::store_detail {

// "HOST/PID/START": START (the process's start time in clock ticks since boot) tells a reused
// PID apart from the process that wrote the run.
std::string this_process_owner();

enum class OwnerState { Alive, Gone, Unknown };  // Unknown: no owner recorded, or another machine's
OwnerState owner_state(const std::string& owner);

}  // namespace lf::store_detail
