#include "layerforge/core/shape.h"

#include "layerforge/core/checked.h"

namespace lf {

Dim Shape::elements() const {
    Dim n = 1;
    for (Dim d : dims) n = mul_size(n, d);
    return check_elements(n);
}

std::string Shape::str() const {
    std::string s = "(?";
    for (Dim d : dims) s += ", " + std::to_string(d);
    return s + ")";
}

}  // namespace lf
