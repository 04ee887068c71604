#pragma once
// A compute backend (the CPU through oneDNN today; CUDA later, loaded at run time) behind one
// interface, split as ggml splits it: the Backend names its devices, reports their memory,
// says which nodes it can run and loads a Model onto a device; the DeviceModel it returns owns
// the weights and gradients in that device's memory and builds the plans that run over them
// (each plan owns its activation buffers). Nothing outside a backend touches its memory: the
// host Model is brought up to date with pull_weights() and sent down with push_weights().
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "layerforge/backend/device.h"
#include "layerforge/backend/gradient_exchange.h"
#include "layerforge/backend/plan.h"
#include "layerforge/backend/weight_update.h"
#include "layerforge/graph/model.h"

namespace lf {

class DeviceModel {
public:
    virtual ~DeviceModel() = default;
    DeviceModel(const DeviceModel&) = delete;
    DeviceModel& operator=(const DeviceModel&) = delete;

    Model& model() const { return model_; }
    const std::string& device() const { return device_; }

    // Plans share this model's weights and gradients; PlanOptions::device must be device().
    // Throws lf::Error (Runtime) when a kernel cannot be built.
    virtual std::unique_ptr<Plan> make_plan(const PlanOptions& options) = 0;

    // Host model.weights() -> device (after a restore, a load, a finite-difference nudge).
    virtual void push_weights() = 0;
    // Device -> host model.weights(), moving statistics included (before a checkpoint, an
    // export, saving the weights or keeping the best ones).
    virtual void pull_weights() = 0;
    // Device -> host model.grads(): the gradients of the last backward().
    virtual void pull_grads() = 0;
    // One optimizer step over the trainable weights with the gradients of the last backward().
    virtual void update(WeightUpdate& rule, double lr) = 0;
    // The gradients' sums over `world`'s ranks for a data-parallel run; every rank calls it at
    // once (a GPU's exchange sets up its NCCL clique through `world`). The default sums
    // model().grads() through `world`: right for a device whose gradients are that array.
    virtual std::unique_ptr<GradientExchange> gradient_exchange(Communicator& world);
    // mixed_float16's loss scaling (train/loss_scale.h): the coming updates read the gradients
    // times 1 / scale and change nothing when any is not finite. Only a device that runs
    // float16 has it; the default refuses.
    virtual void set_loss_scale(float scale);
    // Whether the last update was skipped that way (waits for it to have run).
    virtual bool last_update_skipped() { return false; }

protected:
    DeviceModel(Model& model, std::string device) : model_(model), device_(std::move(device)) {}

private:
    Model& model_;
    std::string device_;
};

class Backend {
public:
    virtual ~Backend() = default;
    virtual std::string name() const = 0;              // "cpu"
    // The compute library under it, for About boxes and bug reports: "oneDNN 3.1.0".
    virtual std::string library() const { return ""; }
    virtual std::vector<DeviceInfo> devices() const = 0;
    virtual bool has_device(const std::string& device) const = 0;  // cheap: no device query
    // Throws lf::Error (Input) for a device this backend does not have.
    virtual DeviceMemory memory(const std::string& device) const = 0;
    // Why `device` cannot run `precision` at full speed ("" when it can): the CLI refuses it
    // with this reason and the studio shows the choice disabled with it.
    virtual std::string precision_unsupported(Precision precision, const std::string& device) const {
        (void)device;
        return precision == Precision::Float32 ? "" : name() + " has no " + to_string(precision) + " kernels";
    }
    // Why the node cannot run on this backend ("" when it can), for the node's diagnostic.
    virtual std::string unsupported(const NodeInfo& node) const = 0;
    // Weights and gradients of `model` on `device`, copied from the host model.
    virtual std::unique_ptr<DeviceModel> load(Model& model, const std::string& device) = 0;
    // A plan's activations, gradients and workspaces without allocating its buffers or
    // registering anything: the kernels are chosen, never run.
    virtual MemoryBreakdown estimate(const Model& model, const PlanOptions& options) const = 0;
    // The plan's steps as make_plan would build them (their bytes and compute type; no times),
    // again without allocating anything: what `info` and the summary dock show per layer.
    virtual PlanProfile describe(const Model& model, const PlanOptions& options) const = 0;
    // Waits until the device has finished the work queued so far.
    virtual void synchronize(const std::string& device) { (void)device; }
    // The device's memory policy, as tf.config has memory growth and memory_limit: 0 grows on
    // demand, else the backend never holds more than limit_bytes there. Later allocations
    // follow it. The CPU has no such policy (its plans are refused by their estimate instead).
    virtual void set_memory_limit(const std::string& device, std::uint64_t limit_bytes) {
        (void)device;
        (void)limit_bytes;
    }
};

// The registered backends, the CPU first. A test or a run-time module adds one with add();
// a backend serves the device ids it has_device().
class BackendRegistry {
public:
    void add(std::unique_ptr<Backend> backend);  // throws lf::Error on a duplicate name
    const std::vector<std::unique_ptr<Backend>>& all() const { return backends_; }
    // Null when no backend has the device.
    Backend* for_device(const std::string& device) const;

private:
    std::vector<std::unique_ptr<Backend>> backends_;
};

}  // namespace lf
