// Run-store disk use during a run: N checkpoints of SIZE MB with --keep K, metrics appended
// between them and a second connection reading the store after each save (as the studio does).
// Prints the store's size (file + write-ahead log) at its peak and at the end, and their ratio.
//   store_growth [FOLDER] [N=30] [SIZE_MB=1] [KEEP=5]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>

#include "layerforge/store/run_store.h"

namespace {

std::uintmax_t on_disk(const std::string& path) {
    std::error_code ec;
    std::uintmax_t bytes = std::filesystem::file_size(path, ec);
    const std::uintmax_t wal = std::filesystem::file_size(path + "-wal", ec);
    return ec ? bytes : bytes + wal;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string folder = argc > 1 ? argv[1] : ".";
    const int n = argc > 2 ? std::atoi(argv[2]) : 30;
    const double size_mb = argc > 3 ? std::atof(argv[3]) : 1.0;
    const int keep = argc > 4 ? std::atoi(argv[4]) : 5;
    const std::string path = folder + "/store_growth.lfruns";
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
    std::uintmax_t peak = 0;
    {
        lf::RunStore store(path);
        lf::RunStore reader(path, false);
        const std::int64_t run = store.create_run({.name = "growth", .graph = "{}", .settings = "{}"});
        std::mt19937 rng(1);
        std::string blob(std::size_t(size_mb * 1e6), '\0');
        for (int i = 0; i < n; ++i) {
            std::vector<lf::MetricRow> rows;
            for (int s = 0; s < 50; ++s) rows.push_back({run, i * 50 + s, i, "train", "loss", 1.0 / (1 + s), 0});
            store.append_metrics(rows);
            for (char& c : blob) c = char(rng());
            store.save_checkpoint(run, (i + 1) * 50, i, "{}", blob, {.max_to_keep = keep});
            reader.checkpoints(run);
            peak = std::max(peak, on_disk(path));
        }
    }
    const std::uintmax_t final_size = on_disk(path);
    std::printf("store_growth: %d checkpoints of %.1f MB, keep %d\n", n, size_mb, keep);
    std::printf("  peak %.1f MB, final %.1f MB, peak/final %.2f\n", double(peak) / 1e6, double(final_size) / 1e6,
                double(peak) / double(final_size));
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
    return 0;
}
