#pragma once
// runs tag|untag|star|unstar|note|delete (cmd_runs.cpp dispatches to them): the explorer's edits
// from the command line.
#include "command.h"

namespace lf::cli {

int edit_runs(const std::string& sub, const Args& args, const Reporter& out, RunStore& store);

}  // namespace lf::cli
