#pragma once
// Read-only access to a parsed JSON document that knows where it is: every accessor checks the
// JSON type and reports problems as lf::Error (Input) "<origin>: <json.path>: <problem>".
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "layerforge/core/error.h"
#include "layerforge/core/limits.h"
#include "layerforge/core/params.h"

namespace lf::detail {

using Json = nlohmann::ordered_json;

class JsonView {
public:
    JsonView(const Json& j, std::string path, const std::string& origin)
        : j_(&j), path_(std::move(path)), origin_(&origin) {}

    const Json& json() const { return *j_; }
    const std::string& path() const { return path_; }
    Error error(const std::string& problem) const;

    // Checks that this is an object; with a non-empty `allowed`, rejects any other key.
    void expect_object(std::initializer_list<std::string_view> allowed = {}) const;
    std::optional<JsonView> child(const std::string& key) const;  // nullopt when absent
    JsonView required(const std::string& key, const std::string& hint) const;
    std::size_t array_size() const;  // checks that this is an array
    JsonView element(std::size_t i) const;

    std::string as_string(std::size_t max_bytes = kMaxTextBytes) const;  // checked with text_problem()
    std::int64_t as_int() const;
    double as_number() const;  // integer or floating point
    bool as_bool() const;
    ParamValue as_param() const;

    // Optional fields: leave `out` alone when the key is absent.
    void read(const std::string& key, std::string& out, std::size_t max_bytes = kMaxTextBytes) const;
    void read(const std::string& key, std::int64_t& out) const;
    void read(const std::string& key, double& out) const;
    void read(const std::string& key, bool& out) const;

private:
    Error type_error(const char* expected) const;

    const Json* j_;
    std::string path_;
    const std::string* origin_;
};

}  // namespace lf::detail
