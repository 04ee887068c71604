// The safetensors reader and checkpoint restore into a small model (weights only, then a full
// resume with optimizer state), as the checkpoint browser and `--resume` do.
#include <memory>

#include "fuzz_target.h"
#include "layerforge/graph/model.h"
#include "layerforge/store/checkpoint.h"
#include "layerforge/store/weights_file.h"
#include "layerforge/train/optimizer.h"

namespace {

lf::Graph small_mlp() {  // Input(4) -> Dense(3) -> Softmax: weight names dense/kernel, dense/bias
    lf::Graph g;
    g.nodes.push_back({"input", "Input", "input", {{"shape", lf::IntList{4}}}, 0, 0});
    g.nodes.push_back({"dense", "Dense", "dense", {{"units", std::int64_t{3}}}, 0, 0});
    g.nodes.push_back({"softmax", "Softmax", "softmax", {}, 0, 0});
    g.edges.push_back({{"input", 0}, {"dense", 0}});
    g.edges.push_back({{"dense", 0}, {"softmax", 0}});
    return g;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static lf::Model model(small_mlp());
    const std::string blob = lf::fuzz::text(data, size);
    try {
        lf::parse_safetensors(blob, "fuzz.safetensors");
    } catch (const lf::Error&) {
    }
    try {
        lf::restore_checkpoint_weights(model, blob, "fuzz ckpt", true);
    } catch (const lf::Error&) {
    }
    try {
        auto opt = lf::make_optimizer("Adam", {});
        opt->bind(model.weights().size());
        lf::restore_checkpoint(model, *opt, blob, "fuzz ckpt");
    } catch (const lf::Error&) {
    }
    return 0;
}
