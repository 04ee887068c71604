// The CUDA plan under mixed precision, without a GPU: a stand-in module whose "device" is host
// memory and whose kernels read and write each array in the storage type the call names
// (float32, bfloat16 or float16, converted as CUDA's intrinsics do), so the engine side's part
// of Note [Mixed precision on the CUDA backend] runs for real: the input rounded into a 16-bit
// buffer on its way in, the hidden Dense computing with 16-bit operands from a 16-bit copy of
// its kernel (cublasGemmEx's role) and its weight gradient written in float32, the output
// layer's float32 island and its gradient rounded back, a fan-out's 16-bit gradient sum, and
// an input gradient widened on the host. Checks: each policy's pass matches the float32 plan's
// within its type's rounding; the calls were made in the types the note says; and the loss
// scaling of the device model: an update reads the gradients divided by the scale, and one whose
// scaled gradients overflowed changes nothing and says so.
#include <QtTest>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>

#include "backend/cuda/cuda_device_model.h"
#include "backend/cuda/pass_timer.h"
#include "graph_builder.h"
#include "host_cuda_api.h"
#include "layerforge/core/bfloat16.h"
#include "layerforge/core/float16.h"
#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_plan.h"
#include "layerforge/devices/devices.h"
#include "layerforge/store/checkpoint.h"
#include "layerforge/train/optimizer.h"
#include "layerforge/train/trainer.h"

namespace {

// ---- the stand-in module: host loops over typed storage --------------------------------------

float ld(int dtype, const void* p, std::size_t i) {
    if (dtype == LF_CUDA_F32) return static_cast<const float*>(p)[i];
    const std::uint16_t h = static_cast<const std::uint16_t*>(p)[i];
    return dtype == LF_CUDA_BF16 ? lf::from_bfloat16(h) : lf::from_float16(h);
}
std::uint64_t work = 0;  // values stored so far: the stand-in's clock for timing events

void st(int dtype, void* p, std::size_t i, float v) {
    ++work;
    if (dtype == LF_CUDA_F32) {
        static_cast<float*>(p)[i] = v;
        return;
    }
    static_cast<std::uint16_t*>(p)[i] = dtype == LF_CUDA_BF16 ? lf::to_bfloat16(v) : lf::to_float16(v);
}

std::map<std::string, int> calls;  // "gemm bf16->f32", "sgemm", ... counted

int fail_text(lf_cuda_error* e, const char* text) {
    if (e) {
        e->code = 5;
        std::snprintf(e->text, sizeof e->text, "%s", text);
    }
    return 5;
}

int fill(lf_cuda_context*, float* dst, float v, size_t n, lf_cuda_error*) {
    std::fill(dst, dst + n, v);
    return 0;
}
int on_device(lf_cuda_context*, void* dst, const void* src, size_t bytes, lf_cuda_error*) {
    work += bytes / 2;  // a copy takes time too
    std::memmove(dst, src, bytes);
    return 0;
}
int cast(lf_cuda_context*, int from, const void* src, int to, void* dst, size_t n, lf_cuda_error*) {
    ++calls["cast " + std::to_string(from) + "->" + std::to_string(to)];
    for (size_t i = 0; i < n; ++i) st(to, dst, i, ld(from, src, i));
    return 0;
}
// Row-major C = op(A) op(B), accumulated in float32 over typed operands.
void matmul(int ab, int c_type, int ta, int tb, int64_t m, int64_t n, int64_t k, const void* a, const void* b, void* c) {
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
            float s = 0;
            for (int64_t l = 0; l < k; ++l)
                s += ld(ab, a, std::size_t(ta ? l * m + i : i * k + l)) * ld(ab, b, std::size_t(tb ? j * k + l : l * n + j));
            st(c_type, c, std::size_t(i * n + j), s);
        }
}
int sgemm(lf_cuda_context*, int ta, int tb, int64_t m, int64_t n, int64_t k, float, const float* a, const float* b, float,
          float* c, lf_cuda_error*) {
    ++calls["sgemm"];
    matmul(LF_CUDA_F32, LF_CUDA_F32, ta, tb, m, n, k, a, b, c);
    return 0;
}
int gemm(lf_cuda_context*, int ta, int tb, int64_t m, int64_t n, int64_t k, int ab, int c_type, const void* a,
         const void* b, int, void* c, lf_cuda_error*) {
    ++calls["gemm " + std::to_string(ab) + "->" + std::to_string(c_type)];
    matmul(ab, c_type, ta, tb, m, n, k, a, b, c);
    return 0;
}
int add(lf_cuda_context*, int dt, void* dst, const void* src, size_t n, lf_cuda_error*) {
    ++calls["add " + std::to_string(dt)];
    for (size_t i = 0; i < n; ++i) st(dt, dst, i, ld(dt, dst, i) + ld(dt, src, i));
    return 0;
}
int add_bias(lf_cuda_context*, int dt, void* y, const float* bias, int64_t rows, int64_t cols, lf_cuda_error*) {
    for (int64_t i = 0; i < rows * cols; ++i) st(dt, y, std::size_t(i), ld(dt, y, std::size_t(i)) + bias[i % cols]);
    return 0;
}
int bias_grad(lf_cuda_context*, int dt, const void* dy, float* g, int64_t rows, int64_t cols, int acc, float*,
              lf_cuda_error*) {
    for (int64_t c = 0; c < cols; ++c) {
        float s = acc ? g[c] : 0.f;
        for (int64_t r = 0; r < rows; ++r) s += ld(dt, dy, std::size_t(r * cols + c));
        g[c] = s;
    }
    return 0;
}
int act_fwd(lf_cuda_context*, int dt, int kind, const void* x, void* y, size_t n, lf_cuda_error*) {
    if (kind != LF_CUDA_RELU) return 1;
    for (size_t i = 0; i < n; ++i) st(dt, y, i, std::max(ld(dt, x, i), 0.f));
    return 0;
}
int act_bwd(lf_cuda_context*, int dt, int, const void* y, const void* dy, void* dx, size_t n, lf_cuda_error*) {
    for (size_t i = 0; i < n; ++i) st(dt, dx, i, ld(dt, y, i) > 0 ? ld(dt, dy, i) : 0.f);
    return 0;
}
// Each row of the (float32) output layer, stably.
int softmax_fwd(lf_cuda_context*, int dt, const void* x, void* y, int64_t rows, int64_t cols, lf_cuda_error*) {
    for (int64_t r = 0; r < rows; ++r) {
        float top = -INFINITY, sum = 0;
        for (int64_t c = 0; c < cols; ++c) top = std::max(top, ld(dt, x, std::size_t(r * cols + c)));
        for (int64_t c = 0; c < cols; ++c) sum += std::exp(ld(dt, x, std::size_t(r * cols + c)) - top);
        for (int64_t c = 0; c < cols; ++c)
            st(dt, y, std::size_t(r * cols + c), std::exp(ld(dt, x, std::size_t(r * cols + c)) - top) / sum);
    }
    return 0;
}
int check_finite(lf_cuda_context*, const float* g, size_t n, int32_t* found, lf_cuda_error*) {
    for (size_t i = 0; i < n; ++i)
        if (!std::isfinite(g[i])) *found = 1;
    return 0;
}
// SGD as the kernel runs it: skipped on an overflow, the gradients divided by the scale.
int update(lf_cuda_context*, const lf_cuda_update* u, const lf_cuda_update* d, float* w, const float* g, size_t n,
           lf_cuda_error*) {
    if (u->rule != LF_CUDA_SGD) return 1;
    if (d->skip && *d->skip) return 0;
    for (size_t i = 0; i < n; ++i) w[i] -= d->a * (g[i] * d->grad_scale);
    return 0;
}
int count_step(lf_cuda_context*, uint64_t* c, lf_cuda_error*) {
    ++*c;
    return 0;
}
int host_alloc(size_t bytes, void** p, lf_cuda_error*) {
    *p = std::malloc(bytes);
    return 0;
}
int host_free(void* p, lf_cuda_error*) {
    std::free(p);
    return 0;
}
// Events remember the clock at their last record: a timing event's span is 1 ms per 1000 values stored.
struct Event {
    bool timing = false;
    std::uint64_t at = 0;
};
Event* event(lf_cuda_event* e) { return reinterpret_cast<Event*>(e); }
lf_cuda_event* event_create(lf_cuda_context*, lf_cuda_error*) { return reinterpret_cast<lf_cuda_event*>(new Event); }
lf_cuda_event* timing_event_create(lf_cuda_context*, lf_cuda_error*) {
    return reinterpret_cast<lf_cuda_event*>(new Event{true, 0});
}
void event_destroy(lf_cuda_event* e) { delete event(e); }
int no_wait(lf_cuda_event*, lf_cuda_error*) { return 0; }
int record(lf_cuda_context*, lf_cuda_event* e, lf_cuda_error*) {
    event(e)->at = work;
    return 0;
}
int wait_event(lf_cuda_context*, lf_cuda_event*, lf_cuda_error*) { return 0; }
int elapsed(lf_cuda_event* a, lf_cuda_event* b, float* ms, lf_cuda_error* e) {
    if (!event(a)->timing || !event(b)->timing) return fail_text(e, "an event without timing");
    *ms = float(event(b)->at - event(a)->at) / 1000.f;
    return 0;
}
int upload(lf_cuda_context*, void* dst, const void* src, size_t bytes, lf_cuda_event*, lf_cuda_event*, lf_cuda_error*) {
    std::memcpy(dst, src, bytes);
    return 0;
}
int synchronize(lf_cuda_context*, lf_cuda_error*) { return 0; }

lf_cuda_api host_api() {
    lf_cuda_api a = lf::test::host_cuda_api();
    a.fill = fill;
    a.copy_on_device = on_device;
    a.cast = cast;
    a.sgemm = sgemm;
    a.gemm = gemm;
    a.add = add;
    a.add_bias = add_bias;
    a.bias_grad = bias_grad;
    a.activation_forward = act_fwd;
    a.activation_backward = act_bwd;
    a.check_finite = check_finite;
    a.softmax_forward = softmax_fwd;
    a.update = update;
    a.count_step = count_step;
    a.host_alloc = host_alloc;
    a.host_free = host_free;
    a.event_create = event_create;
    a.event_destroy = event_destroy;
    a.event_wait_host = no_wait;
    a.event_record = record;
    a.stream_wait = wait_event;
    a.timing_event_create = timing_event_create;
    a.event_elapsed = elapsed;
    a.upload = upload;
    a.synchronize = synchronize;
    return a;
}
const lf_cuda_api kApi = host_api();

using HostDevice = lf::test::HostDeviceMemory;

// Input(6) -> Dense(5, relu) -> two consumers (a fan-out: its gradient is a 16-bit sum) ->
// Add -> Dense(3), the output layer.
lf::Graph net() {
    GraphBuilder b;
    auto in = b.add("Input", {{"shape", lf::IntList{6}}});
    auto h = b.add("Dense", {{"units", std::int64_t(5)}, {"activation", std::string("relu")}}, {in});
    auto s = b.add("Add", {}, {h, h});
    b.add("Dense", {{"units", std::int64_t(3)}}, {s});
    return b.graph;
}

struct Pass {
    std::vector<float> out, in_grad, w_grad, weights;
};

struct OnStandIn {
    explicit OnStandIn(std::uint64_t init) : model(net()) {
        model.init_weights(init);
        ctx = std::make_shared<lf::CudaContext>(kApi, 0, "cuda:0");
        dm = std::make_unique<lf::CudaDeviceModel>(model, "cuda:0", ctx, arena);
        sgd = lf::make_optimizer("SGD", {{"learning_rate", 0.1}});
        sgd->bind(model.trainable_size());
    }
    std::unique_ptr<lf::Plan> plan(lf::Precision precision) {
        return dm->make_plan({.device = "cuda:0", .batch = 4, .input_grads = true, .precision = precision,
                              .cuda_graphs = false});
    }
    // One step: forward, the gradient `scale` x (out - 0.5) (with `poison`: one infinite), backward and update.
    Pass step(lf::Precision precision, float scale = 1, bool poison = false) {
        auto p = plan(precision);
        return step(*p, scale, poison);
    }
    Pass step(lf::Plan& plan_, float scale = 1, bool poison = false) {
        lf::Plan* plan = &plan_;
        std::mt19937 rng(3);
        std::uniform_real_distribution<float> u(-1.f, 1.f);
        std::vector<float> x(std::size_t(4 * plan->input_width()));
        for (float& v : x) v = u(rng);
        Pass p;
        plan->set_input(x.data());
        plan->forward();
        p.out.resize(std::size_t(4 * plan->output_width()));
        plan->read_output(p.out.data());
        std::vector<float> dy(p.out.size());
        for (std::size_t i = 0; i < dy.size(); ++i) dy[i] = scale * (p.out[i] - 0.5f);
        if (poison) dy[0] = INFINITY;
        plan->set_output_grad(dy.data());
        plan->backward_and_update(*dm, *sgd, 0.1);
        p.in_grad.resize(x.size());
        plan->read_input_grad(p.in_grad.data());
        dm->pull_grads();
        p.w_grad = model.grads();
        dm->pull_weights();
        p.weights = model.weights();
        return p;
    }
    HostDevice raw;
    lf::DeviceArena arena{"cuda:0", raw};
    lf::Model model;
    std::shared_ptr<lf::CudaContext> ctx;
    std::unique_ptr<lf::CudaDeviceModel> dm;
    std::unique_ptr<lf::Optimizer> sgd;
};

// The stand-in as the registry's CUDA backend, so a Trainer runs on it end to end.
class StandInBackend final : public lf::Backend {
public:
    std::string name() const override { return "cuda-stand-in"; }
    std::vector<lf::DeviceInfo> devices() const override {
        return {{"cuda:0", "cuda", "stand-in", 1ull << 32, "9.0", "none"}};
    }
    bool has_device(const std::string& d) const override { return d == "cuda:0"; }
    lf::DeviceMemory memory(const std::string&) const override {
        lf::DeviceMemory m;
        m.total = 1ull << 32;
        return m;
    }
    std::string precision_unsupported(lf::Precision p, const std::string&) const override {
        return lf::cuda_precision_unsupported(p, 90);
    }
    std::string unsupported(const lf::NodeInfo&) const override { return ""; }
    std::unique_ptr<lf::DeviceModel> load(lf::Model& m, const std::string& d) override {
        return std::make_unique<lf::CudaDeviceModel>(m, d, ctx_, arena_);
    }
    lf::MemoryBreakdown estimate(const lf::Model& m, const lf::PlanOptions& o) const override {
        return lf::CudaPlan::estimate(m, o);
    }
    lf::PlanProfile describe(const lf::Model& m, const lf::PlanOptions& o) const override {
        return lf::CudaPlan::describe(m, o);
    }

private:
    HostDevice raw_;
    lf::DeviceArena arena_{"cuda:0", raw_};
    std::shared_ptr<lf::CudaContext> ctx_ = std::make_shared<lf::CudaContext>(kApi, 0, "cuda:0");
};

// The net with a softmax output, for the trainer: three classes of noisy 6-vectors.
lf::Graph classifier() {
    GraphBuilder b;
    auto in = b.add("Input", {{"shape", lf::IntList{6}}});
    auto h = b.add("Dense", {{"units", std::int64_t(5)}, {"activation", std::string("relu")}}, {in});
    auto s = b.add("Add", {}, {h, h});
    b.add("Dense", {{"units", std::int64_t(3)}, {"activation", std::string("softmax")}}, {s});
    return b.graph;
}

lf::TensorDataset three_classes() {
    lf::TensorDataset d;
    d.sample_shape = lf::Shape{6};
    d.class_names = {"a", "b", "c"};
    std::mt19937 rng(6);
    std::normal_distribution<float> noise(0.f, 0.2f);
    for (int i = 0; i < 60; ++i) {
        const int c = i % 3;
        for (int k = 0; k < 6; ++k) d.images.push_back((k / 2 == c ? 1.f : 0.f) + noise(rng));
        d.labels.push_back(c);
    }
    return d;
}

struct LastState final : lf::CheckpointSink {
    void save(const lf::TrainState& s, const std::vector<std::pair<std::string, double>>&) override {
        state = s;
        if (model && trainer) blobs.push_back(lf::encode_checkpoint(*model, trainer->optimizer(), s));
    }
    lf::TrainState state;
    lf::Model* model = nullptr;
    lf::Trainer* trainer = nullptr;
    std::vector<std::string> blobs;  // when model and trainer are set
};

lf::TrainingConfig float16_config(std::int64_t epochs) {
    lf::TrainingConfig c;
    c.optimizer = {"SGD", {{"learning_rate", 0.05}}};
    c.batch_size = 10;
    c.epochs = epochs;
    c.precision = lf::Precision::MixedFloat16;
    return c;
}

// The classifier with its output kernel 40x too large: float16 overflows at the first scales.
void overflowing_init(lf::Model& model) {
    model.init_weights(4);
    const lf::WeightRef* out = model.weights_of("dense_3").at(0);
    for (std::size_t i = 0; i < out->size; ++i) model.weights()[out->offset + i] *= 40;
}

// Registers the stand-in for cuda:0 (once); false where a real CUDA backend has it already.
bool stand_in_on_cuda0() {
    lf::Backend* there = lf::backends().for_device("cuda:0");
    if (there && there->name() != "cuda-stand-in") return false;
    if (!there) lf::backends().add(std::make_unique<StandInBackend>());
    qputenv("LF_CUDA_GRAPHS", "0");  // the stand-in does not capture
    return true;
}

// The largest |a - b| over the largest |b|.
double relative(const std::vector<float>& a, const std::vector<float>& b) {
    double d = 0, n = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        d = std::max(d, std::abs(double(a[i]) - b[i]));
        n = std::max(n, std::abs(double(b[i])));
    }
    return d / n;
}

}  // namespace

class TestCudaMixedPlan : public QObject {
    Q_OBJECT
private slots:
    void a_mixed_pass_matches_float32_within_its_rounding_data() {
        QTest::addColumn<int>("policy");
        QTest::addColumn<double>("tolerance");
        QTest::newRow("mixed_bfloat16") << int(lf::Precision::MixedBFloat16) << 3e-2;  // 8 significant bits
        QTest::newRow("mixed_float16") << int(lf::Precision::MixedFloat16) << 4e-3;    // 11
    }
    void a_mixed_pass_matches_float32_within_its_rounding() {
        QFETCH(int, policy);
        QFETCH(double, tolerance);
        OnStandIn f32(5), mixed(5);
        const Pass a = f32.step(lf::Precision::Float32);
        calls.clear();
        const Pass b = mixed.step(lf::Precision(policy));
        QVERIFY2(relative(b.out, a.out) <= tolerance, qPrintable(QString::number(relative(b.out, a.out))));
        QVERIFY2(relative(b.in_grad, a.in_grad) <= 2 * tolerance, qPrintable(QString::number(relative(b.in_grad, a.in_grad))));
        QVERIFY2(relative(b.w_grad, a.w_grad) <= 2 * tolerance, qPrintable(QString::number(relative(b.w_grad, a.w_grad))));
        QVERIFY(b.out != a.out);  // it did round: 16-bit storage, not float32 under another name
        const std::string half = std::to_string(lf::Precision(policy) == lf::Precision::MixedBFloat16 ? LF_CUDA_BF16 : LF_CUDA_F16);
        const std::string f = std::to_string(LF_CUDA_F32);
        QCOMPARE(calls["gemm " + half + "->" + half], 2);    // the hidden Dense's forward and data gradient
        QCOMPARE(calls["gemm " + half + "->" + f], 1);       // its weight gradient, in float32
        QCOMPARE(calls["sgemm"], 3);                         // the float32 output layer
        QCOMPARE(calls["cast " + f + "->" + half], 3);       // the input, the kernel copy, the island's gradient
        QCOMPARE(calls["cast " + half + "->" + f], 1);       // the output layer's island
        QCOMPARE(calls["add " + half], 2);                   // Add's forward and the fan-out's gradient sum
    }

    void float32_plans_make_no_16_bit_calls() {
        OnStandIn t(5);
        calls.clear();
        t.step(lf::Precision::Float32);
        for (const auto& [name, n] : calls)
            QVERIFY2(name == "sgemm" || name == "add 0", name.c_str());
    }

    // Powers of two scale exactly: the scaled step's update equals the unscaled one.
    void an_update_reads_the_gradients_divided_by_the_loss_scale() {
        OnStandIn plain(9), scaled(9);
        const Pass a = plain.step(lf::Precision::MixedFloat16);
        scaled.dm->set_loss_scale(1024);
        const Pass b = scaled.step(lf::Precision::MixedFloat16, 1024);
        QVERIFY(!scaled.dm->last_update_skipped());
        // Equal up to what float16 loses below its normal range without the scale.
        QVERIFY2(relative(b.weights, a.weights) <= 1e-5, qPrintable(QString::number(relative(b.weights, a.weights))));
        std::vector<float> unscaled = b.w_grad;
        for (float& g : unscaled) g /= 1024;
        QVERIFY2(relative(unscaled, a.w_grad) <= 1e-3, qPrintable(QString::number(relative(unscaled, a.w_grad))));
        QVERIFY(relative(b.w_grad, a.w_grad) > 100);  // the gradients themselves were scaled
    }

    void an_overflowed_step_changes_nothing_and_says_so() {
        OnStandIn t(9);
        t.dm->pull_weights();
        const std::vector<float> before = t.model.weights();
        t.dm->set_loss_scale(32768);
        t.step(lf::Precision::MixedFloat16, 32768, true);
        QVERIFY(t.dm->last_update_skipped());
        t.dm->pull_weights();
        QCOMPARE(t.model.weights(), before);
        t.dm->set_loss_scale(64);  // as if halved until it fits: 64 x these gradients stays below 65504
        t.step(lf::Precision::MixedFloat16, 64);  // the next finite step applies again
        QVERIFY(!t.dm->last_update_skipped());
        t.dm->pull_weights();
        QVERIFY(t.model.weights() != before);
    }

    // Note [Kernel times on the GPU]: pass 20 of each kind runs with timing events around each
    // step, and the profile gets its times per step.
    void one_pass_in_a_hundred_is_timed_per_layer() {
        OnStandIn t(2);
        auto plan = t.plan(lf::Precision::MixedBFloat16);
        for (int k = 0; k < lf::PassTimer::kTimedFirst - 1; ++k) t.step(*plan);
        for (const lf::LayerProfile& l : plan->profile()) QCOMPARE(l.timed_forwards, std::int64_t(0));
        t.step(*plan);
        int timed = 0;
        for (const lf::LayerProfile& l : plan->profile()) {
            if (l.forwards == 0) continue;  // the input
            QCOMPARE(l.forwards, std::int64_t(lf::PassTimer::kTimedFirst));
            QCOMPARE(l.timed_forwards, std::int64_t(1));
            QCOMPARE(l.timed_backwards, std::int64_t(1));
            QVERIFY2(l.forward_ns > 0 && l.backward_ns > 0, l.node.c_str());
            ++timed;
        }
        QCOMPARE(timed, 3);  // both Dense layers and the Add
        const lf::PlanProfile once = plan->profile();  // collected once: a second read adds nothing
        QCOMPARE(plan->profile()[1].forward_ns, once[1].forward_ns);
        QVERIFY(!lf::PassTimer::due(21) && lf::PassTimer::due(120) && !lf::PassTimer::due(19));
    }

    // The trainer's side of loss scaling (FitLoop::settle_loss_scale) on the stand-in: an output
    // layer whose kernel is 40x too large makes the first steps' scaled gradients overflow
    // float16, so those steps are skipped (not counted as iterations) and the scale halves until
    // the gradients fit; the run still learns, and its checkpoint keeps the scale.
    void mixed_float16_training_skips_and_rescales() {
        if (!stand_in_on_cuda0()) QSKIP("a real CUDA device is registered: the stand-in cannot take cuda:0");
        lf::Model model(classifier());
        overflowing_init(model);
        lf::Trainer trainer(model, float16_config(3), "cuda:0");
        LastState sink;
        trainer.set_checkpointing({.every_steps = 0, .every_epochs = 1, .at_end = true}, &sink);
        const lf::FitResult r = trainer.fit(three_classes(), nullptr);
        QCOMPARE(r.status, lf::RunStatus::Finished);
        QCOMPARE(r.steps, std::int64_t(18));
        QVERIFY(sink.state.loss_scale.has_value());
        const double scale = sink.state.loss_scale->scale;
        const int skipped = int(std::lround(std::log2(32768.0 / scale)));
        std::printf("loss scale %g after %d skipped steps; losses", scale, skipped);
        for (const auto& m : r.history) std::printf(" %.4f", m[0].second);
        std::printf("\n");
        QVERIFY2(skipped >= 1 && scale < 32768, "the large kernel overflowed float16 at 2^15");
        QCOMPARE(sink.state.iterations, std::int64_t(18 - skipped));  // skipped steps are not iterations
        QCOMPARE(sink.state.loss_scale->good_steps, std::int64_t(18 - skipped));
        QCOMPARE(trainer.optimizer().iterations(), sink.state.iterations);
        QVERIFY(r.history.back()[0].second < r.history.front()[0].second);  // it learned
    }

    // A run resumed from its first epoch's checkpoint scales, skips and ends exactly as the
    // uninterrupted one (the scale and its streak are in the checkpoint).
    void a_resumed_float16_run_is_exact() {
        if (!stand_in_on_cuda0()) QSKIP("a real CUDA device is registered: the stand-in cannot take cuda:0");
        const lf::TensorDataset d = three_classes();
        lf::Model whole(classifier());
        overflowing_init(whole);
        lf::Trainer straight(whole, float16_config(3), "cuda:0");
        LastState end;
        straight.set_checkpointing({.every_steps = 0, .every_epochs = 1, .at_end = true}, &end);
        straight.fit(d, nullptr);

        lf::Model first(classifier());
        overflowing_init(first);
        lf::Trainer part(first, float16_config(3), "cuda:0");
        LastState epochs;
        epochs.model = &first;
        epochs.trainer = &part;
        part.set_checkpointing({.every_steps = 0, .every_epochs = 1, .at_end = true}, &epochs);
        part.fit(d, nullptr);
        QVERIFY(epochs.blobs.size() >= 2);

        lf::Model resumed(classifier());
        resumed.init_weights(99);  // all of it comes from the checkpoint
        lf::Trainer rest(resumed, float16_config(3), "cuda:0");
        const lf::TrainState s = lf::restore_checkpoint(resumed, rest.optimizer(), epochs.blobs[0], "epoch 1");
        QVERIFY(s.loss_scale.has_value());
        LastState after;
        rest.set_checkpointing({.every_steps = 0, .every_epochs = 1, .at_end = true}, &after);
        rest.fit(d, nullptr, &s);
        QCOMPARE(after.state.iterations, end.state.iterations);
        QCOMPARE(*after.state.loss_scale, *end.state.loss_scale);
        QCOMPARE(resumed.weights(), whole.weights());
    }

    void the_device_refuses_a_policy_its_tensor_cores_lack() {
        lf_cuda_api old = host_api();
        old.device_props = [](int, lf_cuda_device_props* p, lf_cuda_error*) {
            *p = {};
            p->cc_major = 7;
            p->cc_minor = 5;
            return 0;
        };
        HostDevice raw;
        lf::DeviceArena arena{"cuda:0", raw};
        lf::Model model(net());
        model.init_weights(1);
        auto ctx = std::make_shared<lf::CudaContext>(old, 0, "cuda:0");
        lf::CudaDeviceModel dm(model, "cuda:0", ctx, arena);
        try {
            dm.make_plan({.device = "cuda:0", .batch = 2, .precision = lf::Precision::MixedBFloat16});
            QFAIL("a bfloat16 plan on compute capability 7.5");
        } catch (const lf::Error& e) {
            QVERIFY2(std::string(e.what()).find("compute capability 7.5") != std::string::npos, e.what());
        }
        dm.make_plan({.device = "cuda:0", .batch = 2, .precision = lf::Precision::MixedFloat16, .cuda_graphs = false});
    }
};

QTEST_GUILESS_MAIN(TestCudaMixedPlan)
#include "test_cuda_mixed_plan.moc"
