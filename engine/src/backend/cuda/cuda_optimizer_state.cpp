#include "backend/cuda/cuda_optimizer_state.h"

namespace lf {

std::array<float*, 2> CudaOptimizerState::device_arrays(const UpdateStep& step, std::size_t n) {
    if (step.state != host_ || n != n_) {
        for (std::size_t i = 0; i < 2; ++i) {
            device_[i] = DeviceBuffer();
            if (step.state[i])
                device_[i] = DeviceBuffer(arena_, n * sizeof(float), {.optimizer_state = n * sizeof(float)},
                                          "the optimizer's state");
        }
        host_ = step.state;
        n_ = n;
        stale_ = true;
    }
    if (stale_) {
        for (std::size_t i = 0; i < 2; ++i)
            if (host_[i])
                ctx_.run([&](lf_cuda_error* e) {
                    return ctx_.api().copy_to_device(ctx_.get(), device_[i].data(), host_[i], n_ * sizeof(float), e);
                }, "copying the optimizer's state to the device");
        stale_ = false;
    }
    return {device_[0].floats(), device_[1].floats()};
}

void CudaOptimizerState::to_host() const {
    if (stale_) return;  // the host arrays are newer (or no device step ran)
    for (std::size_t i = 0; i < 2; ++i)
        if (host_[i])
            ctx_.run([&](lf_cuda_error* e) {
                return ctx_.api().copy_to_host(ctx_.get(), host_[i], device_[i].data(), n_ * sizeof(float), e);
            }, "copying the optimizer's state from the device");
}

}  // namespace lf
