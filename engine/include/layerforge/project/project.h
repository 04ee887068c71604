#pragma once
// A project file (*.lfproj, JSON): the model graph, the dataset binding and the training
// configuration. Loading validates the document's structure and names the offending field;
// graph semantics (cycles, shapes) are checked by analyze() in graph/analysis.h.
#include <cstdint>
#include <string>
#include <vector>

#include "layerforge/core/params.h"
#include "layerforge/core/precision.h"
#include "layerforge/graph/graph.h"

namespace lf {

inline constexpr int kProjectVersion = 1;

struct DatasetBinding {
    std::string kind = "fashion-mnist";  // "fashion-mnist" | "image-folder"
    std::string path;                    // empty: the Debian package's install path
    double validation_split = 0.0;       // fraction of the training split held out (0: none)
    std::string validation = "test";     // data for per-epoch validation: "test" | "split" | "none"
    std::int64_t limit_train = 0;        // use only the first N training samples (0: all)
    std::int64_t limit_test = 0;
    std::vector<std::string> classes;    // image-folder: class names in label order (from the first scan)
    // image-folder pipeline: resize ("stretch" | "crop" | "pad"), normalize ("scale" | "standardize"),
    // flip, translate, rotate, brightness, contrast (augmentation), shuffle_buffer, workers,
    // prefetch, cache ("none" | "memory" | "file"), drop_remainder, alpha_background ([r, g, b]).
    Params image;
    bool operator==(const DatasetBinding&) const = default;
};

struct NamedConfig {  // an optimizer, a schedule, a callback: a type name and parameters
    std::string type;
    Params params;
    bool operator==(const NamedConfig&) const = default;
};

struct TrainingConfig {
    NamedConfig optimizer{"Adam", {{"learning_rate", 1e-3}}};
    std::string loss = "SparseCategoricalCrossentropy";
    Params loss_params;                       // e.g. from_logits
    std::vector<std::string> metrics{"accuracy"};
    NamedConfig schedule{"constant", {}};     // constant | step_decay | exponential_decay | cosine_decay
    std::int64_t batch_size = 50;
    std::int64_t epochs = 5;
    std::int64_t seed = 42;
    bool shuffle = true;
    std::vector<NamedConfig> callbacks;       // EarlyStopping, ReduceLROnPlateau
    std::int64_t memory_limit_mb = 0;         // 0: none; a plan whose estimate exceeds it is refused
    // The GPU memory policy (tf.config's memory growth / memory_limit): 0 grows on demand (the
    // default, left out of the file), else a run never holds more than this many MiB on a GPU.
    std::int64_t gpu_memory_limit_mib = 0;
    // The weights file a new run starts from (relative to the project): an imported network's
    // NAME.pretrained.safetensors. Empty: the initialisers and the seed. Never written by training,
    // so every run of the project starts from the same weights.
    std::string initial_weights;
    // The precision policy of every plan a run builds (training, evaluation, prediction):
    // "precision": "float32" (the default, left out of the file), "mixed_bfloat16" or
    // "mixed_float16" (GPUs, with dynamic loss scaling).
    Precision precision = Precision::Float32;
    bool operator==(const TrainingConfig&) const = default;
};

struct Project {
    int version = kProjectVersion;
    std::string name;
    Graph graph;
    DatasetBinding dataset;
    TrainingConfig training;
    bool operator==(const Project&) const = default;
};

// Throws lf::Error (ErrorKind::Input) naming the file and the JSON path of a bad field.
Project load_project(const std::string& path);
Project parse_project(const std::string& json_text, const std::string& origin = "<memory>");
std::string serialize_project(const Project& p);  // stable, pretty-printed JSON
void save_project(const Project& p, const std::string& path);  // atomic: temp file + rename

}  // namespace lf
