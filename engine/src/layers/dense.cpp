// Dense(units, activation, use_bias): y = activation(x @ kernel + bias), kernel (in, units).
// CPU forward/backward: backend/cpu/dense_op.cpp.
#include "layerforge/core/checked.h"
#include "layerforge/core/error.h"
#include "layers/builtin.h"

namespace lf {

void register_dense(LayerRegistry& r) {
    LayerSpec s;
    s.type = "Dense";
    s.category = "Core";
    s.help = "Fully connected layer: every output unit sees every input value.";
    s.params = {
        {.name = "units", .kind = ParamKind::Int, .def = std::int64_t(10), .min = 1, .max = 1 << 24,
         .help = "number of output units", .required = true},
        {.name = "activation", .kind = ParamKind::Choice, .def = std::string("linear"), .choices = activation_names(),
         .help = "activation applied to the output"},
        {.name = "use_bias", .kind = ParamKind::Bool, .def = true, .help = "add a learned bias vector"},
    };
    s.infer = [](const Params& p, const std::vector<Shape>& in) {
        if (in[0].rank() != 1)
            throw input_error("Dense expects 2-D input, got " + in[0].str() + ": add Flatten");
        std::int64_t k = in[0][0], units = param_int(p, "units");
        LayerInfo info;
        info.output = Shape{units};
        info.weights.push_back({"kernel", Shape{k, units}, Init::GlorotUniform, k, units});
        if (param_bool(p, "use_bias")) info.weights.push_back({"bias", Shape{units}, Init::Zeros, k, units});
        info.flops = mul_sizes({2, k, units});
        return info;
    };
    r.add(std::move(s));
}

}  // namespace lf
