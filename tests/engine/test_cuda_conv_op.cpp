// The CUDA convolution op's host side, without a GPU: the op runs on a stand-in module whose
// "cuDNN" is the textbook NHWC / KRSC cross-correlation with symmetric padding (what cuDNN
// computes), and its forward, data gradient and filter and bias gradients are compared with
// the CPU backend's from the same weights. That checks, for Conv2D, DepthwiseConv2D and
// Conv2DTranspose, which cuDNN pass each of the layer's passes runs (Note [Conv2DTranspose on
// cuDNN]), the kernel layout mapping, the padding the plan applies or crops, the bias and the
// fused activation. tests/gpu/test_cuda_layers.cpp runs the same layers on cuDNN itself.
#include <QtTest>

#include <cmath>
#include <cstring>
#include <random>

#include "backend/cuda/cuda_context.h"
#include "backend/cuda/cuda_ops.h"
#include "graph_builder.h"
#include "host_cuda_api.h"
#include "layerforge/devices/devices.h"
#include "layerforge/graph/model.h"
#include "layerforge/graph/schedule.h"

namespace {

// ---- the stand-in module: host memory, plain loops ----

struct HostConv {
    lf_cuda_conv_shape s;
};
HostConv* host(lf_cuda_conv* c) { return reinterpret_cast<HostConv*>(c); }

std::vector<int> ran;  // the cuDNN passes run, in order (lf_cuda_conv_pass)

int fail(lf_cuda_error* e, const char* text) {
    if (e) {
        e->code = 3;
        std::snprintf(e->text, sizeof e->text, "%s", text);
    }
    return 3;
}

// Calls f(x index, y index, w index) for every tap of the convolution that reads an input
// element: y[n, p, q, k] += x[n, h, w, c] * w[k, r, s, c - group start].
template <class F>
void for_each_tap(const lf_cuda_conv_shape& s, F f) {
    const std::int64_t kg = s.k / s.groups, cg = s.c / s.groups;
    for (std::int64_t n = 0; n < s.n; ++n)
        for (std::int64_t p = 0; p < s.out_h; ++p)
            for (std::int64_t q = 0; q < s.out_w; ++q)
                for (std::int64_t k = 0; k < s.k; ++k)
                    for (std::int64_t r = 0; r < s.r; ++r)
                        for (std::int64_t t = 0; t < s.s; ++t) {
                            const std::int64_t h = p * s.stride_h - s.pad_h + r * s.dilation_h;
                            const std::int64_t w = q * s.stride_w - s.pad_w + t * s.dilation_w;
                            if (h < 0 || h >= s.h || w < 0 || w >= s.w) continue;
                            for (std::int64_t c = 0; c < cg; ++c)
                                f(((n * s.h + h) * s.w + w) * s.c + (k / kg) * cg + c,
                                  ((n * s.out_h + p) * s.out_w + q) * s.k + k, ((k * s.r + r) * s.s + t) * cg + c);
                        }
}

lf_cuda_conv* conv_create(lf_cuda_context*, const lf_cuda_conv_shape* s, lf_cuda_error* e) {
    // cuDNN's own output rule must give the sizes the engine expects.
    const std::int64_t oh = (s->h + 2 * s->pad_h - ((s->r - 1) * s->dilation_h + 1)) / s->stride_h + 1;
    const std::int64_t ow = (s->w + 2 * s->pad_w - ((s->s - 1) * s->dilation_w + 1)) / s->stride_w + 1;
    if (oh != s->out_h || ow != s->out_w) {
        fail(e, "cuDNN's output size differs from the layer's");
        return nullptr;
    }
    return reinterpret_cast<lf_cuda_conv*>(new HostConv{*s});
}
void conv_destroy(lf_cuda_conv* c) { delete host(c); }
int conv_choose(lf_cuda_context*, lf_cuda_conv*, int, size_t, int* algo, size_t* ws, lf_cuda_error*) {
    *algo = 0;
    *ws = 0;
    return 0;
}
std::size_t x_size(const lf_cuda_conv_shape& s) { return std::size_t(s.n * s.h * s.w * s.c); }
std::size_t y_size(const lf_cuda_conv_shape& s) { return std::size_t(s.n * s.out_h * s.out_w * s.k); }
std::size_t w_size(const lf_cuda_conv_shape& s) { return std::size_t(s.k * s.r * s.s * (s.c / s.groups)); }

// float32 storage only: the stand-in's loops read and write floats.
int conv_forward(lf_cuda_context*, lf_cuda_conv* c, int, const void* xv, const void* wv, void* yv, void*, size_t,
                 lf_cuda_error*) {
    const auto *x = static_cast<const float*>(xv), *w = static_cast<const float*>(wv);
    auto* y = static_cast<float*>(yv);
    ran.push_back(LF_CUDA_CONV_FORWARD);
    std::fill(y, y + y_size(host(c)->s), 0.f);
    for_each_tap(host(c)->s, [&](std::int64_t xi, std::int64_t yi, std::int64_t wi) { y[yi] += x[xi] * w[wi]; });
    return 0;
}
int conv_backward_data(lf_cuda_context*, lf_cuda_conv* c, int, const void* wv, const void* dyv, void* dxv, void*,
                       size_t, lf_cuda_error*) {
    const auto *w = static_cast<const float*>(wv), *dy = static_cast<const float*>(dyv);
    auto* dx = static_cast<float*>(dxv);
    ran.push_back(LF_CUDA_CONV_BACKWARD_DATA);
    std::fill(dx, dx + x_size(host(c)->s), 0.f);
    for_each_tap(host(c)->s, [&](std::int64_t xi, std::int64_t yi, std::int64_t wi) { dx[xi] += dy[yi] * w[wi]; });
    return 0;
}
int conv_backward_filter(lf_cuda_context*, lf_cuda_conv* c, int, const void* xv, const void* dyv, void* dwv, void*,
                         size_t, lf_cuda_error*) {
    const auto *x = static_cast<const float*>(xv), *dy = static_cast<const float*>(dyv);
    auto* dw = static_cast<float*>(dwv);
    ran.push_back(LF_CUDA_CONV_BACKWARD_FILTER);
    std::fill(dw, dw + w_size(host(c)->s), 0.f);
    for_each_tap(host(c)->s, [&](std::int64_t xi, std::int64_t yi, std::int64_t wi) { dw[wi] += dy[yi] * x[xi]; });
    return 0;
}

int transpose(lf_cuda_context*, int, const void* sv, int, void* dv, int64_t rows, int64_t cols, lf_cuda_error*) {
    const auto* src = static_cast<const float*>(sv);
    auto* dst = static_cast<float*>(dv);
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) dst[c * rows + r] = src[r * cols + c];
    return 0;
}
// Between n x h x w x c and its padded n x (h + top + bottom) x (w + left + right) x c.
template <bool Crop>
int pad_or_crop(const float* from, float* to, int64_t n, int64_t h, int64_t w, int64_t c, int top, int bottom,
                int left, int right) {
    const int64_t ph = h + top + bottom, pw = w + left + right;
    if (!Crop) std::fill(to, to + n * ph * pw * c, 0.f);
    for (int64_t i = 0; i < n; ++i)
        for (int64_t r = 0; r < h; ++r)
            for (int64_t q = 0; q < w; ++q) {
                const float* a = from + (Crop ? ((i * ph + r + top) * pw + q + left) * c : ((i * h + r) * w + q) * c);
                float* b = to + (Crop ? ((i * h + r) * w + q) * c : ((i * ph + r + top) * pw + q + left) * c);
                std::copy(a, a + c, b);
            }
    return 0;
}
int pad2d(lf_cuda_context*, int, const void* x, void* y, int64_t n, int64_t h, int64_t w, int64_t c, int t, int b,
          int l, int r, lf_cuda_error*) {
    return pad_or_crop<false>(static_cast<const float*>(x), static_cast<float*>(y), n, h, w, c, t, b, l, r);
}
int crop2d(lf_cuda_context*, int, const void* y, void* x, int64_t n, int64_t h, int64_t w, int64_t c, int t, int b,
           int l, int r, lf_cuda_error*) {
    return pad_or_crop<true>(static_cast<const float*>(y), static_cast<float*>(x), n, h, w, c, t, b, l, r);
}
int add_bias(lf_cuda_context*, int, void* yv, const float* bias, int64_t rows, int64_t cols, lf_cuda_error*) {
    auto* y = static_cast<float*>(yv);
    for (int64_t i = 0; i < rows * cols; ++i) y[i] += bias[i % cols];
    return 0;
}
int bias_grad(lf_cuda_context*, int, const void* dyv, float* g, int64_t rows, int64_t cols, int accumulate, float*,
              lf_cuda_error*) {
    const auto* dy = static_cast<const float*>(dyv);
    if (!accumulate) std::fill(g, g + cols, 0.f);
    for (int64_t i = 0; i < rows * cols; ++i) g[i % cols] += dy[i];
    return 0;
}
int activation_forward(lf_cuda_context*, int, int kind, const void* xv, void* yv, size_t n, lf_cuda_error* e) {
    const auto* x = static_cast<const float*>(xv);
    auto* y = static_cast<float*>(yv);
    if (kind != LF_CUDA_RELU) return fail(e, "the stand-in has relu only");
    for (size_t i = 0; i < n; ++i) y[i] = std::max(x[i], 0.f);
    return 0;
}
int activation_backward(lf_cuda_context*, int, int kind, const void* yv, const void* dyv, void* dxv, size_t n,
                        lf_cuda_error* e) {
    const auto *y = static_cast<const float*>(yv), *dy = static_cast<const float*>(dyv);
    auto* dx = static_cast<float*>(dxv);
    if (kind != LF_CUDA_RELU) return fail(e, "the stand-in has relu only");
    for (size_t i = 0; i < n; ++i) dx[i] = y[i] > 0 ? dy[i] : 0.f;
    return 0;
}
int copy_on_device(lf_cuda_context*, void* dst, const void* src, size_t bytes, lf_cuda_error*) {
    std::memmove(dst, src, bytes);
    return 0;
}

lf_cuda_api host_api() {
    lf_cuda_api a = lf::test::host_cuda_api();
    a.abi_version = LF_CUDA_ABI_VERSION;
    a.struct_size = sizeof(lf_cuda_api);
    a.conv_create = conv_create;
    a.conv_destroy = conv_destroy;
    a.conv_choose = conv_choose;
    a.conv_forward = conv_forward;
    a.conv_backward_data = conv_backward_data;
    a.conv_backward_filter = conv_backward_filter;
    a.transpose = transpose;
    a.pad2d = pad2d;
    a.crop2d = crop2d;
    a.add_bias = add_bias;
    a.bias_grad = bias_grad;
    a.activation_forward = activation_forward;
    a.activation_backward = activation_backward;
    a.copy_on_device = copy_on_device;
    return a;
}
const lf_cuda_api kApi = host_api();

// ---- one layer's pass on the CPU backend and through the CUDA op ----

std::vector<float> random_vector(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    std::vector<float> v(n);
    for (float& x : v) x = u(rng);
    return v;
}

double max_difference(const std::vector<float>& a, const std::vector<float>& b) {
    if (a.size() != b.size()) return INFINITY;
    double worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        worst = std::max(worst, std::abs(double(a[i]) - b[i]) / std::max(1.0, std::abs(double(b[i]))));
    return worst;
}

struct Pass {
    std::vector<float> out, in_grad, w_grad;
};

constexpr std::int64_t kBatch = 2;

// Input(shape) -> type(params); the layer is node 1.
lf::Graph one_layer(const std::string& type, lf::Params params, lf::IntList shape) {
    GraphBuilder b;
    b.add(type, std::move(params), {b.add("Input", {{"shape", shape}})});
    return b.graph;
}
const std::string& layer_of(const lf::Model& m) { return m.graph().nodes.at(1).id; }

// Batch x one sample of the model's input and of its output gradient.
std::vector<float> random_input(const lf::Model& m, std::uint64_t seed) {
    return random_vector(std::size_t(kBatch * m.info(m.graph().nodes.at(0).id).layer.output.elements()), seed);
}
std::vector<float> random_output_grad(const lf::Model& m, std::uint64_t seed) {
    return random_vector(std::size_t(kBatch * m.info(layer_of(m)).layer.output.elements()), seed);
}

Pass cpu_pass(lf::Model& m, const std::vector<float>& x, const std::vector<float>& dy) {
    auto dm = lf::load_model(m, "cpu");
    auto plan = dm->make_plan({.device = "cpu", .batch = kBatch, .mode = lf::PlanMode::Train, .input_grads = true});
    Pass p;
    plan->set_input(x.data());
    plan->forward();
    p.out.resize(dy.size());
    plan->read_output(p.out.data());
    plan->set_output_grad(dy.data());
    plan->backward();
    p.in_grad.resize(x.size());
    plan->read_input_grad(p.in_grad.data());
    dm->pull_grads();
    p.w_grad = m.grads();
    return p;
}

// The op over host buffers, as the CUDA plan would set it up; `passes` gets the cuDNN passes it ran.
Pass op_pass(lf::Model& m, const std::vector<float>& x, const std::vector<float>& dy, bool training,
             std::vector<int>* passes = nullptr) {
    const std::string& id = layer_of(m);
    const lf::Schedule sched = lf::make_schedule(m, {.batch = kBatch, .training = training, .fuse = false},
                                                 lf::cuda_backward_reads_output);
    const lf::ScheduledStep& step = sched.step(id);
    const lf::CudaOpNeeds needs = lf::cuda_op_needs(step, kBatch, training);
    std::vector<float> workspace(needs.workspace_floats, NAN), in_grad(x.size(), NAN), out(dy.size(), NAN),
        out_grad = dy, grads(m.grads().size(), 0.f);
    std::vector<char> scratch(needs.scratch_bytes);
    lf::CudaContext ctx(kApi, 0, "cuda:0");
    lf::CudaOpSetup s{.ctx = ctx, .node = *step.info, .batch = kBatch, .training = training};
    s.in = {x.data()};
    s.in_grad = {training ? in_grad.data() : nullptr};
    s.out = out.data();
    s.out_grad = training ? out_grad.data() : nullptr;
    for (const lf::WeightRef* w : m.weights_of(id)) {
        s.w.push_back(m.weights().data() + w->offset);
        s.w_grad.push_back(grads.data() + w->offset);
    }
    s.workspace = workspace.data();
    s.scratch = scratch.data();
    s.scratch_bytes = scratch.size();
    auto op = lf::make_cuda_op(s);
    ran.clear();
    op->forward();
    Pass p{.out = out};
    if (training) {
        op->backward();
        p.in_grad = in_grad;
        p.w_grad = grads;
    }
    if (passes) *passes = ran;
    return p;
}

lf::Params conv(std::int64_t filters, std::int64_t k, std::int64_t stride, const std::string& padding,
                const std::string& activation = "linear", std::int64_t dilation = 1, bool bias = true) {
    return {{"filters", filters},  {"kernel_size", lf::IntList{k, k}}, {"strides", lf::IntList{stride, stride}},
            {"padding", padding},  {"activation", activation},         {"dilation_rate", lf::IntList{dilation, dilation}},
            {"use_bias", bias}};
}

lf::Params with(lf::Params p, const std::string& key, lf::ParamValue v) {
    p[key] = std::move(v);
    return p;
}

}  // namespace

Q_DECLARE_METATYPE(lf::IntList)
Q_DECLARE_METATYPE(lf::Params)

class TestCudaConvOp : public QObject {
    Q_OBJECT
private slots:
    void the_op_matches_the_cpu_data() {
        QTest::addColumn<QString>("type");
        QTest::addColumn<lf::IntList>("shape");
        QTest::addColumn<lf::Params>("params");
        const QString t = "Conv2DTranspose";
        // Transposed: padded by cuDNN (4x4 stride 2 'same': 1 on each side), by the plan (3x3
        // stride 2 'same': 0 above, 1 below), none ('valid' 3x3 stride 2), rows past the full
        // transposed convolution (1x1 and 2x2 with stride 3, output_padding on 'valid').
        QTest::newRow("transpose 3x3 s2 same") << t << lf::IntList{5, 4, 3} << conv(4, 3, 2, "same");
        QTest::newRow("transpose 4x4 s2 same relu") << t << lf::IntList{4, 4, 2} << conv(3, 4, 2, "same", "relu");
        QTest::newRow("transpose 3x3 s2 valid") << t << lf::IntList{4, 3, 2} << conv(3, 3, 2, "valid");
        QTest::newRow("transpose 3x3 s1 same no bias") << t << lf::IntList{5, 5, 3}
                                                       << conv(2, 3, 1, "same", "linear", 1, false);
        QTest::newRow("transpose 1x1 s2 valid") << t << lf::IntList{3, 3, 2} << conv(3, 1, 2, "valid");
        QTest::newRow("transpose 2x2 s3 same") << t << lf::IntList{3, 4, 2} << conv(2, 2, 3, "same");
        QTest::newRow("transpose 3x3 s2 valid output_padding 1")
            << t << lf::IntList{3, 3, 2} << with(conv(2, 3, 2, "valid"), "output_padding", lf::IntList{1, 1});
        QTest::newRow("transpose 3x3 s2 same output_padding 0,1")
            << t << lf::IntList{4, 3, 2} << with(conv(2, 3, 2, "same"), "output_padding", lf::IntList{0, 1});
        QTest::newRow("transpose 3x3 dilation 2 same") << t << lf::IntList{5, 5, 2} << conv(3, 3, 1, "same", "relu", 2);
        QTest::newRow("transpose 3x3 dilation 2 valid") << t << lf::IntList{4, 4, 2} << conv(3, 3, 1, "valid", "linear", 2);
        // The convolutions whose op the transposed one shares.
        QTest::newRow("conv 3x3 s2 same (padded by the plan)") << "Conv2D" << lf::IntList{8, 8, 3} << conv(4, 3, 2, "same");
        QTest::newRow("conv 3x3 same relu") << "Conv2D" << lf::IntList{6, 5, 2} << conv(3, 3, 1, "same", "relu");
        QTest::newRow("depthwise 3x3 s2 same")
            << "DepthwiseConv2D" << lf::IntList{7, 6, 3}
            << lf::Params{{"kernel_size", lf::IntList{3, 3}}, {"strides", lf::IntList{2, 2}},
                          {"padding", std::string("same")}, {"depth_multiplier", std::int64_t(2)}};
    }
    void the_op_matches_the_cpu() {
        QFETCH(QString, type);
        QFETCH(lf::IntList, shape);
        QFETCH(lf::Params, params);
        const lf::Graph g = one_layer(type.toStdString(), params, shape);
        lf::Model cpu(g), gpu(g);
        cpu.init_weights(3);
        gpu.init_weights(3);
        // Nonzero biases, so that a bias added to the wrong rows shows.
        for (lf::Model* m : {&cpu, &gpu})
            for (const lf::WeightRef* w : m->weights_of(layer_of(*m)))
                if (w->name.ends_with("/bias"))
                    for (std::size_t i = 0; i < w->size; ++i) m->weights()[w->offset + i] = 0.1f * float(i + 1);
        const auto x = random_input(cpu, 11), dy = random_output_grad(cpu, 12);
        const Pass want = cpu_pass(cpu, x, dy);
        const Pass got = op_pass(gpu, x, dy, true);
        QVERIFY2(max_difference(got.out, want.out) < 1e-5, "output");
        QVERIFY2(max_difference(got.in_grad, want.in_grad) < 1e-4, "input gradient");
        QVERIFY2(max_difference(got.w_grad, want.w_grad) < 1e-4, "weight gradients");
        QVERIFY2(max_difference(op_pass(gpu, x, dy, false).out, want.out) < 1e-5, "inference output");
    }

    // A transposed convolution's forward is cuDNN's backward-data, its data gradient cuDNN's
    // forward; a convolution's are the other way round.
    void a_transposed_convolution_runs_its_convolution_backwards() {
        using Passes = std::vector<int>;
        for (bool transposed : {true, false}) {
            lf::Model m(transposed ? one_layer("Conv2DTranspose", conv(4, 3, 2, "same"), {5, 5, 2})
                                   : one_layer("Conv2D", conv(4, 3, 2, "same"), {10, 10, 2}));
            m.init_weights(1);
            const auto x = random_input(m, 1), dy = random_output_grad(m, 2);
            const int forward = transposed ? LF_CUDA_CONV_BACKWARD_DATA : LF_CUDA_CONV_FORWARD;
            const int data = transposed ? LF_CUDA_CONV_FORWARD : LF_CUDA_CONV_BACKWARD_DATA;
            Passes passes;
            op_pass(m, x, dy, false, &passes);
            QCOMPARE(passes, Passes{forward});
            op_pass(m, x, dy, true, &passes);
            QCOMPARE(passes, (Passes{forward, LF_CUDA_CONV_BACKWARD_FILTER, data}));
        }
    }
};

QTEST_GUILESS_MAIN(TestCudaConvOp)
#include "test_cuda_conv_op.moc"
