#include "layerforge/core/checked.h"

#include <string>

#include "layerforge/core/error.h"

namespace lf {

void throw_size_overflow(const char* op, std::int64_t a, std::int64_t b) {
    throw input_error("shape too large: " + std::to_string(a) + " " + op + " " + std::to_string(b) +
                      " does not fit in 64 bits; use smaller sizes");
}

std::int64_t check_elements(std::int64_t elements) {
    if (elements > kMaxShapeElements)
        throw input_error("shape too large: " + std::to_string(elements) + " values per sample, more than 2^40; use smaller sizes");
    return elements;
}

}  // namespace lf
