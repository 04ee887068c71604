#pragma once
// The ONNX reader behind model_formats(): file, checker, conversion (onnx_convert.h).
#include <string>

#include "layerforge/import/import.h"

namespace lf {

// Throws lf::Error (Input) naming the file, and the nodes, for a file it cannot import.
ImportedModel read_onnx_model(const std::string& path);

// The same from bytes already read (the fuzz target); external data is looked for in `model_dir`.
ImportedModel read_onnx_bytes(const std::string& bytes, const std::string& origin, const std::string& model_dir);

}  // namespace lf
