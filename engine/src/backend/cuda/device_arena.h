#pragma once
// Note [The device arena]
// Every byte the CUDA backend holds on a device comes from that device's arena: the device
// model's weights and gradients, each plan's buffers, the optimizer's state. Plans size their
// buffers once when built and take them in one allocation, so nothing is allocated per step.
// The arena keeps the account the gauges read ("this process's allocations") and applies the
// policy the tutorial's tf.config calls memory growth and memory_limit: grow on demand (the
// default), or never hold more than a fixed limit. Refusals name the request, what is free
// and, where the caller knows the plan's estimate, a batch size that fits (oom_message.h).
// The raw allocator is an interface so that this logic runs and is tested without a GPU.
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>

namespace lf {

struct ArenaPolicy {
    std::uint64_t limit_bytes = 0;  // 0: grow on demand; else never hold more than this
    bool grows() const { return limit_bytes == 0; }
};

// The device's own allocator (cudaMalloc / cudaFree / cudaMemGetInfo in the CUDA backend).
class RawDeviceMemory {
public:
    virtual ~RawDeviceMemory() = default;
    // Null when the device refuses; `error` then says why (the CUDA status text).
    virtual void* allocate(std::size_t bytes, std::string& error) = 0;
    virtual void release(void* p) = 0;
    virtual std::uint64_t free_bytes() const = 0;  // on the whole device, now
};

// Why an allocation was refused: the numbers an out-of-memory message needs.
struct ArenaRefusal {
    std::uint64_t asked = 0;
    std::uint64_t available = 0;  // what the arena could still give (device free, within the limit)
    bool by_limit = false;        // refused by the policy's limit, not by the device
    std::string device_error;     // the device's own text, when the device refused
};

class DeviceArena {
public:
    DeviceArena(std::string device, RawDeviceMemory& raw, ArenaPolicy policy = {});
    DeviceArena(const DeviceArena&) = delete;
    DeviceArena& operator=(const DeviceArena&) = delete;

    const std::string& device() const { return device_; }
    ArenaPolicy policy() const;
    // Applies to later allocations; what is held stays (a lower limit only stops growth).
    void set_policy(ArenaPolicy policy);

    // Null with `refusal` filled when the policy or the device says no.
    void* allocate(std::size_t bytes, ArenaRefusal& refusal);
    void release(void* p, std::size_t bytes);

    std::uint64_t held() const;  // bytes allocated through this arena now
    std::uint64_t peak() const;  // the most it held at once
    std::uint64_t available() const;  // what allocate() could still give, at most

private:
    std::uint64_t available_locked() const;
    std::string device_;
    RawDeviceMemory& raw_;
    mutable std::mutex mutex_;
    ArenaPolicy policy_;
    std::uint64_t held_ = 0, peak_ = 0;
};

}  // namespace lf
