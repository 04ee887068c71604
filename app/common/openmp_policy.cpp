// OpenMP reads OMP_WAIT_POLICY when its runtime loads, before main, so setting it from main
// takes a restart. Why passive: with libgomp's default, oneDNN's idle threads spin for ~4 ms
// (300,000 pauses) after every primitive, taking the cores from the data workers and the GUI
// thread. On this project's 2-core machine the studio trained 14% slower than headless with
// the default and 0.2% with passive (bench/studio/dashboard_bench, README).
#include "openmp_policy.h"

#include <unistd.h>

#include <cstdlib>

namespace lf::app {

void ensure_passive_openmp(char** argv) {
    if (std::getenv("OMP_WAIT_POLICY")) return;
    setenv("OMP_WAIT_POLICY", "passive", 1);
    execv("/proc/self/exe", argv);  // on failure, carry on with the default policy
}

}  // namespace lf::app
