// mixed_bfloat16 plans against float32 plans of the same model: every op's forward output,
// input gradient and weight gradients agree within bfloat16's precision (8 significant bits),
// the ops with a bfloat16 kernel compute in it, the others run as float32 islands, and
// training lowers the loss as float32 does. (Finite differences stay on float32: test_*_gradients.)
#include <QtTest>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include "bf16_cpu.h"
#include "device_plan.h"
#include "graph_builder.h"
#include "update_copies.h"
#include "layerforge/core/bfloat16.h"
#include "layerforge/train/loss.h"

using lf::IntList;

namespace {

const std::string kSame = "same";

struct Pass {
    std::vector<float> output, input_grad, weight_grads;
    lf::PlanProfile profile;
    std::vector<std::pair<std::string, std::string>> kernels;
    lf::MemoryBreakdown memory;
};

// x rounded to the nearest bfloat16 (to nearest even): both plans then start from the same values.
float bf16_value(float x) { return lf::from_bfloat16(lf::to_bfloat16(x)); }

// One forward and backward of `model` at `precision` from the same weights, input and output
// gradient, all bfloat16 values.
Pass run_pass(lf::Model& model, lf::Precision precision, std::int64_t batch) {
    for (float& w : model.weights()) w = bf16_value(w);
    const std::vector<float> weights = model.weights();
    lf::test::DevicePlan plan(model, {.batch = batch, .mode = lf::PlanMode::Train, .seed = 5, .input_grads = true,
                                      .precision = precision});
    std::mt19937 rng{11};
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    for (std::int64_t i = 0; i < batch * plan.plan().input_width(); ++i) plan.input()[i] = bf16_value(u(rng));
    plan.forward();
    for (std::int64_t i = 0; i < batch * plan.output_width(); ++i) plan.output_grad()[i] = u(rng);
    plan.backward();
    Pass p;
    p.output.assign(plan.output(), plan.output() + batch * plan.output_width());
    p.input_grad.assign(plan.input_grad(), plan.input_grad() + batch * plan.plan().input_width());
    p.weight_grads = model.grads();
    p.profile = plan.plan().profile();
    p.kernels = plan.kernels();
    p.memory = plan.memory();
    model.weights() = weights;  // BatchNormalization's moving statistics moved
    return p;
}

// The relative L2 error within `tol`, and the largest difference within 0.15 of the reference's
// largest magnitude: rounding may flip a ReLU or a max pooling's choice for a value near a tie,
// which changes that element's gradient entirely, so no element-wise bound holds.
void expect_close(const std::vector<float>& ref, const std::vector<float>& got, const char* what, double tol) {
    QCOMPARE(got.size(), ref.size());
    double max_ref = 0, max_diff = 0, diff2 = 0, ref2 = 0;
    for (std::size_t i = 0; i < ref.size(); ++i) {
        QVERIFY2(std::isfinite(got[i]), qPrintable(QString("%1[%2] is not finite").arg(what).arg(i)));
        max_ref = std::max(max_ref, double(std::abs(ref[i])));
        max_diff = std::max(max_diff, double(std::abs(ref[i] - got[i])));
        diff2 += double(ref[i] - got[i]) * (ref[i] - got[i]);
        ref2 += double(ref[i]) * ref[i];
    }
    if (max_ref == 0) {
        QCOMPARE(max_diff, 0.0);
        return;
    }
    const double rel_max = max_diff / max_ref, rel_l2 = std::sqrt(diff2 / ref2);
    QVERIFY2(rel_max < 0.15 && rel_l2 < tol,
             qPrintable(QString("%1: max error %2 and L2 error %3 of the float32 values (allowed 0.15, %4)")
                            .arg(what).arg(rel_max).arg(rel_l2).arg(tol)));
}

lf::DType compute_of(const Pass& p, const std::string& node) {
    for (const lf::LayerProfile& l : p.profile)
        if (l.node == node) return l.compute;
    qFatal("node %s not in the profile", node.c_str());
}

}  // namespace

class TestBf16Ops : public QObject {
    Q_OBJECT

    // `node` is the op under test; `bf16` whether it must compute in bfloat16.
    void compare(const lf::Graph& g, const std::string& node, bool bf16, std::int64_t batch = 4, double tol = 0.02) {
        lf::Model model(g);
        model.init_weights(3);
        const Pass f32 = run_pass(model, lf::Precision::Float32, batch);
        const Pass mixed = run_pass(model, lf::Precision::MixedBFloat16, batch);
        QCOMPARE(compute_of(f32, node), lf::DType::Float32);
        QCOMPARE(compute_of(mixed, node), bf16 ? lf::DType::BFloat16 : lf::DType::Float32);
        for (const auto& [id, impl] : mixed.kernels)  // oneDNN's reference kernels are 10-100x slower
            if (id == node) QVERIFY2(impl.find("ref") == std::string::npos, impl.c_str());
        expect_close(f32.output, mixed.output, "output", tol);
        expect_close(f32.input_grad, mixed.input_grad, "input gradient", tol);
        expect_close(f32.weight_grads, mixed.weight_grads, "weight gradients", tol);
    }

    // The op under test between a bf16 producer and a Dense head (the float32 output layer).
    static std::string head(GraphBuilder& b, const std::string& x) {
        auto f = b.add("Flatten", {}, {x});
        return b.add("Dense", {{"units", std::int64_t(3)}}, {f});
    }

public:
    static void initMain() { lf_test::skip_suite_without_bf16(); }

private slots:
    void refusal_follows_the_cpu_isa() {
        // Registered twice: plainly (initMain skips the suite where bfloat16 is refused), and
        // with oneDNN's ISA capped below bfloat16 (DNNL_MAX_CPU_ISA).
        const std::string reason = lf::precision_unsupported(lf::Precision::MixedBFloat16, "cpu");
        QCOMPARE(lf::precision_unsupported(lf::Precision::Float32, "cpu"), std::string());
        if (lf_test::bf16_capped())
            QVERIFY2(lf_test::names_the_missing_bf16(reason), reason.c_str());
        else
            QCOMPARE(reason, std::string());
    }

    void dense_data() {
        QTest::addColumn<QString>("activation");
        for (const char* a : {"linear", "relu", "tanh", "gelu", "softmax", "hard_sigmoid", "hard_swish"}) QTest::newRow(a) << a;
    }
    void dense() {
        QFETCH(QString, activation);
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{40}}});
        auto d = b.add("Dense", {{"units", std::int64_t(24)}, {"activation", activation.toStdString()}}, {in});
        b.add("Dense", {{"units", std::int64_t(5)}}, {d});
        compare(b.graph, d, true);
    }

    void convolutions_data() {
        QTest::addColumn<QString>("type");
        QTest::addColumn<qint64>("strides");
        for (const char* t : {"Conv2D", "DepthwiseConv2D", "Conv2DTranspose"}) {
            QTest::newRow((std::string(t) + " stride 1").c_str()) << t << qint64(1);
            QTest::newRow((std::string(t) + " stride 2").c_str()) << t << qint64(2);
        }
    }
    void convolutions() {
        QFETCH(QString, type);
        QFETCH(qint64, strides);
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{9, 8, 8}}});
        lf::Params p{{"kernel_size", std::int64_t(3)}, {"strides", std::int64_t(strides)}, {"padding", kSame},
                     {"activation", std::string("relu")}};
        if (type != "DepthwiseConv2D") p["filters"] = std::int64_t(16);
        auto c = b.add(type.toStdString(), p, {in});
        head(b, c);
        compare(b.graph, c, true);
    }

    void conv_relu_max_pool() {  // the ReLU moved past the pooling, as in the tutorial CNN
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{12, 12, 3}}});
        auto c = b.add("Conv2D", {{"filters", std::int64_t(16)}, {"kernel_size", std::int64_t(3)},
                                  {"activation", std::string("relu")}}, {in});
        auto pool = b.add("MaxPool2D", {{"pool_size", std::int64_t(2)}}, {c});
        head(b, pool);
        compare(b.graph, pool, true);
    }

    void average_pooling() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{8, 8, 16}}});
        auto pool = b.add("AveragePooling2D", {{"pool_size", std::int64_t(2)}}, {in});
        head(b, pool);
        compare(b.graph, pool, true);
    }

    void batch_norm_data() {
        QTest::addColumn<bool>("relu");
        QTest::newRow("alone") << false;
        QTest::newRow("with its ReLU fused") << true;
    }
    void batch_norm() {
        QFETCH(bool, relu);
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{6, 6, 16}}});
        auto c = b.add("Conv2D", {{"filters", std::int64_t(16)}, {"kernel_size", std::int64_t(3)}, {"padding", kSame}},
                       {in});
        auto n = b.add("BatchNormalization", {}, {c});
        head(b, relu ? b.add("ReLU", {}, {n}) : b.add("Tanh", {}, {n}));
        // Normalised outputs crowd around zero, where rounding flips the ReLU's mask for ~1% of
        // them, and the normalisation's backward spreads each flip over its channel (an unfused
        // ReLU gives the same error).
        compare(b.graph, n, true, 8, relu ? 0.05 : 0.02);
    }

    void residual_add_and_concatenate() {  // fan-out: bf16 gradient slots summed
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{6, 6, 16}}});
        auto c = b.add("Conv2D", {{"filters", std::int64_t(16)}, {"kernel_size", std::int64_t(3)}, {"padding", kSame},
                                  {"activation", std::string("relu")}}, {in});
        auto add = b.add("Add", {}, {c, in});
        auto cat = b.add("Concatenate", {{"axis", std::int64_t(-1)}}, {add, c});
        head(b, cat);
        compare(b.graph, add, true);
        compare(b.graph, cat, true);
    }

    void activation_layers_data() {
        QTest::addColumn<QString>("type");
        for (const char* t : {"ReLU", "LeakyReLU", "Sigmoid", "Tanh", "GELU", "Softmax"}) QTest::newRow(t) << t;
    }
    void activation_layers() {
        QFETCH(QString, type);
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{40}}});
        auto d = b.add("Dense", {{"units", std::int64_t(12)}}, {in});
        auto a = b.add(type.toStdString(), {}, {d});
        head(b, a);
        compare(b.graph, a, true);
    }

    // Ops without a bfloat16 kernel: float32 between conversions at their edges.
    void float32_islands_data() {
        QTest::addColumn<QString>("type");
        for (const char* t : {"Dropout", "ZeroPadding2D", "GlobalAveragePooling2D", "ReLU threshold"})
            QTest::newRow(t) << t;
    }
    void float32_islands() {
        QFETCH(QString, type);
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{6, 6, 8}}});
        auto c = b.add("Conv2D", {{"filters", std::int64_t(8)}, {"kernel_size", std::int64_t(3)}, {"padding", kSame}},
                       {in});
        lf::Params p;
        std::string t = type.toStdString();
        if (t == "Dropout") p = {{"rate", 0.3}};
        if (t == "ZeroPadding2D") p = {{"padding", std::int64_t(1)}};
        if (t == "ReLU threshold") t = "ReLU", p = {{"threshold", 0.2}};
        auto x = b.add(t, p, {c});
        auto after = b.add("Tanh", {}, {x});  // a bf16 consumer
        head(b, after);
        compare(b.graph, x, false);
    }

    void global_max_pooling() {  // on the input: a convolution's bf16 outputs would tie
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{5, 5, 8}}});
        auto pool = b.add("GlobalMaxPooling2D", {}, {in});
        b.add("Dense", {{"units", std::int64_t(3)}}, {pool});
        compare(b.graph, pool, false);
    }

    void multiply_with_a_channel_scale() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{4, 4, 8}}});
        auto t = b.add("Tanh", {}, {in});
        auto pool = b.add("GlobalAveragePooling2D", {}, {t});
        auto d = b.add("Dense", {{"units", std::int64_t(8)}, {"activation", std::string("sigmoid")}}, {pool});
        auto r = b.add("Reshape", {{"target_shape", IntList{1, 1, 8}}}, {d});
        auto m = b.add("Multiply", {}, {t, r});
        head(b, m);
        compare(b.graph, m, false);
    }

    void the_output_layer_stays_float32() {
        lf::Model model(mlp_builder({8, 8, 1}, 32).graph);
        model.init_weights(1);
        const Pass mixed = run_pass(model, lf::Precision::MixedBFloat16, 4);
        QCOMPARE(compute_of(mixed, "dense_2"), lf::DType::BFloat16);
        QCOMPARE(compute_of(mixed, "softmax_4"), lf::DType::Float32);
        double sum = 0;
        for (int c = 0; c < 10; ++c) sum += mixed.output[std::size_t(c)];
        QVERIFY(std::abs(sum - 1.0) < 1e-5);  // a float32 softmax
    }

    void activations_take_half_the_memory() {
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", IntList{28, 28, 1}}});
        auto c = b.add("Conv2D", {{"filters", std::int64_t(32)}, {"kernel_size", std::int64_t(3)},
                                  {"activation", std::string("relu")}}, {in});
        auto pool = b.add("MaxPool2D", {{"pool_size", std::int64_t(2)}}, {c});
        head(b, pool);
        lf::Model model(b.graph);
        const lf::PlanOptions f32{.batch = 64, .mode = lf::PlanMode::Train};
        lf::PlanOptions mixed = f32;
        mixed.precision = lf::Precision::MixedBFloat16;
        const lf::MemoryBreakdown a = lf::backend_for("cpu").estimate(model, f32);
        const lf::MemoryBreakdown m = lf::backend_for("cpu").estimate(model, mixed);
        QVERIFY2(m.activations < a.activations * 0.55 && m.gradients < a.gradients * 0.55,
                 qPrintable(QString("activations %1 -> %2, gradients %3 -> %4 bytes")
                                .arg(a.activations).arg(m.activations).arg(a.gradients).arg(m.gradients)));
        const Pass run = run_pass(model, lf::Precision::MixedBFloat16, 64);
        QCOMPARE(run.memory.activations, m.activations);  // the estimate is the plan's account
    }

    // The update makes the pair-blocked bfloat16 copies band by band as it writes the weights
    // (CpuPlan::backward_and_update): 784 x 300 is 13 bands of the forward's copy, the
    // second Dense has a backward-data copy too (transposed), the convolution its own layouts.
    void the_update_makes_the_bf16_copies_in_bands_data() {
        QTest::addColumn<int>("threads");
        QTest::addColumn<bool>("conv");
        for (int threads : {1, 2})
            for (bool conv : {false, true}) QTest::addRow("%s, %d threads", conv ? "conv" : "mlp", threads) << threads << conv;
    }
    void the_update_makes_the_bf16_copies_in_bands() {
        QFETCH(int, threads);
        QFETCH(bool, conv);
        lf::Graph g = mlp_builder({28, 28, 1}, 300).graph;
        if (conv) {
            GraphBuilder b;
            auto in = b.add("Input", {{"shape", lf::IntList{12, 12, 2}}});
            auto c = b.add("Conv2D", {{"filters", std::int64_t(32)}, {"kernel_size", std::int64_t(3)},
                                      {"activation", "relu"}}, {in});
            auto c2 = b.add("Conv2D", {{"filters", std::int64_t(32)}, {"kernel_size", std::int64_t(3)}}, {c});
            auto d = b.add("Dense", {{"units", std::int64_t(64)}, {"activation", "relu"}}, {b.add("Flatten", {}, {c2})});
            b.add("Softmax", {}, {b.add("Dense", {{"units", std::int64_t(4)}}, {d})});
            g = b.graph;
        }
        const lf::PlanOptions o{.batch = 16, .precision = lf::Precision::MixedBFloat16, .threads = threads};
        lf_test::expect_fused_update_takes_the_plain_steps(g, o);
        if (QTest::currentTestFailed()) return;
        lf_test::expect_copies_follow_the_weights(g, o);
    }

    void mixed_training_lowers_the_loss_like_float32() {
        auto loss = lf::make_loss("SparseCategoricalCrossentropy");
        std::vector<double> first, last;
        for (lf::Precision precision : {lf::Precision::Float32, lf::Precision::MixedBFloat16}) {  // the CPU's
            lf::Model model(mlp_builder({8, 8, 1}, 32).graph);
            model.init_weights(2);
            lf::test::DevicePlan plan(model, {.batch = 32, .mode = lf::PlanMode::Train, .precision = precision});
            // Two separable classes of noisy images, plain SGD on the master weights.
            std::mt19937 rng{4};
            std::normal_distribution<float> noise(0.f, 0.3f);
            std::vector<std::int32_t> labels(32);
            double l0 = 0, l = 0;
            for (int step = 0; step < 60; ++step) {
                for (std::size_t i = 0; i < labels.size(); ++i) {
                    labels[i] = std::int32_t((i + std::size_t(step)) % 2);
                    for (int k = 0; k < 64; ++k) plan.input()[i * 64 + std::size_t(k)] = (k < 32) == (labels[i] == 0) ? 1.f + noise(rng) : noise(rng);
                }
                l = plan.train_step(labels.data(), *loss);
                if (step == 0) l0 = l;
                for (std::size_t w = 0; w < model.trainable_size(); ++w) model.weights()[w] -= 0.1f * model.grads()[w];
            }
            first.push_back(l0);
            last.push_back(l);
        }
        QVERIFY2(last[1] < 0.25 * first[1], qPrintable(QString("mixed: %1 -> %2").arg(first[1]).arg(last[1])));
        QVERIFY2(std::abs(last[1] - last[0]) < 0.05 + 0.2 * last[0],
                 qPrintable(QString("final loss float32 %1, mixed %2").arg(last[0]).arg(last[1])));
    }
};

QTEST_GUILESS_MAIN(TestBf16Ops)
#include "test_bf16_ops.moc"
