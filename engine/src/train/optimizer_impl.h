#pragma once
// Shared base for the optimizers: named state buffers sized by bind(); the host step, the loop
// of the step take_step() returns (backend/host_update.h); factory hooks.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "layerforge/core/memory.h"
#include "layerforge/train/optimizer.h"
#include "train/param_reader.h"


namespace lf::train_detail {

class BufferedOptimizer : public Optimizer {
public:
    void bind(std::size_t n) override;
    void step(float* w, const float* g, std::size_t n, double lr) final;
    std::optional<UpdateStep> take_step(std::size_t n, double lr) override = 0;  // every rule has one
    std::vector<std::pair<std::string, std::vector<float>*>> state() override;

protected:
    // Registers a zero-initialised state buffer; returns its index for buffer().
    std::size_t add_buffer(std::string name);
    float* buffer(std::size_t index) { return buffers_[index].second.data(); }
    // Throws lf::runtime_error unless bind(m) with m >= n came first, so step() never writes out of bounds.
    void check_bound(std::size_t n) const;

private:
    std::vector<std::pair<std::string, std::vector<float>>> buffers_;
    std::size_t bound_ = 0;
    bool is_bound_ = false;
    MemoryLease lease_;  // the state buffers
};

std::unique_ptr<Optimizer> make_sgd(const Params& params);
std::unique_ptr<Optimizer> make_adam(const std::string& type, const Params& params);  // Adam, AdamW
std::unique_ptr<Optimizer> make_rmsprop(const Params& params);

}  // namespace lf::train_detail
