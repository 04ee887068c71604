#include "backend/cuda/oom_message.h"

#include <cstdio>

namespace lf {

namespace {

// Binary megabytes, as the arena's limit is set (MiB): "1,234.5 MiB" reads badly, so one decimal.
std::string mib(std::uint64_t bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f MiB", double(bytes) / (1024.0 * 1024.0));
    return buf;
}

}  // namespace

std::int64_t largest_batch_that_fits(const BatchFit& fit) {
    if (!fit.need || fit.batch <= 1 || fit.need(1) > fit.room) return 0;
    std::int64_t lo = 1, hi = fit.batch - 1;  // need(lo) fits; look for the last that does
    while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo + 1) / 2;
        if (fit.need(mid) <= fit.room) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

std::string out_of_memory_message(const std::string& device, const std::string& what, const ArenaRefusal& refusal,
                                  const std::optional<BatchFit>& fit) {
    std::string m = "out of GPU memory on " + device + " for " + what + ": it asked for " + mib(refusal.asked) + " and " +
                    mib(refusal.available) + " is free";
    m += refusal.by_limit ? " within the memory limit (training.gpu_memory_limit_mib, --gpu-memory-limit)"
                          : " on the device";
    if (!refusal.device_error.empty()) m += " (" + refusal.device_error + ")";
    if (fit) {
        const std::int64_t b = largest_batch_that_fits(*fit);
        if (b > 0)
            m += "; batch size " + std::to_string(b) + " fits (about " + mib(fit->need(b)) + " where batch size " +
                 std::to_string(fit->batch) + " needs " + mib(fit->need(fit->batch)) + ")";
        else
            m += "; not even batch size 1 fits (it needs " + mib(fit->need ? fit->need(1) : 0) +
                 "): make the model smaller" + (refusal.by_limit ? " or raise the limit" : "");
        return m;
    }
    return m + "; lower the batch size" + (refusal.by_limit ? " or raise the limit" : "");
}

}  // namespace lf
