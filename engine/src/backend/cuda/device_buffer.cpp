#include "backend/cuda/device_buffer.h"

#include <utility>

#include "layerforge/core/error.h"

namespace lf {

DeviceBuffer::DeviceBuffer(DeviceArena& arena, std::size_t bytes, const MemoryBreakdown& account,
                           const std::string& what, const std::optional<BatchFit>& fit)
    : arena_(&arena), bytes_(bytes) {
    if (bytes == 0) return;
    ArenaRefusal refusal;
    ptr_ = arena.allocate(bytes, refusal);
    if (!ptr_) throw runtime_error(out_of_memory_message(arena.device(), what, refusal, fit));
    lease_ = MemoryLease(account, arena.device());
}

DeviceBuffer::~DeviceBuffer() { reset(); }

DeviceBuffer::DeviceBuffer(DeviceBuffer&& o)
    : arena_(std::exchange(o.arena_, nullptr)), ptr_(std::exchange(o.ptr_, nullptr)),
      bytes_(std::exchange(o.bytes_, 0)), lease_(std::move(o.lease_)) {
    o.lease_ = MemoryLease();
}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) {
    if (this != &o) {
        reset();
        arena_ = std::exchange(o.arena_, nullptr);
        ptr_ = std::exchange(o.ptr_, nullptr);
        bytes_ = std::exchange(o.bytes_, 0);
        lease_ = std::move(o.lease_);
        o.lease_ = MemoryLease();
    }
    return *this;
}

void DeviceBuffer::reset() {
    if (arena_ && ptr_) arena_->release(ptr_, bytes_);
    ptr_ = nullptr;
    bytes_ = 0;
    lease_ = MemoryLease();
}

}  // namespace lf
