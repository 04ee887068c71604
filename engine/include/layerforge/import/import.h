#pragma once
// Import of a pretrained network from another framework's file (ONNX; Keras .keras and .h5):
// the graph as ordinary Layerforge layers, channels last, with the file's weights in Keras
// layouts, and a report of what was converted. Nothing is written until every node and weight
// converted; a bad file throws lf::Error (Input) naming the file and the node.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "layerforge/graph/graph.h"

namespace lf {

struct ImportedTensor {
    std::vector<std::int64_t> shape;  // Keras layout, e.g. a Conv2D kernel (kh, kw, in, out)
    std::vector<float> values;
};

struct ImportedModel {
    Graph graph;                                   // original layer names kept, laid out
    std::map<std::string, ImportedTensor> weights;  // by weight name: "<layer name>/kernel"
    std::vector<std::string> conversions;          // one line each: "Conv+Clip(0,6) -> Conv2D + ReLU(max_value=6)"
    // The input normalisation the source framework's model expects: "unit" ([0, 1]),
    // "imagenet" (torchvision mean/std), "symmetric" ([-1, 1]); empty when the file does not say.
    std::string normalization;
    std::string source;  // what read it: "ONNX opset 13 (pytorch 1.13.1)", "Keras 3 .keras"
};

// One file format an import reads.
struct ModelFormat {
    std::string_view name;                     // "ONNX"
    std::vector<std::string_view> extensions;  // ".onnx"
    ImportedModel (*read)(const std::string& path);
};
const std::vector<ModelFormat>& model_formats();

// Reads a model file in any of model_formats(), chosen by its extension.
ImportedModel import_model_file(const std::string& path);

// Checks that the weights match the graph exactly (every weight present, of its shape, none
// left over: each difference one line, all of them in one lf::Error) and returns them encoded
// as the project's weights file.
std::string imported_weights_bytes(const ImportedModel& m, const std::string& origin);

// Writes PROJECT_PATH (.lfproj, named after its file), its weights file beside it
// (NAME.weights.safetensors, what Evaluate, Predict and Export read) and the same weights as the
// project's initial weights (NAME.pretrained.safetensors, training.initial_weights: where every
// new run starts), as one file set: all or none.
void write_imported_project(const ImportedModel& m, const std::string& project_path);
// The three files it writes: the project, its weights, its initial weights.
std::vector<std::string> imported_project_files(const std::string& project_path);

}  // namespace lf
