#pragma once
// Central finite differences against a plan's analytic gradients, for the objective
// J = sum(r * output) with fixed random r, so no loss function is involved.
#include <QtTest>

#include <cmath>
#include <random>

#include "device_plan.h"

struct GradCheck {
    lf::Model& model;
    lf::test::DevicePlan plan;
    std::vector<float> r;
    double worst = 0;

    GradCheck(lf::Model& m, std::int64_t batch, std::uint64_t seed = 1, bool fuse = true)
        : model(m), plan(m, {.batch = batch, .mode = lf::PlanMode::Train, .seed = 7, .input_grads = true, .fuse = fuse}) {
        std::mt19937 rng{unsigned(seed)};
        std::uniform_real_distribution<float> u(-1.f, 1.f);
        model.init_weights(seed);
        for (float& w : model.weights()) w += 0.1f * u(rng);  // non-zero biases too
        const auto& info = model.info(model.input_node());
        for (std::int64_t i = 0; i < batch * info.layer.output.elements(); ++i) plan.input()[i] = u(rng);
        r.resize(std::size_t(batch * plan.output_width()));
        for (float& v : r) v = u(rng);
    }

    double objective() {
        plan.forward();
        double j = 0;
        for (std::size_t i = 0; i < r.size(); ++i) j += double(r[i]) * plan.output()[i];
        return j;
    }

    // Checks every coordinate x(i) (of the input or the weights) against the analytic gradient g.
    // x opens its array for each write: the weights through Model::weights(), so that the plan
    // makes its copies of them again.
    template <class X>
    void check(X x, const float* g, std::size_t n, const char* what, double eps = 5e-3) {
        for (std::size_t i = 0; i < n; ++i) {
            const float saved = x(i);
            x(i) = saved + float(eps);
            double jp = objective();
            x(i) = saved - float(eps);
            double jm = objective();
            x(i) = saved;
            double numeric = (jp - jm) / (2 * eps);
            double err = std::abs(numeric - g[i]) / std::max(1.0, std::abs(numeric));
            worst = std::max(worst, err);
            if (err > 2e-2)
                QFAIL(qPrintable(QString("%1[%2]: analytic %3, numeric %4").arg(what).arg(i).arg(g[i]).arg(numeric)));
        }
    }

    // Runs the analytic backward pass once, then checks the input and every weight.
    void run() {
        objective();
        std::copy(r.begin(), r.end(), plan.output_grad());
        plan.backward();
        std::vector<float> gin(plan.input_grad(), plan.input_grad() + input_size());
        std::vector<float> gw = model.grads();
        check([&](std::size_t i) -> float& { return plan.input()[i]; }, gin.data(), gin.size(), "input");
        if (QTest::currentTestFailed()) return;
        check([&](std::size_t i) -> float& { return model.weights()[i]; }, gw.data(), gw.size(), "weights");
    }

    std::size_t input_size() const {
        return std::size_t(plan.batch() * model.info(model.input_node()).layer.output.elements());
    }
};

// Checks every gradient of a freshly built model of `g` (the usual one-line layer check).
inline void check_graph_gradients(const lf::Graph& g, std::int64_t batch = 3, std::uint64_t seed = 1, bool fuse = true) {
    lf::Model model(g);
    GradCheck gc(model, batch, seed, fuse);
    gc.run();
}
