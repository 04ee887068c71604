#pragma once
// Per-sample tensor shapes in Keras notation: the batch dimension is implicit.
#include <cstdint>
#include <string>
#include <vector>

namespace lf {

using Dim = std::int64_t;

struct Shape {
    std::vector<Dim> dims;  // without the batch dimension, channels last

    Shape() = default;
    Shape(std::initializer_list<Dim> d) : dims(d) {}
    explicit Shape(std::vector<Dim> d) : dims(std::move(d)) {}

    std::size_t rank() const { return dims.size(); }
    Dim operator[](std::size_t i) const { return dims[i]; }
    Dim elements() const;                    // product of dims (1 for rank 0); checked, see checked.h
    std::string str() const;                 // "(?, 28, 28, 1)"
    bool operator==(const Shape&) const = default;
};

}  // namespace lf
