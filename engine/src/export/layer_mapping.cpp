#include "export/layer_mapping.h"

#include <cstring>

#include "layerforge/core/error.h"
#include "layerforge/layers/registry.h"

namespace lf::exporter {

namespace {

// GELU has no ONNX mapping yet (GELU is an opset-20 op; Debian's ONNX stops at 17).
constexpr LayerMapping kTable[] = {
    {"Input", "Input", "Transpose (NHWC input)"},
    {"Dense", "Dense", "Gemm"},
    {"Conv2D", "Conv2D", "Conv"},
    {"DepthwiseConv2D", "DepthwiseConv2D", "Conv (group = channels)"},
    {"Conv2DTranspose", "Conv2DTranspose", "ConvTranspose (+ Slice when the cropping is uneven)"},
    {"MaxPool2D", "MaxPool2D", "MaxPool"},
    {"AveragePooling2D", "AveragePooling2D", "AveragePool"},
    {"GlobalAveragePooling2D", "GlobalAveragePooling2D", "GlobalAveragePool + Flatten"},
    {"GlobalMaxPooling2D", "GlobalMaxPooling2D", "GlobalMaxPool + Flatten"},
    {"Flatten", "Flatten", "Flatten (Dense rows permuted) or Transpose + Flatten"},
    {"Reshape", "Reshape", "Transpose + Reshape"},
    {"ZeroPadding2D", "ZeroPadding2D", "Pad"},
    {"Dropout", "Dropout", "(removed)"},
    {"BatchNormalization", "BatchNormalization", "BatchNormalization or folded into Conv/Gemm"},
    {"Add", "Add", "Add"},
    {"Concatenate", "Concatenate", "Concat"},
    {"Multiply", "Multiply", "Mul"},
    {"Activation", "Activation", "(by activation)"},
    {"ReLU", "ReLU", "Relu / LeakyRelu (capped or thresholded: + Sub, Sign, Mul, Add)"},
    {"LeakyReLU", "LeakyReLU", "LeakyRelu"},
    {"Sigmoid", "Activation", "Sigmoid"},
    {"Tanh", "Activation", "Tanh"},
    {"Softmax", "Softmax", "Softmax"},
    {"GELU", "Activation", nullptr},
};

struct ActivationOp {
    const char* keras;
    const char* op;
};
constexpr ActivationOp kActivations[] = {
    {"linear", "Identity"}, {"relu", "Relu"},  {"sigmoid", "Sigmoid"}, {"tanh", "Tanh"},    {"softmax", "Softmax"},
    {"elu", "Elu"},         {"swish", "Swish"}, {"silu", "Swish"},      {"exponential", "Exp"},
    {"hard_sigmoid", "HardSigmoid"}, {"hard_swish", "HardSwish"}, {"hard_silu", "HardSwish"},
};

bool has_activation_param(const std::string& type) {
    return type == "Dense" || type == "Conv2D" || type == "DepthwiseConv2D" || type == "Conv2DTranspose" ||
           type == "Activation";
}

}  // namespace

bool keras_pooling(const Params& p, const std::string& type) {
    if (type != "MaxPool2D" && type != "AveragePooling2D") return true;
    const bool include_pad = type == "AveragePooling2D" && param_bool(p, "count_include_pad");
    return param_str(p, "padding") != "explicit" && !param_bool(p, "ceil_mode") && !include_pad;
}

const LayerMapping* find_mapping(const std::string& type) {
    for (const auto& m : kTable)
        if (type == m.type) return &m;
    return nullptr;
}

const char* activation_op(const std::string& activation) {
    for (const auto& a : kActivations)
        if (activation == a.keras) return a.op;
    return nullptr;
}

std::vector<std::string> unmapped(const Model& m, ExportFormat format) {
    const bool lowered = format == ExportFormat::Onnx || format == ExportFormat::PyTorch;
    std::vector<std::string> out;
    for (const std::string& id : m.analysis().order) {
        const Node& n = *m.graph().find(id);
        const LayerMapping* map = find_mapping(n.type);
        if (!map || (lowered && !map->onnx_ops)) {
            out.push_back("'" + n.name + "' (" + n.type + ")");
            continue;
        }
        if (format == ExportFormat::Keras && !keras_pooling(m.info(id).params, n.type)) {
            out.push_back("'" + n.name + "' (" + n.type + " with explicit padding, ceil_mode or count_include_pad)");
            continue;
        }
        if (!lowered || !has_activation_param(n.type)) continue;
        const std::string& act = param_str(m.info(id).params, "activation");
        if (!activation_op(act)) out.push_back("'" + n.name + "' (" + n.type + ", activation '" + act + "')");
    }
    return out;
}

void require_mapped(const Model& m, ExportFormat format) {
    const auto missing = unmapped(m, format);
    if (missing.empty()) return;
    std::string list;
    for (const auto& s : missing) list += (list.empty() ? "" : ", ") + s;
    throw input_error(std::string("cannot export to ") + to_string(format) + ": no mapping for " + list +
                      "; replace these layers (nothing was written)");
}

}  // namespace lf::exporter
