#include "layers/builtin.h"

namespace lf {

void register_builtin_layers(LayerRegistry& r) {
    register_input(r);
    register_dense(r);
    register_reshaping(r);
    register_activations(r);
    register_dropout(r);
    register_merge(r);
    register_convolution(r);
    register_pooling(r);
    register_normalization(r);
}

}  // namespace lf
