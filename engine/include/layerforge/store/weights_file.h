#pragma once
// Tensors in the safetensors layout: an 8-byte little-endian header length, a JSON header
// {name: {dtype, shape, data_offsets}, "__metadata__": {string: string}}, then the raw data:
// float32 ("F32"), or bfloat16 ("BF16") for an export that asks for it. Model weights use Keras
// names and shapes ("dense/kernel", kernel (in, units)); a checkpoint adds optimizer slots and
// training state (store/checkpoint.h). Loading takes F32 and BF16 (widened exactly).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "layerforge/core/precision.h"
#include "layerforge/graph/model.h"

namespace lf {

struct TensorRef {  // a float32 tensor to encode; data is not owned
    std::string name;
    std::vector<std::int64_t> shape;
    const float* data = nullptr;
    std::size_t size = 0;
};

// A tensor's full shape, batch included when it has one: "(784, 100)".
std::string dims_text(const std::vector<std::int64_t>& dims);

// `dtype` BFloat16: every tensor rounded to bfloat16 (to nearest, ties to even; core/bfloat16.h).
std::string encode_safetensors(const std::vector<TensorRef>& tensors,
                               const std::map<std::string, std::string>& metadata = {}, DType dtype = DType::Float32);

// A parsed safetensors buffer; tensors point into the bytes it was parsed from.
struct SafetensorsView {
    struct Tensor {
        std::string dtype;
        std::vector<std::int64_t> shape;
        const char* data = nullptr;
        std::size_t bytes = 0;
    };
    std::map<std::string, std::string> metadata;
    std::map<std::string, Tensor> tensors;
};
// Throws lf::Error (Input) naming the origin when the header or any tensor's offsets are damaged.
SafetensorsView parse_safetensors(const std::string& bytes, const std::string& origin);

// The model's weights as tensors, each name prefixed (e.g. "optimizer/m/").
std::vector<TensorRef> weight_tensors(const Model& m, const float* data, const std::string& prefix = "");
// Every way the model's weights and the tensors under `prefix` disagree, one line each:
// "dense_1/kernel: (784, 128) in the model, (784, 100) saved", "dense_2/bias: not saved",
// "conv/kernel: saved, not in the model". Empty when they match.
std::vector<std::string> weight_differences(const Model& m, const SafetensorsView& v, const std::string& prefix = "");
// Copies the tensors under `prefix` into `dest` (laid out as the model's weights). With
// `partial`, weights that differ are skipped and their names returned; otherwise any difference
// throws lf::Error (Input) listing all of them.
std::vector<std::string> copy_weights(const Model& m, const SafetensorsView& v, float* dest, const std::string& origin,
                                      bool partial = false, const std::string& prefix = "");

std::string encode_weights(const Model& m, const std::map<std::string, std::string>& metadata = {},
                           DType dtype = DType::Float32);
// Loads every weight of the model; throws lf::Error (Input) naming the origin and the tensor
// when one is missing, has another shape or dtype, or the data is damaged.
void decode_weights(Model& m, const std::string& bytes, const std::string& origin);

void save_weights(const Model& m, const std::string& path, const std::map<std::string, std::string>& metadata = {});
void load_weights(Model& m, const std::string& path);
// The string map saved as "__metadata__" (empty when there is none).
std::map<std::string, std::string> read_weights_metadata(const std::string& path);

}  // namespace lf
