// Fine-tuning's step cost: one training step (forward, loss, backward, optimizer update) of a
// resnet-like model built from the engine's layers, all trainable against the backbone frozen
// (trainable: false up to the last residual block) with only the new head training, and the
// inference forward for reference. Variants alternate in rounds (A B A B ...) so load changes on
// a shared machine hit both alike; each reports the median over rounds.
//
// With --onnx FILE the network is an imported one instead (e.g. torchvision's resnet18 written by
// bench/make_import_models.py): its head is replaced after the layer feeding the global pooling
// by Dense(3, softmax), and that layer and everything before it is the backbone.
//
// Usage: bench_freeze [--batch 32] [--size 64] [--blocks 2] [--steps 5] [--rounds 5] [--threads N]
//                     [--onnx FILE]
// Data are random inputs and labels: the work per step does not depend on the values.
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <random>

#include "layerforge/core/error.h"
#include "layerforge/graph/fine_tune.h"
#include "layerforge/import/import.h"

#include "bench_common.h"
#include "training_rig.h"

namespace {

using namespace bench;
using lf::IntList;

struct Builder {
    lf::Graph g;
    std::string add(const std::string& type, lf::Params p, const std::vector<std::string>& in) {
        const std::string id = type + "_" + std::to_string(g.nodes.size());
        g.nodes.push_back({.id = id, .type = type, .name = id, .params = std::move(p)});
        for (std::size_t i = 0; i < in.size(); ++i) g.edges.push_back({{in[i], 0}, {id, int(i)}});
        return id;
    }
    std::string conv_bn(const std::string& in, std::int64_t filters, std::int64_t k, std::int64_t stride) {
        auto c = add("Conv2D", {{"filters", filters}, {"kernel_size", IntList{k, k}}, {"strides", IntList{stride, stride}},
                                {"padding", std::string("same")}, {"use_bias", false}}, {in});
        return add("BatchNormalization", {}, {c});
    }
};

// resnet18's shape at a small scale: a stem, then per stage `blocks` basic blocks (conv-BN-relu-
// conv-BN + shortcut, relu), stages of 32, 64, 128, 256 filters, the first block of each later
// stage with stride 2 and a 1x1 projection; GlobalAveragePooling2D; Dense(3, softmax).
// `backbone_end` gets the last block's output.
lf::Graph resnet_like(std::int64_t size, int blocks, std::string& backbone_end) {
    Builder b;
    std::string x = b.add("Input", {{"shape", IntList{size, size, 3}}}, {});
    x = b.add("ReLU", {}, {b.conv_bn(x, 32, 3, 1)});
    std::int64_t filters = 32;
    for (int stage = 0; stage < 4; ++stage, filters *= 2)
        for (int i = 0; i < blocks; ++i) {
            const std::int64_t stride = stage > 0 && i == 0 ? 2 : 1;
            auto y = b.add("ReLU", {}, {b.conv_bn(x, filters, 3, stride)});
            y = b.conv_bn(y, filters, 3, 1);
            const std::string shortcut = stride == 1 ? x : b.conv_bn(x, filters, 1, stride);
            x = b.add("ReLU", {}, {b.add("Add", {}, {y, shortcut})});
        }
    backbone_end = x;
    auto pool = b.add("GlobalAveragePooling2D", {}, {x});
    b.add("Dense", {{"units", std::int64_t(3)}, {"activation", std::string("softmax")}}, {pool});
    return b.g;
}

// An imported network with its head replaced for 3 classes; `backbone_end` feeds its global pooling.
lf::Graph imported(const std::string& path, std::string& backbone_end) {
    const lf::ImportedModel m = lf::import_model_file(path);
    for (const lf::Node& n : m.graph.nodes)
        if (n.type == "GlobalAveragePooling2D") backbone_end = m.graph.inputs_of(n.id).at(0).from.node;
    if (backbone_end.empty()) throw lf::Error(lf::ErrorKind::Input, path + ": no GlobalAveragePooling2D to cut before");
    return lf::replace_head(m.graph, backbone_end, 3).graph;
}

struct Round {
    double step = 0, inference = 0;  // ms
};

class Variant {
public:
    Variant(lf::Graph g, std::int64_t batch)
        : rig_(std::move(g), batch, true, "SparseCategoricalCrossentropy", {}, "Adam", {}) {}

    const lf::Model& model() const { return rig_.model; }
    std::size_t backward_kernels() const {
        std::size_t n = 0;
        for (const auto& [node, impl] : rig_.plan->kernels()) n += impl.find(" / ") != std::string::npos;
        return n;
    }

    Round run(int steps) {
        Round r;
        auto t = Clock::now();
        for (int s = 0; s < steps; ++s) rig_.train_step();
        r.step = ms_since(t) / steps;
        t = Clock::now();
        for (int s = 0; s < steps; ++s) rig_.infer->forward();
        r.inference = ms_since(t) / steps;
        return r;
    }

private:
    TrainingRig rig_;
};

void usage() {
    std::fprintf(stderr, "usage: bench_freeze [--batch N] [--size N] [--blocks N] [--steps N] [--rounds N] [--threads N] "
                         "[--onnx FILE]\n");
}

double median(std::vector<double> v) { return percentile(std::move(v), 0.5); }

}  // namespace

int main(int argc, char** argv) {
    std::int64_t batch = 32, size = 64;
    int blocks = 2, steps = 5, rounds = 5, threads = 0;
    std::string onnx;
    const int stop = parse_options(argc, argv, usage, [&](const std::string& a, auto& value) {
        if (a == "--batch") batch = std::stoll(value());
        else if (a == "--size") size = std::stoll(value());
        else if (a == "--blocks") blocks = std::stoi(value());
        else if (a == "--steps") steps = std::stoi(value());
        else if (a == "--rounds") rounds = std::stoi(value());
        else if (a == "--threads") threads = std::stoi(value());
        else if (a == "--onnx") onnx = value();
        else return false;
        return true;
    });
    if (stop >= 0) return stop;
    if (threads > 0) omp_set_num_threads(threads);
    try {
        std::string end;
        const lf::Graph all = onnx.empty() ? resnet_like(size, blocks, end) : imported(onnx, end);
        lf::Graph frozen = all;
        for (const std::string& id : lf::nodes_up_to(frozen, end)) frozen.find(id)->trainable = false;
        Variant a(all, batch), f(frozen, batch);
        a.run(1), f.run(1);  // warm-up: first-touch pages, oneDNN's caches
        std::vector<double> a_step, f_step, a_inf, f_inf;
        for (int r = 0; r < rounds; ++r) {
            const Round ra = a.run(steps), rf = f.run(steps);
            a_step.push_back(ra.step), f_step.push_back(rf.step);
            a_inf.push_back(ra.inference), f_inf.push_back(rf.inference);
        }
        const lf::Shape in = a.model().info(a.model().input_node()).layer.output;
        std::printf("%s (%zu layers, %lld params), input %s, batch %lld, OpenMP threads %d, %d rounds of %d steps; "
                    "ms, median over rounds\n",
                    onnx.empty() ? ("resnet-like, " + std::to_string(blocks) + " blocks per stage").c_str() : onnx.c_str(),
                    all.nodes.size(), (long long)a.model().analysis().total_params, in.str().c_str(), (long long)batch,
                    omp_get_max_threads(), rounds, steps);
        std::printf("%-18s | %12s | %12s | %16s | %s\n", "variant", "train step", "inference", "trainable params",
                    "kernels with a backward");
        std::printf("%-18s | %12.1f | %12.1f | %16lld | %zu\n", "all trainable", median(a_step), median(a_inf),
                    (long long)a.model().analysis().trainable_params, a.backward_kernels());
        std::printf("%-18s | %12.1f | %12.1f | %16lld | %zu\n", "backbone frozen", median(f_step), median(f_inf),
                    (long long)f.model().analysis().trainable_params, f.backward_kernels());
        std::vector<double> ratio;  // per round: the two variants ran back to back
        for (int r = 0; r < rounds; ++r) ratio.push_back(a_step[std::size_t(r)] / f_step[std::size_t(r)]);
        std::printf("frozen backbone: %.2fx faster per step [%.2f..%.2f over rounds]; its step is %.2fx an inference forward\n",
                    median(ratio), *std::min_element(ratio.begin(), ratio.end()), *std::max_element(ratio.begin(), ratio.end()),
                    median(f_step) / median(f_inf));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
    return 0;
}
