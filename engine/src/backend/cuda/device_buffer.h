#pragma once
// A block of device memory from an arena, returned when it goes; its bytes count in the
// engine's account of the device (core/memory.h) under the purpose it was taken for.
#include <cstddef>
#include <optional>
#include <string>

#include "backend/cuda/device_arena.h"
#include "backend/cuda/oom_message.h"
#include "layerforge/core/memory.h"

namespace lf {

class DeviceBuffer {
public:
    DeviceBuffer() = default;
    // Throws lf::Error (Runtime) with out_of_memory_message() when the arena refuses. `account`
    // says which of the engine's categories the bytes are; only its total is taken from `bytes`.
    DeviceBuffer(DeviceArena& arena, std::size_t bytes, const MemoryBreakdown& account, const std::string& what,
                 const std::optional<BatchFit>& fit = std::nullopt);
    ~DeviceBuffer();
    DeviceBuffer(DeviceBuffer&& o);
    DeviceBuffer& operator=(DeviceBuffer&& o);

    float* floats() const { return static_cast<float*>(ptr_); }
    void* data() const { return ptr_; }
    std::size_t bytes() const { return bytes_; }

private:
    void reset();
    DeviceArena* arena_ = nullptr;
    void* ptr_ = nullptr;
    std::size_t bytes_ = 0;
    MemoryLease lease_;
};

}  // namespace lf
