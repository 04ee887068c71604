#include "backend/cuda/cuda_device_model.h"

#include "backend/cuda/cuda_plan.h"

#include "layerforge/core/error.h"

namespace lf {

namespace {

std::size_t float_bytes(const std::vector<float>& v) { return v.size() * sizeof(float); }

}  // namespace

CudaDeviceModel::CudaDeviceModel(Model& model, const std::string& device, std::shared_ptr<CudaContext> context,
                                 DeviceArena& arena)
    : DeviceModel(model, device), context_(std::move(context)), arena_(arena),
      weights_(arena, float_bytes(model.weights()), {.weights = float_bytes(model.weights())}, "the model's weights"),
      grads_(arena, float_bytes(model.grads()), {.gradients = float_bytes(model.grads())}, "the weights' gradients") {
    push_weights();
    context_->run([&](lf_cuda_error* e) { return context_->api().fill(context_->get(), grads_.floats(), 0.f,
                                                                      model.grads().size(), e); },
                  "clearing the gradients");
}

std::unique_ptr<Plan> CudaDeviceModel::make_plan(const PlanOptions& options) {
    if (options.device != device()) throw runtime_error("a plan for '" + options.device + "' from " + device() + "'s model");
    return std::make_unique<CudaPlan>(model(), options, *context_, arena_, CudaWeights{weights_.floats(), grads_.floats()});
}

void CudaDeviceModel::push_weights() {
    const auto& w = model().weights();
    context_->run([&](lf_cuda_error* e) {
        return context_->api().copy_to_device(context_->get(), weights_.data(), w.data(), float_bytes(w), e);
    }, "copying the weights to the device");
}

void CudaDeviceModel::pull_weights() {
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

// The rules are host loops (WeightUpdate::step): the weights and gradients make a round trip
// until each optimizer has its kernel. Correct, and only as slow as two copies of the weights.
void CudaDeviceModel::update(WeightUpdate& rule, double lr) {
    pull_weights();
    pull_grads();
    rule.step(model().weights().data(), model().grads().data(), model().trainable_size(), lr);
    push_weights();
}

}  // namespace lf
