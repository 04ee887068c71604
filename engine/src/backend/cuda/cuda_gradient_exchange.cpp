#include "backend/cuda/cuda_gradient_exchange.h"

#include "layerforge/core/error.h"

namespace lf {

namespace {

constexpr Collective kSetUp{"the GPUs' NCCL set-up", -1, true};

// Rank 0's clique id; "" when rank 0 could not make one (it reports why itself).
std::string clique_id(Communicator& world, const CudaContext& c) {
    std::string id;
    std::string failure;
    if (world.rank() == 0) {
        unsigned char bytes[LF_CUDA_COLLECTIVE_ID_BYTES] = {};
        int version = 0;
        lf_cuda_error e{};
        if (c.api().collective_id(bytes, &version, &e) == 0) id.assign(reinterpret_cast<char*>(bytes), sizeof bytes);
        else failure = e.text;
    }
    world.broadcast(id, 0, kSetUp);
    if (!failure.empty()) throw runtime_error("data-parallel training on " + c.device() + ": " + failure);
    if (id.size() != LF_CUDA_COLLECTIVE_ID_BYTES)
        throw runtime_error("data-parallel training on " + c.device() + ": rank 0 could not set up NCCL (see its message)");
    return id;
}

}  // namespace

CudaGradientExchange::CudaGradientExchange(Communicator& world, const CudaContext& context, float* device_grads)
    : world_(world), context_(context), grads_(device_grads) {
    const std::string id = clique_id(world, context);
    lf_cuda_error e{};
    clique_ = context.api().collective_create(context.get(), reinterpret_cast<const unsigned char*>(id.data()),
                                              world.rank(), world.size(), &e);
    if (!clique_)
        throw runtime_error("rank " + std::to_string(world.rank()) + " of " + std::to_string(world.size()) +
                            " could not join the GPUs' NCCL clique on " + context.device() + " (host " +
                            world.host(world.rank()) + "): " + e.text +
                            ". Each process needs a GPU of its own: --device cuda gives each the GPU of its rank on its host");
}

CudaGradientExchange::~CudaGradientExchange() { context_.api().collective_destroy(clique_, 0); }

void CudaGradientExchange::start_sum(std::size_t begin, std::size_t end, float scale) {
    context_.run([&](lf_cuda_error* e) {
        return context_.api().collective_sum(clique_, grads_ + begin, end - begin, scale, e);
    }, "the gradients' sum over the GPUs");
}

void CudaGradientExchange::wait_all(Collective what) {
    context_.run([&](lf_cuda_error* e) { return context_.api().collective_join(clique_, e); }, "joining the GPUs' sums");
    world_.wait_until([&] {
        int done = 0;
        context_.run([&](lf_cuda_error* e) { return context_.api().collective_done(clique_, &done, e); },
                     "the gradients' sum over the GPUs");
        return done != 0;
    }, what);
}

void CudaGradientExchange::scale(std::size_t n, float factor) {
    context_.run([&](lf_cuda_error* e) {
        return factor == 0 ? context_.api().fill(context_.get(), grads_, 0.f, n, e)
                           : context_.api().scale(context_.get(), grads_, factor, n, e);
    }, "scaling the gradients");
}

}  // namespace lf
