#pragma once
// One model with a training plan and an inference plan on the CPU backend, fed a fixed random
// batch and random labels, for the benchmarks that time steps (bench_step, bench_freeze).
#include <omp.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "layerforge/devices/devices.h"
#include "layerforge/train/host_loss.h"
#include "layerforge/train/loss.h"
#include "layerforge/train/optimizer.h"

namespace bench {

struct TrainingRig {
    TrainingRig(lf::Graph g, std::int64_t batch, bool fuse, const std::string& loss, const lf::Params& loss_params,
                const std::string& optimizer, const lf::Params& optimizer_params,
                lf::Precision precision = lf::Precision::Float32, int threads = 0)
        : model(std::move(g)), batch(batch), device(lf::load_model((model.init_weights(1), model), "cpu")),
          plan(device->make_plan(
              {.batch = batch, .mode = lf::PlanMode::Train, .fuse = fuse, .precision = precision, .threads = threads})),
          infer(device->make_plan(
              {.batch = batch, .mode = lf::PlanMode::Infer, .fuse = fuse, .precision = precision, .threads = threads})),
          host_loss(*plan),
          loss_fn(lf::make_loss(loss, loss_params)), opt(lf::make_optimizer(optimizer, optimizer_params)) {
        opt->bind(model.weights().size());
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> u(0.f, 1.f);
        input.resize(std::size_t(batch * plan->input_width()));
        for (float& v : input) v = u(rng);
        plan->set_input(input.data());
        infer->set_input(input.data());
        labels.resize(std::size_t(batch));
        for (auto& l : labels) l = std::int32_t(rng() % std::uint32_t(plan->output_width()));
    }

    // The batch's upload (a bf16 plan rounds it), forward, loss, backward and the optimizer
    // update, as the trainer runs them.
    void train_step() {
        plan->set_input(input.data());
        host_loss.forward_loss(*loss_fn, labels.data());
        plan->backward_and_update(*device, *opt, 1e-3);
    }

    // The same step with the update after the backward pass (DeviceModel::update): the passes
    // make the weight copies.
    void train_step_plain() {
        plan->set_input(input.data());
        host_loss.train_step(*loss_fn, labels.data());
        update();
    }

    // The optimizer update alone, on the threads the trainer gives it (the plan's: see
    // CpuPlan::backward_and_update).
    void update() {
        const int pool = omp_get_max_threads();
        if (plan->threads() > 0) omp_set_num_threads(plan->threads());
        device->update(*opt, 1e-3);
        omp_set_num_threads(pool);
    }

    lf::Model model;
    std::int64_t batch;
    std::unique_ptr<lf::DeviceModel> device;
    std::unique_ptr<lf::Plan> plan, infer;
    lf::HostLoss host_loss;
    std::unique_ptr<lf::Loss> loss_fn;
    std::unique_ptr<lf::Optimizer> opt;
    std::vector<float> input;
    std::vector<std::int32_t> labels;
};

}  // namespace bench
