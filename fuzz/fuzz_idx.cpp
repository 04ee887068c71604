// The IDX reader. Input layout: a little-endian u32 L, then L bytes of the images file, then the
// labels file (fuzz/make_corpus.py writes seeds this way). Both are read from disk, as in use.
#include <algorithm>

#include "fuzz_target.h"
#include "layerforge/data/dataset.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 4) return 0;
    std::size_t split = std::size_t(data[0]) | std::size_t(data[1]) << 8 | std::size_t(data[2]) << 16 |
                        std::size_t(data[3]) << 24;
    split = std::min(split, size - 4);
    const std::string images = lf::fuzz::write_temp("images", data + 4, split);
    const std::string labels = lf::fuzz::write_temp("labels", data + 4 + split, size - 4 - split);
    try {
        lf::read_idx_pair(images, labels);
    } catch (const lf::Error&) {
    }
    return 0;
}
