// Flatten and Reshape: views that reinterpret the input's memory (channels-last order), no copy.
// ZeroPadding2D: adds rows and columns of zeros around an image (backend/cpu/zero_padding_op.cpp).
#include "layerforge/core/checked.h"
#include "layerforge/core/error.h"
#include "layers/builtin.h"
#include "layers/window.h"

namespace lf {

namespace {

Shape reshape_target(const IntList& target, const Shape& in) {
    std::int64_t known = 1, unknown_at = -1;
    for (std::size_t i = 0; i < target.size(); ++i) {
        if (target[i] == -1) {
            if (unknown_at >= 0) throw input_error("target_shape may contain -1 only once");
            unknown_at = std::int64_t(i);
        } else if (target[i] < 1) {
            throw input_error("target_shape entries must be positive or -1");
        } else {
            known = mul_size(known, target[i]);
        }
    }
    Shape out{IntList(target)};
    if (unknown_at >= 0) {
        if (in.elements() % known != 0)
            throw input_error("cannot reshape " + in.str() + " into " + Shape(target).str());
        out.dims[std::size_t(unknown_at)] = in.elements() / known;
    }
    if (out.elements() != in.elements())
        throw input_error("cannot reshape " + in.str() + " (" + std::to_string(in.elements()) + " values) into " +
                          out.str() + " (" + std::to_string(out.elements()) + " values)");
    return out;
}

}  // namespace

void register_reshaping(LayerRegistry& r) {
    LayerSpec flatten;
    flatten.type = "Flatten";
    flatten.category = "Core";
    flatten.help = "Flattens each sample into a vector, in channels-last order.";
    flatten.view = true;
    flatten.infer = [](const Params&, const std::vector<Shape>& in) {
        LayerInfo info;
        info.output = Shape{in[0].elements()};
        return info;
    };
    r.add(std::move(flatten));

    LayerSpec reshape;
    reshape.type = "Reshape";
    reshape.category = "Core";
    reshape.help = "Gives each sample a new shape with the same number of values; one entry may be -1.";
    reshape.params = {{.name = "target_shape", .kind = ParamKind::IntList, .def = IntList{-1}, .min = -1,
                       .help = "new shape without the batch dimension", .required = true}};
    reshape.view = true;
    reshape.infer = [](const Params& p, const std::vector<Shape>& in) {
        LayerInfo info;
        info.output = reshape_target(param_list(p, "target_shape"), in[0]);
        return info;
    };
    r.add(std::move(reshape));

    LayerSpec pad;
    pad.type = "ZeroPadding2D";
    pad.category = "Core";
    pad.help = "Adds rows and columns of zeros around each image.";
    pad.params = {{.name = "padding", .kind = ParamKind::IntList, .def = IntList{1, 1, 1, 1}, .min = 0, .max = 1 << 16,
                   .help = "top, bottom, left, right (one number: all four)", .list_size = 4}};
    pad.infer = [](const Params& p, const std::vector<Shape>& in) {
        require_image(in[0], "ZeroPadding2D");
        const IntList& t = param_list(p, "padding");
        LayerInfo info;
        info.output = Shape{in[0][0] + t[0] + t[1], in[0][1] + t[2] + t[3], in[0][2]};
        return info;
    };
    r.add(std::move(pad));
}

}  // namespace lf
