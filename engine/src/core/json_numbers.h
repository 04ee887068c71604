#pragma once
// Integers read from files' JSON. nlohmann's get<integer>() converts a floating-point value with
// a plain C++ cast, undefined behaviour when it is out of range (a safetensors header declaring
// an offset of 7.8e43, found by the fuzzer), and wraps an unsigned value above 2^63. These take
// JSON integers in range only and return nullopt for anything else.
#include <cstdint>
#include <limits>
#include <optional>

namespace lf::detail {

template <class Json>
std::optional<std::uint64_t> json_uint64(const Json& j) {
    if (!j.is_number_integer() || (!j.is_number_unsigned() && j.template get<std::int64_t>() < 0)) return std::nullopt;
    return j.template get<std::uint64_t>();
}

template <class Json>
std::optional<std::int64_t> json_int64(const Json& j) {
    if (!j.is_number_integer()) return std::nullopt;
    if (j.is_number_unsigned() && j.template get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
        return std::nullopt;
    return j.template get<std::int64_t>();
}

}  // namespace lf::detail
