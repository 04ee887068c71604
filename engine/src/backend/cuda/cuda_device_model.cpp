#include "backend/cuda/cuda_device_model.h"

#include "backend/cuda/cuda_gradient_exchange.h"
#include "backend/cuda/cuda_plan.h"

#include "layerforge/core/error.h"

namespace lf {

namespace {

std::size_t float_bytes(const std::vector<float>& v) { return v.size() * sizeof(float); }

lf_cuda_rule cuda_rule(UpdateStep::Rule r) {
    switch (r) {
    case UpdateStep::Rule::Sgd: return LF_CUDA_SGD;
    case UpdateStep::Rule::Momentum: return LF_CUDA_MOMENTUM;
    case UpdateStep::Rule::Nesterov: return LF_CUDA_NESTEROV;
    case UpdateStep::Rule::Adam: return LF_CUDA_ADAM;
    case UpdateStep::Rule::RmsProp: return LF_CUDA_RMSPROP;
    }
    return LF_CUDA_SGD;
}

}  // namespace

CudaDeviceModel::CudaDeviceModel(Model& model, const std::string& device, std::shared_ptr<CudaContext> context,
                                 DeviceArena& arena)
    : DeviceModel(model, device), context_(std::move(context)), arena_(arena),
      weights_(arena, float_bytes(model.weights()), {.weights = float_bytes(model.weights())}, "the model's weights"),
      grads_(arena, float_bytes(model.grads()), {.gradients = float_bytes(model.grads())}, "the weights' gradients"),
      optimizer_(*context_, arena),
      step_(arena, sizeof(lf_cuda_update), {.optimizer_state = sizeof(lf_cuda_update)}, "the optimizer's step"),
      step_upload_(*context_, sizeof(lf_cuda_update), "the optimizer's step"),
      overflow_(arena, sizeof(float), {.optimizer_state = sizeof(float)}, "the loss scaling's overflow flag") {
    push_weights();
    context_->run([&](lf_cuda_error* e) { return context_->api().fill(context_->get(), grads_.floats(), 0.f,
                                                                      model.grads().size(), e); },
                  "clearing the gradients");
    context_->run([&](lf_cuda_error* e) { return context_->api().fill(context_->get(), overflow_.floats(), 0.f, 1, e); },
                  "clearing the overflow flag");
}

std::unique_ptr<Plan> CudaDeviceModel::make_plan(const PlanOptions& options) {
    if (options.device != device()) throw runtime_error("a plan for '" + options.device + "' from " + device() + "'s model");
    return std::make_unique<CudaPlan>(model(), options, *context_, arena_, CudaWeights{weights_.floats(), grads_.floats()},
                                      this);
}

void CudaDeviceModel::push_weights() {
    optimizer_.host_changed();  // a restore or resume set the rule's host state too
    const auto& w = model().weights();
    context_->run([&](lf_cuda_error* e) {
        return context_->api().copy_to_device(context_->get(), weights_.data(), w.data(), float_bytes(w), e);
    }, "copying the weights to the device");
}

void CudaDeviceModel::pull_weights() {
    copy_weights_to_host();
    optimizer_.to_host();
}

void CudaDeviceModel::copy_weights_to_host() {
    auto& w = model().weights();
    context_->run([&](lf_cuda_error* e) {
        return context_->api().copy_to_host(context_->get(), w.data(), weights_.data(), float_bytes(w), e);
    }, "copying the weights from the device");
}

void CudaDeviceModel::pull_grads() {
    auto& g = model().grads();
    context_->run([&](lf_cuda_error* e) {
        return context_->api().copy_to_host(context_->get(), g.data(), grads_.data(), float_bytes(g), e);
    }, "copying the gradients from the device");
}

void CudaDeviceModel::update(WeightUpdate& rule, double lr) {
    if (const std::optional<lf_cuda_update> u = take_device_step(rule, lr)) return queue_update(*u);
    // A rule without a device form: its host loop over host copies.
    const std::size_t n = model().trainable_size();
    copy_weights_to_host();
    pull_grads();
    rule.step(model().weights().data(), model().grads().data(), n, lr);
    const auto& w = model().weights();
    context_->run([&](lf_cuda_error* e) {
        return context_->api().copy_to_device(context_->get(), weights_.data(), w.data(), float_bytes(w), e);
    }, "copying the weights to the device");
}

std::optional<lf_cuda_update> CudaDeviceModel::take_device_step(WeightUpdate& rule, double lr) {
    const std::size_t n = model().trainable_size();
    const std::optional<UpdateStep> u = rule.take_step(n, lr);
    if (!u) return std::nullopt;
    const std::array<float*, 2> state = optimizer_.device_arrays(*u, n);
    const bool scaled = loss_scale_ > 0;
    const lf_cuda_update cu{.rule = cuda_rule(u->rule), .a = u->a, .mu = u->mu, .decay = u->decay, .b1 = u->b1,
                            .b2 = u->b2, .eps = u->eps, .rho = u->rho, .state = {state[0], state[1]},
                            .grad_scale = scaled ? 1.f / loss_scale_ : 1.f,
                            .skip = scaled ? static_cast<const std::int32_t*>(overflow_.data()) : nullptr};
    step_upload_.to_device(step_.data(), &cu, sizeof cu);
    return cu;
}

// With loss scaling the gradients are checked first; the update kernel reads the flag.
void CudaDeviceModel::queue_update(const lf_cuda_update& step) {
    const auto* device_step = static_cast<const lf_cuda_update*>(step_.data());
    if (step.skip) {
        context_->run([&](lf_cuda_error* e) {
            return context_->api().fill(context_->get(), overflow_.floats(), 0.f, 1, e);  // 0.f is int 0
        }, "clearing the overflow flag");
        context_->run([&](lf_cuda_error* e) {
            return context_->api().check_finite(context_->get(), grads_.floats(), model().trainable_size(),
                                                static_cast<std::int32_t*>(overflow_.data()), e);
        }, "checking the scaled gradients");
    }
    context_->run([&](lf_cuda_error* e) {
        return context_->api().update(context_->get(), &step, device_step, weights_.floats(), grads_.floats(),
                                      model().trainable_size(), e);
    }, "the optimizer step");
}

void CudaDeviceModel::set_loss_scale(float scale) { loss_scale_ = scale; }

bool CudaDeviceModel::last_update_skipped() {
    if (loss_scale_ <= 0) return false;
    std::int32_t flag = 0;
    context_->run([&](lf_cuda_error* e) {
        return context_->api().copy_to_host(context_->get(), &flag, overflow_.data(), sizeof flag, e);
    }, "reading the overflow flag");
    return flag != 0;
}

std::unique_ptr<GradientExchange> CudaDeviceModel::gradient_exchange(Communicator& world) {
    return std::make_unique<CudaGradientExchange>(world, *context_, grads_.floats());
}

}  // namespace lf
