#pragma once
// InferenceGraph -> model.py (an nn.Module taking NHWC input like the studio, and load_model())
// plus its state_dict as safetensors, read by a small reader inside model.py (no extra package).
#include <string>

#include "export/inference_graph.h"

namespace lf::exporter {

struct PyTorchExport {
    std::string code;     // model.py
    std::string weights;  // safetensors bytes, state_dict keys ("conv_1.weight")
};

PyTorchExport write_pytorch(const InferenceGraph& g, const ExportMetadata& meta, const std::string& weights_file);

}  // namespace lf::exporter
