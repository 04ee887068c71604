// Decode + transform + batch throughput of the image pipeline on an image folder, in images/s.
// usage: data_pipeline DIR HEIGHT WIDTH CHANNELS [BATCH=128] [WORKERS=1,2] [REPEATS=3]
// One epoch per measurement, shuffled, no cache; the consumer only takes the batches.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "layerforge/data/pipeline.h"
#include "layerforge/data/scan.h"

int main(int argc, char** argv) {
    if (argc < 5) {
        std::fprintf(stderr, "usage: %s DIR HEIGHT WIDTH CHANNELS [BATCH] [WORKERS,...] [REPEATS]\n", argv[0]);
        return 2;
    }
    const lf::FolderScan scan = lf::scan_image_folder(argv[1]);
    std::vector<lf::LabeledFile> files = scan.train;
    files.insert(files.end(), scan.test.begin(), scan.test.end());
    lf::PipelineOptions o;
    o.sample.height = std::atoi(argv[2]);
    o.sample.width = std::atoi(argv[3]);
    o.sample.channels = std::atoi(argv[4]);
    o.batch_size = argc > 5 ? std::atoi(argv[5]) : 128;
    o.shuffle = true;
    o.seed = 1;
    const std::string workers = argc > 6 ? argv[6] : "1,2";
    const int repeats = argc > 7 ? std::atoi(argv[7]) : 3;
    std::stringstream list(workers);
    for (std::string w; std::getline(list, w, ',');) {
        o.workers = std::atoi(w.c_str());
        lf::ImagePipeline pipe(files, scan.class_names, o);
        std::printf("layerforge  images %zu  %dx%dx%d  batch %lld  workers %d:", files.size(), o.sample.height,
                    o.sample.width, o.sample.channels, static_cast<long long>(o.batch_size), o.workers);
        for (int r = 1; r <= repeats; ++r) {
            const auto t0 = std::chrono::steady_clock::now();
            pipe.start_epoch(r);
            std::int64_t n = 0;
            for (lf::BatchView b = pipe.next(); b.count; b = pipe.next()) n += b.count;
            const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            std::printf("  %.0f", double(n) / dt);
        }
        std::printf("  images/s\n");
        std::fflush(stdout);
    }
    return 0;
}
