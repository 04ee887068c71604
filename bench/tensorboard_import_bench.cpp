// TensorBoard import benchmark: a log folder of 1 million scalar points (10 runs in Keras'
// layout x 4 tags x 25,000 steps, written by the engine's own writer) imported into a fresh run
// store, as `runs import-tensorboard` does. Goal (issue 24): under 5 s. Also times the reading
// alone (framing, CRC-32C, protobuf) and the export of one run back out.
//   tensorboard_import_bench [FOLDER]   (default: the current folder; files are removed afterwards)
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "layerforge/store/run_store.h"
#include "layerforge/tensorboard/event_file.h"
#include "layerforge/tensorboard/log_folder.h"
#include "layerforge/tensorboard/run_exchange.h"

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

constexpr int kRuns = 10, kSteps = 25000;
const char* const kTags[] = {"batch_loss", "batch_accuracy", "batch_learning_rate", "batch_top_5_accuracy"};

std::size_t write_logs(const std::filesystem::path& root) {
    std::size_t points = 0;
    for (int r = 0; r < kRuns; ++r) {
        lf::tensorboard::EventFileWriter w((root / ("run" + std::to_string(r)) / "train").string());
        for (int s = 1; s <= kSteps; ++s) {
            for (const char* tag : kTags) w.add_scalar(tag, s, 1.7e9 + s * 0.01, 1.0 / (1.0 + s * 1e-3 + r));
            points += std::size(kTags);
            if (s % 1000 == 0) w.flush();
        }
        w.flush();
    }
    return points;
}

}  // namespace

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    const fs::path base = argc > 1 ? fs::path(argv[1]) : fs::current_path();
    const fs::path logs = base / "tb_import_bench_logs", store_path = base / "tb_import_bench.lfruns";
    fs::remove_all(logs);
    for (const char* s : {"", "-wal", "-shm"}) fs::remove(store_path.string() + s);

    auto t = Clock::now();
    const std::size_t points = write_logs(logs);
    std::uintmax_t bytes = 0;
    for (const auto& e : fs::recursive_directory_iterator(logs))
        if (e.is_regular_file()) bytes += e.file_size();
    std::printf("wrote %zu points (%d runs x %zu tags x %d steps), %.1f MB of event files: %.2f s\n", points, kRuns,
                std::size(kTags), kSteps, double(bytes) / 1e6, since(t));

    t = Clock::now();
    const lf::tensorboard::LogFolder read = lf::tensorboard::read_log_folder(logs.string());
    std::size_t read_points = 0;
    for (const auto& r : read.runs) read_points += r.points();
    std::printf("read alone: %zu points in %.3f s\n", read_points, since(t));

    t = Clock::now();
    lf::RunStore store(store_path.string());
    const lf::tensorboard::ImportResult result = lf::tensorboard::import_log_folder(store, logs.string());
    const double import_s = since(t);
    std::size_t imported = 0;
    for (const auto& i : result.imported) imported += i.points;
    std::printf("import into a fresh store: %zu runs, %zu points in %.3f s (goal < 5 s: %s)\n", result.imported.size(),
                imported, import_s, import_s < 5.0 && imported == points ? "met" : "MISSED");

    t = Clock::now();
    const auto exported = lf::tensorboard::export_run(store, result.imported.at(0).run, (logs / "exported").string());
    std::printf("export of one run: %zu points in %.3f s\n", exported.points, since(t));

    fs::remove_all(logs);
    for (const char* s : {"", "-wal", "-shm"}) fs::remove(store_path.string() + s);
    return imported == points ? 0 : 1;
}
