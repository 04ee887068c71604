#include "train/param_reader.h"

#include <cmath>
#include <variant>

#include "layerforge/core/error.h"

namespace lf::train_detail {

namespace {

std::string join(std::initializer_list<const char*> names) {
    std::string s;
    for (const char* n : names) s += (s.empty() ? "" : ", ") + std::string(n);
    return s;
}

bool in_range(double v, Range r) {
    switch (r) {
        case Range::Any: return std::isfinite(v);
        case Range::Positive: return v > 0 && std::isfinite(v);
        case Range::NonNegative: return v >= 0 && std::isfinite(v);
        case Range::Open01: return v > 0 && v < 1;
        case Range::ClosedOpen01: return v >= 0 && v < 1;
        case Range::OpenClosed01: return v > 0 && v <= 1;
        case Range::Closed01: return v >= 0 && v <= 1;
    }
    return false;
}

const char* describe(Range r) {
    switch (r) {
        case Range::Any: return "finite";
        case Range::Positive: return "> 0";
        case Range::NonNegative: return ">= 0";
        case Range::Open01: return "in (0, 1)";
        case Range::ClosedOpen01: return "in [0, 1)";
        case Range::OpenClosed01: return "in (0, 1]";
        case Range::Closed01: return "in [0, 1]";
    }
    return "";
}

}  // namespace

ParamReader::ParamReader(std::string owner, const Params& params, std::initializer_list<const char*> known)
    : owner_(std::move(owner)), params_(params) {
    for (const auto& [key, value] : params_) {
        bool ok = false;
        for (const char* k : known) ok = ok || key == k;
        if (!ok) {
            std::string valid = known.size() ? join(known) : "none";
            throw input_error(owner_ + ": unknown parameter '" + key + "' (valid: " + valid + ")");
        }
    }
}

const ParamValue* ParamReader::find(const std::string& key) const {
    auto it = params_.find(key);
    return it == params_.end() ? nullptr : &it->second;
}

void ParamReader::fail(const std::string& key, const std::string& what) const {
    const ParamValue* v = find(key);
    throw input_error(owner_ + ": " + key + " must be " + what + (v ? ", got " + to_string(*v) : ""));
}

void ParamReader::require(const std::string& key) const {
    if (!find(key)) throw input_error(owner_ + ": " + key + " is required");
}

double ParamReader::real(const std::string& key, double fallback, Range range) const {
    const ParamValue* v = find(key);
    if (!v) return fallback;
    double d = 0;
    if (auto* i = std::get_if<std::int64_t>(v)) d = static_cast<double>(*i);
    else if (auto* r = std::get_if<double>(v)) d = *r;
    else fail(key, "a number");
    if (!in_range(d, range)) fail(key, describe(range));
    return d;
}

std::int64_t ParamReader::integer(const std::string& key, std::int64_t fallback, std::int64_t min) const {
    const ParamValue* v = find(key);
    if (!v) return fallback;
    std::int64_t i = 0;
    if (auto* p = std::get_if<std::int64_t>(v)) i = *p;
    else if (auto* r = std::get_if<double>(v); r && std::trunc(*r) == *r && std::abs(*r) < 9e15)
        i = static_cast<std::int64_t>(*r);
    else fail(key, "an integer");
    if (i < min) fail(key, ">= " + std::to_string(min));
    return i;
}

bool ParamReader::flag(const std::string& key, bool fallback) const {
    const ParamValue* v = find(key);
    if (!v) return fallback;
    if (auto* b = std::get_if<bool>(v)) return *b;
    fail(key, "true or false");
}

std::string ParamReader::text(const std::string& key, const std::string& fallback,
                              std::initializer_list<const char*> allowed) const {
    const ParamValue* v = find(key);
    if (!v) return fallback;
    auto* s = std::get_if<std::string>(v);
    if (!s) fail(key, "a string");
    if (allowed.size() == 0) return *s;
    for (const char* a : allowed)
        if (*s == a) return *s;
    fail(key, "one of " + join(allowed));
}

}  // namespace lf::train_detail
