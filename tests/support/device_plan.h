#pragma once
// A plan on the device the tests run on (LF_TEST_DEVICE, default "cpu"; "seam" is the test
// backend of seam_backend.h) with host mirrors of its arrays, so a test writes inputs and
// output gradients and reads outputs, input gradients and weight gradients as plain arrays:
// forward() sends the host model's weights and the input, then brings the output and the
// weights (moving statistics) back;
// backward() sends the output gradient, then brings the input and weight gradients back.
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "layerforge/backend/backend.h"
#include "layerforge/devices/devices.h"
#include "layerforge/train/host_loss.h"
#include "seam_backend.h"

namespace lf::test {

inline std::string device() {
    const char* d = std::getenv("LF_TEST_DEVICE");
    std::string id = d && *d ? d : "cpu";
    if (id == kSeamDevice) register_seam_backend();
    return id;
}

class DevicePlan {
public:
    DevicePlan(Model& model, PlanOptions options) {
        options.device = device();
        device_ = load_model(model, options.device);
        plan_ = device_->make_plan(options);
        in_.resize(std::size_t(plan_->batch() * plan_->input_width()));
        out_.resize(std::size_t(plan_->batch() * plan_->output_width()));
        if (options.mode == PlanMode::Train) out_grad_.resize(out_.size());
        if (options.input_grads) in_grad_.resize(in_.size());
        loss_ = std::make_unique<HostLoss>(*plan_);
    }

    Plan& plan() { return *plan_; }
    const Plan& plan() const { return *plan_; }
    DeviceModel& device_model() { return *device_; }
    std::int64_t batch() const { return plan_->batch(); }
    std::int64_t output_width() const { return plan_->output_width(); }
    float* input() { return in_.data(); }
    const float* output() const { return out_.data(); }
    float* output_grad() { return out_grad_.data(); }
    const float* input_grad() const { return in_grad_.data(); }
    std::vector<std::pair<std::string, std::string>> kernels() const { return plan_->kernels(); }
    MemoryBreakdown memory() const { return plan_->memory(); }
    void seek_rng(std::uint64_t steps) { plan_->seek_rng(steps); }

    void forward() {
        device_->push_weights();
        plan_->set_input(in_.data());
        plan_->forward();
        plan_->read_output(out_.data());
        device_->pull_weights();  // a training forward updates BatchNormalization's moving statistics
    }
    void backward() {
        plan_->set_output_grad(out_grad_.data());
        plan_->backward();
        read_grads();
    }
    // forward + loss + backward as the trainer runs them; returns the mean loss.
    double train_step(const std::int32_t* labels, const Loss& loss) {
        device_->push_weights();
        plan_->set_input(in_.data());
        const double value = loss_->train_step(loss, labels);
        plan_->read_output(out_.data());
        device_->pull_weights();
        read_grads();
        return value;
    }
    // The loss of the last forward(), without gradients.
    double loss(const std::int32_t* labels, const Loss& loss) {
        loss_->read();
        return loss_->value(loss, labels);
    }

private:
    void read_grads() {
        device_->pull_grads();
        if (!in_grad_.empty()) plan_->read_input_grad(in_grad_.data());
    }

    std::unique_ptr<DeviceModel> device_;
    std::unique_ptr<Plan> plan_;
    std::unique_ptr<HostLoss> loss_;
    std::vector<float> in_, out_, out_grad_, in_grad_;
};

}  // namespace lf::test
