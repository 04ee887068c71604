#include "layerforge/core/precision.h"

#include <iterator>

namespace lf {

namespace {

constexpr const char* kNames[] = {"float32", "mixed_bfloat16", "mixed_float16"};
static_assert(std::size(kNames) == std::size(kPrecisions), "one name per Precision");

}  // namespace

const char* to_string(Precision p) { return kNames[std::size_t(p)]; }

std::optional<Precision> parse_precision(std::string_view text) {
    for (Precision p : kPrecisions)
        if (text == to_string(p)) return p;
    return std::nullopt;
}

std::string precision_choices() {
    std::string out;
    for (Precision p : kPrecisions) out += (out.empty() ? "" : " or ") + std::string(to_string(p));
    return out;
}

const char* to_string(DType t) { return t == DType::BFloat16 ? "bfloat16" : t == DType::Float16 ? "float16" : "float32"; }

}  // namespace lf
