// DeviceModel's default gradient exchange: the gradients are the host model's array, summed by
// the communicator's own non-blocking collectives (MPI on the CPU).
#include "layerforge/backend/backend.h"

#include <vector>

namespace lf {

namespace {

class HostGradientExchange final : public GradientExchange {
public:
    HostGradientExchange(Communicator& world, std::vector<float>& grads) : world_(world), grads_(grads) {}

    void start_sum(std::size_t begin, std::size_t end, float scale) override {
        float* g = grads_.data() + begin;
        const std::size_t n = end - begin;
        if (scale != 1.f)
            for (std::size_t i = 0; i < n; ++i) g[i] *= scale;
        world_.start_sum(g, n);
    }
    void progress() override { world_.progress(); }
    void wait_all(Collective what) override { world_.wait_all(what); }
    void scale(std::size_t n, float factor) override {
        float* g = grads_.data();
        for (std::size_t i = 0; i < n; ++i) g[i] = factor == 0 ? 0.f : g[i] * factor;  // 0: no NaN left from before
    }

private:
    Communicator& world_;
    std::vector<float>& grads_;
};

}  // namespace

std::unique_ptr<GradientExchange> DeviceModel::gradient_exchange(Communicator& world) {
    return std::make_unique<HostGradientExchange>(world, model().grads());
}

}  // namespace lf
