#pragma once
// What the gpu suites share: random inputs, the largest relative difference, one forward and
// backward pass on a device, the same pass on the CPU and on cuda:0 compared, and the main()
// that skips the suite (exit 77, CTest's SKIP_RETURN_CODE) with the registry's reason when no
// CUDA device is there.
#include <QtTest>

#include <cmath>
#include <cstdio>
#include <random>

#include "layerforge/devices/devices.h"
#include "layerforge/graph/model.h"

namespace gpu_test {

inline const std::string kGpu = "cuda:0";

inline std::vector<float> random_vector(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    std::vector<float> v(n);
    for (float& x : v) x = u(rng);
    return v;
}

// Largest |a - b| relative to max(1, |b|).
inline double max_difference(const std::vector<float>& a, const std::vector<float>& b) {
    double worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        worst = std::max(worst, std::abs(double(a[i]) - b[i]) / std::max(1.0, std::abs(double(b[i]))));
    return worst;
}

#define LF_COMPARE_VECTORS(a, b, tol)                                                                            \
    do {                                                                                                         \
        QCOMPARE((a).size(), (b).size());                                                                        \
        const double lf_d = gpu_test::max_difference(a, b);                                                      \
        QVERIFY2(lf_d <= (tol), qPrintable(QString("%1 vs %2: max difference %3").arg(#a, #b).arg(lf_d)));       \
    } while (0)

// One forward and backward on `device`: outputs, logits (softmax outputs), input gradients,
// weight gradients and the weights afterwards (moving statistics), from the same weights,
// input and output gradient.
struct Pass {
    std::vector<float> out, logits, in_grad, w_grad, weights;
};

struct PassOptions {
    std::int64_t batch = 4;
    lf::OutputGrad of = lf::OutputGrad::Output;
    lf::PlanMode mode = lf::PlanMode::Train;
    std::uint64_t seed = 0;      // the plan's random streams
    std::uint64_t rng_step = 0;  // seek_rng before the pass
    lf::Precision precision = lf::Precision::Float32;
};

inline Pass run_pass(lf::Model& model, const std::string& device, const PassOptions& o) {
    auto dm = lf::load_model(model, device);
    const bool train = o.mode == lf::PlanMode::Train;
    auto plan = dm->make_plan({.device = device, .batch = o.batch, .mode = o.mode, .seed = o.seed, .input_grads = train,
                               .precision = o.precision});
    if (o.rng_step) plan->seek_rng(o.rng_step);
    const auto x = random_vector(std::size_t(o.batch * plan->input_width()), 11);
    const auto dy = random_vector(std::size_t(o.batch * plan->output_width()), 12);
    Pass p;
    plan->set_input(x.data());
    plan->forward();
    p.out.resize(dy.size());
    plan->read_output(p.out.data());
    if (plan->output_is_softmax()) {
        p.logits.resize(dy.size());
        plan->read_logits(p.logits.data());
    }
    if (train) {
        plan->set_output_grad(dy.data(), o.of);
        plan->backward();
        p.in_grad.resize(x.size());
        plan->read_input_grad(p.in_grad.data());
        dm->pull_grads();
        p.w_grad = model.grads();
    }
    dm->pull_weights();
    p.weights = model.weights();
    return p;
}

struct Tolerance {
    double out = 1e-5, grad = 1e-4;
};

// Two models from one graph and one seed, so that neither pass sees the other's moving statistics.
inline void compare_backends(const lf::Graph& graph, const PassOptions& o = {}, Tolerance tol = {}) {
    lf::Model cpu_model(graph), gpu_model(graph);
    cpu_model.init_weights(3);
    gpu_model.init_weights(3);
    const Pass cpu = run_pass(cpu_model, "cpu", o);
    const Pass gpu = run_pass(gpu_model, kGpu, o);
    LF_COMPARE_VECTORS(gpu.out, cpu.out, tol.out);
    LF_COMPARE_VECTORS(gpu.logits, cpu.logits, tol.out);
    LF_COMPARE_VECTORS(gpu.in_grad, cpu.in_grad, tol.grad);
    LF_COMPARE_VECTORS(gpu.w_grad, cpu.w_grad, tol.grad);
    LF_COMPARE_VECTORS(gpu.weights, cpu.weights, tol.out);
}

inline std::string templates_dir() { return std::string(qgetenv("LF_SOURCE_DIR")) + "/resources/templates/"; }

// main(): the suite, or exit 77 naming why there is no CUDA device.
template <class Suite>
int run_suite(int argc, char** argv) {
    const lf::DeviceList devices = lf::list_devices();
    bool gpu = false;
    for (const auto& d : devices.devices) gpu = gpu || d.id == kGpu;
    if (!gpu) {
        std::printf("SKIPPED: no CUDA device: %s\n", devices.gpu_unavailable.c_str());
        return 77;
    }
    Suite t;
    return QTest::qExec(&t, argc, argv);
}

}  // namespace gpu_test
