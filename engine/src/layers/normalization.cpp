// BatchNormalization over the last (channel) axis, as Keras: while training it normalises with
// the batch's mean and variance and updates moving_mean / moving_variance
// (moving = moving * momentum + batch * (1 - momentum), the variance with Bessel's correction as
// Keras' fused kernel does); at inference it uses the moving statistics. gamma and beta are
// trained; the moving statistics are non-trainable weights (saved, never touched by the
// optimizer). CPU forward/backward: backend/cpu/batch_norm_op.cpp.
#include "layerforge/core/error.h"
#include "layers/builtin.h"

namespace lf {

void register_normalization(LayerRegistry& r) {
    LayerSpec s;
    s.type = "BatchNormalization";
    s.category = "Normalization";
    s.help = "Normalises each channel with batch statistics while training and moving averages at inference.";
    s.params = {
        {.name = "momentum", .kind = ParamKind::Float, .def = 0.99, .min = 0, .max = 1,
         .help = "weight of the old value in the moving averages"},
        {.name = "epsilon", .kind = ParamKind::Float, .def = 1e-3, .min = 1e-12, .max = 1,
         .help = "added to the variance before the square root"},
    };
    s.infer = [](const Params&, const std::vector<Shape>& in) {
        if (in[0].rank() == 0) throw input_error("BatchNormalization needs an input with a channel axis");
        const std::int64_t c = in[0].dims.back();
        LayerInfo info;
        info.output = in[0];
        info.weights = {{"gamma", Shape{c}, Init::Ones},
                        {"beta", Shape{c}, Init::Zeros},
                        {"moving_mean", Shape{c}, Init::Zeros, 0, 0, false},
                        {"moving_variance", Shape{c}, Init::Ones, 0, 0, false}};
        info.flops = 4 * in[0].elements();
        return info;
    };
    r.add(std::move(s));
}

}  // namespace lf
