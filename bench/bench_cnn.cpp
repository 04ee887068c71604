// Throughput benchmark of the convolutional templates (default: the tutorial's CNN,
// resources/templates/fashion_cnn.lfproj) on the real Fashion-MNIST data.
//
// For each batch size:
//   train:     lf::Trainer::fit over the first --limit training images for --epochs epochs;
//              images/s per epoch (median, min..max) and per-step latency (median / p90).
//   inference: an inference Plan's forward() over the 10,000 test images (full batches), under
//              the same precision policy as the training.
//   GFLOP/s:   training images/s x 3 x forward FLOPs per image (forward + backward data +
//              backward weights), against the matmul ceiling measured here with oneDNN's sgemm
//              (2048^3, best of 5) at the same thread count.
// Peak RSS (ru_maxrss) covers the whole process: the dataset, every plan and oneDNN's caches.
//
// Usage: bench_cnn [--project FILE] [--batch 50,128] [--epochs 2] [--limit 12000] [--threads N]
//                  [--precision float32|mixed_bfloat16] [--json]
//   --precision overrides the project's training.precision, for training and inference alike
//   (PyTorch's autocast covers both in pytorch_cnn.py).
#include <omp.h>
#include <oneapi/dnnl/dnnl.h>
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "layerforge/devices/devices.h"

#include "bench_common.h"

namespace {

using namespace bench;

double sgemm_gflops() {
    const dnnl_dim_t n = 2048;
    std::vector<float> a(std::size_t(n * n), 0.5f), b(a), c(a.size());
    double best = 0;
    for (int rep = 0; rep < 5; ++rep) {
        auto t = Clock::now();
        dnnl_sgemm('N', 'N', n, n, n, 1.f, a.data(), n, b.data(), n, 0.f, c.data(), n);
        best = std::max(best, 2.0 * double(n * n * n) / (ms_since(t) / 1000.0) / 1e9);
    }
    return best;
}

double inference_ips(lf::Model& model, const lf::TensorDataset& test, std::int64_t batch, lf::Precision precision) {
    auto device = lf::load_model(model, "cpu");
    auto plan = device->make_plan({.batch = batch, .mode = lf::PlanMode::Infer, .precision = precision});
    const std::int64_t steps = test.size() / batch;
    plan->forward();  // warm-up
    auto t = Clock::now();
    for (std::int64_t s = 0; s < steps; ++s) {
        plan->set_input(test.sample(s * batch));
        plan->forward();
    }
    return double(steps * batch) / (ms_since(t) / 1000.0);
}

double peak_rss_mb() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0;
}

void usage() {
    std::fprintf(stderr, "usage: bench_cnn [--project FILE] [--batch 50,128] [--epochs N] [--limit N] [--threads N] "
                         "[--precision float32|mixed_bfloat16] [--json]\n");
}

}  // namespace

int main(int argc, char** argv) {
    CommonOptions o{.epochs = 2, .project = std::string(LF_SOURCE_DIR) + "/resources/templates/fashion_cnn.lfproj"};
    std::int64_t limit = 12000;
    std::optional<lf::Precision> precision;
    const int stop = parse_options(argc, argv, usage, [&](const std::string& a, auto& value) {
        if (a == "--limit") limit = std::stoll(value());
        else if (a == "--precision") return bool(precision = lf::parse_precision(value()));
        else return o.handle(a, value);
        return true;
    });
    if (stop >= 0) return stop;
    const auto& [batches, epochs, threads, json, project] = o;
    if (threads > 0) omp_set_num_threads(threads);
    try {
        lf::Project proj = lf::load_project(project);
        if (precision) proj.training.precision = *precision;
        auto data = lf::load_fashion_mnist(proj.dataset.path, limit, 0);
        lf::Model probe(proj.graph);
        const double train_flops = 3.0 * double(probe.analysis().flops);
        const double ceiling = sgemm_gflops();

        struct Row {
            std::int64_t batch;
            Stats fit;
            double infer_ips;
        };
        std::vector<Row> rows;
        for (std::int64_t b : batches) {
            Stats st = run_fit(proj, data.train, b, epochs);
            lf::Model model(proj.graph);
            model.init_weights(1);
            rows.push_back({b, st, inference_ips(model, data.test, b, proj.training.precision)});
        }
        const double rss = peak_rss_mb();
        if (json) {
            std::printf("{\"model\": \"%s\", \"precision\": \"%s\", \"samples\": %lld, \"epochs\": %lld, \"omp_threads\": %d, "
                        "\"train_mflop_per_image\": %.2f, \"sgemm_gflops\": %.1f, \"peak_rss_mb\": %.0f, \"results\": [",
                        proj.name.c_str(), lf::to_string(proj.training.precision), (long long)data.train.size(), (long long)epochs, omp_get_max_threads(),
                        train_flops / 1e6, ceiling, rss);
            for (std::size_t i = 0; i < rows.size(); ++i) {
                const Row& r = rows[i];
                std::printf("%s\n  {\"batch\": %lld, \"images_per_s\": %.0f, \"images_per_s_min\": %.0f, "
                            "\"images_per_s_max\": %.0f, \"step_ms_median\": %.3f, \"step_ms_p90\": %.3f, "
                            "\"gflops\": %.1f, \"inference_images_per_s\": %.0f}",
                            i ? "," : "", (long long)r.batch, r.fit.ips(), r.fit.ips_min(), r.fit.ips_max(),
                            percentile(r.fit.step_ms, 0.5), percentile(r.fit.step_ms, 0.9),
                            r.fit.ips() * train_flops / 1e9, r.infer_ips);
            }
            std::printf("\n]}\n");
            return 0;
        }
        std::printf("%s: %lld training images x %lld epoch(s), OpenMP threads %d, %.1f MFLOP per training image\n",
                    proj.name.c_str(), (long long)data.train.size(), (long long)epochs, omp_get_max_threads(),
                    train_flops / 1e6);
        std::printf("matmul ceiling (oneDNN sgemm 2048^3): %.0f GFLOP/s; peak RSS %.0f MB\n\n", ceiling, rss);
        std::printf("%6s | %-24s | %-15s | %-17s | %s\n", "batch", "train images/s", "step ms med/p90",
                    "GFLOP/s (ceiling)", "inference images/s");
        for (const Row& r : rows) {
            char ips[64];
            std::snprintf(ips, sizeof ips, "%.0f [%.0f..%.0f]", r.fit.ips(), r.fit.ips_min(), r.fit.ips_max());
            double g = r.fit.ips() * train_flops / 1e9;
            std::printf("%6lld | %-24s | %6.2f / %6.2f | %5.0f (%4.0f%%)     | %.0f\n", (long long)r.batch, ips,
                        percentile(r.fit.step_ms, 0.5), percentile(r.fit.step_ms, 0.9), g, 100 * g / ceiling,
                        r.infer_ips);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_cnn: %s\n", e.what());
        return 1;
    }
    return 0;
}
