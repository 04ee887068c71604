#include "layerforge/core/shape.h"

namespace lf {

Dim Shape::elements() const {
    Dim n = 1;
    for (Dim d : dims) n *= d;
    return n;
}

std::string Shape::str() const {
    std::string s = "(?";
    for (Dim d : dims) s += ", " + std::to_string(d);
    return s + ")";
}

}  // namespace lf
