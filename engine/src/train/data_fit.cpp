#include "layerforge/train/data_fit.h"

#include "layerforge/core/error.h"

namespace lf {

DataFit data_fit(const Graph& g, const Analysis& a, std::optional<Shape> samples, std::int64_t classes) {
    DataFit f;
    f.samples = std::move(samples);
    f.classes = classes;
    if (a.inputs.size() == 1) {
        f.input_node = a.inputs[0];
        if (const NodeInfo& info = a.nodes.at(f.input_node); info.shaped) f.input = info.layer.output;
    }
    if (a.outputs.size() == 1) {
        f.output_node = a.outputs[0];
        if (const NodeInfo& info = a.nodes.at(f.output_node); info.shaped) f.units = info.layer.output.elements();
        f.units_node = f.output_node;
        for (std::size_t n = 0; n < g.nodes.size(); ++n) {  // back over one-input layers that keep the shape
            const std::vector<Edge> in = g.inputs_of(f.units_node);
            const NodeInfo& info = a.nodes.at(f.units_node);
            if (in.size() != 1 || !info.shaped || info.inputs.size() != 1 || info.inputs[0] != info.layer.output) break;
            f.units_node = in[0].from.node;
        }
    }
    return f;
}

void require_data_fit(const DataFit& fit, const std::string& what) {
    if (!fit.input_fits() && !fit.input)
        throw input_error("the " + what + " samples have shape " + fit.samples->str() +
                          " but the model has no single Input layer of known shape");
    if (!fit.input_fits())
        throw input_error("the " + what + " samples have shape " + fit.samples->str() + " but the Input layer expects " +
                          fit.input->str() + "; change the Input shape");
    if (fit.too_few_units())
        throw input_error("the output layer has " + std::to_string(fit.units) + " units but the " + what +
                          " data has " + std::to_string(fit.classes) + " classes; set the last layer's units to " +
                          std::to_string(fit.classes));
}

void require_source_fit(const Model& model, const Shape& shape, std::size_t classes, const std::string& what) {
    model.input_node(), model.output_node();  // exactly one of each, or an error naming them
    require_data_fit(data_fit(model.graph(), model.analysis(), shape, std::int64_t(classes)), what);
}

void require_dataset_fit(const Model& model, const TensorDataset& d, const std::string& what) {
    require_source_fit(model, d.sample_shape, d.class_names.size(), what);
    const std::int64_t width = model.info(model.output_node()).layer.output.elements();
    for (std::int32_t l : d.labels)
        if (l < 0 || (width > 1 && l >= width) || (width == 1 && l > 1))
            throw input_error("the " + what + " data has label " + std::to_string(l) +
                              " outside the output layer's range");
}

}  // namespace lf
