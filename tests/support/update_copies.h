#pragma once
// The CPU plan's update that makes the weight copies (CpuPlan::backward_and_update): a model
// trained by it and the same model trained by a plain update (DeviceModel::update, the
// passes then copying the weights themselves) must take the same steps, bit for bit, and a
// pass must never read a copy older than the weights.
#include <QtTest>

#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "layerforge/devices/devices.h"
#include "layerforge/graph/model.h"
#include "layerforge/train/host_loss.h"
#include "layerforge/train/loss.h"
#include "layerforge/train/optimizer.h"

namespace lf_test {

// A model on the CPU with its training plan, Adam, and one fixed batch of inputs and labels.
struct Trained {
    lf::Model model;
    std::unique_ptr<lf::DeviceModel> device;
    std::unique_ptr<lf::Plan> plan;
    std::unique_ptr<lf::HostLoss> host;
    std::unique_ptr<lf::Optimizer> adam = lf::make_optimizer("Adam", {{"learning_rate", 0.01}});
    std::unique_ptr<lf::Loss> loss = lf::make_loss("SparseCategoricalCrossentropy");
    std::vector<float> x;
    std::vector<std::int32_t> labels;

    Trained(const lf::Graph& g, lf::PlanOptions o) : model(g) {
        model.init_weights(3);
        device = lf::load_model(model, "cpu");
        o.mode = lf::PlanMode::Train;
        plan = device->make_plan(o);
        host = std::make_unique<lf::HostLoss>(*plan);
        adam->bind(model.weights().size());
        std::mt19937 rng(11);
        std::uniform_real_distribution<float> u(-1.f, 1.f);
        x.resize(std::size_t(o.batch * plan->input_width()));
        for (float& v : x) v = u(rng);
        labels.resize(std::size_t(o.batch));
        for (std::size_t i = 0; i < labels.size(); ++i) labels[i] = std::int32_t(i % std::size_t(plan->output_width()));
    }

    // One step as the trainer takes it (fused: the update makes the copies), or with the plain
    // update after the backward pass.
    double step(bool fused) {
        plan->set_input(x.data());
        const double l = host->forward_loss(*loss, labels.data());
        if (fused) {
            plan->backward_and_update(*device, *adam, 0.01);
        } else {
            plan->backward();
            device->update(*adam, 0.01);
        }
        return l;
    }

    std::vector<float> output() {
        plan->set_input(x.data());
        plan->forward();
        std::vector<float> out(std::size_t(plan->batch() * plan->output_width()));
        plan->read_output(out.data());
        return out;
    }
};

// The forward pass of a plan built now on a copy of the model's weights: what any plan must
// compute from them.
inline std::vector<float> fresh_output(const lf::Graph& g, const lf::Model& weights, lf::PlanOptions o,
                                       const std::vector<float>& x) {
    lf::Model model(g);
    model.weights() = weights.weights();
    auto device = lf::load_model(model, "cpu");
    auto plan = device->make_plan(o);
    plan->set_input(x.data());
    plan->forward();
    std::vector<float> out(std::size_t(plan->batch() * plan->output_width()));
    plan->read_output(out.data());
    return out;
}

inline bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// Six steps each way from the same start: the same losses and weights, bit for bit.
inline void expect_fused_update_takes_the_plain_steps(const lf::Graph& g, const lf::PlanOptions& o) {
    Trained fused(g, o), plain(g, o);
    for (int s = 0; s < 6; ++s) {
        const double a = fused.step(true), b = plain.step(false);
        QVERIFY2(a == b, qPrintable(QString("step %1: loss %2 fused, %3 plain").arg(s).arg(a).arg(b)));
    }
    const std::vector<float>& a = fused.model.weights();
    const std::vector<float>& b = plain.model.weights();
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::memcmp(&a[i], &b[i], sizeof(float)) != 0)
            QFAIL(qPrintable(QString("after six steps weight %1 of %2 is %3 fused, %4 plain").arg(i).arg(a.size()).arg(a[i]).arg(b[i])));
    QVERIFY(same_bits(fused.output(), plain.output()));
}

// After a fused step the training plan's forward reads copies the update made. Weights written
// through a pointer kept from before the update are not seen (that pointer is the caller's
// promise that nothing changed: the passes read what the update copied); weights opened for
// writing again are, and so is a new training step, in this plan and in an inference plan,
// whose passes copy the weights once per change of them.
inline void expect_copies_follow_the_weights(const lf::Graph& g, const lf::PlanOptions& o) {
    Trained t(g, o);
    t.step(true);
    lf::PlanOptions infer = o;
    infer.mode = lf::PlanMode::Infer;
    auto inference = t.device->make_plan(infer);
    t.step(true);
    const std::vector<float> after_update = t.output();
    lf::PlanOptions train = o;
    train.mode = lf::PlanMode::Train;
    QVERIFY2(same_bits(after_update, fresh_output(g, t.model, train, t.x)), "the copies the update made are stale");

    float* kept = t.model.weights().data();  // opened: the next pass copies again
    const std::vector<float> before = t.model.weights();
    t.step(true);
    for (std::size_t i = 0; i < t.model.trainable_size(); ++i) kept[i] = before[i];  // behind the model's back
    QVERIFY2(!same_bits(t.output(), fresh_output(g, t.model, train, t.x)),
             "the pass copied the weights itself: the update's copies were not used");

    t.model.weights()[0] += 0.5f;  // opened for writing: the pass must copy them again
    QVERIFY2(same_bits(t.output(), fresh_output(g, t.model, train, t.x)), "a pass read copies older than the weights");

    std::vector<float> out(std::size_t(inference->batch() * inference->output_width()));
    inference->set_input(t.x.data());
    inference->forward();
    inference->read_output(out.data());
    QVERIFY2(same_bits(out, fresh_output(g, t.model, infer, t.x)), "the inference plan read stale copies");

    // That pass made the inference plan's copies; its next passes read them while the weights
    // do not change (an evaluation's batches copy nothing), and copy again once they do.
    float* behind = t.model.weights().data();  // opened: the next pass copies, once
    inference->forward();
    for (std::size_t i = 0; i < t.model.trainable_size(); ++i) behind[i] *= 0.5f;
    inference->forward();
    inference->read_output(out.data());
    QVERIFY2(!same_bits(out, fresh_output(g, t.model, infer, t.x)), "the inference plan copied unchanged weights again");
    t.model.weights()[0] += 0.5f;
    inference->forward();
    inference->read_output(out.data());
    QVERIFY2(same_bits(out, fresh_output(g, t.model, infer, t.x)), "the inference plan read copies older than the weights");
}

}  // namespace lf_test
