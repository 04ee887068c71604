#include "layerforge/layers/registry.h"

#include <cmath>

#include "layerforge/core/error.h"
#include "layers/builtin.h"

namespace lf {

const char* to_string(ParamKind k) {
    switch (k) {
    case ParamKind::Bool: return "bool";
    case ParamKind::Int: return "int";
    case ParamKind::Float: return "float";
    case ParamKind::String: return "string";
    case ParamKind::Choice: return "choice";
    case ParamKind::IntList: return "int list";
    }
    return "?";
}

LayerRegistry& LayerRegistry::instance() {
    static LayerRegistry reg = [] {
        LayerRegistry r;
        register_builtin_layers(r);
        return r;
    }();
    return reg;
}

void LayerRegistry::add(LayerSpec spec) {
    if (find(spec.type)) throw runtime_error("layer type '" + spec.type + "' is registered twice");
    spec.op = layer_op_of(spec.type);
    std::string what = "layer type '" + spec.type + "'";
    specs_.add(std::move(spec), what);
}

const LayerSpec* LayerRegistry::find(const std::string& type) const { return specs_.find(type); }

namespace {

std::string number_text(double v) {
    if (v == std::floor(v) && std::abs(v) < 1e15) return std::to_string(std::int64_t(v));
    return to_string(ParamValue(v));
}

}  // namespace

std::string range_text(const ParamSpec& s) {
    std::string t;
    if (std::isfinite(s.min)) t += ">= " + number_text(s.min);
    if (std::isfinite(s.max)) t += (t.empty() ? "<= " : " and <= ") + number_text(s.max);
    return t;
}

namespace {

bool in_range(const ParamSpec& s, double v) { return v >= s.min && v <= s.max; }

// Converts one given value to the spec's kind; returns an error message or "".
std::string convert(const ParamSpec& s, const ParamValue& given, ParamValue& out) {
    const auto* i = std::get_if<std::int64_t>(&given);
    const auto* d = std::get_if<double>(&given);
    switch (s.kind) {
    case ParamKind::Bool:
        if (!std::holds_alternative<bool>(given)) return "expects true or false";
        out = given;
        return "";
    case ParamKind::Int:
        if (!i) return "expects an integer";
        if (!in_range(s, double(*i))) return "must be " + range_text(s) + ", got " + std::to_string(*i);
        out = given;
        return "";
    case ParamKind::Float: {
        if (!i && !d) return "expects a number";
        double v = i ? double(*i) : *d;
        if (!std::isfinite(v) || !in_range(s, v)) return "must be " + range_text(s) + ", got " + to_string(ParamValue(v));
        out = v;
        return "";
    }
    case ParamKind::String:
        if (!std::holds_alternative<std::string>(given)) return "expects a string";
        out = given;
        return "";
    case ParamKind::Choice: {
        const auto* str = std::get_if<std::string>(&given);
        std::string valid;
        for (const auto& c : s.choices) {
            if (str && *str == c) {
                out = given;
                return "";
            }
            valid += (valid.empty() ? "" : ", ") + c;
        }
        return "must be one of " + valid + (str ? ", got \"" + *str + "\"" : "");
    }
    case ParamKind::IntList: {
        IntList l;
        if (i) l.assign(s.list_size > 0 ? s.list_size : 1, *i);
        else if (const auto* gl = std::get_if<IntList>(&given)) l = *gl;
        else return "expects a list of integers";
        if (s.list_size > 0 && int(l.size()) != s.list_size)
            return "expects " + std::to_string(s.list_size) + " integers, got " + std::to_string(l.size());
        if (s.list_size == 0 && l.empty()) return "expects at least one integer";
        for (auto v : l)
            if (!in_range(s, double(v))) return "every entry must be " + range_text(s) + ", got " + std::to_string(v);
        out = l;
        return "";
    }
    }
    return "unsupported";
}

}  // namespace

Params resolve_params(const LayerSpec& spec, const Params& given, std::vector<ParamProblem>& problems) {
    Params out;
    for (const ParamSpec& s : spec.params) {
        auto it = given.find(s.name);
        if (it == given.end()) {
            if (s.required) problems.push_back({s.name, "is required"});
            out[s.name] = s.def;
            continue;
        }
        std::string err = convert(s, it->second, out[s.name]);
        if (!err.empty()) {
            problems.push_back({s.name, err});
            out[s.name] = s.def;
        }
    }
    for (const auto& [name, value] : given) {
        (void)value;
        bool known = false;
        for (const ParamSpec& s : spec.params) known = known || s.name == name;
        if (!known) problems.push_back({name, "is not a parameter of " + spec.type});
    }
    return out;
}

std::int64_t param_int(const Params& p, const std::string& n) { return std::get<std::int64_t>(p.at(n)); }
double param_float(const Params& p, const std::string& n) { return std::get<double>(p.at(n)); }
bool param_bool(const Params& p, const std::string& n) { return std::get<bool>(p.at(n)); }
const std::string& param_str(const Params& p, const std::string& n) { return std::get<std::string>(p.at(n)); }
const IntList& param_list(const Params& p, const std::string& n) { return std::get<IntList>(p.at(n)); }

}  // namespace lf
