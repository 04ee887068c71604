// Optimizer factory and the state-buffer plumbing the optimizers share.
#include "backend/host_update.h"
#include "core/slices.h"
#include "layerforge/core/error.h"
#include "train/optimizer_impl.h"

namespace lf {

namespace train_detail {

void BufferedOptimizer::bind(std::size_t n) {
    for (auto& [name, values] : buffers_) values.assign(n, 0.0f);
    bound_ = n;
    is_bound_ = true;
    lease_ = MemoryLease({.optimizer_state = n * buffers_.size() * sizeof(float)});
}

std::vector<std::pair<std::string, std::vector<float>*>> BufferedOptimizer::state() {
    std::vector<std::pair<std::string, std::vector<float>*>> out;
    for (auto& [name, values] : buffers_) out.emplace_back(name, &values);
    return out;
}

void BufferedOptimizer::step(float* w, const float* g, std::size_t n, double lr) {
    const UpdateStep u = *take_step(n, lr);
    core_detail::for_each_slice(n, [&](std::size_t b, std::size_t e) { run_update_step(u, w, g, b, e); });
}

std::size_t BufferedOptimizer::add_buffer(std::string name) {
    buffers_.emplace_back(std::move(name), std::vector<float>{});
    return buffers_.size() - 1;
}

void BufferedOptimizer::check_bound(std::size_t n) const {
    if (!is_bound_ || n > bound_)
        throw runtime_error(name() + ": step over " + std::to_string(n) + " parameters, but bound to " +
                            (is_bound_ ? std::to_string(bound_) : std::string("none")));
    // A checkpoint may have replaced a buffer with one of the wrong size.
    for (const auto& [buf, values] : buffers_)
        if (values.size() != bound_) throw runtime_error(name() + ": state '" + buf + "' has the wrong size");
}

}  // namespace train_detail

std::vector<std::string> optimizer_types() { return {"SGD", "Adam", "AdamW", "RMSprop"}; }

std::unique_ptr<Optimizer> make_optimizer(const std::string& type, const Params& params) {
    using namespace train_detail;
    if (type == "SGD") return make_sgd(params);
    if (type == "Adam" || type == "AdamW") return make_adam(type, params);
    if (type == "RMSprop") return make_rmsprop(params);
    std::string valid;
    for (const auto& t : optimizer_types()) valid += (valid.empty() ? "" : ", ") + t;
    throw input_error("unknown optimizer '" + type + "' (valid: " + valid + ")");
}

}  // namespace lf
