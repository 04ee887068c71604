#pragma once
// runs export-tensorboard and runs import-tensorboard (cmd_runs.cpp dispatches to them).
#include "command.h"

namespace lf::cli {

// The n-th positional argument as a run id; throws a usage error naming it (cmd_runs.cpp).
std::int64_t run_arg(const Args& args, std::size_t n);

int export_tensorboard(const Args& args, const Reporter& out, RunStore& store);
int import_tensorboard(const Args& args, const Reporter& out, RunStore& store);

}  // namespace lf::cli
