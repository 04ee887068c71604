// The tf.keras model-config importer (model.to_json()) and the validator on its graph.
#include "fuzz_target.h"
#include "layerforge/graph/analysis.h"
#include "layerforge/project/keras_import.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        lf::analyze(lf::import_keras_model(lf::fuzz::text(data, size), "fuzz.json"));
    } catch (const lf::Error&) {
    }
    return 0;
}
