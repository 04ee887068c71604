// Training-throughput benchmark of the tutorial MLP (resources/templates/fashion_mlp.lfproj):
// Input(28,28,1) -> Flatten -> Dense(100, relu) -> Dense(10) -> Softmax, Adam(1e-3),
// SparseCategoricalCrossentropy, on the real Fashion-MNIST training split (60,000 images).
//
// For each batch size it measures
//   fit:  lf::Trainer::fit for --epochs epochs (no validation). images/s per epoch from the
//         EpochEnd events' elapsed time; per-step latency from Step events (log_every = 1,
//         each Step event's images_per_second covers exactly one step).
//   bare: the same epochs as a bare loop (random permutation, batch gather, HostLoss::train_step,
//         Optimizer::step), timing each part, to show what fit adds on top.
// The reported images/s is the median over epochs; the spread (min..max) is printed too.
//
// Usage: bench_mlp [--batch 50,128] [--epochs 3] [--threads N] [--json] [--project FILE]
//   --threads N calls omp_set_num_threads(N) (oneDNN's OpenMP pool); without it the
//   OMP_NUM_THREADS environment variable applies.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "layerforge/core/error.h"
#include "layerforge/data/dataset.h"
#include "layerforge/graph/model.h"
#include "layerforge/devices/devices.h"
#include "layerforge/train/host_loss.h"
#include "layerforge/project/project.h"
#include "layerforge/train/loss.h"
#include "layerforge/train/optimizer.h"
#include "layerforge/train/trainer.h"

#include "bench_common.h"

namespace {

using namespace bench;

struct BareStats : Stats {
    double gather_ms = 0, train_step_ms = 0, optimizer_ms = 0;  // medians per step
};

BareStats run_bare(const lf::Project& proj, const lf::TensorDataset& train, std::int64_t batch, std::int64_t epochs) {
    lf::Model model(proj.graph);
    model.init_weights(std::uint64_t(proj.training.seed));
    auto loss = lf::make_loss(proj.training.loss, proj.training.loss_params);
    auto opt = lf::make_optimizer(proj.training.optimizer.type, proj.training.optimizer.params);
    opt->bind(model.weights().size());
    auto device = lf::load_model(model, "cpu");
    auto plan = device->make_plan(lf::PlanOptions{.batch = batch, .mode = lf::PlanMode::Train, .seed = 42});
    lf::HostLoss host_loss(*plan);

    const std::int64_t n = train.size(), steps = n / batch;  // full batches only
    const std::size_t width = std::size_t(train.sample_shape.elements());
    std::vector<std::int64_t> order(static_cast<std::size_t>(n));
    std::vector<std::int32_t> labels(static_cast<std::size_t>(batch));
    std::vector<float> in(std::size_t(batch) * width);
    std::mt19937_64 rng(42);
    BareStats st;
    std::vector<double> g_ms, t_ms, o_ms;
    double sink = 0;
    for (std::int64_t e = 0; e < epochs; ++e) {
        std::iota(order.begin(), order.end(), 0);
        std::shuffle(order.begin(), order.end(), rng);
        auto epoch_start = Clock::now();
        for (std::int64_t s = 0; s < steps; ++s) {
            auto t0 = Clock::now();
            for (std::int64_t i = 0; i < batch; ++i) {
                std::int64_t idx = order[std::size_t(s * batch + i)];
                std::memcpy(in.data() + std::size_t(i) * width, train.sample(idx), width * sizeof(float));
                labels[std::size_t(i)] = train.labels[std::size_t(idx)];
            }
            plan->set_input(in.data());
            auto t1 = Clock::now();
            sink += host_loss.train_step(*loss, labels.data());
            auto t2 = Clock::now();
            device->update(*opt, 1e-3);
            auto t3 = Clock::now();
            auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
            g_ms.push_back(ms(t0, t1));
            t_ms.push_back(ms(t1, t2));
            o_ms.push_back(ms(t2, t3));
            st.step_ms.push_back(ms(t0, t3));
        }
        st.epoch_ips.push_back(double(steps * batch) / (ms_since(epoch_start) / 1000.0));
    }
    if (!(sink == sink)) std::fprintf(stderr, "warning: NaN loss in the bare loop\n");
    st.gather_ms = percentile(g_ms, 0.5);
    st.train_step_ms = percentile(t_ms, 0.5);
    st.optimizer_ms = percentile(o_ms, 0.5);
    return st;
}


void usage() {
    std::fprintf(stderr,
                 "usage: bench_mlp [--batch 50,128] [--epochs N] [--threads N] [--json] [--project FILE]\n"
                 "  --threads N  omp_set_num_threads(N); default: OMP_NUM_THREADS or all cores\n");
}

}  // namespace

int main(int argc, char** argv) {
    CommonOptions o{.epochs = 3, .project = std::string(LF_SOURCE_DIR) + "/resources/templates/fashion_mlp.lfproj"};
    const int stop = parse_options(argc, argv, usage, [&](const std::string& a, auto& value) { return o.handle(a, value); });
    if (stop >= 0) return stop;
    const auto& [batches, epochs, threads, json, project] = o;
    if (threads > 0) omp_set_num_threads(threads);
    const int omp_threads = omp_get_max_threads();

    try {
        lf::Project proj = lf::load_project(project);
        auto data = lf::load_fashion_mnist(proj.dataset.path);
        const lf::TensorDataset& train = data.train;

        struct Row {
            std::int64_t batch;
            Stats fit;
            BareStats bare;
        };
        std::vector<Row> rows;
        for (std::int64_t b : batches) rows.push_back({b, run_fit(proj, train, b, epochs), run_bare(proj, train, b, epochs)});

        if (json) {
            std::printf("{\"model\": \"%s\", \"samples\": %lld, \"epochs\": %lld, \"omp_threads\": %d, \"results\": [",
                        proj.name.c_str(), (long long)train.size(), (long long)epochs, omp_threads);
            for (std::size_t i = 0; i < rows.size(); ++i) {
                const Row& r = rows[i];
                std::printf(
                    "%s\n  {\"batch\": %lld, \"fit_images_per_s\": %.0f, \"fit_images_per_s_min\": %.0f, "
                    "\"fit_images_per_s_max\": %.0f, \"fit_step_ms_median\": %.4f, \"fit_step_ms_p90\": %.4f, "
                    "\"bare_images_per_s\": %.0f, \"bare_images_per_s_min\": %.0f, \"bare_images_per_s_max\": %.0f, "
                    "\"bare_step_ms_median\": %.4f, \"bare_step_ms_p90\": %.4f, \"bare_gather_ms\": %.4f, "
                    "\"bare_train_step_ms\": %.4f, \"bare_optimizer_ms\": %.4f}",
                    i ? "," : "", (long long)r.batch, r.fit.ips(), r.fit.ips_min(), r.fit.ips_max(),
                    percentile(r.fit.step_ms, 0.5), percentile(r.fit.step_ms, 0.9), r.bare.ips(), r.bare.ips_min(),
                    r.bare.ips_max(), percentile(r.bare.step_ms, 0.5), percentile(r.bare.step_ms, 0.9),
                    r.bare.gather_ms, r.bare.train_step_ms, r.bare.optimizer_ms);
            }
            std::printf("\n]}\n");
            return 0;
        }
        std::printf("%s on Fashion-MNIST train (%lld images), %lld epoch(s), OpenMP threads %d\n", proj.name.c_str(),
                    (long long)train.size(), (long long)epochs, omp_threads);
        std::printf("images/s: median over epochs [min..max]; step ms: median / p90 over steps\n\n");
        std::printf("%6s | %-28s %16s | %-28s %16s | %s\n", "batch", "fit images/s", "step ms", "bare images/s",
                    "step ms", "bare parts ms: gather / train_step / adam");
        for (const Row& r : rows) {
            char fit[64], bare[64];
            std::snprintf(fit, sizeof fit, "%.0f [%.0f..%.0f]", r.fit.ips(), r.fit.ips_min(), r.fit.ips_max());
            std::snprintf(bare, sizeof bare, "%.0f [%.0f..%.0f]", r.bare.ips(), r.bare.ips_min(), r.bare.ips_max());
            std::printf("%6lld | %-28s %7.3f / %6.3f | %-28s %7.3f / %6.3f | %.4f / %.4f / %.4f\n", (long long)r.batch,
                        fit, percentile(r.fit.step_ms, 0.5), percentile(r.fit.step_ms, 0.9), bare,
                        percentile(r.bare.step_ms, 0.5), percentile(r.bare.step_ms, 0.9), r.bare.gather_ms,
                        r.bare.train_step_ms, r.bare.optimizer_ms);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_mlp: %s\n", e.what());
        return 1;
    }
    return 0;
}
