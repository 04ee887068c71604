#pragma once
// A CUDA device model's gradient exchange: the device's gradient buffer summed over the ranks'
// GPUs by NCCL (the module's collective entries), never through the host. The clique is set up
// with rank 0's id, sent through the host communicator; its waits run under that
// communicator's deadline, so a lost peer ends the job with its name instead of a hang.
#include "backend/cuda/cuda_context.h"
#include "layerforge/backend/gradient_exchange.h"

namespace lf {

class CudaGradientExchange final : public GradientExchange {
public:
    // Every rank constructs one at once; throws lf::Error when NCCL is missing or refuses.
    CudaGradientExchange(Communicator& world, const CudaContext& context, float* device_grads);
    ~CudaGradientExchange() override;

    void start_sum(std::size_t begin, std::size_t end, float scale) override;
    void progress() override {}  // NCCL moves on its own stream
    void wait_all(Collective what) override;
    void scale(std::size_t n, float factor) override;

private:
    Communicator& world_;
    const CudaContext& context_;
    float* grads_;
    lf_cuda_collective* clique_ = nullptr;
};

}  // namespace lf
