#include "backend/cuda/device_arena.h"

#include <algorithm>

namespace lf {

DeviceArena::DeviceArena(std::string device, RawDeviceMemory& raw, ArenaPolicy policy)
    : device_(std::move(device)), raw_(raw), policy_(policy) {}

ArenaPolicy DeviceArena::policy() const {
    std::lock_guard lock(mutex_);
    return policy_;
}

void DeviceArena::set_policy(ArenaPolicy policy) {
    std::lock_guard lock(mutex_);
    policy_ = policy;
}

std::uint64_t DeviceArena::available_locked() const {
    const std::uint64_t device_free = raw_.free_bytes();
    if (policy_.grows()) return device_free;
    const std::uint64_t room = policy_.limit_bytes > held_ ? policy_.limit_bytes - held_ : 0;
    return std::min(room, device_free);
}

std::uint64_t DeviceArena::available() const {
    std::lock_guard lock(mutex_);
    return available_locked();
}

void* DeviceArena::allocate(std::size_t bytes, ArenaRefusal& refusal) {
    std::lock_guard lock(mutex_);
    if (!policy_.grows() && held_ + bytes > policy_.limit_bytes) {
        refusal = {bytes, available_locked(), true, ""};
        return nullptr;
    }
    std::string error;
    void* p = raw_.allocate(bytes, error);
    if (!p) {
        refusal = {bytes, available_locked(), false, error};
        return nullptr;
    }
    held_ += bytes;
    peak_ = std::max(peak_, held_);
    return p;
}

void DeviceArena::release(void* p, std::size_t bytes) {
    if (!p) return;
    std::lock_guard lock(mutex_);
    raw_.release(p);
    held_ -= std::min<std::uint64_t>(held_, bytes);
}

std::uint64_t DeviceArena::held() const {
    std::lock_guard lock(mutex_);
    return held_;
}

std::uint64_t DeviceArena::peak() const {
    std::lock_guard lock(mutex_);
    return peak_;
}

}  // namespace lf
