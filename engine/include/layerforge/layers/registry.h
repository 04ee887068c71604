#pragma once
// The layer registry: every layer type's parameter schema, shape rule and op. Backends build the
// op from their own tables keyed by LayerSpec::op (backend/cpu/op_table.cpp).
// The CLI's `layers` command, the studio's palette and inspector all read this one table.
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "layerforge/core/params.h"
#include "layerforge/core/registry.h"
#include "layerforge/core/shape.h"
#include "layerforge/layers/kernel.h"
#include "layerforge/layers/layer_op.h"

namespace lf {

enum class ParamKind { Bool, Int, Float, String, Choice, IntList };
const char* to_string(ParamKind k);

struct ParamSpec {
    std::string name;
    ParamKind kind = ParamKind::Int;
    ParamValue def;  // default; an empty IntList with required=true means "must be given"
    double min = -std::numeric_limits<double>::infinity();
    double max = std::numeric_limits<double>::infinity();
    std::vector<std::string> choices;  // ParamKind::Choice
    std::string help;
    bool required = false;
    int list_size = 0;  // IntList: required length; a single int is broadcast (kernel_size=5 -> [5, 5])
};

enum class Init { GlorotUniform, Zeros, Ones };

struct WeightSpec {
    std::string name;  // "kernel", "bias"
    Shape shape;
    Init init = Init::Zeros;
    std::int64_t fan_in = 0, fan_out = 0;
    bool trainable = true;
};

// What a layer's shape rule derives for one node.
struct LayerInfo {
    Shape output;
    std::vector<WeightSpec> weights;
    std::int64_t flops = 0;  // forward multiply-adds x 2, per sample
};

struct LayerSpec {
    std::string type;      // Keras name: "Dense"
    std::string category;  // palette group: Core, Convolution, Pooling, Normalization, Activation, Merge
    std::string help;
    std::vector<ParamSpec> params;
    int min_inputs = 1, max_inputs = 1;  // max -1: any number
    bool view = false;                   // output shares the input's memory (Flatten, Reshape)
    // Throws lf::Error (Input) with a message fit for the node's error badge.
    std::function<LayerInfo(const Params& resolved, const std::vector<Shape>& inputs)> infer;
    // Set by LayerRegistry::add from the type name: a built-in op, or Plugin.
    LayerOp op = LayerOp::Plugin;
    KernelFactory kernel;  // a plugin layer's plain-loop computation; null for built-ins and views
};

class LayerRegistry {
public:
    static LayerRegistry& instance();  // holds the built-in layers
    // Throws lf::Error on a duplicate type name, and after freeze().
    void add(LayerSpec spec);
    const LayerSpec* find(const std::string& type) const;  // stays valid: specs never move
    const std::deque<LayerSpec>& all() const { return specs_.all(); }
    void freeze() { specs_.freeze(); }  // once plugins are loaded
    bool frozen() const { return specs_.frozen(); }

private:
    Registry<LayerSpec, &LayerSpec::type> specs_;
};

// Fills defaults, converts ints given for floats, broadcasts single ints to lists, and checks
// kinds, ranges and choices. Problems are appended as (field, message) pairs.
struct ParamProblem {
    std::string field, message;
};
Params resolve_params(const LayerSpec& spec, const Params& given, std::vector<ParamProblem>& problems);

// ">= 1 and <= 16777216", or "" for an unbounded parameter.
std::string range_text(const ParamSpec& s);

// Typed access to resolved params (the schema guarantees the kind).
std::int64_t param_int(const Params& p, const std::string& name);
double param_float(const Params& p, const std::string& name);
bool param_bool(const Params& p, const std::string& name);
const std::string& param_str(const Params& p, const std::string& name);
const IntList& param_list(const Params& p, const std::string& name);

}  // namespace lf
