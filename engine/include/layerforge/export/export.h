#pragma once
// Exporting a trained model: ONNX, safetensors, generated PyTorch and tf.keras code. One
// implementation behind `layerforge-cli export` and the studio's export dialog. Lives in the
// separate static library lf_export (layerforge::export) so only its users link libonnx.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "layerforge/core/precision.h"
#include "layerforge/graph/model.h"

namespace lf {

struct DatasetBinding;

enum class ExportFormat { Onnx, Safetensors, PyTorch, Keras };
enum class InputLayout { NHWC, NCHW };  // how ONNX takes image inputs (and gives image outputs)

inline constexpr int kMinOnnxOpset = 13;
inline constexpr int kMaxOnnxOpset = 17;  // the newest Debian's libonnx 1.12 checks

struct ExportOptions {
    ExportFormat format = ExportFormat::Onnx;
    int opset = kMinOnnxOpset;               // ONNX only
    InputLayout layout = InputLayout::NHWC;  // ONNX only; PyTorch and Keras code take NHWC like the studio
    bool fold_batchnorm = false;             // ONNX and PyTorch: fold BatchNormalization into the Conv2D/Dense before it
    bool force = false;                      // overwrite existing files
    // Safetensors only: BFloat16 writes every weight rounded to bfloat16 ("BF16", to nearest,
    // ties to even), half the bytes; the other formats take float32 weights only.
    DType dtype = DType::Float32;
};

// What travels with every format besides the graph and its weights.
struct ExportMetadata {
    std::vector<std::string> classes;  // in label order
    std::vector<float> mean, std;      // per channel, applied after scaling pixels to [0, 1]; empty: none
    std::string source;                // where the weights came from: "run 3 ckpt-1200", a path
};

// Class names and normalisation from the weights' safetensors metadata ("classes", "mean",
// "std", as training writes them), falling back on the binding's class list.
ExportMetadata export_metadata(const DatasetBinding& binding, const std::map<std::string, std::string>& weights_meta);

// "float32" | "bfloat16"; throws lf::Error (Input) naming the choices.
DType parse_export_dtype(const std::string& name);

// "onnx" | "safetensors" | "pytorch" | "keras"; throws lf::Error (Input) naming the choices.
ExportFormat parse_export_format(const std::string& name);
const char* to_string(ExportFormat f);

// The file names (inside the output folder) an export writes, main file first.
std::vector<std::string> export_file_names(ExportFormat f);

// Layers the format has no mapping for, as "name (Type)" or "name (Type, activation 'gelu')".
std::vector<std::string> unmapped_layers(const Model& m, const ExportOptions& options);

// Writes the export into `out_dir` (created when missing) and returns the written paths.
// Before anything is written, throws lf::Error (Input) naming every unmapped layer, a bad
// opset, a bfloat16 dtype for a format other than safetensors, or the files that already exist
// when options.force is false. ONNX output is checked
// with onnx::checker and strict shape inference before it is written.
std::vector<std::string> export_model(const Model& m, const ExportMetadata& meta, const ExportOptions& options,
                                      const std::string& out_dir);

}  // namespace lf
