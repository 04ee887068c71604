// Throughput benchmark of the templates (default: the tutorial's CNN,
// resources/templates/fashion_cnn.lfproj) on their data held in memory: Fashion-MNIST, or for
// an image-folder template the folder given with --data, decoded and resized once.
//
// decode:    image folders only: the engine's image pipeline (the binding's resize mode, its
//            default workers) scans, decodes and resizes every image once into memory, timed
//            apart (decode_images_per_s); training then never decodes.
// For each batch size:
//   train:     lf::Trainer::fit over the first --limit training images for --epochs epochs;
//              images/s per epoch (median, min..max) and per-step latency (median / p90).
//   inference: an inference Plan's forward() over the 10,000 test images (image folders: the
//              training images; full batches), under the same precision policy as the training.
//   GFLOP/s:   training images/s x 3 x forward FLOPs per image (forward + backward data +
//              backward weights), against the matmul ceiling measured here with oneDNN's sgemm
//              (2048^3, best of 5) at the same thread count.
// Peak RSS (ru_maxrss) covers the whole process: the dataset, every plan and oneDNN's caches.
//
// Usage: bench_cnn [--project FILE] [--data DIR] [--batch 50,128] [--epochs 2] [--limit 12000]
//                  [--threads N] [--precision float32|mixed_bfloat16] [--json]
//   --data binds the project's dataset to DIR: the IDX folder, or the image folder (DIR/CLASS/*)
//   an image-folder template needs.
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
#include "template_data.h"

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
    std::fprintf(stderr, "usage: bench_cnn [--project FILE] [--data DIR] [--batch 50,128] [--epochs N] [--limit N] "
                         "[--threads N] [--precision float32|mixed_bfloat16] [--json]\n");
}

struct Row {
    std::int64_t batch;
    Stats fit;
    double infer_ips;
};

// What every output form reports besides the rows.
struct Run {
    const lf::Project& proj;
    const TemplateData& data;
    std::int64_t epochs;
    double train_flops, ceiling, rss;
};

std::vector<Row> measure(const lf::Project& proj, const TemplateData& data, const std::vector<std::int64_t>& batches,
                         std::int64_t epochs) {
    std::vector<Row> rows;
    for (std::int64_t b : batches) {
        Stats st = run_fit(proj, data.train, b, epochs);
        lf::Model model(proj.graph);
        model.init_weights(1);
        rows.push_back({b, st, inference_ips(model, data.inference(), b, proj.training.precision)});
    }
    return rows;
}

void print_json(const Run& run, const std::vector<Row>& rows) {
    char decode[64] = "null";
    if (run.data.decoded()) std::snprintf(decode, sizeof decode, "%.0f", run.data.decode_ips);
    std::printf("{\"model\": \"%s\", \"precision\": \"%s\", \"samples\": %lld, \"epochs\": %lld, \"omp_threads\": %d, "
                "\"train_mflop_per_image\": %.2f, \"sgemm_gflops\": %.1f, \"peak_rss_mb\": %.0f, "
                "\"decode_images_per_s\": %s, \"decode_workers\": %d, \"inference_samples\": %lld, \"results\": [",
                run.proj.name.c_str(), lf::to_string(run.proj.training.precision), (long long)run.data.train.size(),
                (long long)run.epochs, omp_get_max_threads(), run.train_flops / 1e6, run.ceiling, run.rss, decode,
                run.data.decode_workers, (long long)run.data.inference().size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        std::printf("%s\n  {\"batch\": %lld, \"images_per_s\": %.0f, \"images_per_s_min\": %.0f, "
                    "\"images_per_s_max\": %.0f, \"step_ms_median\": %.3f, \"step_ms_p90\": %.3f, "
                    "\"gflops\": %.1f, \"inference_images_per_s\": %.0f}",
                    i ? "," : "", (long long)r.batch, r.fit.ips(), r.fit.ips_min(), r.fit.ips_max(),
                    percentile(r.fit.step_ms, 0.5), percentile(r.fit.step_ms, 0.9), r.fit.ips() * run.train_flops / 1e9,
                    r.infer_ips);
    }
    std::printf("\n]}\n");
}

void print_table(const Run& run, const std::vector<Row>& rows) {
    std::printf("%s: %lld training images x %lld epoch(s), OpenMP threads %d, %.1f MFLOP per training image\n",
                run.proj.name.c_str(), (long long)run.data.train.size(), (long long)run.epochs, omp_get_max_threads(),
                run.train_flops / 1e6);
    if (run.data.decoded())
        std::printf("decoded once into memory (scan, decode, resize): %.0f images/s on %d worker(s)\n",
                    run.data.decode_ips, run.data.decode_workers);
    std::printf("matmul ceiling (oneDNN sgemm 2048^3): %.0f GFLOP/s; peak RSS %.0f MB\n\n", run.ceiling, run.rss);
    std::printf("%6s | %-24s | %-15s | %-17s | %s\n", "batch", "train images/s", "step ms med/p90", "GFLOP/s (ceiling)",
                "inference images/s");
    for (const Row& r : rows) {
        char ips[64];
        std::snprintf(ips, sizeof ips, "%.0f [%.0f..%.0f]", r.fit.ips(), r.fit.ips_min(), r.fit.ips_max());
        double g = r.fit.ips() * run.train_flops / 1e9;
        std::printf("%6lld | %-24s | %6.2f / %6.2f | %5.0f (%4.0f%%)     | %.0f\n", (long long)r.batch, ips,
                    percentile(r.fit.step_ms, 0.5), percentile(r.fit.step_ms, 0.9), g, 100 * g / run.ceiling,
                    r.infer_ips);
    }
}

}  // namespace

int main(int argc, char** argv) {
    CommonOptions o{.epochs = 2, .project = std::string(LF_SOURCE_DIR) + "/resources/templates/fashion_cnn.lfproj"};
    std::int64_t limit = 12000;
    std::optional<lf::Precision> precision;
    std::optional<std::string> data_dir;
    const int stop = parse_options(argc, argv, usage, [&](const std::string& a, auto& value) {
        if (a == "--limit") limit = std::stoll(value());
        else if (a == "--data") data_dir = value();
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
        if (data_dir) proj.dataset.path = *data_dir;
        const TemplateData data = load_template_data(proj, limit);
        const double train_flops = 3.0 * double(lf::Model::shapes_only(proj.graph).analysis().flops);
        const double ceiling = sgemm_gflops();
        const std::vector<Row> rows = measure(proj, data, batches, epochs);
        const Run run{proj, data, epochs, train_flops, ceiling, peak_rss_mb()};
        json ? print_json(run, rows) : print_table(run, rows);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_cnn: %s\n", e.what());
        return 1;
    }
    return 0;
}
