// Process set-up shared by the studio and the CLI.
#pragma once

namespace lf::app {

// Starts this process again with OMP_WAIT_POLICY=passive unless the user chose a policy.
// Call it first in main, with main's argv.
void ensure_passive_openmp(char** argv);

}  // namespace lf::app
