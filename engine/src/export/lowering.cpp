// Model -> InferenceGraph: Keras channels-last layers to channels-first ops with converted weights.
#include <cmath>
#include <map>
#include <set>

#include "export/inference_graph.h"
#include "export/layer_mapping.h"
#include "layerforge/core/error.h"
#include "layerforge/graph/batch_norm_fold.h"
#include "layers/window.h"

namespace lf {
std::size_t concat_axis(std::int64_t axis, std::size_t rank);  // layers/merge.cpp
}  // namespace lf

namespace lf::exporter {

const Tensor* Op::weight(const std::string& role) const {
    for (const auto& t : weights)
        if (t.role == role) return &t;
    return nullptr;
}

TransposeGeometry transpose_geometry(const Op& op) {
    TransposeGeometry g;
    for (std::size_t a = 0; a < 2; ++a) {
        const std::int64_t begin = op.pads[a], end = op.pads[a + 2];
        g.symmetric[a] = std::min(begin, std::max<std::int64_t>(end, 0));
        g.output_padding[a] = std::max<std::int64_t>(-end, 0);
        g.crop_begin[a] = begin - g.symmetric[a];
        g.crop = g.crop || begin != g.symmetric[a] || std::max<std::int64_t>(end, 0) != g.symmetric[a];
    }
    return g;
}

namespace {

struct Val {
    std::string name;
    Shape keras;            // the per-sample shape as the engine sees it (channels last)
    bool nchw = false;      // an image stored channels-first
    bool chw_flat = false;  // a vector flattened channels-first from the image `keras_image`
    Shape keras_image;
    std::vector<std::int64_t> dims() const {
        if (nchw) return {keras[2], keras[0], keras[1]};
        return keras.dims;
    }
};

class Lowering {
public:
    Lowering(const Model& m, InputLayout layout, bool fold) : m_(m), layout_(layout), fold_(fold) {
        for (const Edge& e : m.graph().edges) consumers_[e.from.node].push_back(e.to.node);
    }

    InferenceGraph run() {
        for (const std::string& id : m_.analysis().order) lower_node(*m_.graph().find(id));
        finish_output();
        return std::move(g_);
    }

private:
    const Model& m_;
    InputLayout layout_;
    bool fold_;
    InferenceGraph g_;
    std::map<std::string, Val> vals_;
    std::map<std::string, std::vector<std::string>> consumers_;

    const Params& params(const Node& n) const { return m_.info(n.id).params; }
    Val input(const Node& n, std::size_t port = 0) const { return vals_.at(m_.graph().inputs_of(n.id).at(port).from.node); }

    Op& emit(OpKind kind, const Node& n, std::vector<std::string> inputs, std::string output) {
        Op op{kind};
        op.layer = n.name;
        op.inputs = std::move(inputs);
        op.output = std::move(output);
        g_.ops.push_back(std::move(op));
        return g_.ops.back();
    }

    std::vector<float> weight(const Node& n, const std::string& what) const {
        const WeightRef* r = m_.find_weight(n.name + "/" + what);
        if (!r) throw runtime_error("export: node '" + n.name + "' has no weight '" + what + "'");
        const float* p = m_.weights().data() + r->offset;
        return {p, p + r->size};
    }
    bool has_weight(const Node& n, const std::string& what) const { return m_.find_weight(n.name + "/" + what); }

    Val transposed(const Node& n, const Val& v, bool to_nchw) {
        Val out = v;
        out.nchw = to_nchw;
        out.name = n.name + (to_nchw ? "/nchw" : "/nhwc");
        emit(OpKind::Transpose, n, {v.name}, out.name).perm =
            to_nchw ? std::vector<std::int64_t>{0, 3, 1, 2} : std::vector<std::int64_t>{0, 2, 3, 1};
        return out;
    }

    // The activation op after a layer's linear part; `linear` is its output value.
    Val activate(const Node& n, Val linear, const std::string& activation) {
        const char* op = activation_op(activation);
        if (!op) throw input_error("cannot export node '" + n.name + "': activation '" + activation + "' has no mapping");
        if (std::string(op) == "Identity") return linear;
        Val out = linear;
        out.name = n.name;
        Op& a = emit(OpKind::Activation, n, {linear.name}, out.name);
        a.activation = op;
        a.axis = linear.nchw ? 1 : -1;
        return out;
    }

    // Output name of a layer's linear part: its own name unless an activation follows.
    std::string linear_name(const Node& n, const std::string& activation) const {
        return activation == "linear" ? n.name : n.name + "/linear";
    }

    // The BatchNormalization node folded into `n`, or null: only when asked, when n's output
    // feeds that node alone and n has no activation in between.
    const Node* fold_partner(const Node& n) const {
        if (!fold_ || param_str(params(n), "activation") != "linear") return nullptr;
        auto it = consumers_.find(n.id);
        if (it == consumers_.end() || it->second.size() != 1) return nullptr;
        const Node* bn = m_.graph().find(it->second[0]);
        return bn->type == "BatchNormalization" && n.id != m_.output_node() ? bn : nullptr;
    }

    // Scales each output channel (the leading axis of W) into the folded BatchNormalization.
    void fold_into(Op& op, const Node& bn, std::int64_t channels) {
        const auto gamma = weight(bn, "gamma"), beta = weight(bn, "beta");
        const auto mean = weight(bn, "moving_mean"), var = weight(bn, "moving_variance");
        const double eps = param_float(params(bn), "epsilon");
        Tensor& w = op.weights[0];
        if (!op.weight("B")) op.weights.push_back({"B", {channels}, std::vector<float>(std::size_t(channels), 0.f)});
        Tensor& b = op.weights[1];
        const std::size_t per = w.data.size() / std::size_t(channels);
        for (std::size_t o = 0; o < std::size_t(channels); ++o) {
            const double s = norm_fold_scale(double(gamma[o]), double(var[o]), eps);
            for (std::size_t k = 0; k < per; ++k) w.data[o * per + k] = float(w.data[o * per + k] * s);
            b.data[o] = float(norm_fold_shift(double(b.data[o]), double(mean[o]), double(beta[o]), s));
        }
        op.layer += "+" + bn.name;
    }

    // Dense / Conv tail: optional folding, then the activation.
    void finish_linear(const Node& n, Op& op, Val out, std::int64_t channels) {
        const std::string act = param_str(params(n), "activation");
        // (A ConvTranspose kernel leads with the input channels: BatchNormalization stays separate.)
        const Node* bn = op.kind == OpKind::ConvTranspose ? nullptr : fold_partner(n);
        if (bn) {
            fold_into(op, *bn, channels);
            vals_[n.id] = vals_[bn->id] = out;
            return;
        }
        vals_[n.id] = activate(n, out, act);
    }

    void lower_input(const Node& n) {
        const Shape& s = m_.info(n.id).layer.output;
        Val v{n.name, s};
        if (s.rank() == 3 && layout_ == InputLayout::NCHW) v.nchw = true;
        g_.input = {n.name, v.dims()};
        vals_[n.id] = s.rank() == 3 && !v.nchw ? transposed(n, v, true) : v;
    }

    void lower_dense(const Node& n) {
        const Val in = input(n);
        const auto kernel = weight(n, "kernel");
        const std::int64_t k = in.keras.elements(), units = param_int(params(n), "units");
        // Row j of W^T reads the engine's channels-last flat index of the same (h, w, c).
        auto source_row = [&](std::int64_t j) {
            if (!in.chw_flat) return j;
            const Shape& s = in.keras_image;  // (H, W, C)
            const std::int64_t H = s[0], W = s[1], C = s[2];
            const std::int64_t c = j / (H * W), h = (j / W) % H, w = j % W;
            return (h * W + w) * C + c;
        };
        Tensor w{"W", {units, k}, std::vector<float>(std::size_t(units * k))};
        for (std::int64_t j = 0; j < k; ++j) {
            const float* row = kernel.data() + source_row(j) * units;
            for (std::int64_t u = 0; u < units; ++u) w.data[std::size_t(u * k + j)] = row[u];
        }
        Val out{linear_name(n, param_str(params(n), "activation")), Shape{units}};
        Op& op = emit(OpKind::Gemm, n, {in.name}, out.name);
        op.weights.push_back(std::move(w));
        if (has_weight(n, "bias")) op.weights.push_back({"B", {units}, weight(n, "bias")});
        finish_linear(n, op, out, units);
    }

    void set_window(Op& op, const Window2D& w) {
        op.kernel = w.kernel;
        op.strides = w.stride;
        op.dilations = w.dilation;
        op.pads = {w.pad_l[0], w.pad_l[1], w.pad_r[0], w.pad_r[1]};
    }

    void lower_conv(const Node& n, bool depthwise) {
        const Val in = input(n);
        const Params& p = params(n);
        const Shape& out_shape = m_.info(n.id).layer.output;
        const Window2D win = conv_window(in.keras, param_list(p, "kernel_size"), param_list(p, "strides"),
                                         param_list(p, "dilation_rate"), param_str(p, "padding"), n.type);
        const auto kernel = weight(n, depthwise ? "depthwise_kernel" : "kernel");
        const std::int64_t kh = win.kernel[0], kw = win.kernel[1], ci = in.keras[2], co = out_shape[2];
        const std::int64_t mult = depthwise ? co / ci : co, in_per_group = depthwise ? 1 : ci;
        Tensor w{"W", {co, in_per_group, kh, kw}, std::vector<float>(std::size_t(co * in_per_group * kh * kw))};
        // Keras HWIO (or depthwise (kh, kw, C, mult): output channel c * mult + j) -> OIHW.
        for (std::int64_t y = 0; y < kh; ++y)
            for (std::int64_t x = 0; x < kw; ++x)
                for (std::int64_t c = 0; c < ci; ++c)
                    for (std::int64_t j = 0; j < mult; ++j) {
                        const float v = kernel[std::size_t(((y * kw + x) * ci + c) * mult + j)];
                        const std::int64_t o = depthwise ? c * mult + j : j, i = depthwise ? 0 : c;
                        w.data[std::size_t(((o * in_per_group + i) * kh + y) * kw + x)] = v;
                    }
        Val out{linear_name(n, param_str(p, "activation")), out_shape, true};
        Op& op = emit(OpKind::Conv, n, {in.name}, out.name);
        set_window(op, win);
        op.group = depthwise ? ci : 1;
        op.weights.push_back(std::move(w));
        if (has_weight(n, "bias")) op.weights.push_back({"B", {co}, weight(n, "bias")});
        finish_linear(n, op, out, co);
    }

    void lower_conv_transpose(const Node& n) {
        const Val in = input(n);
        const Params& p = params(n);
        const Shape& out_shape = m_.info(n.id).layer.output;
        const Window2D win = transposed_window(in.keras, p);
        const auto kernel = weight(n, "kernel");
        const std::int64_t kh = win.kernel[0], kw = win.kernel[1], ci = in.keras[2], co = out_shape[2];
        Tensor w{"W", {ci, co, kh, kw}, std::vector<float>(std::size_t(ci * co * kh * kw))};
        // Keras (kh, kw, out, in) -> ONNX / torch (in, out, kh, kw).
        for (std::int64_t y = 0; y < kh; ++y)
            for (std::int64_t x = 0; x < kw; ++x)
                for (std::int64_t o = 0; o < co; ++o)
                    for (std::int64_t i = 0; i < ci; ++i)
                        w.data[std::size_t(((i * co + o) * kh + y) * kw + x)] =
                            kernel[std::size_t(((y * kw + x) * co + o) * ci + i)];
        Val out{linear_name(n, param_str(p, "activation")), out_shape, true};
        Op& op = emit(OpKind::ConvTranspose, n, {in.name}, out.name);
        set_window(op, win);
        op.shape = {out_shape[0], out_shape[1]};
        op.weights.push_back(std::move(w));
        if (has_weight(n, "bias")) op.weights.push_back({"B", {co}, weight(n, "bias")});
        finish_linear(n, op, out, co);
    }

    void lower_pool(const Node& n) {
        const Val in = input(n);
        const Params& p = params(n);
        Val out{n.name, m_.info(n.id).layer.output, true};
        Op& op = emit(n.type == "MaxPool2D" ? OpKind::MaxPool : OpKind::AvgPool, n, {in.name}, out.name);
        set_window(op, pool_window(in.keras, p, n.type));
        op.count_include_pad = n.type == "AveragePooling2D" && param_bool(p, "count_include_pad");
        vals_[n.id] = out;
    }

    void lower_global_pool(const Node& n) {
        Val out{n.name, m_.info(n.id).layer.output};
        emit(n.type == "GlobalMaxPooling2D" ? OpKind::GlobalMaxPool : OpKind::GlobalAvgPool, n, {input(n).name}, out.name);
        vals_[n.id] = out;
    }

    // True when every path from `id` reaches only Dense layers (through Dropout): then a
    // channels-first Flatten is exact once those Dense kernels are permuted.
    bool feeds_only_dense(const std::string& id) const {
        auto it = consumers_.find(id);
        if (id == m_.output_node() || it == consumers_.end()) return false;
        for (const std::string& c : it->second) {
            const std::string& type = m_.graph().find(c)->type;
            if (type != "Dense" && !(type == "Dropout" && feeds_only_dense(c))) return false;
        }
        return true;
    }

    void lower_flatten(const Node& n) {
        Val in = input(n);
        if (in.keras.rank() == 1) {
            vals_[n.id] = in;
            return;
        }
        Val out{n.name, m_.info(n.id).layer.output};
        if (in.nchw && feeds_only_dense(n.id)) {
            out.chw_flat = true;
            out.keras_image = in.keras;
        } else if (in.nchw) {
            in = transposed(n, in, false);
        }
        emit(OpKind::Flatten, n, {in.name}, out.name);
        vals_[n.id] = out;
    }

    void lower_reshape(const Node& n) {
        Val in = input(n);
        if (in.nchw) in = transposed(n, in, false);
        const Shape& shape = m_.info(n.id).layer.output;
        Val out{shape.rank() == 3 ? n.name + "/nhwc" : n.name, shape};
        emit(OpKind::Reshape, n, {in.name}, out.name).shape = shape.dims;
        if (shape.rank() == 3) {
            out = transposed(n, out, true);
            out.name = n.name;
            g_.ops.back().output = n.name;
        }
        vals_[n.id] = out;
    }

    void lower_padding(const Node& n) {
        const IntList& t = param_list(params(n), "padding");  // top, bottom, left, right
        Val out{n.name, m_.info(n.id).layer.output, true};
        emit(OpKind::Pad, n, {input(n).name}, out.name).pads = {t[0], t[2], t[1], t[3]};
        vals_[n.id] = out;
    }

    void lower_batch_norm(const Node& n) {
        if (vals_.count(n.id)) return;  // folded into its producer
        const Val in = input(n);
        if (!in.nchw && in.keras.rank() != 1)
            throw input_error("cannot export node '" + n.name + "': BatchNormalization on " + in.keras.str() +
                              " has no channels-first form; export it after a convolution or a Dense layer");
        Val out{n.name, in.keras, in.nchw};
        Op& op = emit(OpKind::BatchNorm, n, {in.name}, out.name);
        const std::int64_t c = in.keras.dims.back();
        op.weights = {{"scale", {c}, weight(n, "gamma")},
                      {"bias", {c}, weight(n, "beta")},
                      {"mean", {c}, weight(n, "moving_mean")},
                      {"var", {c}, weight(n, "moving_variance")}};
        op.epsilon = param_float(params(n), "epsilon");
        vals_[n.id] = out;
    }

    void lower_merge(const Node& n) {
        std::vector<std::string> names;
        const Val first = input(n);
        for (std::size_t i = 0; i < m_.graph().inputs_of(n.id).size(); ++i) names.push_back(input(n, i).name);
        Val out{n.name, m_.info(n.id).layer.output, first.nchw};
        const OpKind kind = n.type == "Add" ? OpKind::Add : n.type == "Multiply" ? OpKind::Mul : OpKind::Concat;
        Op& op = emit(kind, n, names, out.name);
        if (n.type == "Concatenate") {
            const std::size_t a = concat_axis(param_int(params(n), "axis"), first.keras.rank());
            static constexpr std::int64_t kNchwAxis[] = {2, 3, 1};  // H, W, C of an NCHW image
            op.axis = first.nchw ? kNchwAxis[a] : std::int64_t(a) + 1;
        }
        vals_[n.id] = out;
    }

    void lower_activation_layer(const Node& n) {
        const Params& p = params(n);
        Val in = input(n);
        std::string act;
        if (n.type == "Activation") act = param_str(p, "activation");
        else if (n.type == "Sigmoid") act = "sigmoid";
        else if (n.type == "Tanh") act = "tanh";
        else if (n.type == "Softmax") act = "softmax";
        if (n.type == "ReLU" || n.type == "LeakyReLU") {
            const bool keras = n.type == "ReLU";
            Val out = in;
            out.name = n.name;
            Op& op = emit(OpKind::Activation, n, {in.name}, out.name);
            op.alpha = param_float(p, keras ? "negative_slope" : "alpha");
            op.threshold = keras ? param_float(p, "threshold") : 0.0;
            op.max_value = keras ? param_float(p, "max_value") : 0.0;
            op.activation = op.threshold != 0 || op.max_value > 0 ? "KerasRelu" : op.alpha == 0 ? "Relu" : "LeakyRelu";
            vals_[n.id] = out;
            return;
        }
        vals_[n.id] = activate(n, in, act);  // Activation('linear') passes the value through
    }

    void lower_node(const Node& n) {
        const std::string& t = n.type;
        if (t == "Input") lower_input(n);
        else if (t == "Dense") lower_dense(n);
        else if (t == "Conv2D" || t == "DepthwiseConv2D") lower_conv(n, t == "DepthwiseConv2D");
        else if (t == "Conv2DTranspose") lower_conv_transpose(n);
        else if (t == "MaxPool2D" || t == "AveragePooling2D") lower_pool(n);
        else if (t == "GlobalAveragePooling2D" || t == "GlobalMaxPooling2D") lower_global_pool(n);
        else if (t == "Flatten") lower_flatten(n);
        else if (t == "Reshape") lower_reshape(n);
        else if (t == "ZeroPadding2D") lower_padding(n);
        else if (t == "Dropout") vals_[n.id] = input(n);
        else if (t == "BatchNormalization") lower_batch_norm(n);
        else if (t == "Add" || t == "Concatenate" || t == "Multiply") lower_merge(n);
        else if (t == "Activation" || t == "ReLU" || t == "LeakyReLU" || t == "Sigmoid" || t == "Tanh" || t == "Softmax")
            lower_activation_layer(n);
        else throw input_error("cannot export node '" + n.name + "': no mapping for " + t);
    }

    void finish_output() {
        const Node& n = *m_.graph().find(m_.output_node());
        Val v = vals_.at(n.id);
        if (v.nchw && layout_ == InputLayout::NHWC) v = transposed(n, v, false);
        g_.output = {v.name, v.dims()};
    }
};

}  // namespace

InferenceGraph lower(const Model& m, InputLayout layout, bool fold_batchnorm) {
    require_mapped(m, ExportFormat::Onnx);
    return Lowering(m, layout, fold_batchnorm).run();
}

}  // namespace lf::exporter
