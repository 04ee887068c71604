// ONNX import and the auto-layout of imported graphs, timed: resnet18 (45 MB of weights) should
// import in under 2 s and densenet121 (~430 layers) lay out in under 1 s (issue 22). Prints the
// figures; goals are reported, never asserted.
//   bench/make_import_models.py DIR && build/bench/bench_import DIR/resnet18.onnx DIR/densenet121.onnx
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

#include "layerforge/core/error.h"
#include "layerforge/graph/layout.h"
#include "layerforge/import/import.h"

namespace {

// The median of `runs` timings of `f`, in seconds.
double median_seconds(int runs, const std::function<void()>& f) {
    std::vector<double> t;
    for (int i = 0; i < runs; ++i) {
        const auto start = std::chrono::steady_clock::now();
        f();
        t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: bench_import RESNET18.onnx DENSENET121.onnx\n");
        return 2;
    }
    try {
        lf::ImportedModel resnet;
        const double import_s = median_seconds(3, [&] { resnet = lf::import_model_file(argv[1]); });
        std::printf("resnet18 import: %.3f s median of 3 (%zu layers; goal < 2 s)\n", import_s, resnet.graph.nodes.size());
        lf::ImportedModel dense;
        const double dense_s = median_seconds(1, [&] { dense = lf::import_model_file(argv[2]); });
        std::printf("densenet121 import: %.3f s (%zu layers)\n", dense_s, dense.graph.nodes.size());
        const double wrapped = median_seconds(5, [&] { lf::wrapped_layout(dense.graph, 1600, 900); });
        const double layered = median_seconds(5, [&] { lf::layered_layout(dense.graph, lf::LayoutDirection::LeftToRight); });
        std::printf("densenet121 layout: wrapped %.1f ms, layered %.1f ms, median of 5 (goal < 1 s)\n", wrapped * 1e3,
                    layered * 1e3);
    } catch (const lf::Error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
    return 0;
}
