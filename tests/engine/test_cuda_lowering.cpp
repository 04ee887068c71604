// The CUDA plan's host side, without a GPU: which steps of a schedule get a CUDA op and how the
// others are refused (by node and layer type, before any device memory is taken), which kernel
// each activation maps to (the CPU backend's formula for each ReLU form), the convolutions'
// geometry as cuDNN gets it ('same' padding that cuDNN cannot express is applied by the plan; a
// Conv2DTranspose as the convolution it runs backwards, with TensorFlow's cropping), their
// algorithm-cache keys, and what the plan would hold (the schedule's buffers plus the ops'
// workspaces and the shared scratch), in the estimate and per step.
#include <QtTest>

#include <cmath>

#include "backend/cuda/cuda_activation.h"
#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_conv_geometry.h"
#include "backend/cuda/cuda_ops.h"
#include "backend/cuda/cuda_plan.h"
#include "layers/window.h"
#include "graph_builder.h"
#include "plugin_layer_fixture.h"
#include "layerforge/graph/model.h"
#include "layerforge/graph/schedule.h"
#include "layerforge/project/project.h"

namespace {

std::string templates_dir() { return std::string(qgetenv("LF_SOURCE_DIR")) + "/resources/templates/"; }

lf::Schedule schedule_of(const lf::Model& m, std::int64_t batch, bool training = true) {
    return lf::make_schedule(m, {.batch = batch, .training = training, .fuse = false}, lf::cuda_backward_reads_output);
}

// The first refusal over the schedule, "" when every step has a CUDA op.
std::string first_refusal(const lf::Model& m) {
    for (const lf::ScheduledStep& s : schedule_of(m, 4).steps)
        if (std::string why = lf::cuda_op_unsupported(s); !why.empty()) return why;
    return "";
}

lf::Graph dense_graph(const std::string& activation, std::int64_t units = 10) {
    GraphBuilder b;
    auto in = b.add("Input", {{"shape", lf::IntList{12}}});
    b.add("Dense", {{"units", units}, {"activation", activation}}, {in});
    return b.graph;
}

// Input (h, w, c) -> one layer of `type` with `params`: node "input_0" and "<type>_1".
lf::Graph one_layer(const std::string& type, lf::Params params, lf::IntList shape = {28, 28, 1}) {
    GraphBuilder b;
    auto in = b.add("Input", {{"shape", shape}});
    b.add(type, std::move(params), {in});
    return b.graph;
}

lf::Params conv_params(std::int64_t filters, std::int64_t k, std::int64_t stride, const std::string& padding,
                       const std::string& activation = "linear") {
    return {{"filters", filters}, {"kernel_size", lf::IntList{k, k}}, {"strides", lf::IntList{stride, stride}},
            {"padding", padding}, {"activation", activation}};
}

const lf::NodeInfo& node(const lf::Model& m, const std::string& id) { return *schedule_of(m, 1).step(id).info; }

std::size_t workspace_of(const lf::Model& m, const std::string& id, std::int64_t batch, bool training) {
    const lf::Schedule s = schedule_of(m, batch, training);
    return lf::cuda_op_needs(s.step(id), batch, training).workspace_floats;
}

}  // namespace

class TestCudaLowering : public QObject {
    Q_OBJECT
private slots:
    void every_template_lowers_completely_data() {
        QTest::addColumn<QString>("file");
        for (const char* f : {"fashion_mlp", "fashion_cnn", "fashion_functional", "fashion_resnet", "mobilenet_v2_small",
                              "cats_vs_dogs_cnn"})
            QTest::newRow(f) << f;
    }
    void every_template_lowers_completely() {
        QFETCH(QString, file);
        const lf::Model m(lf::load_project(templates_dir() + file.toStdString() + ".lfproj").graph);
        QCOMPARE(first_refusal(m), std::string());
    }

    // Every built-in layer has an op; a plugin layer (a CPU kernel only) is refused by name.
    void layers_without_an_op_are_refused_by_name() {
        test_plugins::register_identity_layer("TestCpuOnlyLayer");
        const lf::Model p(one_layer("TestCpuOnlyLayer", {}));
        QCOMPARE(first_refusal(p),
                 std::string("layer 'testcpuonlylayer_1' (TestCpuOnlyLayer) has no CUDA kernel yet; train this model on the CPU"));
        const lf::Model t(one_layer("Conv2DTranspose", {{"filters", std::int64_t(4)}, {"kernel_size", lf::IntList{3, 3}}}));
        QCOMPARE(first_refusal(t), std::string());
        for (const char* a : {"relu", "gelu", "softmax", "swish"})
            QCOMPARE(first_refusal(lf::Model(one_layer("Conv2DTranspose", conv_params(4, 3, 2, "same", a)))), std::string());
        for (const char* a : {"gelu", "elu", "swish", "silu", "exponential", "softmax", "linear", "hard_sigmoid", "hard_swish"})
            QCOMPARE(first_refusal(lf::Model(dense_graph(a))), std::string());
    }

    // Each form of Keras' ReLU gets the kernel whose formula the CPU backend uses for it.
    void relu_forms_map_to_the_cpu_formulas() {
        auto relu = [](lf::Params p) {
            const lf::Model m(one_layer("ReLU", std::move(p), {12}));
            return *lf::cuda_layer_activation(node(m, "relu_1"));
        };
        QCOMPARE(relu({}).act.kind, int(LF_CUDA_RELU));
        QVERIFY(relu({}).from_output());
        const auto leaky = relu({{"negative_slope", 0.1}});
        QCOMPARE(leaky.act.kind, int(LF_CUDA_LEAKY_RELU));
        QCOMPARE(leaky.act.alpha, 0.1f);
        QVERIFY(leaky.from_input());
        const auto capped = relu({{"max_value", 6.0}});
        QCOMPARE(capped.act.kind, int(LF_CUDA_CLIP));
        QCOMPARE(capped.act.max_value, 6.f);
        const auto general = relu({{"negative_slope", 0.2}, {"threshold", 0.5}});
        QCOMPARE(general.act.kind, int(LF_CUDA_KERAS_RELU));
        QCOMPARE(general.act.threshold, 0.5f);
        QVERIFY(std::isinf(general.act.max_value));  // no cap
        QCOMPARE(relu({{"negative_slope", 0.2}, {"max_value", 6.0}}).act.kind, int(LF_CUDA_KERAS_RELU));

        const lf::Model gelu(one_layer("GELU", {{"approximate", true}}, {12}));
        QCOMPARE(lf::cuda_layer_activation(node(gelu, "gelu_1"))->act.kind, int(LF_CUDA_GELU_TANH));
        const lf::Model leaky_layer(one_layer("LeakyReLU", {{"alpha", 0.3}}, {12}));
        QCOMPARE(lf::cuda_layer_activation(node(leaky_layer, "leakyrelu_1"))->act.alpha, 0.3f);
        QCOMPARE(lf::cuda_activation("swish")->act.alpha, 1.f);
        QCOMPARE(lf::cuda_activation("hard_sigmoid")->act.kind, int(LF_CUDA_HARD_SIGMOID));
        QVERIFY(lf::cuda_activation("hard_silu")->from_input());
        QCOMPARE(lf::cuda_activation("hard_swish")->act.kind, int(LF_CUDA_HARD_SWISH));
        QVERIFY(!lf::cuda_activation("selu"));
    }

    void what_each_op_reads_back() {
        const lf::Model relu(dense_graph("relu")), linear(dense_graph("linear")), gelu(dense_graph("gelu"));
        const lf::Schedule a = schedule_of(relu, 4), b = schedule_of(linear, 4), c = schedule_of(gelu, 4);
        QVERIFY(lf::cuda_backward_reads_output(a.step("dense_1"), a));   // relu' from its output
        QVERIFY(!lf::cuda_backward_reads_output(b.step("dense_1"), b));
        QVERIFY(!lf::cuda_backward_reads_output(c.step("dense_1"), c));  // gelu' from the kept pre-activation
        QVERIFY(!lf::cuda_backward_reads_output(a.step("input_0"), a));  // runs nothing
        const lf::Model conv(one_layer("Conv2D", conv_params(4, 3, 1, "same", "tanh")));
        const lf::Schedule s = schedule_of(conv, 2);
        QVERIFY(lf::cuda_backward_reads_output(s.step("conv2d_1"), s));
        const lf::Model pool(one_layer("MaxPool2D", {}));
        const lf::Schedule p = schedule_of(pool, 2);
        QVERIFY(!lf::cuda_backward_reads_output(p.step("maxpool2d_1"), p));  // its argmax
    }

    // 'same' with stride 1 and an odd kernel pads evenly: cuDNN pads. Stride 2 over an even
    // size needs one more at the bottom and right: the plan pads, cuDNN convolves without.
    void same_padding_that_cudnn_cannot_express_is_applied_first() {
        const lf::Model even(one_layer("Conv2D", conv_params(8, 3, 1, "same")));
        const lf::CudaConvGeometry e(node(even, "conv2d_1"));
        QVERIFY(!e.padded_x);
        const lf_cuda_conv_shape es = e.shape(5);
        QCOMPARE(es.pad_h, 1);
        QCOMPARE(es.h, std::int64_t(28));
        QCOMPARE(es.out_h, std::int64_t(28));

        const lf::Model odd(one_layer("Conv2D", conv_params(8, 3, 2, "same")));
        const lf::CudaConvGeometry o(node(odd, "conv2d_1"));
        QVERIFY(o.padded_x);
        QCOMPARE(o.extra, (std::array<int, 4>{0, 1, 0, 1}));
        const lf_cuda_conv_shape os = o.shape(5);
        QCOMPARE(os.pad_h, 0);
        QCOMPARE(os.h, std::int64_t(29));
        QCOMPARE(os.w, std::int64_t(29));
        QCOMPARE(os.out_h, std::int64_t(14));
        QCOMPARE(os.stride_h, 2);
        // cuDNN's own output rule with no padding gives the layer's size.
        QCOMPARE((os.h - os.r) / os.stride_h + 1, os.out_h);
        QCOMPARE(o.padded_floats(5), std::size_t(5 * 29 * 29 * 1));

        const lf::Model valid(one_layer("Conv2D", conv_params(8, 5, 2, "valid"), {27, 27, 3}));
        const lf::CudaConvGeometry v(node(valid, "conv2d_1"));
        QVERIFY(!v.padded_x);
        QCOMPARE(v.shape(1).out_h, std::int64_t(12));
        QCOMPARE(v.kernel_rows(), std::int64_t(5 * 5 * 3));
    }

    // A depthwise convolution is cuDNN's grouped one: a group per input channel, whose Keras
    // kernel (kh, kw, in, multiplier) is a (kh kw) x (in multiplier) matrix.
    void a_depthwise_convolution_is_grouped() {
        const lf::Model m(one_layer("DepthwiseConv2D",
                                    {{"kernel_size", lf::IntList{3, 3}}, {"depth_multiplier", std::int64_t(2)},
                                     {"padding", std::string("same")}},
                                    {9, 9, 6}));
        const lf::CudaConvGeometry g(node(m, "depthwiseconv2d_1"));
        QCOMPARE(g.groups, std::int64_t(6));
        QCOMPARE(g.k, std::int64_t(12));
        QCOMPARE(g.kernel_rows(), std::int64_t(9));
        QCOMPARE(g.kernel_floats(), std::size_t(9 * 12));
        QCOMPARE(g.shape(2).groups, 6);
    }

    // A Conv2DTranspose (H, W, C) -> (OH, OW, F) is cuDNN's convolution from (OH, OW, F) back to
    // (H, W, C): K = C filters of kh x kw x F, the Keras kernel (kh, kw, F, C) read as a
    // (kh kw F) x C matrix; 3x3 stride 2 'same' crops 0 above and 1 below the full transposed
    // convolution (TensorFlow's), which cuDNN cannot pad: the plan pads.
    void a_transposed_convolution_is_its_convolution_backwards() {
        const lf::Model m(one_layer("Conv2DTranspose", conv_params(4, 3, 2, "same"), {7, 6, 2}));
        const lf::NodeInfo& n = node(m, "conv2dtranspose_1");
        QCOMPARE(n.layer.output, (lf::Shape{14, 12, 4}));
        QCOMPARE(n.layer.weights.at(0).shape, (lf::Shape{3, 3, 4, 2}));
        const lf::CudaConvGeometry g(n);
        QVERIFY(g.transposed);
        QCOMPARE(g.x_shape, (lf::Shape{14, 12, 4}));  // the layer's output
        QCOMPARE(g.k, std::int64_t(2));               // the layer's input channels
        QCOMPARE(g.out_h, std::int64_t(7));
        QCOMPARE(g.out_w, std::int64_t(6));
        QCOMPARE(g.kernel_rows(), std::int64_t(3 * 3 * 4));
        QCOMPARE(g.kernel_floats(), std::size_t(3 * 3 * 4 * 2));  // the Keras kernel's size
        QVERIFY(g.padded_x);
        QCOMPARE(g.extra, (std::array<int, 4>{0, 1, 0, 1}));
        const lf_cuda_conv_shape s = g.shape(5);
        QCOMPARE(s.h, std::int64_t(15));
        QCOMPARE(s.w, std::int64_t(13));
        QCOMPARE(s.c, std::int64_t(4));
        QCOMPARE(s.k, std::int64_t(2));
        QCOMPARE(s.pad_h, 0);
        QCOMPARE(s.stride_w, 2);
        QCOMPARE(s.groups, 1);
        QCOMPARE((s.h - s.r) / s.stride_h + 1, s.out_h);
        QCOMPARE((s.w - s.s) / s.stride_w + 1, s.out_w);
        // Its forward is cuDNN's backward-data, its data gradient cuDNN's forward; the output it
        // biases and activates is cuDNN's x.
        QCOMPARE(g.forward_pass(), lf::ConvPass::BackwardData);
        QCOMPARE(g.data_grad_pass(), lf::ConvPass::Forward);
        QCOMPARE(g.output_pixels(), std::int64_t(14 * 12));
        QCOMPARE(g.output_channels(), std::int64_t(4));
        QCOMPARE(g.output_floats(3), std::size_t(3 * 14 * 12 * 4));
        const lf::Model c(one_layer("Conv2D", conv_params(8, 3, 2, "same")));
        const lf::CudaConvGeometry cg(node(c, "conv2d_1"));
        QVERIFY(!cg.transposed);
        QCOMPARE(cg.forward_pass(), lf::ConvPass::Forward);
        QCOMPARE(cg.output_channels(), std::int64_t(8));
    }

    // Where cuDNN pads evenly, it pads: 4x4 stride 2 'same' crops 1 on each side.
    void even_cropping_is_cudnns_padding() {
        const lf::Model m(one_layer("Conv2DTranspose", conv_params(3, 4, 2, "same"), {5, 5, 2}));
        const lf::CudaConvGeometry g(node(m, "conv2dtranspose_1"));
        QVERIFY(!g.padded_x);
        const lf_cuda_conv_shape s = g.shape(1);
        QCOMPARE(s.h, std::int64_t(10));
        QCOMPARE(s.pad_h, 1);
        QCOMPARE(s.pad_w, 1);
        QCOMPARE((s.h + 2 * s.pad_h - s.r) / s.stride_h + 1, s.out_h);
        QCOMPARE(s.out_h, std::int64_t(5));
        // Dilation 2, stride 1 'same': a 5-wide window, 2 cropped on each side.
        const lf::Model d(one_layer("Conv2DTranspose",
                                    {{"filters", std::int64_t(3)}, {"kernel_size", lf::IntList{3, 3}},
                                     {"padding", std::string("same")}, {"dilation_rate", lf::IntList{2, 2}}},
                                    {6, 6, 2}));
        const lf_cuda_conv_shape ds = lf::CudaConvGeometry(node(d, "conv2dtranspose_1")).shape(1);
        QCOMPARE(ds.pad_h, 2);
        QCOMPARE(ds.dilation_h, 2);
        QCOMPARE(ds.h, std::int64_t(6));
        QCOMPARE(ds.out_h, std::int64_t(6));
    }

    // An output past the full transposed convolution (Keras sizes 'valid' 1x1 stride 2 as
    // 2 H; output_padding adds a row): TensorFlow's pad_r is negative, cuDNN pads 0 there and
    // its output rule still gives the layer's input size (Note [Conv2DTranspose on cuDNN]).
    void rows_past_the_full_transposed_convolution_are_not_padded() {
        struct Case {
            lf::Params params;
            lf::IntList in;
            std::int64_t out, layer_pad_r;
        };
        lf::Params op = conv_params(2, 3, 2, "valid");
        op["output_padding"] = lf::IntList{1, 1};
        lf::Params narrow = conv_params(2, 2, 3, "same");
        for (const Case& c : {Case{conv_params(3, 1, 2, "valid"), {3, 3, 2}, 6, -1}, Case{op, {3, 4, 2}, 8, -1},
                              Case{narrow, {3, 4, 2}, 9, -1}}) {
            const lf::Model m(one_layer("Conv2DTranspose", c.params, c.in));
            const lf::NodeInfo& n = node(m, "conv2dtranspose_1");
            QCOMPARE(n.layer.output[0], c.out);
            QCOMPARE(lf::transposed_window(n.inputs[0], n.params).pad_r[0], c.layer_pad_r);
            const lf::CudaConvGeometry g(n);
            QVERIFY(!g.padded_x);
            QCOMPARE(g.window.pad_r[0], std::int64_t(0));
            const lf_cuda_conv_shape s = g.shape(2);
            QCOMPARE(s.pad_h, 0);
            QCOMPARE(s.h, c.out);
            QCOMPARE((s.h - ((s.r - 1) * s.dilation_h + 1)) / s.stride_h + 1, c.in[0]);
            QCOMPARE((s.w - ((s.s - 1) * s.dilation_w + 1)) / s.stride_w + 1, c.in[1]);
        }
    }

    // Its keys are cuDNN's problem: the same as those of the Conv2D it runs backwards, whose
    // answers it shares.
    void a_transposed_convolution_shares_the_keys_of_its_convolution() {
        const lf::Model t(one_layer("Conv2DTranspose", conv_params(4, 3, 2, "same"), {7, 7, 2}));
        const lf::CudaConvGeometry g(node(t, "conv2dtranspose_1"));
        QCOMPARE(lf::to_string(g.key(g.forward_pass(), 4, 90)),
                 std::string("bwd_data n4 c4 h14 w14 k2 r3 s3 pad0,1,0,1 stride2,2 dil1,1 g1 float32 fp32 sm90"));
        const lf::Model c(one_layer("Conv2D", conv_params(2, 3, 2, "same"), {14, 14, 4}));
        const lf::CudaConvGeometry cg(node(c, "conv2d_1"));
        for (lf::ConvPass pass : {lf::ConvPass::Forward, lf::ConvPass::BackwardData, lf::ConvPass::BackwardFilter})
            QCOMPARE(g.key(pass, 4, 90), cg.key(pass, 4, 90));
        QCOMPARE(g.scratch_budget(4), cg.scratch_budget(4));
    }

    void algorithm_cache_keys_name_the_convolution() {
        const lf::Model m(one_layer("Conv2D", conv_params(32, 5, 1, "same")));
        const lf::CudaConvGeometry g(node(m, "conv2d_1"));
        QCOMPARE(lf::to_string(g.key(lf::ConvPass::Forward, 50, 90)),
                 std::string("fwd n50 c1 h28 w28 k32 r5 s5 pad2,2,2,2 stride1,1 dil1,1 g1 float32 fp32 sm90"));
        QVERIFY(g.key(lf::ConvPass::Forward, 50, 90) != g.key(lf::ConvPass::BackwardData, 50, 90));
        QVERIFY(g.key(lf::ConvPass::Forward, 50, 90) != g.key(lf::ConvPass::Forward, 10, 90));  // a last partial batch
        QVERIFY(g.key(lf::ConvPass::Forward, 50, 90) != g.key(lf::ConvPass::Forward, 50, 80));
        const lf::Model odd(one_layer("Conv2D", conv_params(8, 3, 2, "same")));
        QCOMPARE(lf::to_string(lf::CudaConvGeometry(node(odd, "conv2d_1")).key(lf::ConvPass::BackwardFilter, 4, 80)),
                 std::string("bwd_filter n4 c1 h28 w28 k8 r3 s3 pad0,1,0,1 stride2,2 dil1,1 g1 float32 fp32 sm80"));
        QCOMPARE(&lf::conv_algo_cache(), &lf::conv_algo_cache());  // one per process
    }

    // A Dense softmax keeps its logits (and, training, their gradient) as a workspace.
    void the_estimate_is_the_schedule_plus_the_workspaces() {
        const lf::Model m(dense_graph("softmax", 10));
        for (bool training : {true, false}) {
            const lf::PlanOptions o{.device = "cuda:0", .batch = 50,
                                    .mode = training ? lf::PlanMode::Train : lf::PlanMode::Infer};
            const lf::Schedule s = schedule_of(m, 50, training);
            const lf::MemoryBreakdown e = lf::CudaPlan::estimate(m, o);
            // The input's two staging buffers (pinned uploads land there) beside the schedule's.
            const std::size_t staging = 2 * s.buffers[std::size_t(s.inputs[0])].bytes();
            QCOMPARE(e.activations, s.bytes(lf::BufferKind::Activation) + staging);
            QCOMPARE(e.gradients, s.bytes(lf::BufferKind::Gradient));
            // Training also the bias gradient's partial sums, in the shared scratch; and the
            // plan's step counter.
            const std::size_t partials = training ? LF_CUDA_REDUCE_FLOATS(10) * sizeof(float) : 0;
            QCOMPARE(e.workspaces, std::size_t((training ? 2 : 1) * 50 * 10 * sizeof(float)) + partials +
                                       sizeof(std::uint64_t));
            std::size_t steps = 0;
            for (const lf::LayerProfile& p : lf::CudaPlan::describe(m, o)) steps += p.bytes;
            QCOMPARE(steps, e.activations + e.gradients + e.workspaces);  // every byte charged once
        }
        const lf::Model mlp(lf::load_project(templates_dir() + "fashion_mlp.lfproj").graph);
        QCOMPARE(lf::CudaPlan::estimate(mlp, {.device = "cuda:0", .batch = 50, .mode = lf::PlanMode::Infer}).workspaces,
                 sizeof(std::uint64_t));
        QCOMPARE(lf::CudaPlan::estimate(mlp, {.device = "cuda:0", .batch = 50}).workspaces,
                 LF_CUDA_REDUCE_FLOATS(100) * sizeof(float) + sizeof(std::uint64_t));  // the widest bias's partial sums
        QVERIFY(lf::CudaPlan::estimate(mlp, {.device = "cuda:0", .batch = 100}).total() >
                lf::CudaPlan::estimate(mlp, {.device = "cuda:0", .batch = 50}).total());
    }

    // What each new op keeps between its passes, in floats.
    void the_ops_workspaces_are_what_they_keep() {
        // A convolution: its kernel as KRSC, training also the filter gradient; stride 2 'same'
        // adds the padded input and its gradient.
        const lf::Model conv(one_layer("Conv2D", conv_params(8, 3, 1, "same")));
        QCOMPARE(workspace_of(conv, "conv2d_1", 4, false), std::size_t(9 * 8));
        QCOMPARE(workspace_of(conv, "conv2d_1", 4, true), std::size_t(2 * 9 * 8));
        const lf::Model odd(one_layer("Conv2D", conv_params(8, 3, 2, "same", "gelu")));
        QCOMPARE(workspace_of(odd, "conv2d_1", 4, true),
                 std::size_t(2 * 9 * 8 + 2 * 4 * 29 * 29 + 4 * 14 * 14 * 8));  // + gelu's pre-activation
        // A transposed one: its kernel (3, 3, 4, 2) as KRSC, its filter gradient, and one padded
        // buffer (its output in forward, the output's gradient in backward), 4 x 15 x 15 x 4.
        const lf::Model up(one_layer("Conv2DTranspose", conv_params(4, 3, 2, "same"), {7, 7, 2}));
        QCOMPARE(workspace_of(up, "conv2dtranspose_1", 4, false), std::size_t(72 + 4 * 15 * 15 * 4));
        QCOMPARE(workspace_of(up, "conv2dtranspose_1", 4, true), std::size_t(2 * 72 + 4 * 15 * 15 * 4));
        const lf::Model up_gelu(one_layer("Conv2DTranspose", conv_params(4, 4, 2, "same", "gelu"), {7, 7, 2}));
        QCOMPARE(workspace_of(up_gelu, "conv2dtranspose_1", 4, true),
                 std::size_t(2 * 16 * 4 * 2 + 4 * 14 * 14 * 4));  // cuDNN pads; gelu's pre-activation
        const lf::Schedule us = schedule_of(up, 4);
        QCOMPARE(lf::cuda_op_needs(us.step("conv2dtranspose_1"), 4, true).scratch_bytes, std::size_t(4) << 20);
        // Max pooling's argmax per output while training; average pooling keeps nothing.
        const lf::Model max(one_layer("MaxPool2D", {}, {9, 9, 3}));
        QCOMPARE(workspace_of(max, "maxpool2d_1", 4, true), std::size_t(4 * 4 * 4 * 3));
        QCOMPARE(workspace_of(max, "maxpool2d_1", 4, false), std::size_t(0));
        const lf::Model avg(one_layer("AveragePooling2D", {}, {9, 9, 3}));
        QCOMPARE(workspace_of(avg, "averagepooling2d_1", 4, true), std::size_t(0));
        const lf::Model gmax(one_layer("GlobalMaxPooling2D", {}, {5, 7, 3}));
        QCOMPARE(workspace_of(gmax, "globalmaxpooling2d_1", 4, true), std::size_t(4 * 3));
        // Batch normalization: the batch's mean and variance; dropout: its mask.
        const lf::Model bn(one_layer("BatchNormalization", {}, {5, 5, 6}));
        QCOMPARE(workspace_of(bn, "batchnormalization_1", 4, true), std::size_t(12));
        QCOMPARE(workspace_of(bn, "batchnormalization_1", 4, false), std::size_t(0));
        const lf::Schedule bs = schedule_of(bn, 4);
        QCOMPARE(lf::cuda_op_needs(bs.step("batchnormalization_1"), 4, true).scratch_bytes,
                 LF_CUDA_REDUCE_FLOATS(6) * sizeof(float));  // per-channel partial sums, within a call
        const lf::Model drop(one_layer("Dropout", {{"rate", 0.5}}, {5, 5, 6}));
        QCOMPARE(workspace_of(drop, "dropout_1", 4, true), std::size_t(4 * 150));
        QCOMPARE(workspace_of(drop, "dropout_1", 4, false), std::size_t(0));
    }

    // cuDNN's convolution workspace is one scratch region as large as the largest asks, charged
    // to that step; the estimate and the per-step bytes agree on every template.
    void the_scratch_is_shared_and_charged_once() {
        const lf::Model cnn(lf::load_project(templates_dir() + "fashion_cnn.lfproj").graph);
        const lf::PlanOptions o{.device = "cuda:0", .batch = 50, .mode = lf::PlanMode::Train};
        const lf::Schedule s = schedule_of(cnn, 50);
        std::size_t largest = 0, op_workspaces = 0;
        for (const lf::ScheduledStep& st : s.steps) {
            const lf::CudaOpNeeds n = lf::cuda_op_needs(st, 50, true);
            largest = std::max(largest, n.scratch_bytes);
            op_workspaces += n.workspace_floats * sizeof(float);
        }
        QVERIFY(largest >= std::size_t(4) << 20);  // the budget's floor
        const lf::MemoryBreakdown e = lf::CudaPlan::estimate(cnn, o);
        QCOMPARE(e.workspaces, op_workspaces + largest + sizeof(std::uint64_t));
        for (const char* f : {"fashion_cnn", "fashion_resnet", "mobilenet_v2_small"}) {
            const lf::Model m(lf::load_project(templates_dir() + f + ".lfproj").graph);
            for (bool training : {true, false}) {
                const lf::PlanOptions p{.device = "cuda:0", .batch = 32,
                                        .mode = training ? lf::PlanMode::Train : lf::PlanMode::Infer};
                std::size_t steps = 0;
                for (const lf::LayerProfile& l : lf::CudaPlan::describe(m, p)) steps += l.bytes;
                QCOMPARE(steps, lf::CudaPlan::estimate(m, p).total());
            }
        }
    }

    // Mixed policies (Note [Mixed precision on the CUDA backend]): every running step computes in
    // the policy's 16-bit type except the output layer, which reads float32 copies of its inputs;
    // the per-step bytes still add up to the estimate, and the activations take less room.
    void mixed_plans_compute_in_16_bits_but_the_output_layer() {
        for (const char* f : {"fashion_mlp", "fashion_cnn", "fashion_resnet", "mobilenet_v2_small"})
            for (lf::Precision policy : {lf::Precision::MixedBFloat16, lf::Precision::MixedFloat16}) {
                const lf::Model m(lf::load_project(templates_dir() + f + ".lfproj").graph);
                const lf::PlanOptions o{.device = "cuda:0", .batch = 32, .mode = lf::PlanMode::Train, .precision = policy};
                lf::PlanOptions f32 = o;
                f32.precision = lf::Precision::Float32;
                const lf::Schedule s = lf::make_schedule(
                    m, {.batch = 32, .training = true, .fuse = false, .precision = policy}, lf::cuda_backward_reads_output);
                const lf::PlanProfile steps = lf::CudaPlan::describe(m, o);
                QCOMPARE(steps.size(), s.steps.size());
                std::size_t total = 0, wide = 0, narrow = 0;
                for (std::size_t i = 0; i < steps.size(); ++i) {
                    total += steps[i].bytes;
                    if (!s.steps[i].runs) continue;
                    (steps[i].compute == lf::DType::Float32 ? wide : narrow) += 1;
                    if (i == s.output_step) QCOMPARE(steps[i].compute, lf::DType::Float32);
                    else QCOMPARE(steps[i].compute, lf::compute_dtype(policy));
                }
                QCOMPARE(wide, std::size_t(1));
                QVERIFY(narrow > 0);
                QCOMPARE(total, lf::CudaPlan::estimate(m, o).total());
                QVERIFY(lf::CudaPlan::estimate(m, o).activations < lf::CudaPlan::estimate(m, f32).activations);
                // The output layer's float32 copy of its input, and of that input's gradient.
                const lf::ScheduledStep& out = s.steps[s.output_step];
                const std::size_t in = s.buffers[std::size_t(out.in[0])].floats;
                QVERIFY(steps[s.output_step].bytes >= 2 * in * sizeof(float));
            }
    }

    void a_16_bit_dense_keeps_a_16_bit_copy_of_its_kernel() {
        const lf::Model m(dense_graph("relu", 10));
        const lf::Schedule s = schedule_of(m, 4);
        const lf::ScheduledStep& dense = s.step("dense_1");
        const std::size_t f32 = lf::cuda_op_needs(dense, 4, true, lf::DType::Float32).workspace_floats;
        QCOMPARE(lf::cuda_op_needs(dense, 4, true, lf::DType::BFloat16).workspace_floats, f32 + 12 * 10 / 2);
        QCOMPARE(lf::cuda_op_needs(dense, 4, true, lf::DType::Float16).workspace_floats, f32 + 12 * 10 / 2);
    }

    void mixed_policies_need_tensor_cores() {
        QCOMPARE(lf::cuda_precision_unsupported(lf::Precision::Float32, 50), std::string());
        QCOMPARE(lf::cuda_precision_unsupported(lf::Precision::MixedBFloat16, 90), std::string());
        QCOMPARE(lf::cuda_precision_unsupported(lf::Precision::MixedFloat16, 70), std::string());
        const std::string bf16 = lf::cuda_precision_unsupported(lf::Precision::MixedBFloat16, 75);
        QVERIFY2(bf16.find("compute capability 7.5") != std::string::npos && bf16.find("bfloat16") != std::string::npos &&
                     bf16.find("8.0") != std::string::npos,
                 bf16.c_str());
        const std::string f16 = lf::cuda_precision_unsupported(lf::Precision::MixedFloat16, 61);
        QVERIFY2(f16.find("float16") != std::string::npos && f16.find("7.0") != std::string::npos, f16.c_str());
    }

    void the_algorithm_key_names_the_16_bit_type() {
        const lf::Model m(one_layer("Conv2D", conv_params(8, 3, 1, "same")));
        const lf::CudaConvGeometry g(node(m, "conv2d_1"));
        const lf::ConvAlgoKey f32 = g.key(lf::ConvPass::Forward, 4, 90);
        const lf::ConvAlgoKey bf16 = g.key(lf::ConvPass::Forward, 4, 90, LF_CUDA_BF16);
        const lf::ConvAlgoKey f16 = g.key(lf::ConvPass::Forward, 4, 90, LF_CUDA_F16);
        QCOMPARE(f32.data_type, std::string("float32"));
        QCOMPARE(bf16.data_type, std::string("bfloat16"));
        QCOMPARE(bf16.math, std::string("tensor_op"));
        QCOMPARE(f16.data_type, std::string("float16"));
        QVERIFY(!(f32 == bf16) && !(bf16 == f16));
        QCOMPARE(g.shape(4, LF_CUDA_F16).dtype, int(LF_CUDA_F16));
    }
};

QTEST_GUILESS_MAIN(TestCudaLowering)
#include "test_cuda_lowering.moc"
