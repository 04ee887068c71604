#include "layerforge/core/memory.h"

#include <map>
#include <mutex>

namespace lf {

MemoryBreakdown& MemoryBreakdown::operator+=(const MemoryBreakdown& o) {
    weights += o.weights;
    gradients += o.gradients;
    optimizer_state += o.optimizer_state;
    activations += o.activations;
    workspaces += o.workspaces;
    lower_bound = lower_bound || o.lower_bound;
    return *this;
}

MemoryBreakdown& MemoryBreakdown::operator-=(const MemoryBreakdown& o) {
    weights -= o.weights;
    gradients -= o.gradients;
    optimizer_state -= o.optimizer_state;
    activations -= o.activations;
    workspaces -= o.workspaces;
    return *this;
}

namespace {

struct Account {
    MemoryBreakdown now, peak;
};

std::mutex& mutex() {
    static std::mutex m;
    return m;
}

std::map<std::string, Account>& accounts() {
    static std::map<std::string, Account> a;
    return a;
}

void add(const std::string& device, const MemoryBreakdown& b) {
    std::lock_guard lock(mutex());
    Account& a = accounts()[device];
    a.now += b;
    if (a.now.total() > a.peak.total()) a.peak = a.now;
}

void remove(const std::string& device, const MemoryBreakdown& b) {
    std::lock_guard lock(mutex());
    accounts()[device].now -= b;
}

}  // namespace

MemoryBreakdown memory_in_use(const std::string& device) {
    std::lock_guard lock(mutex());
    return accounts()[device].now;
}

MemoryBreakdown memory_peak(const std::string& device) {
    std::lock_guard lock(mutex());
    return accounts()[device].peak;
}

void reset_peak(const std::string& device) {
    std::lock_guard lock(mutex());
    Account& a = accounts()[device];
    a.peak = a.now;
}

MemoryLease::MemoryLease(const MemoryBreakdown& bytes, std::string device) : bytes_(bytes), device_(std::move(device)) {
    add(device_, bytes_);
}

MemoryLease::MemoryLease(const MemoryLease& o) : bytes_(o.bytes_), device_(o.device_) { add(device_, bytes_); }

MemoryLease& MemoryLease::operator=(const MemoryLease& o) {
    if (this != &o) {
        remove(device_, bytes_);
        bytes_ = o.bytes_;
        device_ = o.device_;
        add(device_, bytes_);
    }
    return *this;
}

MemoryLease::~MemoryLease() { remove(device_, bytes_); }

}  // namespace lf
