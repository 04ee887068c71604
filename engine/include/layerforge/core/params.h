#pragma once
// Layer parameters as Keras spells them: Dense(units=100, activation="relu").
#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace lf {

using IntList = std::vector<std::int64_t>;
using ParamValue = std::variant<bool, std::int64_t, double, std::string, IntList>;
using Params = std::map<std::string, ParamValue>;

std::string to_string(const ParamValue& v);  // 100, 0.5, true, "relu", [5, 5]

}  // namespace lf
