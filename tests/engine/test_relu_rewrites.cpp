// The plan's ReLU rewrites and its shared oneDNN scratchpad: a ReLU folded into the
// BatchNormalization before it, a ReLU run in place over its input, a convolution's relu moved
// past the max pooling after it, graphs where none is legal, and the scratchpad counted in the
// memory account.
#include <QtTest>

#include <oneapi/dnnl/dnnl.hpp>

#include "gradcheck.h"
#include "graph_builder.h"
#include "layerforge/project/project.h"
#include "backend/cpu/cpu_plan.h"
#include "plan_checks.h"

namespace {

// Output, input gradient and weight gradients of one forward + backward pass on fixed data.
struct Pass {
    std::vector<float> out, in_grad, w_grad;
};

Pass run_pass(lf::Model& model, bool fuse, std::int64_t batch = 4) {
    model.init_weights(3);
    for (std::size_t i = 0; i < model.weights().size(); ++i) model.weights()[i] += 0.01f * float(i % 7);
    lf::test::DevicePlan plan(model, {.batch = batch, .mode = lf::PlanMode::Train, .input_grads = true, .fuse = fuse});
    const std::int64_t width = model.info(model.input_node()).layer.output.elements();
    for (std::int64_t i = 0; i < batch * width; ++i) plan.input()[i] = float((i * 37) % 23) / 11.f - 1.f;
    plan.forward();
    Pass p;
    p.out.assign(plan.output(), plan.output() + batch * plan.output_width());
    for (std::size_t i = 0; i < p.out.size(); ++i) plan.output_grad()[i] = float(i % 5) - 2.f;
    plan.backward();
    p.in_grad.assign(plan.input_grad(), plan.input_grad() + batch * width);
    p.w_grad = model.grads();
    return p;
}

// The rewritten plan computes what the plain one does (tol 0: bit for bit).
// Finite differences: where a test passes seed 2, seed 1 puts a value within eps of a ReLU
// kink, where central differences are wrong for the plain plan too; those tests check the
// plain plan with the same seed first, so a failure there is the data, not the rewrite.
void same_as_plain(const lf::Graph& g, float tol) {
    lf::Model model(g);
    Pass fused = run_pass(model, true), plain = run_pass(model, false);
    compare_to_plain(fused.out, plain.out, "output", tol);
    compare_to_plain(fused.in_grad, plain.in_grad, "input gradient", tol);
    compare_to_plain(fused.w_grad, plain.w_grad, "weight gradients", tol);
}

lf::Params conv(std::int64_t filters, const std::string& activation = "linear", bool bias = true) {
    return {{"filters", filters}, {"kernel_size", lf::IntList{3, 3}}, {"padding", std::string("same")},
            {"activation", activation}, {"use_bias", bias}};
}

// Input(5,5,2) -> Conv2D(3) [-> BatchNormalization] -> ReLU -> Flatten -> Dense(4).
struct Chain {
    GraphBuilder b;
    std::string conv, bn, relu;
};

Chain chain(bool with_bn, const std::string& conv_activation = "linear") {
    Chain c;
    auto in = c.b.add("Input", {{"shape", lf::IntList{5, 5, 2}}});
    c.conv = c.b.add("Conv2D", conv(3, conv_activation, !with_bn), {in});
    std::string last = c.conv;
    if (with_bn) last = c.bn = c.b.add("BatchNormalization", {}, {c.conv});
    c.relu = c.b.add("ReLU", {}, {last});
    auto f = c.b.add("Flatten", {}, {c.relu});
    c.b.add("Dense", {{"units", std::int64_t(4)}}, {f});
    return c;
}

// Input(in x in x 2) -> Conv2D(3, activation) -> pooling -> Flatten -> Dense(4).
struct PoolChain {
    GraphBuilder b;
    std::string conv, pool;
};

PoolChain pool_chain(std::int64_t in, const std::string& activation, const std::string& pool_type,
                     const lf::Params& pool_params) {
    PoolChain c;
    auto input = c.b.add("Input", {{"shape", lf::IntList{in, in, 2}}});
    c.conv = c.b.add("Conv2D", conv(3, activation), {input});
    c.pool = c.b.add(pool_type, pool_params, {c.conv});
    auto f = c.b.add("Flatten", {}, {c.pool});
    c.b.add("Dense", {{"units", std::int64_t(4)}}, {f});
    return c;
}

bool has_post_relu(const lf::test::DevicePlan& plan, const std::string& node) {
    return kernel_of(plan, node).find("post-op relu") != std::string::npos;
}

std::size_t activation_bytes(const lf::Graph& g, bool fuse) {
    lf::Model model(g);
    return lf::test::DevicePlan(model, {.batch = 4, .mode = lf::PlanMode::Train, .fuse = fuse}).memory().activations;
}

}  // namespace

class TestReluRewrites : public QObject {
    Q_OBJECT
private slots:
    void relu_after_a_convolution_runs_in_place() {
        Chain c = chain(false);
        lf::Model model(c.b.graph);
        lf::test::DevicePlan plan(model, {.batch = 4, .mode = lf::PlanMode::Train});
        QVERIFY2(kernel_of(plan, c.relu).find("in place") != std::string::npos, kernel_of(plan, c.relu).c_str());
        // The ReLU's output buffer is its input's: one 4 x 5x5x3 activation fewer.
        QCOMPARE(activation_bytes(c.b.graph, false) - activation_bytes(c.b.graph, true), std::size_t(4 * 75 * 4));
        same_as_plain(c.b.graph, 0.f);
        check_graph_gradients(c.b.graph);
    }

    void relu_after_an_add_runs_in_place() {  // the residual blocks' shape: Add -> ReLU
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", lf::IntList{4, 4, 3}}});
        auto c1 = b.add("Conv2D", conv(3), {in});
        auto sum = b.add("Add", {}, {c1, in});
        auto relu = b.add("ReLU", {}, {sum});
        auto f = b.add("Flatten", {}, {relu});
        b.add("Dense", {{"units", std::int64_t(3)}}, {f});
        lf::Model model(b.graph);
        lf::test::DevicePlan plan(model, {.batch = 2, .mode = lf::PlanMode::Train});
        QVERIFY(kernel_of(plan, relu).find("in place") != std::string::npos);
        same_as_plain(b.graph, 0.f);
        check_graph_gradients(b.graph, 3, 2, false);
        if (QTest::currentTestFailed()) return;
        check_graph_gradients(b.graph, 3, 2);
    }

    void relu_after_batch_norm_is_fused_into_it() {
        // Inference plans fold a BatchNormalization after a linear convolution into the
        // convolution (test_norm_folding); after a tanh one it stays, with the ReLU in it.
        Chain c = chain(true);
        for (lf::PlanMode mode : {lf::PlanMode::Train, lf::PlanMode::Infer}) {
            const Chain kept = chain(true, mode == lf::PlanMode::Train ? "linear" : "tanh");
            lf::Model model(kept.b.graph);
            lf::test::DevicePlan plan(model, {.batch = 4, .mode = mode});
            QVERIFY2(kernel_of(plan, kept.bn).find("+ relu") != std::string::npos, kernel_of(plan, kept.bn).c_str());
            QCOMPARE(kernel_of(plan, kept.relu), std::string());
        }
        QCOMPARE(activation_bytes(c.b.graph, false) - activation_bytes(c.b.graph, true), std::size_t(4 * 75 * 4));
        same_as_plain(c.b.graph, 1e-6f);
        check_graph_gradients(c.b.graph, 3, 2, false);
        if (QTest::currentTestFailed()) return;
        check_graph_gradients(c.b.graph, 3, 2);
    }

    void fused_batch_norm_relu_infers_like_the_plain_plan() {
        Chain c = chain(true, "tanh");
        lf::Model model(c.b.graph);
        model.init_weights(5);
        std::vector<float> outs[2];
        for (int fuse = 0; fuse < 2; ++fuse) {
            lf::test::DevicePlan plan(model, {.batch = 3, .mode = lf::PlanMode::Infer, .fuse = fuse == 1});
            for (std::int64_t i = 0; i < 3 * 50; ++i) plan.input()[i] = float(i % 9) / 4.f - 1.f;
            plan.forward();
            outs[fuse].assign(plan.output(), plan.output() + 3 * plan.output_width());
        }
        compare_to_plain(outs[1], outs[0], "inference output", 1e-6f);
    }

    void fan_out_keeps_the_relu_separate() {
        // The convolution's output also feeds the Add, and the BatchNormalization's output also
        // feeds the Add: neither ReLU may overwrite its input or fold into the layer before it.
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", lf::IntList{4, 4, 2}}});
        auto c1 = b.add("Conv2D", conv(2), {in});
        auto r1 = b.add("ReLU", {}, {c1});
        auto bn = b.add("BatchNormalization", {}, {c1});
        auto r2 = b.add("ReLU", {}, {bn});
        auto sum = b.add("Add", {}, {r1, c1, r2, bn});
        auto f = b.add("Flatten", {}, {sum});
        b.add("Dense", {{"units", std::int64_t(3)}}, {f});
        lf::Model model(b.graph);
        lf::test::DevicePlan plan(model, {.batch = 2, .mode = lf::PlanMode::Train});
        for (const auto& id : {r1, r2}) {
            QVERIFY2(!kernel_of(plan, id).empty(), id.c_str());
            QVERIFY2(kernel_of(plan, id).find("in place") == std::string::npos, kernel_of(plan, id).c_str());
        }
        QVERIFY(kernel_of(plan, bn).find("+ relu") == std::string::npos);
        QCOMPARE(activation_bytes(b.graph, true), activation_bytes(b.graph, false));
        same_as_plain(b.graph, 0.f);
        check_graph_gradients(b.graph, 2);
    }

    void relu_stays_separate_when_the_producer_backward_reads_its_output() {
        // Conv2D's fused sigmoid is differentiated from the convolution's output, so the ReLU
        // after it must not overwrite that buffer.
        Chain c = chain(false, "sigmoid");
        lf::Model model(c.b.graph);
        lf::test::DevicePlan plan(model, {.batch = 4, .mode = lf::PlanMode::Train});
        QVERIFY(!kernel_of(plan, c.relu).empty());
        QVERIFY(kernel_of(plan, c.relu).find("in place") == std::string::npos);
        same_as_plain(c.b.graph, 0.f);
        check_graph_gradients(c.b.graph, 3, 2);
    }

    void capped_relu_is_not_rewritten() {  // ReLU(max_value=6): not differentiable from its output here
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", lf::IntList{4, 4, 2}}});
        auto c1 = b.add("Conv2D", conv(2, "linear", false), {in});
        auto bn = b.add("BatchNormalization", {}, {c1});
        auto r = b.add("ReLU", {{"max_value", 0.5}}, {bn});
        auto f = b.add("Flatten", {}, {r});
        b.add("Dense", {{"units", std::int64_t(3)}}, {f});
        lf::Model model(b.graph);
        lf::test::DevicePlan plan(model, {.batch = 2, .mode = lf::PlanMode::Train});
        QVERIFY(kernel_of(plan, r).find("in place") == std::string::npos);
        QVERIFY(kernel_of(plan, bn).find("+ relu") == std::string::npos);
        check_graph_gradients(b.graph, 2);
    }

    void conv_relu_moves_past_max_pooling() {
        // relu(maxpool(x)) == maxpool(relu(x)), and the gradients agree bit for bit: the window's
        // maximum is the same element either way, and where it is <= 0 both pass back zero.
        // Even pools, odd sizes with `same` padding, overlapping windows.
        const lf::Params pools[] = {
            {{"pool_size", lf::IntList{2, 2}}},
            {{"pool_size", lf::IntList{2, 2}}, {"padding", std::string("same")}},
            {{"pool_size", lf::IntList{3, 3}}, {"strides", lf::IntList{2, 2}}},
        };
        for (const lf::Params& pool : pools) {
            PoolChain c = pool_chain(5, "relu", "MaxPool2D", pool);
            for (lf::PlanMode mode : {lf::PlanMode::Train, lf::PlanMode::Infer}) {
                lf::Model model(c.b.graph);
                lf::test::DevicePlan plan(model, {.batch = 4, .mode = mode});
                QVERIFY2(!has_post_relu(plan, c.conv), kernel_of(plan, c.conv).c_str());
                QVERIFY2(has_post_relu(plan, c.pool), kernel_of(plan, c.pool).c_str());
                lf::test::DevicePlan plain(model, {.batch = 4, .mode = mode, .fuse = false});
                QVERIFY(has_post_relu(plain, c.conv) && !has_post_relu(plain, c.pool));
            }
            same_as_plain(c.b.graph, 0.f);
            // Seed 1: no value within eps of a relu kink or of a tie in a window (most seeds put one
            // somewhere, for the plain plan as much); the plain plan goes first to show that.
            for (bool fuse : {false, true}) {
                check_graph_gradients(c.b.graph, 3, 1, fuse);
                if (QTest::currentTestFailed()) return;
            }
        }
    }

    void relu_stays_in_the_convolution_where_it_does_not_commute() {
        // Average pooling does not commute with relu; a sigmoid is not moved; a convolution whose
        // output is also read elsewhere must keep its own activation.
        PoolChain avg = pool_chain(4, "relu", "AveragePooling2D", {{"pool_size", lf::IntList{2, 2}}});
        PoolChain sigmoid = pool_chain(4, "sigmoid", "MaxPool2D", {{"pool_size", lf::IntList{2, 2}}});
        for (PoolChain* c : {&avg, &sigmoid}) {
            lf::Model model(c->b.graph);
            lf::test::DevicePlan plan(model, {.batch = 2, .mode = lf::PlanMode::Train});
            QVERIFY(!has_post_relu(plan, c->pool));
            QVERIFY(kernel_of(plan, c->conv).find("post-op") != std::string::npos);
            same_as_plain(c->b.graph, 0.f);
        }
        GraphBuilder b;
        auto in = b.add("Input", {{"shape", lf::IntList{4, 4, 2}}});
        auto c1 = b.add("Conv2D", conv(2, "relu"), {in});
        auto pool = b.add("MaxPool2D", {{"pool_size", lf::IntList{2, 2}}}, {c1});
        auto f1 = b.add("Flatten", {}, {pool});
        auto f2 = b.add("Flatten", {}, {c1});
        auto cat = b.add("Concatenate", {}, {f1, f2});
        b.add("Dense", {{"units", std::int64_t(3)}}, {cat});
        lf::Model model(b.graph);
        lf::test::DevicePlan plan(model, {.batch = 2, .mode = lf::PlanMode::Train});
        QVERIFY(has_post_relu(plan, c1) && !has_post_relu(plan, pool));
        same_as_plain(b.graph, 0.f);
    }

    void tutorial_cnn_moves_both_relus() {
        lf::Project p = lf::load_project(std::string(qgetenv("LF_SOURCE_DIR")) + "/resources/templates/fashion_cnn.lfproj");
        lf::Model model(p.graph);
        lf::test::DevicePlan plan(model, {.batch = 2, .mode = lf::PlanMode::Train});
        for (const char* pool : {"pool1", "pool2"}) QVERIFY2(has_post_relu(plan, pool), pool);
        for (const char* conv : {"conv1", "conv2"}) QVERIFY2(!has_post_relu(plan, conv), conv);
        same_as_plain(p.graph, 0.f);
    }

    void residual_template_gets_both_rewrites() {
        lf::Project p = lf::load_project(std::string(qgetenv("LF_SOURCE_DIR")) + "/resources/templates/fashion_resnet.lfproj");
        lf::Model model(p.graph);
        lf::test::DevicePlan plan(model, {.batch = 2, .mode = lf::PlanMode::Train});
        int folded = 0, in_place = 0;
        for (const auto& [id, impl] : plan.kernels()) {
            folded += impl.find("+ relu") != std::string::npos;
            in_place += impl.find("in place") != std::string::npos;
        }
        QCOMPARE(folded, 3);    // stem_bn, block1_bn1, block2_bn1
        QCOMPARE(in_place, 2);  // block1_out, block2_out after the Adds
    }

    void scratchpad_is_shared_and_counted_as_workspace() {
        lf::Project p = lf::load_project(std::string(qgetenv("LF_SOURCE_DIR")) + "/resources/templates/fashion_cnn.lfproj");
        lf::Model model(p.graph);
        const lf::PlanOptions opt{.batch = 8, .mode = lf::PlanMode::Train};
        // What oneDNN asks for the first convolution's forward alone, in user scratchpad mode.
        dnnl::engine eng(dnnl::engine::kind::cpu, 0);
        using md = dnnl::memory::desc;
        const auto f32 = dnnl::memory::data_type::f32;
        dnnl::primitive_attr attr;
        attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
        dnnl::convolution_forward::primitive_desc conv1(
            dnnl::convolution_forward::desc(dnnl::prop_kind::forward_training, dnnl::algorithm::convolution_direct,
                                            md({8, 1, 28, 28}, f32, dnnl::memory::format_tag::nhwc),
                                            md({32, 1, 5, 5}, f32, dnnl::memory::format_tag::any),
                                            md({32}, f32, dnnl::memory::format_tag::a),
                                            md({8, 32, 28, 28}, f32, dnnl::memory::format_tag::nhwc), {1, 1}, {2, 2}, {2, 2}),
            attr, eng);
        const lf::MemoryBreakdown before = lf::memory_in_use();
        const lf::MemoryBreakdown estimate = lf::backend_for("cpu").estimate(model, opt);
        {
            lf::test::DevicePlan plan(model, opt);
            // The largest need (none on CPUs where no kernel of this model asks for one, as
            // oneDNN's AVX2 kernels).
            QVERIFY(dynamic_cast<const lf::CpuPlan&>(plan.plan()).scratchpad_bytes() >= conv1.scratchpad_desc().get_size());
            QVERIFY(plan.memory().workspaces > dynamic_cast<const lf::CpuPlan&>(plan.plan()).scratchpad_bytes());             // plus reorders, indices
            QCOMPARE(estimate.workspaces, plan.memory().workspaces);  // what `info` prints
            QCOMPARE(lf::memory_in_use().workspaces, before.workspaces + plan.memory().workspaces);
            QVERIFY(lf::memory_peak().total() >= lf::memory_in_use().total());
        }
        QCOMPARE(lf::memory_in_use().workspaces, before.workspaces);
    }
};

QTEST_APPLESS_MAIN(TestReluRewrites)
#include "test_relu_rewrites.moc"
