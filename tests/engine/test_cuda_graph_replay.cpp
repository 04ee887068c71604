// The CUDA plan's graph capture and pinned input path, without a GPU: a stand-in module whose
// "device" is host memory and whose stream models what CUDA does with captures and streams:
// while the compute stream is captured, calls are recorded, not run, and a launch runs the
// record again, reading memory as it is then; a call that synchronises the host fails during a
// capture; copies on the copy stream wait until the compute stream (or the host) waits for
// their event, so a plan that forgot a wait would read a stale batch; uploads must come from
// pinned memory. Checks: replayed steps give exactly the eager steps' outputs and weights
// (Adam's per-step constants and dropout's per-step masks included), the capture happens on a
// pass's second run and replaces its calls from the third on, a failed capture and a
// data-parallel backward run eagerly and say why, graphs can be turned off (option or
// LF_CUDA_GRAPHS), and the pinned buffers are allocated once when the plan is built.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <set>

#include "backend/cuda/cuda_device_model.h"
#include "backend/cuda/step_graphs.h"
#include "backend/dropout_mask.h"
#include "graph_builder.h"
#include "host_cuda_api.h"
#include "layerforge/core/error.h"
#include "layerforge/train/optimizer.h"

namespace {

// ---- the stand-in module ------------------------------------------------------------------

struct HostEvent {};

struct Recorded {
    std::vector<std::function<void()>> calls;
};

struct PendingCopy {
    std::function<void()> copy;
    HostEvent* done;
};

struct HostGpu {
    bool capturing = false;
    std::vector<std::function<void()>> capture;
    std::vector<PendingCopy> copy_stream;
    std::set<const void*> pinned;
    int host_allocs = 0, captures_begun = 0, launches = 0, uploads = 0, queued = 0;
    std::vector<void*> upload_targets;
};
HostGpu gpu;

int fail(lf_cuda_error* e, const char* text) {
    if (e) {
        e->code = 900;
        std::snprintf(e->text, sizeof e->text, "%s", text);
    }
    return 900;
}

// A call on the compute stream: run now, or recorded while capturing.
int on_stream(std::function<void()> call) {
    ++gpu.queued;
    if (gpu.capturing) gpu.capture.push_back(std::move(call));
    else call();
    return 0;
}

// The copy stream's copies up to (and with) the last one that records `ev`.
void flush_until(HostEvent* ev) {
    std::size_t last = gpu.copy_stream.size();
    for (std::size_t i = 0; i < gpu.copy_stream.size(); ++i)
        if (gpu.copy_stream[i].done == ev) last = i;
    if (last == gpu.copy_stream.size()) return;
    for (std::size_t i = 0; i <= last; ++i) gpu.copy_stream[i].copy();
    gpu.copy_stream.erase(gpu.copy_stream.begin(), gpu.copy_stream.begin() + std::ptrdiff_t(last + 1));
}

int to_device(lf_cuda_context*, void* dst, const void* src, size_t bytes, lf_cuda_error*) {
    // A pageable source is read before the call returns, as cudaMemcpyAsync does; a pinned one when the copy runs.
    if (gpu.pinned.count(src)) return on_stream([=] { std::memcpy(dst, src, bytes); });
    std::vector<char> copy(static_cast<const char*>(src), static_cast<const char*>(src) + bytes);
    return on_stream([=] { std::memcpy(dst, copy.data(), bytes); });
}
int to_host(lf_cuda_context*, void* dst, const void* src, size_t bytes, lf_cuda_error* e) {
    if (gpu.capturing) return fail(e, "operation not permitted when stream is capturing");
    std::memcpy(dst, src, bytes);
    return 0;
}
int on_device(lf_cuda_context*, void* dst, const void* src, size_t bytes, lf_cuda_error*) {
    return on_stream([=] { std::memmove(dst, src, bytes); });
}
int fill(lf_cuda_context*, float* dst, float v, size_t n, lf_cuda_error*) {
    return on_stream([=] { std::fill(dst, dst + n, v); });
}
int synchronize(lf_cuda_context*, lf_cuda_error* e) {
    return gpu.capturing ? fail(e, "operation not permitted when stream is capturing") : 0;
}

// Row-major C = op(A) op(B) (beta 0: the ops never accumulate here).
int sgemm(lf_cuda_context*, int ta, int tb, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
          const float* b, float beta, float* c, lf_cuda_error* e) {
    if (beta != 0) return fail(e, "beta");
    return on_stream([=] {
        for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < n; ++j) {
                float s = 0;
                for (int64_t l = 0; l < k; ++l) s += (ta ? a[l * m + i] : a[i * k + l]) * (tb ? b[j * k + l] : b[l * n + j]);
                c[i * n + j] = alpha * s;
            }
    });
}
// The stand-in stores float32 only (the plans here are float32 ones).
int add_bias(lf_cuda_context*, int, void* yv, const float* bias, int64_t rows, int64_t cols, lf_cuda_error*) {
    auto* y = static_cast<float*>(yv);
    return on_stream([=] {
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t c = 0; c < cols; ++c) y[r * cols + c] += bias[c];
    });
}
int bias_grad(lf_cuda_context*, int, const void* dyv, float* g, int64_t rows, int64_t cols, int acc, float*,
              lf_cuda_error*) {
    const auto* dy = static_cast<const float*>(dyv);
    return on_stream([=] {
        for (int64_t c = 0; c < cols; ++c) {
            float s = acc ? g[c] : 0.f;
            for (int64_t r = 0; r < rows; ++r) s += dy[r * cols + c];
            g[c] = s;
        }
    });
}
int act_fwd(lf_cuda_context*, int, int kind, const void* xv, void* yv, size_t n, lf_cuda_error* e) {
    const auto* x = static_cast<const float*>(xv);
    auto* y = static_cast<float*>(yv);
    if (kind != LF_CUDA_RELU) return fail(e, "only relu here");
    return on_stream([=] {
        for (size_t i = 0; i < n; ++i) y[i] = x[i] > 0 ? x[i] : 0.f;
    });
}
int act_bwd(lf_cuda_context*, int, int, const void* yv, const void* dyv, void* dxv, size_t n, lf_cuda_error*) {
    const auto *y = static_cast<const float*>(yv), *dy = static_cast<const float*>(dyv);
    auto* dx = static_cast<float*>(dxv);
    return on_stream([=] {
        for (size_t i = 0; i < n; ++i) dx[i] = y[i] > 0 ? dy[i] : 0.f;
    });
}
int multiply(lf_cuda_context*, int, void* dv, const void* sv, size_t n, int64_t, int64_t, int, lf_cuda_error*) {
    auto* dst = static_cast<float*>(dv);
    const auto* src = static_cast<const float*>(sv);
    return on_stream([=] {
        for (size_t i = 0; i < n; ++i) dst[i] *= src[i];
    });
}
// Any mask that depends on the step the kernel reads when it runs.
int dropout(lf_cuda_context*, int, const void* xv, void* yv, void* mv, size_t n, uint64_t seed, const uint64_t* step,
            uint64_t first, uint64_t threshold, float scale, lf_cuda_error*) {
    const auto* x = static_cast<const float*>(xv);
    auto* y = static_cast<float*>(yv);
    auto* mask = static_cast<float*>(mv);
    return on_stream([=] {
        const std::uint64_t base = lf::dropout::step_base(seed, *step);  // read when it runs, as the kernel does
        for (size_t i = 0; i < n; ++i) {
            mask[i] = lf::dropout::mask(base, first + i, threshold, scale);
            y[i] = x[i] * mask[i];
        }
    });
}
int count_step(lf_cuda_context*, uint64_t* counter, lf_cuda_error*) {
    return on_stream([=] { ++*counter; });
}
// SGD and Adam over the constants in "device" memory, read when the call runs.
int update(lf_cuda_context*, const lf_cuda_update* u, const lf_cuda_update* d, float* w, const float* g, size_t n,
           lf_cuda_error* e) {
    if (u->rule != LF_CUDA_SGD && u->rule != LF_CUDA_ADAM) return fail(e, "rule");
    return on_stream([=] {
        if (d->skip && *d->skip) return;
        for (size_t i = 0; i < n; ++i) {
            if (d->rule == LF_CUDA_SGD) {
                w[i] -= d->a * (g[i] * d->grad_scale);
                continue;
            }
            float* m = d->state[0];
            float* v = d->state[1];
            w[i] -= w[i] * d->decay;
            m[i] += (g[i] - m[i]) * d->b1;
            v[i] += (g[i] * g[i] - v[i]) * d->b2;
            w[i] -= d->a * m[i] / (std::sqrt(v[i]) + d->eps);
        }
    });
}

int host_alloc(size_t bytes, void** p, lf_cuda_error*) {
    ++gpu.host_allocs;
    *p = std::malloc(bytes);
    gpu.pinned.insert(*p);
    return 0;
}
int host_free(void* p, lf_cuda_error*) {
    gpu.pinned.erase(p);
    std::free(p);
    return 0;
}
lf_cuda_event* event_create(lf_cuda_context*, lf_cuda_error*) { return reinterpret_cast<lf_cuda_event*>(new HostEvent); }
void event_destroy(lf_cuda_event* ev) {
    auto* h = reinterpret_cast<HostEvent*>(ev);
    for (auto& p : gpu.copy_stream)
        if (p.done == h) p.done = nullptr;
    delete h;
}
int event_wait_host(lf_cuda_event* ev, lf_cuda_error*) {
    flush_until(reinterpret_cast<HostEvent*>(ev));
    return 0;
}
// The compute stream runs its calls at once: its records are complete when made.
int event_record(lf_cuda_context*, lf_cuda_event*, lf_cuda_error* e) {
    return gpu.capturing ? fail(e, "the plan records events outside its captures") : 0;
}
int stream_wait(lf_cuda_context*, lf_cuda_event* ev, lf_cuda_error* e) {
    if (gpu.capturing) return fail(e, "the plan waits for copies outside its captures");
    flush_until(reinterpret_cast<HostEvent*>(ev));
    return 0;
}
int upload(lf_cuda_context*, void* dst, const void* src, size_t bytes, lf_cuda_event*, lf_cuda_event* done,
           lf_cuda_error* e) {
    if (!gpu.pinned.count(src)) return fail(e, "an upload from pageable memory");
    if (gpu.capturing) return fail(e, "the plan uploads outside its captures");
    ++gpu.uploads;
    gpu.upload_targets.push_back(dst);
    gpu.copy_stream.push_back({[=] { std::memcpy(dst, src, bytes); }, reinterpret_cast<HostEvent*>(done)});
    return 0;
}
int capture_begin(lf_cuda_context*, lf_cuda_error* e) {
    if (gpu.capturing) return fail(e, "already capturing");
    ++gpu.captures_begun;
    gpu.capturing = true;
    gpu.capture.clear();
    return 0;
}
lf_cuda_graph* capture_end(lf_cuda_context*, lf_cuda_error*) {
    gpu.capturing = false;
    return reinterpret_cast<lf_cuda_graph*>(new Recorded{std::move(gpu.capture)});
}
int graph_launch(lf_cuda_context*, lf_cuda_graph* g, lf_cuda_error*) {
    ++gpu.launches;
    for (auto& call : reinterpret_cast<Recorded*>(g)->calls) call();
    return 0;
}
void graph_destroy(lf_cuda_graph* g) { delete reinterpret_cast<Recorded*>(g); }

lf_cuda_api host_api() {
    lf_cuda_api a = lf::test::host_cuda_api();
    a.synchronize = synchronize;
    a.copy_to_device = to_device;
    a.copy_to_host = to_host;
    a.copy_on_device = on_device;
    a.fill = fill;
    a.sgemm = sgemm;
    a.add_bias = add_bias;
    a.bias_grad = bias_grad;
    a.activation_forward = act_fwd;
    a.activation_backward = act_bwd;
    a.multiply = multiply;
    a.dropout_forward = dropout;
    a.count_step = count_step;
    a.update = update;
    a.host_alloc = host_alloc;
    a.host_free = host_free;
    a.event_create = event_create;
    a.event_destroy = event_destroy;
    a.event_wait_host = event_wait_host;
    a.event_record = event_record;
    a.stream_wait = stream_wait;
    a.upload = upload;
    a.capture_begin = capture_begin;
    a.capture_end = capture_end;
    a.graph_launch = graph_launch;
    a.graph_destroy = graph_destroy;
    return a;
}
const lf_cuda_api kApi = host_api();

using HostDevice = lf::test::HostDeviceMemory;

// ---- the model and its runs ---------------------------------------------------------------

// Input(6) -> Dense(5, relu) -> Dropout(0.5) -> Dense(3).
lf::Graph net() {
    GraphBuilder b;
    auto in = b.add("Input", {{"shape", lf::IntList{6}}});
    auto h = b.add("Dense", {{"units", std::int64_t(5)}, {"activation", std::string("relu")}}, {in});
    auto d = b.add("Dropout", {{"rate", 0.5}}, {h});
    b.add("Dense", {{"units", std::int64_t(3)}}, {d});
    return b.graph;
}

// One model on the stand-in device with its optimizer.
struct Trained {
    explicit Trained(std::uint64_t init) : model(net()) {
        model.init_weights(init);
        ctx = std::make_shared<lf::CudaContext>(kApi, 0, "cuda:0");
        dm = std::make_unique<lf::CudaDeviceModel>(model, "cuda:0", ctx, arena);
        adam = lf::make_optimizer("Adam", {{"learning_rate", 0.01}});
        adam->bind(model.trainable_size());
    }
    std::unique_ptr<lf::Plan> plan(std::int64_t batch, bool graphs) {
        return dm->make_plan({.device = "cuda:0", .batch = batch, .seed = 7, .cuda_graphs = graphs});
    }
    HostDevice raw;
    lf::DeviceArena arena{"cuda:0", raw};
    lf::Model model;
    std::shared_ptr<lf::CudaContext> ctx;
    std::unique_ptr<lf::CudaDeviceModel> dm;
    std::unique_ptr<lf::Optimizer> adam;
};

// One training step with the loss's gradient out - 0.5; returns the output.
std::vector<float> step(Trained& t, lf::Plan& plan, int k) {
    std::mt19937 rng(std::uint32_t(100 + k));
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    std::vector<float> x(std::size_t(plan.batch() * plan.input_width()));
    for (float& v : x) v = u(rng);
    plan.set_input(x.data());
    plan.forward();
    std::vector<float> out(std::size_t(plan.batch() * plan.output_width()));
    plan.read_output(out.data());
    std::vector<float> dy(out.size());
    for (std::size_t i = 0; i < out.size(); ++i) dy[i] = out[i] - 0.5f;
    plan.set_output_grad(dy.data());
    plan.backward_and_update(*t.dm, *t.adam, 0.01 / (1 + k));  // a decaying rate: per-step constants
    return out;
}

struct CountingListener final : lf::BackwardListener {
    void on_step_done(std::size_t) override { ++steps; }
    int steps = 0;
};

}  // namespace

class TestCudaGraphReplay : public QObject {
    Q_OBJECT
private slots:
    void init() { qunsetenv("LF_CUDA_GRAPHS"); }

    // Full batches and a partial last one (a plan of its own) alternate as in a fit.
    void replayed_steps_equal_eager_steps_exactly() {
        Trained graphs(5), eager(5);
        QCOMPARE(graphs.model.weights(), eager.model.weights());
        auto g4 = graphs.plan(4, true), g3 = graphs.plan(3, true);
        auto e4 = eager.plan(4, false), e3 = eager.plan(3, false);
        const int launches_before = gpu.launches;
        std::vector<float> first_out;
        for (int k = 0; k < 9; ++k) {
            const bool rest = k % 3 == 2;
            const std::vector<float> a = step(graphs, rest ? *g3 : *g4, k);
            const std::vector<float> b = step(eager, rest ? *e3 : *e4, k);
            QCOMPARE(a, b);
        }
        graphs.dm->pull_weights();
        eager.dm->pull_weights();
        QCOMPARE(graphs.model.weights(), eager.model.weights());
        QCOMPARE(graphs.adam->iterations(), std::int64_t(9));
        QCOMPARE(eager.adam->iterations(), std::int64_t(9));
        // Full batches: captured at their second step, replayed in steps 2..6 (both passes);
        // the remainder: captured at its second step (k = 5), replayed at k = 5 and 8.
        QCOMPARE(gpu.launches - launches_before, 2 * 5 + 2 * 2);
        QVERIFY2(g4->execution() == "forward: replayed as a CUDA graph; backward and update: replayed as a CUDA graph",
                 g4->execution().c_str());
        QVERIFY(e4->execution().find("eager (CUDA graphs are off in the plan's options)") != std::string::npos);
        Trained fresh(5);
        QVERIFY(graphs.model.weights() != fresh.model.weights());  // it trained
    }

    void a_replay_queues_none_of_the_passes_calls() {
        Trained t(3);
        auto plan = t.plan(4, true);
        step(t, *plan, 0);  // eager
        step(t, *plan, 1);  // captured, then launched
        const int queued = gpu.queued, launches = gpu.launches;
        step(t, *plan, 2);
        QCOMPARE(gpu.launches - launches, 2);
        // What is left per step: the batch moved into the plan, the gradient's and the
        // optimizer constants' copies; the graphs' calls are counted as they were recorded.
        QCOMPARE(gpu.queued - queued, 3);
    }

    void inputs_come_through_pinned_memory_allocated_once() {
        Trained t(3);
        const int before = gpu.host_allocs;
        auto plan = t.plan(4, true);
        const int allocated = gpu.host_allocs - before;
        QCOMPARE(allocated, 3);  // two input slots and the loss's gradient
        gpu.upload_targets.clear();
        for (int k = 0; k < 5; ++k) step(t, *plan, k);
        QCOMPARE(gpu.host_allocs - before, allocated);
        QCOMPARE(gpu.upload_targets.size(), std::size_t(5));
        // Two staging buffers take turns.
        QVERIFY(gpu.upload_targets[0] != gpu.upload_targets[1]);
        QCOMPARE(gpu.upload_targets[0], gpu.upload_targets[2]);
        QCOMPARE(gpu.upload_targets[1], gpu.upload_targets[3]);
    }

    // The copy stream's copy lands only when the compute stream waits for it: two batches set
    // back to back each reach the pass that follows them.
    void each_pass_sees_its_own_batch() {
        Trained t(4);
        auto plan = t.plan(2, false);
        std::vector<float> x1(12), x2(12), a(6), b(6), again(6);
        std::mt19937 rng(8);
        std::uniform_real_distribution<float> u(-1.f, 1.f);
        for (float& v : x1) v = u(rng);
        for (float& v : x2) v = u(rng);
        plan->set_input(x1.data());
        plan->forward();
        plan->read_output(a.data());
        plan->set_input(x2.data());
        plan->forward();
        plan->read_output(b.data());
        QVERIFY(a != b);
        auto twin = t.plan(2, false);
        twin->set_input(x2.data());
        twin->seek_rng(1);  // the second forward's dropout masks
        twin->forward();
        twin->read_output(again.data());
        QCOMPARE(again, b);
        // Had the pass not waited for the copy, it would have read the staging buffer's zeros.
        std::vector<float> zeros(12, 0.f), from_zeros(6);
        auto blank = t.plan(2, false);
        blank->set_input(zeros.data());
        blank->seek_rng(1);
        blank->forward();
        blank->read_output(from_zeros.data());
        QVERIFY(std::any_of(b.begin(), b.end(), [](float v) { return v != 0; }));
        QVERIFY(from_zeros != b);
    }

    void a_data_parallel_backward_runs_eagerly() {
        Trained t(2);
        auto plan = t.plan(4, true);
        CountingListener listener;
        plan->set_backward_listener(&listener);
        for (int k = 0; k < 4; ++k) step(t, *plan, k);
        QVERIFY2(plan->execution().find("backward and update: eager (data-parallel") != std::string::npos,
                 plan->execution().c_str());
        QVERIFY(plan->execution().find("forward: replayed as a CUDA graph") != std::string::npos);
        QCOMPARE(listener.steps, 4 * int(plan->profile().size()));  // every step reported, every time
        QCOMPARE(t.adam->iterations(), std::int64_t(4));
    }

    void graphs_can_be_turned_off() {
        QVERIFY(lf::graphs_off_reason(true).empty());
        QVERIFY(!lf::graphs_off_reason(false).empty());
        qputenv("LF_CUDA_GRAPHS", "0");
        QCOMPARE(QString::fromStdString(lf::graphs_off_reason(true)), QString("CUDA graphs are off (LF_CUDA_GRAPHS=0)"));
        Trained t(2);
        auto plan = t.plan(4, true);
        const int begun = gpu.captures_begun;
        for (int k = 0; k < 3; ++k) step(t, *plan, k);
        QCOMPARE(gpu.captures_begun, begun);
        QVERIFY(plan->execution().find("LF_CUDA_GRAPHS=0") != std::string::npos);
        qputenv("LF_CUDA_GRAPHS", "1");
        QVERIFY(lf::graphs_off_reason(true).empty());
    }

    // StepGraphs alone: capture on the second run, replay after, a variant of its own, and a
    // capture that fails on a host synchronisation runs eagerly from then on, saying why.
    void the_bookkeeping_of_captures() {
        lf::CudaContext ctx(kApi, 0, "cuda:0");
        lf::StepGraphs graphs(ctx, "");
        std::vector<float> buf(4, 0.f);
        float value = 1.f;
        int queued = 0;
        auto queue = [&] {
            ++queued;
            // Reads `value` now: a replay repeats this fill of 1, as a graph's baked argument would.
            ctx.run([&](lf_cuda_error* e) { return kApi.fill(ctx.get(), buf.data(), value, 4, e); }, "fill");
        };
        graphs.run(lf::GraphPass::Forward, 0, queue);
        QCOMPARE(queued, 1);
        QCOMPARE(graphs.captured(), 0);
        QVERIFY(graphs.describe().find("its first run") != std::string::npos);
        graphs.run(lf::GraphPass::Forward, 0, queue);
        QCOMPARE(queued, 2);
        QCOMPARE(graphs.captured(), 1);
        QCOMPARE(graphs.replayed(), 1);
        QCOMPARE(buf[0], 1.f);
        buf.assign(4, 0.f);
        value = 9.f;
        graphs.run(lf::GraphPass::Forward, 0, queue);
        QCOMPARE(queued, 2);
        QCOMPARE(buf[3], 1.f);  // the recorded call ran again
        graphs.run(lf::GraphPass::Forward, 1, queue);  // another variant: eager first
        QCOMPARE(queued, 3);
        QCOMPARE(buf[0], 9.f);

        std::vector<float> host(4);
        int syncing = 0;
        auto sync_inside = [&] {
            ++syncing;
            ctx.run([&](lf_cuda_error* e) { return kApi.copy_to_host(ctx.get(), host.data(), buf.data(), 16, e); },
                    "reading back");
        };
        graphs.run(lf::GraphPass::Backward, 0, sync_inside);
        const int begun = gpu.captures_begun;
        graphs.run(lf::GraphPass::Backward, 0, sync_inside);  // the capture fails; it runs eagerly
        QCOMPARE(syncing, 3);
        QVERIFY(!gpu.capturing);
        graphs.run(lf::GraphPass::Backward, 0, sync_inside);
        QCOMPARE(syncing, 4);
        QCOMPARE(gpu.captures_begun, begun + 1);  // no second try
        QVERIFY2(graphs.describe().find("backward and update: eager (its capture as a CUDA graph failed") !=
                     std::string::npos,
                 graphs.describe().c_str());
        QVERIFY(graphs.describe().find("operation not permitted when stream is capturing") != std::string::npos);
        QVERIFY(graphs.describe().find("forward: replayed as a CUDA graph") == std::string::npos);  // variant 1 last ran eagerly
    }
};

QTEST_GUILESS_MAIN(TestCudaGraphReplay)
#include "test_cuda_graph_replay.moc"
