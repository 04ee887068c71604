// Merge layers of the Functional API: Add (element-wise sum), Concatenate (along an axis) and
// Multiply (element-wise product; a (1, 1, C) operand is broadcast over the image, as the
// squeeze-and-excitation blocks of EfficientNet and MobileNetV3 scale their channels).
// CPU ops: backend/cpu/merge_ops.cpp, backend/cpu/multiply_op.cpp.
#include "layerforge/core/checked.h"
#include "layerforge/core/error.h"
#include "layers/builtin.h"

namespace lf {

// Concatenate's axis as a 0-based index into the per-sample shape. Keras counts the batch
// as axis 0, so axis=1 is the first sample dimension and -1 the last.
std::size_t concat_axis(std::int64_t axis, std::size_t rank) {
    std::int64_t a = axis < 0 ? std::int64_t(rank) + axis : axis - 1;
    if (a < 0 || a >= std::int64_t(rank))
        throw input_error("axis " + std::to_string(axis) + " is out of range for rank-" + std::to_string(rank) +
                          " inputs (plus the batch axis)");
    return std::size_t(a);
}

// Whether `operand` is broadcast over `full` by Multiply: a (1, 1, C) against an (H, W, C) image.
bool multiply_broadcasts(const Shape& operand, const Shape& full) {
    return operand != full && operand.rank() == 3 && full.rank() == 3 && operand[0] == 1 && operand[1] == 1 &&
           operand[2] == full[2];
}

namespace {

LayerSpec multiply_spec() {
    LayerSpec s;
    s.type = "Multiply";
    s.category = "Merge";
    s.help = "Multiplies its inputs element-wise; a (1, 1, C) input scales each channel of an (H, W, C) one.";
    s.min_inputs = 2;
    s.max_inputs = -1;
    s.infer = [](const Params&, const std::vector<Shape>& in) {
        Shape full = in[0];
        for (const Shape& x : in)
            if (x.elements() > full.elements()) full = x;
        for (const Shape& x : in)
            if (x != full && !multiply_broadcasts(x, full))
                throw input_error("Multiply needs inputs of one shape, or (1, 1, C) ones beside an (H, W, C) image; got " +
                                  x.str() + " and " + full.str());
        LayerInfo info;
        info.output = full;
        info.flops = mul_size(std::int64_t(in.size() - 1), full.elements());
        return info;
    };
    return s;
}

}  // namespace

void register_merge(LayerRegistry& r) {
    LayerSpec add;
    add.type = "Add";
    add.category = "Merge";
    add.help = "Adds its inputs element-wise; all inputs must have the same shape (residual connections).";
    add.min_inputs = 2;
    add.max_inputs = -1;
    add.infer = [](const Params&, const std::vector<Shape>& in) {
        for (std::size_t i = 1; i < in.size(); ++i)
            if (in[i] != in[0])
                throw input_error("Add needs inputs of one shape, got " + in[0].str() + " and " + in[i].str());
        LayerInfo info;
        info.output = in[0];
        info.flops = mul_size(std::int64_t(in.size() - 1), in[0].elements());
        return info;
    };
    r.add(std::move(add));

    LayerSpec cat;
    cat.type = "Concatenate";
    cat.category = "Merge";
    cat.help = "Joins its inputs along one axis; the other dimensions must match.";
    cat.params = {{.name = "axis", .kind = ParamKind::Int, .def = std::int64_t(-1),
                   .help = "axis to join along (-1: channels)"}};
    cat.min_inputs = 2;
    cat.max_inputs = -1;
    cat.infer = [](const Params& p, const std::vector<Shape>& in) {
        std::size_t axis = concat_axis(param_int(p, "axis"), in[0].rank());
        Shape out = in[0];
        for (std::size_t i = 1; i < in.size(); ++i) {
            bool match = in[i].rank() == in[0].rank();
            for (std::size_t d = 0; match && d < in[0].rank(); ++d) match = d == axis || in[i][d] == in[0][d];
            if (!match)
                throw input_error("Concatenate along axis " + std::to_string(param_int(p, "axis")) +
                                  " needs matching other dimensions, got " + in[0].str() + " and " + in[i].str());
            out.dims[axis] += in[i][axis];
        }
        LayerInfo info;
        info.output = out;
        return info;
    };
    r.add(std::move(cat));
    r.add(multiply_spec());
}

}  // namespace lf
