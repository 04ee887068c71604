// Dropout(rate): zeroes a random fraction of values while training, scaling the rest by
// 1 / (1 - rate); the identity at inference. CPU op: backend/cpu/dropout_op.cpp.
#include "layers/builtin.h"

namespace lf {

void register_dropout(LayerRegistry& r) {
    LayerSpec s;
    s.type = "Dropout";
    s.category = "Core";
    s.help = "Randomly drops a fraction of the values while training, to reduce overfitting.";
    s.params = {{.name = "rate", .kind = ParamKind::Float, .def = 0.5, .min = 0, .max = 0.99,
                 .help = "fraction of values to drop"}};
    s.infer = [](const Params&, const std::vector<Shape>& in) {
        LayerInfo info;
        info.output = in[0];
        return info;
    };
    r.add(std::move(s));
}

}  // namespace lf
