// Inference plans fold a BatchNormalization into the Conv2D or DepthwiseConv2D before it (and
// the ReLU after it into the convolution's post-op): the same outputs as the plain plan, from
// the weights of each forward, and no fold where it would change the result. Folding
// reassociates the products, so folded outputs equal the plain plan's to rounding (1e-5).
#include <QtTest>

#include <cmath>

#include "graph_builder.h"
#include "layerforge/graph/model.h"
#include "device_plan.h"
#include "layerforge/project/project.h"
#include "plan_checks.h"

namespace {

// Glorot kernels, then BatchNormalization weights far from their initial values (gamma 1,
// beta 0, mean 0, variance 1), which would hide a wrong fold: gamma in [0.5, 1.5), beta and the
// mean in [-0.5, 0.5), the variance in [0.25, 2.25). `seed` varies them.
void set_weights(lf::Model& model, std::uint32_t seed) {
    model.init_weights(seed);
    std::uint32_t state = seed * 2654435761u + 1;
    auto uniform = [&] {  // [0, 1), a fixed LCG so every platform gets the same values
        state = state * 1664525u + 1013904223u;
        return float(state >> 8) / float(1u << 24);
    };
    for (const auto& [id, info] : model.analysis().nodes) {
        if (info.spec->type != "BatchNormalization") continue;
        const auto w = model.weights_of(id);  // gamma, beta, moving mean, moving variance
        const float lo[] = {0.5f, -0.5f, -0.5f, 0.25f}, span[] = {1.f, 1.f, 1.f, 2.f};
        for (std::size_t k = 0; k < 4; ++k)
            for (std::size_t i = 0; i < w[k]->size; ++i) model.weights()[w[k]->offset + i] = lo[k] + span[k] * uniform();
    }
}

std::vector<float> infer(lf::test::DevicePlan& plan, const lf::Model& model) {
    const std::int64_t width = model.info(model.input_node()).layer.output.elements();
    for (std::int64_t i = 0; i < plan.batch() * width; ++i) plan.input()[i] = float((i * 37) % 23) / 11.f - 1.f;
    plan.forward();
    return {plan.output(), plan.output() + plan.batch() * plan.output_width()};
}

std::vector<float> infer_plain(lf::Model& model, std::int64_t batch) {
    lf::test::DevicePlan plain(model, {.batch = batch, .mode = lf::PlanMode::Infer, .fuse = false});
    return infer(plain, model);
}

lf::Params conv(const std::string& type, std::int64_t filters, bool bias, const std::string& activation = "linear") {
    lf::Params p{{"kernel_size", lf::IntList{3, 3}}, {"padding", std::string("same")}, {"use_bias", bias},
                 {"activation", activation}};
    if (type == "DepthwiseConv2D")
        p["depth_multiplier"] = filters;
    else
        p["filters"] = filters;
    return p;
}

// Input(6,6,3) -> conv -> BatchNormalization [-> ReLU] -> Flatten -> Dense(5).
struct Chain {
    GraphBuilder b;
    std::string conv, bn, relu;
};

Chain chain(const std::string& type, lf::Params conv_params, bool relu) {
    Chain c;
    auto in = c.b.add("Input", {{"shape", lf::IntList{6, 6, 3}}});
    c.conv = c.b.add(type, std::move(conv_params), {in});
    std::string last = c.bn = c.b.add("BatchNormalization", {{"epsilon", 0.01}}, {c.conv});
    if (relu) last = c.relu = c.b.add("ReLU", {}, {c.bn});
    auto f = c.b.add("Flatten", {}, {last});
    c.b.add("Dense", {{"units", std::int64_t(5)}}, {f});
    return c;
}

}  // namespace

class TestNormFolding : public QObject {
    Q_OBJECT
private slots:
    void batch_norm_folds_into_the_convolution_before_it() {
        lf::Params strided = conv("Conv2D", 4, false);
        strided["strides"] = lf::IntList{2, 2};
        struct Case {
            const char* what;
            Chain c;
        } cases[] = {
            {"Conv2D with bias", chain("Conv2D", conv("Conv2D", 4, true), false)},
            {"strided Conv2D without bias, ReLU", chain("Conv2D", strided, true)},
            {"DepthwiseConv2D x2, ReLU", chain("DepthwiseConv2D", conv("DepthwiseConv2D", 2, true), true)},
        };
        for (Case& k : cases) {
            const Chain& c = k.c;
            lf::Model model(c.b.graph);
            set_weights(model, 7);
            lf::test::DevicePlan plan(model, {.batch = 3, .mode = lf::PlanMode::Infer});
            const std::string impl = kernel_of(plan, c.conv);
            QVERIFY2(impl.find("folded BatchNormalization") != std::string::npos, (std::string(k.what) + ": " + impl).c_str());
            QCOMPARE(kernel_of(plan, c.bn), std::string());
            if (!c.relu.empty()) {
                QVERIFY2(impl.find("post-op relu") != std::string::npos, (std::string(k.what) + ": " + impl).c_str());
                QCOMPARE(kernel_of(plan, c.relu), std::string());
            }
            compare_to_plain(infer(plan, model), infer_plain(model, 3), "folded output", 1e-5f);
            // The normalization's output buffer (and the ReLU's) is the convolution's.
            lf::test::DevicePlan plain(model, {.batch = 3, .mode = lf::PlanMode::Infer, .fuse = false});
            QVERIFY2(plan.memory().activations < plain.memory().activations, k.what);
            // Training normalises with the batch's statistics: nothing is folded.
            lf::test::DevicePlan train(model, {.batch = 3, .mode = lf::PlanMode::Train});
            QVERIFY2(!kernel_of(train, c.bn).empty(), k.what);
            QVERIFY(kernel_of(train, c.conv).find("folded") == std::string::npos);
        }
    }

    void each_forward_folds_the_current_weights() {
        // An inference plan built once evaluates every epoch of a training run.
        Chain c = chain("Conv2D", conv("Conv2D", 4, true), true);
        lf::Model model(c.b.graph);
        set_weights(model, 3);
        lf::test::DevicePlan plan(model, {.batch = 2, .mode = lf::PlanMode::Infer});
        const std::vector<float> before = infer(plan, model);
        compare_to_plain(before, infer_plain(model, 2), "folded output", 1e-5f);
        set_weights(model, 11);  // new kernel, bias and all four normalization weights
        const std::vector<float> after = infer(plan, model);
        QVERIFY(after != before);
        compare_to_plain(after, infer_plain(model, 2), "folded output", 1e-5f);
    }

    void batch_norm_stays_where_folding_would_change_the_result() {
        // After an activation, after a convolution whose output is also read elsewhere, after a
        // transposed convolution or a Dense layer, and with the rewrites off: the plans are the
        // plain plan, bit for bit.
        GraphBuilder fan;
        auto in = fan.add("Input", {{"shape", lf::IntList{6, 6, 3}}});
        auto c1 = fan.add("Conv2D", conv("Conv2D", 3, true), {in});
        auto bn = fan.add("BatchNormalization", {}, {c1});
        auto sum = fan.add("Add", {}, {bn, c1});
        auto f = fan.add("Flatten", {}, {sum});
        fan.add("Dense", {{"units", std::int64_t(5)}}, {f});
        GraphBuilder dense;
        auto din = dense.add("Input", {{"shape", lf::IntList{8}}});
        auto d1 = dense.add("Dense", {{"units", std::int64_t(6)}}, {din});
        auto dbn = dense.add("BatchNormalization", {}, {d1});
        dense.add("Dense", {{"units", std::int64_t(3)}}, {dbn});
        lf::Params transpose{{"filters", std::int64_t(2)}, {"kernel_size", lf::IntList{3, 3}}, {"strides", lf::IntList{2, 2}}};
        const Chain tanh = chain("Conv2D", conv("Conv2D", 4, true, "tanh"), true);
        const Chain transposed = chain("Conv2DTranspose", transpose, false);
        const Chain plain = chain("Conv2D", conv("Conv2D", 4, true), true);
        struct Case {
            const char* what;
            lf::Graph g;
            std::string bn;
            bool fuse = true;
        } cases[] = {
            {"after a tanh convolution", tanh.b.graph, tanh.bn},
            {"convolution fan-out", fan.graph, bn},
            {"after Conv2DTranspose", transposed.b.graph, transposed.bn},
            {"after Dense", dense.graph, dbn},
            {"rewrites off", plain.b.graph, plain.bn, false},
        };
        for (Case& k : cases) {
            lf::Model model(k.g);
            set_weights(model, 5);
            lf::test::DevicePlan plan(model, {.batch = 3, .mode = lf::PlanMode::Infer, .fuse = k.fuse});
            QVERIFY2(!kernel_of(plan, k.bn).empty(), k.what);
            for (const auto& [id, impl] : plan.kernels()) QVERIFY2(impl.find("folded") == std::string::npos, k.what);
            compare_to_plain(infer(plan, model), infer_plain(model, 3), k.what, 0.f);
        }
    }

    void residual_template_folds_every_batch_norm() {
        lf::Project p = lf::load_project(std::string(qgetenv("LF_SOURCE_DIR")) + "/resources/templates/fashion_resnet.lfproj");
        lf::Model model(p.graph);
        set_weights(model, 9);
        lf::test::DevicePlan plan(model, {.batch = 2, .mode = lf::PlanMode::Infer});
        int convolutions = 0, with_relu = 0;
        for (const auto& [id, impl] : plan.kernels()) {
            const std::string& type = model.info(id).spec->type;
            QVERIFY2(type != "BatchNormalization", id.c_str());
            if (type != "Conv2D") continue;
            ++convolutions;
            QVERIFY2(impl.find("folded BatchNormalization") != std::string::npos, (id + ": " + impl).c_str());
            with_relu += impl.find("folded BatchNormalization + post-op relu") != std::string::npos;
        }
        QCOMPARE(convolutions, 6);  // the projection included
        QCOMPARE(with_relu, 3);     // stem, block1_conv1, block2_conv1
        compare_to_plain(infer(plan, model), infer_plain(model, 2), "folded output", 1e-5f);
    }
};

QTEST_APPLESS_MAIN(TestNormFolding)
#include "test_norm_folding.moc"
