// The ONNX model import (protobuf parse, onnx::checker, constant folding, conversion to layers)
// and the validator on the graph it returns.
#include "fuzz_target.h"
#include "layerforge/graph/analysis.h"
#include "layerforge/import/import.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        lf::analyze(lf::import_model_file(lf::fuzz::write_temp("model.onnx", data, size)).graph);
    } catch (const lf::Error&) {
    }
    return 0;
}
