#include "import/onnx_fold.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "layerforge/core/error.h"

namespace lf::onnx_import {

const onnx::AttributeProto* find_attribute(const onnx::NodeProto& n, const std::string& name) {
    for (const auto& a : n.attribute())
        if (a.name() == name) return &a;
    return nullptr;
}

std::int64_t int_attribute(const onnx::NodeProto& n, const std::string& name, std::int64_t def) {
    const auto* a = find_attribute(n, name);
    return a ? a->i() : def;
}

float float_attribute(const onnx::NodeProto& n, const std::string& name, float def) {
    const auto* a = find_attribute(n, name);
    return a ? a->f() : def;
}

std::vector<std::int64_t> ints_attribute(const onnx::NodeProto& n, const std::string& name, std::vector<std::int64_t> def) {
    const auto* a = find_attribute(n, name);
    return a ? std::vector<std::int64_t>(a->ints().begin(), a->ints().end()) : def;
}

std::string string_attribute(const onnx::NodeProto& n, const std::string& name, const std::string& def) {
    const auto* a = find_attribute(n, name);
    return a ? a->s() : def;
}

namespace {

using Dims = std::vector<std::int64_t>;

std::string node_text(const onnx::NodeProto& n) { return "node '" + n.name() + "' (" + n.op_type() + ")"; }

[[noreturn]] void bad(const onnx::NodeProto& n, const std::string& why) { throw input_error(node_text(n) + ": " + why); }

Dims strides_of(const Dims& dims) {
    Dims s(dims.size(), 1);
    for (std::size_t i = dims.size(); i-- > 1;) s[i - 1] = s[i] * dims[i];
    return s;
}

std::int64_t axis_in(const onnx::NodeProto& n, std::int64_t axis, std::size_t rank) {
    const std::int64_t a = axis < 0 ? axis + std::int64_t(rank) : axis;
    if (a < 0 || a >= std::int64_t(rank)) bad(n, "axis " + std::to_string(axis) + " is out of range");
    return a;
}

// An empty tensor of the same element kind as `like`, with `dims`.
ConstTensor shaped_like(const ConstTensor& like, Dims dims) {
    ConstTensor t;
    t.integer = like.integer;
    t.dims = std::move(dims);
    (t.integer ? t.ints.reserve(std::size_t(element_count(t.dims))) : t.floats.reserve(std::size_t(element_count(t.dims))));
    return t;
}

void push_from(ConstTensor& to, const ConstTensor& from, std::size_t i) {
    if (to.integer) to.ints.push_back(from.ints[i]);
    else to.floats.push_back(from.floats[i]);
}

const ConstTensor& input(const onnx::NodeProto& n, const std::vector<const ConstTensor*>& in, std::size_t i) {
    if (i >= in.size() || !in[i]) bad(n, "input " + std::to_string(i) + " is missing");
    return *in[i];
}

bool has_input(const std::vector<const ConstTensor*>& in, std::size_t i) { return i < in.size() && in[i]; }

// Axes from the attribute (older opsets) or the second input (newer ones).
Dims axes_of(const onnx::NodeProto& n, const std::vector<const ConstTensor*>& in, std::size_t port) {
    if (has_input(in, port)) return input(n, in, port).ints;
    return ints_attribute(n, "axes");
}

ConstTensor constant(const onnx::NodeProto& n, const std::string& model_dir) {
    for (const auto& a : n.attribute()) {
        ConstTensor t;
        if (a.name() == "value") return read_tensor(a.t(), model_dir, node_text(n));
        if (a.name() == "value_float") t.floats = {a.f()};
        else if (a.name() == "value_floats") t.floats.assign(a.floats().begin(), a.floats().end()), t.dims = {a.floats_size()};
        else if (a.name() == "value_int") t.ints = {a.i()}, t.integer = true;
        else if (a.name() == "value_ints") t.ints.assign(a.ints().begin(), a.ints().end()), t.integer = true, t.dims = {a.ints_size()};
        else continue;
        return t;
    }
    bad(n, "has no value attribute Layerforge reads");
}

ConstTensor cast(const onnx::NodeProto& n, const ConstTensor& x) {
    const auto to = int_attribute(n, "to", onnx::TensorProto::FLOAT);
    ConstTensor t;
    t.dims = x.dims;
    t.integer = to != onnx::TensorProto::FLOAT && to != onnx::TensorProto::DOUBLE;
    for (std::size_t i = 0; i < x.size(); ++i)
        if (t.integer) t.ints.push_back(std::int64_t(x.at(i)));
        else t.floats.push_back(float(x.at(i)));
    return t;
}

ConstTensor gather(const onnx::NodeProto& n, const ConstTensor& data, const ConstTensor& idx) {
    if (data.dims.empty()) bad(n, "cannot gather from a scalar");
    const std::int64_t axis = axis_in(n, int_attribute(n, "axis", 0), data.dims.size());
    const std::int64_t extent = data.dims[std::size_t(axis)];
    Dims out(data.dims.begin(), data.dims.begin() + axis);
    out.insert(out.end(), idx.dims.begin(), idx.dims.end());
    out.insert(out.end(), data.dims.begin() + axis + 1, data.dims.end());
    ConstTensor t = shaped_like(data, out);
    std::int64_t outer = 1, inner = 1;
    for (std::int64_t d = 0; d < axis; ++d) outer *= data.dims[std::size_t(d)];
    for (std::size_t d = std::size_t(axis) + 1; d < data.dims.size(); ++d) inner *= data.dims[d];
    for (std::int64_t o = 0; o < outer; ++o)
        for (std::size_t k = 0; k < idx.size(); ++k) {
            std::int64_t j = std::int64_t(idx.at(k));
            if (j < 0) j += extent;
            if (j < 0 || j >= extent) bad(n, "index " + std::to_string(j) + " is out of range");
            for (std::int64_t i = 0; i < inner; ++i) push_from(t, data, std::size_t((o * extent + j) * inner + i));
        }
    return t;
}

ConstTensor concat(const onnx::NodeProto& n, const std::vector<const ConstTensor*>& in) {
    const ConstTensor& first = input(n, in, 0);
    const std::int64_t axis = axis_in(n, int_attribute(n, "axis", 0), std::max<std::size_t>(first.dims.size(), 1));
    Dims out = first.dims.empty() ? Dims{1} : first.dims;
    out[std::size_t(axis)] = 0;
    for (std::size_t k = 0; k < in.size(); ++k) {
        const ConstTensor& x = input(n, in, k);
        if (x.dims.size() != out.size() || x.integer != first.integer) bad(n, "inputs of different ranks or kinds");
        out[std::size_t(axis)] += x.dims[std::size_t(axis)];
    }
    ConstTensor t = shaped_like(first, out);
    std::int64_t outer = 1;
    for (std::int64_t d = 0; d < axis; ++d) outer *= out[std::size_t(d)];
    for (std::int64_t o = 0; o < outer; ++o)
        for (const ConstTensor* x : in) {
            const std::size_t block = x->size() / std::size_t(outer);
            for (std::size_t i = 0; i < block; ++i) push_from(t, *x, std::size_t(o) * block + i);
        }
    return t;
}

ConstTensor reshape(const onnx::NodeProto& n, const ConstTensor& x, Dims target) {
    std::int64_t known = 1, unknown = -1;
    for (std::size_t i = 0; i < target.size(); ++i) {
        if (target[i] == 0 && i < x.dims.size()) target[i] = x.dims[i];
        if (target[i] == -1) unknown = std::int64_t(i);
        else known *= target[i];
    }
    if (unknown >= 0) target[std::size_t(unknown)] = known ? std::int64_t(x.size()) / known : 0;
    if (element_count(target) != std::int64_t(x.size())) bad(n, "the new shape does not hold the same number of values");
    ConstTensor t = x;
    t.dims = target;
    return t;
}

ConstTensor transpose(const onnx::NodeProto& n, const ConstTensor& x) {
    Dims perm = ints_attribute(n, "perm");
    if (perm.empty())
        for (std::size_t i = x.dims.size(); i-- > 0;) perm.push_back(std::int64_t(i));
    if (perm.size() != x.dims.size()) bad(n, "perm does not match the rank");
    Dims out;
    for (std::int64_t p : perm) out.push_back(x.dims[std::size_t(axis_in(n, p, x.dims.size()))]);
    ConstTensor t = shaped_like(x, out);
    const Dims in_strides = strides_of(x.dims), out_strides = strides_of(out);
    for (std::int64_t k = 0; k < element_count(out); ++k) {
        std::int64_t src = 0;
        for (std::size_t d = 0; d < out.size(); ++d) src += (k / out_strides[d] % out[d]) * in_strides[std::size_t(perm[d])];
        push_from(t, x, std::size_t(src));
    }
    return t;
}

ConstTensor slice(const onnx::NodeProto& n, const std::vector<const ConstTensor*>& in) {
    const ConstTensor& x = input(n, in, 0);
    const bool old = !has_input(in, 1);  // opset < 10: attributes
    Dims starts = old ? ints_attribute(n, "starts") : input(n, in, 1).ints;
    Dims ends = old ? ints_attribute(n, "ends") : input(n, in, 2).ints;
    Dims axes = old ? ints_attribute(n, "axes") : (has_input(in, 3) ? input(n, in, 3).ints : Dims{});
    Dims steps = has_input(in, 4) ? input(n, in, 4).ints : Dims(starts.size(), 1);
    if (axes.empty())
        for (std::size_t i = 0; i < starts.size(); ++i) axes.push_back(std::int64_t(i));
    if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
        bad(n, "starts, ends, axes and steps differ in length");
    const std::size_t rank = x.dims.size();
    Dims begin(rank, 0), step(rank, 1), out = x.dims;
    for (std::size_t i = 0; i < starts.size(); ++i) {
        const std::size_t a = std::size_t(axis_in(n, axes[i], rank));
        const std::int64_t dim = x.dims[a], s = steps[i];
        if (s == 0) bad(n, "a step of 0");
        auto clamp = [&](std::int64_t v, bool is_end) {
            if (v < 0) v += dim;
            return s > 0 ? std::clamp<std::int64_t>(v, 0, dim) : std::clamp<std::int64_t>(v, -1, dim - 1) + (is_end ? 0 : 0);
        };
        const std::int64_t b = clamp(starts[i], false), e = clamp(ends[i], true);
        begin[a] = b, step[a] = s;
        out[a] = s > 0 ? std::max<std::int64_t>(0, (e - b + s - 1) / s) : std::max<std::int64_t>(0, (b - e - s - 1) / -s);
    }
    ConstTensor t = shaped_like(x, out);
    const Dims in_strides = strides_of(x.dims), out_strides = strides_of(out);
    for (std::int64_t k = 0; k < element_count(out); ++k) {
        std::int64_t src = 0;
        for (std::size_t d = 0; d < rank; ++d) src += (begin[d] + (k / out_strides[d] % out[d]) * step[d]) * in_strides[d];
        push_from(t, x, std::size_t(src));
    }
    return t;
}

// Element-wise arithmetic with numpy broadcasting.
ConstTensor arithmetic(const onnx::NodeProto& n, const ConstTensor& a, const ConstTensor& b) {
    const std::size_t rank = std::max(a.dims.size(), b.dims.size());
    auto padded = [&](const Dims& d) {
        Dims p(rank - d.size(), 1);
        p.insert(p.end(), d.begin(), d.end());
        return p;
    };
    const Dims da = padded(a.dims), db = padded(b.dims);
    Dims out(rank);
    for (std::size_t i = 0; i < rank; ++i) {
        if (da[i] != db[i] && da[i] != 1 && db[i] != 1) bad(n, "inputs that do not broadcast");
        out[i] = da[i] == 1 ? db[i] : da[i];
    }
    ConstTensor t;
    t.integer = a.integer && b.integer;
    t.dims = out;
    const Dims sa = strides_of(da), sb = strides_of(db), so = strides_of(out);
    const std::string& op = n.op_type();
    for (std::int64_t k = 0; k < element_count(out); ++k) {
        std::int64_t ia = 0, ib = 0;
        for (std::size_t d = 0; d < rank; ++d) {
            const std::int64_t c = k / so[d] % out[d];
            ia += (da[d] == 1 ? 0 : c) * sa[d];
            ib += (db[d] == 1 ? 0 : c) * sb[d];
        }
        if (t.integer) {
            const std::int64_t x = a.ints[std::size_t(ia)], y = b.ints[std::size_t(ib)];
            if (op == "Div" && y == 0) bad(n, "a division by zero");
            t.ints.push_back(op == "Add" ? x + y : op == "Sub" ? x - y : op == "Mul" ? x * y : x / y);
        } else {
            const double x = a.at(std::size_t(ia)), y = b.at(std::size_t(ib));
            t.floats.push_back(float(op == "Add" ? x + y : op == "Sub" ? x - y : op == "Mul" ? x * y : x / y));
        }
    }
    return t;
}

ConstTensor constant_of_shape(const onnx::NodeProto& n, const ConstTensor& shape, const std::string& model_dir) {
    ConstTensor value;
    value.floats = {0.f};
    if (const auto* a = find_attribute(n, "value")) value = read_tensor(a->t(), model_dir, node_text(n));
    if (value.size() != 1) bad(n, "a value that is not a single number");
    ConstTensor t = shaped_like(value, shape.ints);
    for (std::int64_t k = 0; k < element_count(shape.ints); ++k) push_from(t, value, 0);
    return t;
}

ConstTensor range(const onnx::NodeProto& n, const ConstTensor& start, const ConstTensor& limit, const ConstTensor& delta) {
    const double s = start.at(0), l = limit.at(0), d = delta.at(0);
    if (d == 0) bad(n, "a delta of 0");
    const auto count = std::int64_t(std::max(0.0, std::ceil((l - s) / d)));
    if (count > (1 << 20)) bad(n, "more than 2^20 values");
    ConstTensor t;
    t.integer = start.integer;
    t.dims = {count};
    for (std::int64_t i = 0; i < count; ++i)
        if (t.integer) t.ints.push_back(std::int64_t(s + double(i) * d));
        else t.floats.push_back(float(s + double(i) * d));
    return t;
}

ConstTensor squeeze(const onnx::NodeProto& n, const ConstTensor& x, const Dims& axes) {
    std::set<std::int64_t> drop;
    for (std::int64_t a : axes) drop.insert(axis_in(n, a, x.dims.size()));
    ConstTensor t = x;
    t.dims.clear();
    for (std::size_t d = 0; d < x.dims.size(); ++d) {
        const bool gone = axes.empty() ? x.dims[d] == 1 : drop.count(std::int64_t(d)) > 0;
        if (gone && x.dims[d] != 1) bad(n, "squeezes an axis of size " + std::to_string(x.dims[d]));
        if (!gone) t.dims.push_back(x.dims[d]);
    }
    return t;
}

ConstTensor unsqueeze(const onnx::NodeProto& n, const ConstTensor& x, const Dims& axes) {
    const std::size_t rank = x.dims.size() + axes.size();
    std::set<std::int64_t> add;
    for (std::int64_t a : axes) add.insert(axis_in(n, a, rank));
    ConstTensor t = x;
    t.dims.clear();
    for (std::size_t d = 0, src = 0; d < rank; ++d) t.dims.push_back(add.count(std::int64_t(d)) ? 1 : x.dims[src++]);
    return t;
}

}  // namespace

bool foldable_op(const std::string& op) {
    static const std::set<std::string> ops{"Constant", "Identity", "Cast",      "Gather", "Concat", "Reshape",
                                           "Transpose", "Slice",   "Add",       "Sub",    "Mul",    "Div",
                                           "ConstantOfShape", "Range", "Squeeze", "Unsqueeze"};
    return ops.count(op) > 0;
}

std::optional<std::vector<ConstTensor>> fold_node(const onnx::NodeProto& n, const std::vector<const ConstTensor*>& in,
                                                  const std::string& model_dir) {
    const std::string& op = n.op_type();
    if (!foldable_op(op)) return std::nullopt;
    for (std::size_t i = 0; i < in.size(); ++i)
        if (!in[i] && i < std::size_t(n.input_size()) && !n.input(int(i)).empty()) return std::nullopt;
    ConstTensor out;
    if (op == "Constant") out = constant(n, model_dir);
    else if (op == "Identity") out = input(n, in, 0);
    else if (op == "Cast") out = cast(n, input(n, in, 0));
    else if (op == "Gather") out = gather(n, input(n, in, 0), input(n, in, 1));
    else if (op == "Concat") out = concat(n, in);
    else if (op == "Reshape") out = reshape(n, input(n, in, 0), input(n, in, 1).ints);
    else if (op == "Transpose") out = transpose(n, input(n, in, 0));
    else if (op == "Slice") out = slice(n, in);
    else if (op == "ConstantOfShape") out = constant_of_shape(n, input(n, in, 0), model_dir);
    else if (op == "Range") out = range(n, input(n, in, 0), input(n, in, 1), input(n, in, 2));
    else if (op == "Squeeze") out = squeeze(n, input(n, in, 0), axes_of(n, in, 1));
    else if (op == "Unsqueeze") out = unsqueeze(n, input(n, in, 0), axes_of(n, in, 1));
    else out = arithmetic(n, input(n, in, 0), input(n, in, 1));
    if (element_count(out.dims) != std::int64_t(out.size())) bad(n, "a result whose shape does not match its values");
    return std::vector<ConstTensor>{std::move(out)};
}

}  // namespace lf::onnx_import
