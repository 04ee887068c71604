// Activation-family layers: shape-preserving, no weights. All run on backend/cpu/activation_op.cpp.
#include "layerforge/core/error.h"
#include "layers/builtin.h"

namespace lf {

const std::vector<std::string>& activation_names() {
    // hard_sigmoid and hard_swish as Keras 3 and PyTorch define them: relu6(x + 3) / 6 and
    // x * relu6(x + 3) / 6 (MobileNetV3; Keras 2's hard_sigmoid was 0.2 x + 0.5, clipped).
    static const std::vector<std::string> names = {"linear", "relu",        "sigmoid",      "tanh",       "softmax",
                                                   "gelu",   "elu",         "swish",        "silu",       "exponential",
                                                   "hard_sigmoid", "hard_swish", "hard_silu"};
    return names;
}

namespace {

LayerSpec activation_layer(const std::string& type, const std::string& help, std::vector<ParamSpec> params) {
    LayerSpec s;
    s.type = type;
    s.category = "Activation";
    s.help = help;
    s.params = std::move(params);
    s.infer = [type](const Params& p, const std::vector<Shape>& in) {
        if (in[0].rank() == 0) throw input_error(type + " needs an input with at least one dimension");
        if (type == "Softmax" && param_int(p, "axis") != -1 && param_int(p, "axis") != std::int64_t(in[0].rank()))
            throw input_error("Softmax supports the last axis only (axis=-1)");
        if (type == "ReLU" && param_float(p, "max_value") > 0 && param_float(p, "max_value") <= param_float(p, "threshold"))
            throw input_error("ReLU: max_value must be greater than threshold (or 0 for no cap)");
        LayerInfo info;
        info.output = in[0];
        info.flops = 4 * in[0].elements();
        return info;
    };
    return s;
}

}  // namespace

void register_activations(LayerRegistry& r) {
    r.add(activation_layer("Activation", "Applies a named activation function element-wise.",
                           {{.name = "activation", .kind = ParamKind::Choice, .def = std::string("relu"),
                             .choices = activation_names(), .help = "activation function"}}));
    r.add(activation_layer("ReLU",
                           "Rectified linear unit as Keras: max_value if x >= max_value, x if x >= threshold, "
                           "else negative_slope * (x - threshold). ReLU6 (MobileNetV2) is max_value 6.",
                           {{.name = "max_value", .kind = ParamKind::Float, .def = 0.0, .min = 0,
                             .help = "cap of the output; 0: no cap (Keras max_value=None)"},
                            {.name = "negative_slope", .kind = ParamKind::Float, .def = 0.0, .min = 0,
                             .help = "slope below the threshold"},
                            {.name = "threshold", .kind = ParamKind::Float, .def = 0.0, .min = 0,
                             .help = "values below it are damped by negative_slope"}}));
    r.add(activation_layer("LeakyReLU", "Leaky rectified linear unit: x if x > 0 else alpha * x.",
                           {{.name = "alpha", .kind = ParamKind::Float, .def = 0.3, .min = 0, .help = "slope for x < 0"}}));
    r.add(activation_layer("Sigmoid", "Logistic function 1 / (1 + exp(-x)).", {}));
    r.add(activation_layer("Tanh", "Hyperbolic tangent.", {}));
    r.add(activation_layer("GELU", "Gaussian error linear unit.",
                           {{.name = "approximate", .kind = ParamKind::Bool, .def = false,
                             .help = "use the tanh approximation"}}));
    r.add(activation_layer("Softmax", "Normalises the last axis into probabilities that sum to 1.",
                           {{.name = "axis", .kind = ParamKind::Int, .def = std::int64_t(-1),
                             .help = "axis to normalise (only -1, the last, is supported)"}}));
}

}  // namespace lf
