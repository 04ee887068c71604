// Run store at scale: builds (once, then reuses) a store of 2,000 runs and about 20 million metric
// rows through RunStore's own API, 20 of the runs 100,000 steps long, and times against the goals
// of issue 24:
//   - `runs list`: RunStore::run_summaries() (what the CLI lists from) and, when the CLI is found,
//     the whole `layerforge-cli runs list PROJECT` process, goal under 0.5 s;
//   - the overlay query: the pre-aggregated levels of the 20 long runs (zoomed out) and a
//     2,000-step window of each read row by row (zoomed in).
// The explorer's model load and sort, and the overlay's frame rate, are timed by
// bench/studio/explorer_bench on the same store.
//   store_scale_bench [--store FILE.lfruns] [--cli PATH] [--rebuild]
//   (default store: /tmp/layerforge_scale/scale.lfruns, beside scale.lfproj)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "layerforge/store/run_store.h"

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

constexpr int kRuns = 2000, kLongRuns = 20;
constexpr std::int64_t kLongSteps = 100000, kShortSteps = 4000, kStepsPerEpoch = 200;

// A run's rows: loss and accuracy per step, epoch means and validation figures per epoch.
std::vector<lf::MetricRow> rows_of(std::int64_t run, std::int64_t steps, double rate, std::mt19937& rng) {
    std::normal_distribution<double> noise(0, 0.05);
    std::vector<lf::MetricRow> rows;
    rows.reserve(std::size_t(steps * 2 + steps / kStepsPerEpoch * 3));
    double t = 1.7e9;
    for (std::int64_t s = 1; s <= steps; ++s) {
        const std::int64_t epoch = 1 + (s - 1) / kStepsPerEpoch;
        const double loss = 2.3 * std::exp(-rate * 300 * double(s) / double(steps)) + 0.1 + noise(rng);
        t += 0.01;
        rows.push_back({run, s, epoch, "train", "loss", loss, t});
        rows.push_back({run, s, epoch, "train", "accuracy", 1 - loss / 2.5, t});
        if (s % kStepsPerEpoch == 0) {
            rows.push_back({run, s, epoch, "epoch", "loss", loss, t});
            rows.push_back({run, s, epoch, "val", "loss", loss * 1.1 + noise(rng), t});
            rows.push_back({run, s, epoch, "val", "accuracy", 1 - loss / 2.4, t});
        }
    }
    return rows;
}

std::string settings_of(double rate, int batch, const char* optimizer, int epochs) {
    char buf[400];
    std::snprintf(buf, sizeof buf,
                  "{\"training\":{\"batch_size\":%d,\"epochs\":%d,\"learning_rate\":%.6g,\"optimizer\":\"%s\"},"
                  "\"data\":{\"validation_split\":0.1}}",
                  batch, epochs, rate, optimizer);
    return buf;
}

std::string graph_of(int units, double dropout) {
    char buf[400];
    std::snprintf(buf, sizeof buf,
                  "{\"nodes\":[{\"id\":\"dense\",\"type\":\"Dense\",\"params\":{\"units\":%d}},"
                  "{\"id\":\"dropout\",\"type\":\"Dropout\",\"params\":{\"rate\":%.2f}}]}",
                  units, dropout);
    return buf;
}

std::int64_t build(const std::string& path) {
    for (const char* ext : {"", "-wal", "-shm"}) std::filesystem::remove(path + ext);
    lf::RunStore store(path);
    std::mt19937 rng(24);
    const char* optimizers[] = {"Adam", "SGD", "RMSprop"};
    const int batches[] = {32, 64, 128};
    std::int64_t rows = 0;
    const auto t0 = Clock::now();
    for (int i = 0; i < kRuns; ++i) {
        const bool long_run = i < kLongRuns;
        const double rate = std::pow(10.0, -4 + 2 * std::uniform_real_distribution<double>(0, 1)(rng));
        const double dropout = 0.1 * double(rng() % 6);
        const std::int64_t steps = long_run ? kLongSteps : kShortSteps;
        lf::RunInfo r{.name = "run-" + std::to_string(i + 1),
                      .graph = graph_of(64 << (rng() % 3), dropout),
                      .settings = settings_of(rate, batches[rng() % 3], optimizers[rng() % 3],
                                              int(steps / kStepsPerEpoch))};
        if (i % 7 == 0) r.tags = {"sweep:lr"};
        if (i % 50 == 0) r.tags.push_back("baseline");
        r.starred = i % 13 == 0;
        if (i % 100 == 99) r.source = "tensorboard:/logs/run" + std::to_string(i);
        if (i % 40 == 0) r.notes = "note of run " + std::to_string(i + 1);
        const std::int64_t id = store.create_run(r);
        const std::vector<lf::MetricRow> batch = rows_of(id, steps, rate * 1000, rng);
        store.append_metrics(batch);  // one transaction per run, summaries and levels included
        rows += std::int64_t(batch.size());
        store.set_status(id, lf::RunStatus::Finished);
        if ((i + 1) % 200 == 0)
            std::printf("  built %d runs, %lld rows (%.0f s)\n", i + 1, (long long)rows, since(t0)), std::fflush(stdout);
    }
    std::printf("built %s: %d runs, %lld metric rows in %.1f s (%.0f rows/s through append_metrics)\n", path.c_str(),
                kRuns, (long long)rows, since(t0), double(rows) / since(t0));
    return rows;
}

// Best of `reps`, and the first (the store just opened).
template <class F>
std::pair<double, double> timed(int reps, F f) {
    double best = 1e9, first = 0;
    for (int i = 0; i < reps; ++i) {
        const auto t = Clock::now();
        f();
        const double s = since(t);
        if (i == 0) first = s;
        best = std::min(best, s);
    }
    return {first, best};
}

const char* verdict(double seconds, double goal) { return seconds < goal ? "meets" : "MISSES"; }

}  // namespace

int main(int argc, char** argv) {
    std::string path = "/tmp/layerforge_scale/scale.lfruns", cli;
    bool rebuild = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--store" && i + 1 < argc) path = argv[++i];
        else if (a == "--cli" && i + 1 < argc) cli = argv[++i];
        else if (a == "--rebuild") rebuild = true;
        else {
            std::fprintf(stderr, "usage: store_scale_bench [--store FILE.lfruns] [--cli PATH] [--rebuild]\n");
            return 2;
        }
    }
    if (cli.empty()) {  // the build tree's CLI, beside bench/
        const std::filesystem::path guess = std::filesystem::path(argv[0]).parent_path() / ".." / "app" / "layerforge-cli";
        if (std::filesystem::exists(guess)) cli = guess.string();
    }
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    bool reuse = !rebuild && std::filesystem::exists(path);
    if (reuse) {
        try {
            lf::RunStore probe(path, false);
            reuse = probe.runs().size() == std::size_t(kRuns);
        } catch (const std::exception&) {
            reuse = false;
        }
    }
    if (!reuse) build(path);
    else std::printf("reusing %s (--rebuild builds it again)\n", path.c_str());

    lf::RunStore store(path, false);
    std::size_t runs = 0, metrics = 0;
    const auto [first, best] = timed(5, [&] {
        const std::vector<lf::RunSummary> all = store.run_summaries();
        runs = all.size();
        metrics = 0;
        for (const lf::RunSummary& s : all) metrics += s.final_metrics().size();
    });
    std::printf("run_summaries(): %zu runs, %zu final metrics: first %.3f s, best of 5 %.3f s  (goal < 0.5 s: %s)\n",
                runs, metrics, first, best, verdict(best, 0.5));

    if (!cli.empty()) {
        const std::string project = (std::filesystem::path(path).parent_path() /
                                     (std::filesystem::path(path).stem().string() + ".lfproj")).string();
        const std::string cmd = "'" + cli + "' runs list '" + project + "' > /dev/null";
        int rc = 0;
        const auto [cfirst, cbest] = timed(3, [&] { rc = std::system(cmd.c_str()); });
        std::printf("layerforge-cli runs list (whole process, %d runs): first %.3f s, best of 3 %.3f s  (goal < 0.5 s: %s)%s\n",
                    kRuns, cfirst, cbest, verdict(cbest, 0.5), rc == 0 ? "" : "  [the command FAILED]");
    } else {
        std::printf("layerforge-cli not found (give --cli PATH): the process was not timed\n");
    }

    std::size_t level_points = 0, window_rows = 0;
    const auto [lfirst, lbest] = timed(5, [&] {
        level_points = 0;
        for (std::int64_t run = 1; run <= kLongRuns; ++run)
            level_points += store.metric_levels(run, "train", "loss").size() * 2;
    });
    std::printf("overlay zoomed out: levels of %d runs x %lld steps (%zu points): first %.4f s, best %.4f s\n", kLongRuns,
                (long long)kLongSteps, level_points, lfirst, lbest);
    const auto [wfirst, wbest] = timed(5, [&] {
        window_rows = 0;
        for (std::int64_t run = 1; run <= kLongRuns; ++run)
            window_rows += store.metrics_between(run, "train", "loss", 50000, 51999).size();
    });
    std::printf("overlay zoomed in: 2,000-step window of %d runs (%zu rows): first %.4f s, best %.4f s\n", kLongRuns,
                window_rows, wfirst, wbest);
    const auto [ffirst, fbest] = timed(1, [&] {
        window_rows = 0;
        for (std::int64_t run = 1; run <= kLongRuns; ++run) window_rows += store.metrics_between(run, "train", "loss", 0, kLongSteps).size();
    });
    (void)ffirst;
    std::printf("for scale, every row of the %d long runs' loss (%zu rows): %.3f s\n", kLongRuns, window_rows, fbest);
    return 0;
}
