// The Keras model-file readers: a zip ("PK" first) as a Keras 3 .keras archive (libzip, then
// HDF5 on its model.weights.h5), anything else as a legacy .h5 (HDF5 from memory), then the
// validator on the imported graph. Crashes inside libhdf5 or libzip themselves are upstream
// findings; ours are any other exception, a leak or undefined behaviour in our code.
#include "fuzz_target.h"
#include "layerforge/graph/analysis.h"
#include "layerforge/import/keras_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string bytes = lf::fuzz::text(data, size);
    try {
        const bool zip = size >= 2 && data[0] == 'P' && data[1] == 'K';
        const lf::ImportedModel m = zip ? lf::read_keras_archive(bytes, "fuzz.keras") : lf::read_keras_h5(bytes, "fuzz.h5");
        lf::analyze(m.graph);
        lf::imported_weights_bytes(m, "fuzz");
    } catch (const lf::Error&) {
    }
    return 0;
}
