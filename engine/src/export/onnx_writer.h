#pragma once
// InferenceGraph -> an ONNX model (onnx::ModelProto), checked with onnx::checker and strict
// shape inference, serialised.
#include <string>

#include "export/inference_graph.h"

namespace lf::exporter {

// Throws lf::Error (Runtime) with the checker's message when the model does not validate.
std::string write_onnx(const InferenceGraph& g, const ExportMetadata& meta, const ExportOptions& options);

}  // namespace lf::exporter
