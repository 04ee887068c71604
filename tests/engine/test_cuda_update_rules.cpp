// The optimizer seam a device backend steps through (Note [A rule's step on a device] in
// layerforge/backend/weight_update.h), without a GPU: each rule's take_step() gives the float32
// constants and the state arrays its own loop uses and counts the step; a rule without a device
// form gives none. And CudaOptimizerState's traffic on a stand-in device of host memory: the
// state goes up before the first device step and after the host state changed, comes back on
// request, and is allocated from the device's arena once per rule.
#include <QtTest>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>

#include "backend/cuda/cuda_optimizer_state.h"
#include "host_cuda_api.h"
#include "layerforge/core/error.h"
#include "layerforge/train/optimizer.h"

namespace {

using HostDevice = lf::test::HostDeviceMemory;

// The module's table with host copies in place of the device's, counting them.
int uploads = 0, downloads = 0;
int host_up(lf_cuda_context*, void* dst, const void* src, size_t bytes, lf_cuda_error*) {
    ++uploads;
    std::memcpy(dst, src, bytes);
    return 0;
}
int host_down(lf_cuda_context*, void* dst, const void* src, size_t bytes, lf_cuda_error*) {
    ++downloads;
    std::memcpy(dst, src, bytes);
    return 0;
}

lf_cuda_api host_api() {
    lf_cuda_api a = lf::test::host_cuda_api();
    a.copy_to_device = host_up;
    a.copy_to_host = host_down;
    return a;
}

std::unique_ptr<lf::Optimizer> bound(const std::string& type, const lf::Params& p, std::size_t n) {
    auto o = lf::make_optimizer(type, p);
    o->bind(n);
    return o;
}

std::vector<float>* state_named(lf::Optimizer& o, const std::string& name) {
    for (auto& [k, v] : o.state())
        if (k == name) return v;
    return nullptr;
}

struct NoDeviceForm final : lf::WeightUpdate {
    void step(float*, const float*, std::size_t, double) override {}
};

}  // namespace

class TestCudaUpdateRules : public QObject {
    Q_OBJECT
private slots:
    void sgd_steps_by_its_rate_and_velocity() {
        auto plain = bound("SGD", {{"learning_rate", 0.1}}, 8);
        const lf::UpdateStep s = *plain->take_step(8, 0.05);
        QCOMPARE(int(s.rule), int(lf::UpdateStep::Rule::Sgd));
        QCOMPARE(s.a, 0.05f);  // the rate the trainer passes (a schedule's), not the configured one
        QVERIFY(!s.state[0] && !s.state[1]);
        QCOMPARE(plain->iterations(), std::int64_t(1));

        auto nesterov = bound("SGD", {{"momentum", 0.9}, {"nesterov", true}}, 8);
        const lf::UpdateStep n = *nesterov->take_step(8, 0.01);
        QCOMPARE(int(n.rule), int(lf::UpdateStep::Rule::Nesterov));
        QCOMPARE(n.mu, 0.9f);
        QCOMPARE(n.state[0], state_named(*nesterov, "momentum")->data());
        auto momentum = bound("SGD", {{"momentum", 0.5}}, 8);
        QCOMPARE(int(momentum->take_step(8, 0.01)->rule), int(lf::UpdateStep::Rule::Momentum));
    }

    // Keras folds the bias correction into the step size: lr sqrt(1 - beta_2^t) / (1 - beta_1^t).
    void adam_steps_with_the_bias_corrected_rate() {
        auto adam = bound("Adam", {{"learning_rate", 0.001}}, 4);
        for (int t = 1; t <= 3; ++t) {
            const lf::UpdateStep s = *adam->take_step(4, 0.002);
            QCOMPARE(s.a, float(0.002 * std::sqrt(1 - std::pow(0.999, t)) / (1 - std::pow(0.9, t))));
            QCOMPARE(s.b1, float(1 - 0.9));
            QCOMPARE(s.b2, float(1 - 0.999));
            QCOMPARE(s.eps, 1e-7f);
            QCOMPARE(s.decay, 0.f);
            QCOMPARE(s.state[0], state_named(*adam, "m")->data());
            QCOMPARE(s.state[1], state_named(*adam, "v")->data());
            QCOMPARE(adam->iterations(), std::int64_t(t));
        }
        auto adamw = bound("AdamW", {{"weight_decay", 0.05}}, 4);
        const lf::UpdateStep w = *adamw->take_step(4, 0.01);
        QCOMPARE(int(w.rule), int(lf::UpdateStep::Rule::Adam));
        QCOMPARE(w.decay, float(0.01 * 0.05));
    }

    void rmsprop_steps_with_its_averages() {
        auto plain = bound("RMSprop", {{"rho", 0.8}}, 4);
        const lf::UpdateStep s = *plain->take_step(4, 0.01);
        QCOMPARE(int(s.rule), int(lf::UpdateStep::Rule::RmsProp));
        QCOMPARE(s.rho, 0.8f);
        QCOMPARE(s.state[0], state_named(*plain, "v")->data());
        QVERIFY(!s.state[1]);  // no momentum buffer
        auto momentum = bound("RMSprop", {{"momentum", 0.5}}, 4);
        const lf::UpdateStep m = *momentum->take_step(4, 0.01);
        QCOMPARE(m.mu, 0.5f);
        QCOMPARE(m.state[1], state_named(*momentum, "momentum")->data());
    }

    void a_step_beyond_the_bound_size_is_refused() {
        auto adam = bound("Adam", {}, 4);
        bool refused = false;
        try {
            (void)adam->take_step(5, 0.01);
        } catch (const lf::Error&) {
            refused = true;
        }
        QVERIFY(refused);
        QCOMPARE(adam->iterations(), std::int64_t(0));
    }

    void a_rule_without_a_device_form_says_so() {
        NoDeviceForm rule;
        QVERIFY(!rule.take_step(4, 0.1));
    }

    void the_state_goes_up_once_and_comes_back_on_request() {
        HostDevice dev;
        lf::DeviceArena arena("cuda:0", dev);
        const lf_cuda_api api = host_api();
        lf::CudaContext ctx(api, 0, "cuda:0");
        QCOMPARE(ctx.compute_capability(), 90);
        lf::CudaOptimizerState state(ctx, arena);
        auto adam = bound("Adam", {}, 6);
        for (float& x : *state_named(*adam, "m")) x = 1.5f;
        uploads = downloads = 0;

        const lf::UpdateStep s = *adam->take_step(6, 0.01);
        const std::array<float*, 2> d = state.device_arrays(s, 6);
        QCOMPARE(uploads, 2);  // m and v, before the first device step
        QCOMPARE(arena.held(), std::uint64_t(2 * 6 * sizeof(float)));
        QCOMPARE(d[0][3], 1.5f);
        state.device_arrays(*adam->take_step(6, 0.01), 6);
        QCOMPARE(uploads, 2);  // the device's copy is the truth now

        d[1][2] = 7.f;  // what a device step would write
        state.to_host();
        QCOMPARE(downloads, 2);
        QCOMPARE((*state_named(*adam, "v"))[2], 7.f);

        // A resume: the host state changed and the weights were pushed.
        (*state_named(*adam, "m"))[0] = -2.f;
        state.host_changed();
        state.to_host();
        QCOMPARE(downloads, 2);  // stale: the host's copy is newer, nothing comes back
        QCOMPARE((*state_named(*adam, "m"))[0], -2.f);
        state.device_arrays(*adam->take_step(6, 0.01), 6);
        QCOMPARE(uploads, 4);
        QCOMPARE(d[0][0], -2.f);

        // Another rule: its own arrays, one (SGD's velocity) in place of two.
        auto sgd = bound("SGD", {{"momentum", 0.9}}, 6);
        const std::array<float*, 2> v = state.device_arrays(*sgd->take_step(6, 0.01), 6);
        QVERIFY(v[0] && !v[1]);
        QCOMPARE(uploads, 5);
        QCOMPARE(arena.held(), std::uint64_t(6 * sizeof(float)));
    }
};

QTEST_GUILESS_MAIN(TestCudaUpdateRules)
#include "test_cuda_update_rules.moc"
