// Input: where a batch enters the graph. Its output buffer is filled by the data feed.
#include "layerforge/core/error.h"
#include "layers/builtin.h"

namespace lf {

void register_input(LayerRegistry& r) {
    LayerSpec s;
    s.type = "Input";
    s.category = "Core";
    s.help = "Entry point of the network: one sample's shape, channels last, e.g. [28, 28, 1].";
    s.params = {{.name = "shape", .kind = ParamKind::IntList, .def = IntList{28, 28, 1}, .min = 1,
                 .help = "shape of one sample without the batch dimension", .required = true}};
    s.min_inputs = s.max_inputs = 0;
    s.infer = [](const Params& p, const std::vector<Shape>&) {
        LayerInfo info;
        info.output = Shape(param_list(p, "shape"));
        return info;
    };
    r.add(std::move(s));
}

}  // namespace lf
