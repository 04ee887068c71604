#pragma once
// A test-only backend that proves the backend seam: it runs the CPU kernels, but on weights,
// gradients and optimizer updates in buffers of its own, so anything that reaches around the
// interface (reads the host model's weights instead of pulling them, forgets a push) trains
// differently from the CPU backend. Selected by device id "seam"; not a product feature.
#include <algorithm>
#include <memory>
#include <vector>

#include "backend/cpu/cpu_plan.h"
#include "layerforge/backend/backend.h"
#include "layerforge/core/error.h"
#include "layerforge/devices/devices.h"

namespace lf::test {

inline constexpr const char* kSeamDevice = "seam";

class SeamPlan final : public Plan {
public:
    SeamPlan(const Model& m, const PlanOptions& o, WeightMemory w) : Plan(o), cpu_(m, o, w) {}
    std::size_t input_count() const override { return cpu_.input_count(); }
    std::int64_t input_width(std::size_t i) const override { return cpu_.input_width(i); }
    void set_input(const float* host, std::size_t i) override { cpu_.set_input(host, i); }
    std::int64_t output_width() const override { return cpu_.output_width(); }
    void read_output(float* host) const override { cpu_.read_output(host); }
    bool output_is_softmax() const override { return cpu_.output_is_softmax(); }
    void read_logits(float* host) const override { cpu_.read_logits(host); }
    void forward() override { cpu_.forward(); }
    void set_output_grad(const float* host, OutputGrad of) override { cpu_.set_output_grad(host, of); }
    void backward() override { cpu_.backward(); }
    void read_input_grad(float* host, std::size_t i) const override { cpu_.read_input_grad(host, i); }
    void seek_rng(std::uint64_t steps) override { cpu_.seek_rng(steps); }
    std::vector<std::pair<std::string, std::string>> kernels() const override { return cpu_.kernels(); }
    MemoryBreakdown memory() const override { return cpu_.memory(); }
    const PlanProfile& profile() const override { return cpu_.profile(); }

private:
    CpuPlan cpu_;
};

class SeamDeviceModel final : public DeviceModel {
public:
    explicit SeamDeviceModel(Model& m)
        : DeviceModel(m, kSeamDevice), weights_(m.weights()), grads_(m.weights().size(), 0.f) {}

    std::unique_ptr<Plan> make_plan(const PlanOptions& o) override {
        return std::make_unique<SeamPlan>(model(), o, WeightMemory{weights_.data(), grads_.data()});
    }
    void push_weights() override { std::copy(model().weights().begin(), model().weights().end(), weights_.begin()); }
    void pull_weights() override { std::copy(weights_.begin(), weights_.end(), model().weights().begin()); }
    void pull_grads() override { std::copy(grads_.begin(), grads_.end(), model().grads().begin()); }
    void update(WeightUpdate& rule, double lr) override {
        rule.step(weights_.data(), grads_.data(), model().trainable_size(), lr);
    }

private:
    std::vector<float> weights_, grads_;  // never resized: the plans hold pointers into them
};

class SeamBackend final : public Backend {
public:
    std::string name() const override { return "seam"; }
    std::vector<DeviceInfo> devices() const override {
        return {{kSeamDevice, "test", "test backend: CPU kernels on buffers of its own", 0}};
    }
    bool has_device(const std::string& device) const override { return device == kSeamDevice; }
    DeviceMemory memory(const std::string& device) const override {
        if (!has_device(device)) throw input_error("the seam backend has no device '" + device + "'");
        return {};
    }
    std::string unsupported(const NodeInfo&) const override { return ""; }
    std::unique_ptr<DeviceModel> load(Model& model, const std::string& device) override {
        if (!has_device(device)) throw input_error("the seam backend has no device '" + device + "'");
        return std::make_unique<SeamDeviceModel>(model);
    }
    MemoryBreakdown estimate(const Model& model, const PlanOptions& options) const override {
        return CpuPlan::estimate(model, options);
    }
    PlanProfile describe(const Model& model, const PlanOptions& options) const override {
        return CpuPlan::describe(model, options);
    }
};

// Adds the seam backend to backends() once.
inline void register_seam_backend() {
    static const bool added = [] {
        backends().add(std::make_unique<SeamBackend>());
        return true;
    }();
    (void)added;
}

}  // namespace lf::test
