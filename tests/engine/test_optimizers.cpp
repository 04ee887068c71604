#include <QtTest>

#include <vector>

#include "alloc_counter.h"
#include "layerforge/train/optimizer.h"
#include "lf_test_util.h"

namespace {

// Runs `steps` updates with a constant gradient and returns w after each step.
std::vector<double> trace(lf::Optimizer& opt, float w0, float g, int steps, double lr) {
    float w = w0;
    opt.bind(1);
    std::vector<double> out;
    for (int i = 0; i < steps; ++i) {
        opt.step(&w, &g, 1, lr);
        out.push_back(w);
    }
    return out;
}

std::vector<double> trace(const std::string& type, const lf::Params& p, float w0, float g, int steps) {
    auto opt = lf::make_optimizer(type, p);
    return trace(*opt, w0, g, steps, opt->learning_rate());
}

}  // namespace

class TestOptimizers : public QObject {
    Q_OBJECT
private slots:
    void sgd_plain() {
        // w = 1, g = 0.5, lr = 0.1: w -= 0.05 each step.
        const auto w = trace("SGD", {{"learning_rate", 0.1}}, 1.f, 0.5f, 2);
        LF_COMPARE_NEAR(w[0], 0.95, 1e-7);
        LF_COMPARE_NEAR(w[1], 0.90, 1e-7);
    }

    void sgd_momentum() {
        // v = 0.9 v - 0.1 g; w += v, with g = 1:
        // v1 = -0.1, w1 = 0.9; v2 = -0.09 - 0.1 = -0.19, w2 = 0.71; v3 = -0.171 - 0.1 = -0.271, w3 = 0.439.
        const auto w = trace("SGD", {{"learning_rate", 0.1}, {"momentum", 0.9}}, 1.f, 1.f, 3);
        LF_COMPARE_NEAR(w[0], 0.9, 1e-6);
        LF_COMPARE_NEAR(w[1], 0.71, 1e-6);
        LF_COMPARE_NEAR(w[2], 0.439, 1e-6);
    }

    void sgd_nesterov() {
        // v1 = -0.1, w1 = 1 + 0.9 * -0.1 - 0.1 = 0.81; v2 = -0.19, w2 = 0.81 - 0.171 - 0.1 = 0.539.
        const auto w = trace("SGD", {{"learning_rate", 0.1}, {"momentum", 0.9}, {"nesterov", true}}, 1.f, 1.f, 2);
        LF_COMPARE_NEAR(w[0], 0.81, 1e-6);
        LF_COMPARE_NEAR(w[1], 0.539, 1e-6);
    }

    void adam() {
        // lr = 0.1, g = 1, w = 0. Step 1: m = 0.1, v = 0.001, lr_t = 0.1 * sqrt(1 - 0.999) / (1 - 0.9)
        // = 0.0316228; w = -lr_t * 0.1 / (sqrt(0.001) + 1e-7) = -0.0999997 (just under 0.1: the eps).
        // Step 2: m = 0.19, v = 0.001999, lr_t = 0.1 * sqrt(0.001999) / 0.19 = 0.0235317;
        // w -= 0.0235317 * 0.19 / 0.0447103. Values from tests/fixtures/train_reference.py.
        const auto w = trace("Adam", {{"learning_rate", 0.1}}, 0.f, 1.f, 3);
        LF_COMPARE_NEAR(w[0], -0.09999968377, 1e-6);
        LF_COMPARE_NEAR(w[1], -0.1999994601, 1e-6);
        LF_COMPARE_NEAR(w[2], -0.2999992774, 1e-6);
        // With g = -2 the step size is the same (Adam is scale-free) but eps matters half as much.
        const auto w2 = trace("Adam", {{"learning_rate", 0.1}}, 0.f, -2.f, 2);
        LF_COMPARE_NEAR(w2[0], 0.09999984189, 1e-6);
        LF_COMPARE_NEAR(w2[1], 0.1999997301, 1e-6);
    }

    void adam_uses_epsilon() {
        // g = 1e-7, epsilon = 0.1: m = 1e-8, sqrt(v) = sqrt(0.001) * 1e-7 = 3.16228e-9, lr_t = 0.0316228;
        // step = lr_t * m / (sqrt(v) + 0.1) = 3.16e-9, where ignoring epsilon would give 0.1.
        const auto w = trace("Adam", {{"learning_rate", 0.1}, {"epsilon", 0.1}}, 0.f, 1e-7f, 1);
        LF_COMPARE_NEAR(w[0], -0.0316228 * 1e-8 / (3.16228e-9 + 0.1), 1e-12);
    }

    void adamw_decays_before_the_adam_step() {
        // g = 0: m = v = 0, the Adam step is 0 / (0 + eps) = 0; only decay: w *= 1 - lr * wd = 0.99.
        const auto w = trace("AdamW", {{"learning_rate", 0.1}, {"weight_decay", 0.1}}, 1.f, 0.f, 2);
        LF_COMPARE_NEAR(w[0], 0.99, 1e-7);
        LF_COMPARE_NEAR(w[1], 0.9801, 1e-7);
        // g = 1: w1 = 1 * 0.99 - 0.0999997 = 0.8900003; w2 = w1 * 0.99 - (Adam step 2).
        const auto w2 = trace("AdamW", {{"learning_rate", 0.1}, {"weight_decay", 0.1}}, 1.f, 1.f, 2);
        LF_COMPARE_NEAR(w2[0], 0.8900003162, 1e-6);
        LF_COMPARE_NEAR(w2[1], 0.7811005367, 1e-6);
        // The decay follows the scheduled rate given to step(), not the configured one.
        auto opt = lf::make_optimizer("AdamW", {{"weight_decay", 0.5}});
        const auto w3 = trace(*opt, 1.f, 0.f, 1, 0.2);
        LF_COMPARE_NEAR(w3[0], 0.9, 1e-7);
    }

    void rmsprop() {
        // v1 = 0.1 * 1 = 0.1, w1 = 1 - 0.01 / sqrt(0.1 + 1e-7) = 0.9683772;
        // v2 = 0.09 + 0.1 = 0.19, w2 = w1 - 0.01 / sqrt(0.19 + 1e-7) = 0.9454357.
        const auto w = trace("RMSprop", {{"learning_rate", 0.01}}, 1.f, 1.f, 2);
        LF_COMPARE_NEAR(w[0], 0.9683772392, 1e-6);
        LF_COMPARE_NEAR(w[1], 0.9454356719, 1e-6);
        // momentum 0.5: mom1 = inc1 = 0.0316228, mom2 = 0.5 * 0.0316228 + 0.0229415 = 0.0387529.
        const auto m = trace("RMSprop", {{"learning_rate", 0.01}, {"momentum", 0.5}}, 1.f, 1.f, 2);
        LF_COMPARE_NEAR(m[0], 0.9683772392, 1e-6);
        LF_COMPARE_NEAR(m[1], 0.9296242915, 1e-6);
    }

    void keras_defaults_and_state() {
        QCOMPARE(lf::make_optimizer("SGD", {})->learning_rate(), 0.01);
        QCOMPARE(lf::make_optimizer("Adam", {})->learning_rate(), 0.001);
        QCOMPARE(lf::make_optimizer("RMSprop", {{"learning_rate", std::int64_t(1)}})->learning_rate(), 1.0);
        auto adam = lf::make_optimizer("Adam", {});
        adam->bind(3);
        auto state = adam->state();
        QCOMPARE(state.size(), std::size_t(2));
        QCOMPARE(state[0].first, std::string("m"));
        QCOMPARE(state[1].first, std::string("v"));
        QCOMPARE(state[0].second->size(), std::size_t(3));
        float w[3] = {0, 0, 0}, g[3] = {1, 2, 3};
        adam->step(w, g, 3, 0.001);
        QCOMPARE(adam->iterations(), std::int64_t(1));
        LF_COMPARE_NEAR((*state[0].second)[2], 0.3, 1e-7);  // m = 0.1 * g
        QCOMPARE(lf::make_optimizer("SGD", {})->state().size(), std::size_t(0));
        QCOMPARE(lf::make_optimizer("SGD", {{"momentum", 0.9}})->state()[0].first, std::string("momentum"));
        QCOMPARE(lf::make_optimizer("RMSprop", {{"momentum", 0.9}})->state().size(), std::size_t(2));
    }

    // Restoring iterations (from a checkpoint) continues the Adam bias correction.
    void adam_bias_correction_follows_iterations() {
        auto opt = lf::make_optimizer("Adam", {{"learning_rate", 0.1}});
        opt->bind(1);
        float w = 0, g = 1;
        opt->step(&w, &g, 1, 0.1);
        auto fresh = lf::make_optimizer("Adam", {{"learning_rate", 0.1}});
        fresh->bind(1);
        *fresh->state()[0].second = *opt->state()[0].second;
        *fresh->state()[1].second = *opt->state()[1].second;
        fresh->set_iterations(1);
        float w2 = w;
        opt->step(&w, &g, 1, 0.1);
        fresh->step(&w2, &g, 1, 0.1);
        QCOMPARE(w2, w);
    }

    void step_does_not_allocate() {
        for (const auto& type : lf::optimizer_types()) {
            auto opt = lf::make_optimizer(type, type == "SGD" || type == "RMSprop" ? lf::Params{{"momentum", 0.5}}
                                                                                 : lf::Params{});
            std::vector<float> w(64, 1.f), g(64, 0.5f);
            opt->bind(w.size());
            QCOMPARE(lf_test::allocations_during([&] { opt->step(w.data(), g.data(), w.size(), 0.01); }), 0L);
        }
    }

    void step_before_bind_or_beyond_it_is_a_runtime_error() {
        auto opt = lf::make_optimizer("Adam", {});
        float w[3] = {1, 1, 1}, g[3] = {1, 1, 1};
        QVERIFY_THROWS_EXCEPTION(lf::Error, opt->step(w, g, 1, 0.1));
        opt->bind(2);
        QVERIFY_THROWS_EXCEPTION(lf::Error, opt->step(w, g, 3, 0.1));
    }
    void step_over_a_prefix_leaves_the_rest() {
        // The trainer binds the whole weight buffer and steps over its trainable prefix.
        for (const auto& type : lf::optimizer_types()) {
            auto opt = lf::make_optimizer(type, {});
            std::vector<float> w(4, 1.f), g(4, 0.5f);
            opt->bind(w.size());
            opt->step(w.data(), g.data(), 2, 0.1);
            QVERIFY2(w[0] != 1.f && w[1] != 1.f, qPrintable(QString::fromStdString(type)));
            QCOMPARE(w[2], 1.f);
            QCOMPARE(w[3], 1.f);
        }
    }

    void bad_params_are_input_errors() {
        LF_EXPECT_INPUT_ERROR(lf::make_optimizer("Adagrad", {}), "Adagrad", "SGD", "RMSprop");
        LF_EXPECT_INPUT_ERROR(lf::make_optimizer("SGD", {{"learning_rate", 0.0}}), "SGD", "learning_rate", "> 0");
        LF_EXPECT_INPUT_ERROR(lf::make_optimizer("SGD", {{"momentum", 1.0}}), "SGD", "momentum", "[0, 1)");
        LF_EXPECT_INPUT_ERROR(lf::make_optimizer("SGD", {{"momentum", -0.1}}), "momentum");
        LF_EXPECT_INPUT_ERROR(lf::make_optimizer("SGD", {{"nesterov", std::string("yes")}}), "nesterov");
        LF_EXPECT_INPUT_ERROR(lf::make_optimizer("Adam", {{"beta_1", 1.0}}), "Adam", "beta_1", "(0, 1)");
        LF_EXPECT_INPUT_ERROR(lf::make_optimizer("Adam", {{"beta_2", std::int64_t(0)}}), "beta_2");
        LF_EXPECT_INPUT_ERROR(lf::make_optimizer("Adam", {{"epsilon", 0.0}}), "Adam", "epsilon", "> 0");
        LF_EXPECT_INPUT_ERROR(lf::make_optimizer("Adam", {{"weight_decay", 0.1}}), "Adam", "weight_decay");
        LF_EXPECT_INPUT_ERROR(lf::make_optimizer("AdamW", {{"weight_decay", -0.1}}), "AdamW", "weight_decay", ">= 0");
        LF_EXPECT_INPUT_ERROR(lf::make_optimizer("RMSprop", {{"rho", 1.0}}), "RMSprop", "rho");
        LF_EXPECT_INPUT_ERROR(lf::make_optimizer("RMSprop", {{"learning_rate", std::string("fast")}}),
                              "RMSprop", "learning_rate", "number");
    }
};

QTEST_APPLESS_MAIN(TestOptimizers)
#include "test_optimizers.moc"
