// Writes the lowered graph through Debian libonnx's protobuf types. ONNX_NAMESPACE=onnx and
// ONNX_ML=1 come from the ONNX::onnx CMake target, as Debian built the library.
#include "export/onnx_writer.h"

#include <onnx/checker.h>
#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include "export/metadata.h"
#include "layerforge/core/error.h"

namespace lf::exporter {

namespace {

void add_int_attr(onnx::NodeProto& n, const char* name, std::int64_t v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(v);
}

void add_float_attr(onnx::NodeProto& n, const char* name, double v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(float(v));
}

template <class Range>
void add_ints_attr(onnx::NodeProto& n, const char* name, const Range& values) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INTS);
    for (std::int64_t v : values) a->add_ints(v);
}

void set_value_info(onnx::ValueInfoProto& vi, const Value& v) {
    vi.set_name(v.name);
    auto* t = vi.mutable_type()->mutable_tensor_type();
    t->set_elem_type(onnx::TensorProto::FLOAT);
    auto* shape = t->mutable_shape();
    shape->add_dim()->set_dim_param("N");  // dynamic batch
    for (std::int64_t d : v.dims) shape->add_dim()->set_dim_value(d);
}

class OnnxBuilder {
public:
    explicit OnnxBuilder(onnx::GraphProto& g) : g_(g) {}

    onnx::NodeProto& node(const char* type, const std::string& name, std::vector<std::string> in, const std::string& out) {
        auto* n = g_.add_node();
        n->set_op_type(type);
        n->set_name(name + "/" + type + std::to_string(count_++));
        for (const auto& i : in) n->add_input(i);
        n->add_output(out);
        return *n;
    }

    std::string initializer(const std::string& name, const Tensor& t) {
        auto* p = g_.add_initializer();
        p->set_name(name);
        p->set_data_type(onnx::TensorProto::FLOAT);
        for (auto d : t.shape) p->add_dims(d);
        p->set_raw_data(std::string(reinterpret_cast<const char*>(t.data.data()), t.data.size() * sizeof(float)));
        return name;
    }

    std::string int64_initializer(const std::string& name, const std::vector<std::int64_t>& v) {
        auto* p = g_.add_initializer();
        p->set_name(name);
        p->set_data_type(onnx::TensorProto::INT64);
        p->add_dims(std::int64_t(v.size()));
        for (auto x : v) p->add_int64_data(x);
        return name;
    }

    void op(const Op& op) {
        const std::string& L = op.layer;
        auto weight = [&](const char* role, const char* suffix) { return initializer(L + "/" + suffix, *op.weight(role)); };
        switch (op.kind) {
        case OpKind::Transpose: add_ints_attr(node("Transpose", L, op.inputs, op.output), "perm", op.perm); break;
        case OpKind::Gemm: {
            std::vector<std::string> in{op.inputs[0], weight("W", "kernel")};
            if (op.weight("B")) in.push_back(weight("B", "bias"));
            add_int_attr(node("Gemm", L, in, op.output), "transB", 1);
            break;
        }
        case OpKind::Conv: {
            std::vector<std::string> in{op.inputs[0], weight("W", "kernel")};
            if (op.weight("B")) in.push_back(weight("B", "bias"));
            auto& n = node("Conv", L, in, op.output);
            window_attrs(n, op);
            add_ints_attr(n, "dilations", op.dilations);
            add_int_attr(n, "group", op.group);
            break;
        }
        case OpKind::ConvTranspose: conv_transpose(op); break;
        case OpKind::MaxPool: window_attrs(node("MaxPool", L, op.inputs, op.output), op); break;
        case OpKind::AvgPool: {
            auto& n = node("AveragePool", L, op.inputs, op.output);
            window_attrs(n, op);
            add_int_attr(n, "count_include_pad", op.count_include_pad ? 1 : 0);
            break;
        }
        case OpKind::GlobalAvgPool:
        case OpKind::GlobalMaxPool: {
            const char* type = op.kind == OpKind::GlobalAvgPool ? "GlobalAveragePool" : "GlobalMaxPool";
            node(type, L, op.inputs, op.output + "/4d");
            add_int_attr(node("Flatten", L, {op.output + "/4d"}, op.output), "axis", 1);
            break;
        }
        case OpKind::Flatten: add_int_attr(node("Flatten", L, op.inputs, op.output), "axis", 1); break;
        case OpKind::Reshape: {
            std::vector<std::int64_t> shape{0};  // 0: keep the batch dimension
            shape.insert(shape.end(), op.shape.begin(), op.shape.end());
            node("Reshape", L, {op.inputs[0], int64_initializer(L + "/shape", shape)}, op.output);
            break;
        }
        case OpKind::BatchNorm: {
            auto& n = node("BatchNormalization", L,
                           {op.inputs[0], weight("scale", "gamma"), weight("bias", "beta"), weight("mean", "moving_mean"),
                            weight("var", "moving_variance")},
                           op.output);
            add_float_attr(n, "epsilon", op.epsilon);
            break;
        }
        case OpKind::Add: {  // binary Adds: every runtime has them
            std::string acc = op.inputs[0];
            for (std::size_t i = 1; i < op.inputs.size(); ++i) {
                const std::string out = i + 1 == op.inputs.size() ? op.output : op.output + "/sum" + std::to_string(i);
                node("Add", L, {acc, op.inputs[i]}, out);
                acc = out;
            }
            break;
        }
        case OpKind::Concat: add_int_attr(node("Concat", L, op.inputs, op.output), "axis", op.axis); break;
        case OpKind::Mul: {  // binary, broadcasting as numpy
            std::string acc = op.inputs[0];
            for (std::size_t i = 1; i < op.inputs.size(); ++i) {
                const std::string out = i + 1 == op.inputs.size() ? op.output : op.output + "/product" + std::to_string(i);
                node("Mul", L, {acc, op.inputs[i]}, out);
                acc = out;
            }
            break;
        }
        case OpKind::Pad: {
            const auto& p = op.pads;  // top, left, bottom, right -> begins then ends of N, C, H, W
            node("Pad", L, {op.inputs[0], int64_initializer(L + "/pads", {0, 0, p[0], p[1], 0, 0, p[2], p[3]})}, op.output);
            break;
        }
        case OpKind::Activation: activation(op); break;
        }
    }

private:
    onnx::GraphProto& g_;
    int count_ = 0;

    // OpenCV reads only symmetric ConvTranspose pads: the rest of the cropping is a Slice.
    void conv_transpose(const Op& op) {
        const std::string& L = op.layer;
        const TransposeGeometry t = transpose_geometry(op);
        std::vector<std::string> in{op.inputs[0], initializer(L + "/kernel", *op.weight("W"))};
        if (op.weight("B")) in.push_back(initializer(L + "/bias", *op.weight("B")));
        const std::string full = t.crop ? op.output + "/uncropped" : op.output;
        auto& n = node("ConvTranspose", L, in, full);
        add_ints_attr(n, "kernel_shape", op.kernel);
        add_ints_attr(n, "strides", op.strides);
        add_ints_attr(n, "dilations", op.dilations);
        add_ints_attr(n, "pads", std::array<std::int64_t, 4>{t.symmetric[0], t.symmetric[1], t.symmetric[0], t.symmetric[1]});
        add_ints_attr(n, "output_padding", t.output_padding);
        if (!t.crop) return;
        const std::vector<std::int64_t> begin{t.crop_begin[0], t.crop_begin[1]};
        node("Slice", L,
             {full, int64_initializer(L + "/crop_begin", begin),
              int64_initializer(L + "/crop_end", {begin[0] + op.shape[0], begin[1] + op.shape[1]}),
              int64_initializer(L + "/crop_axes", {2, 3})},
             op.output);
    }

    void window_attrs(onnx::NodeProto& n, const Op& op) {
        add_ints_attr(n, "kernel_shape", op.kernel);
        add_ints_attr(n, "strides", op.strides);
        add_ints_attr(n, "pads", op.pads);  // ONNX order: H begin, W begin, H end, W end
    }

    std::string scalar(const std::string& name, double v) {
        return initializer(name, Tensor{"", {}, {float(v)}});
    }

    // Keras' ReLU from ops every runtime has (OpenCV 4.6 reads no Clip with min/max inputs, no Min,
    // and no Greater on a dynamic batch): LeakyRelu(x - threshold, alpha) + threshold * (x > threshold)
    // - Relu(x - max_value), the step as Relu(Sign(x - threshold)).
    void keras_relu(const Op& op) {
        const std::string& L = op.layer;
        const std::string& x = op.inputs[0];
        std::string acc = x;
        if (op.threshold != 0) {
            const std::string th = scalar(L + "/threshold", op.threshold);
            node("Sub", L, {x, th}, L + "/shifted");
            auto& lr = node("LeakyRelu", L, {L + "/shifted"}, L + "/below");
            add_float_attr(lr, "alpha", op.alpha);
            node("Sign", L, {L + "/shifted"}, L + "/sign");
            node("Relu", L, {L + "/sign"}, L + "/above");  // 1 above the threshold, else 0
            node("Mul", L, {L + "/above", th}, L + "/step");
            acc = op.max_value > 0 ? L + "/uncapped" : op.output;
            node("Add", L, {L + "/below", L + "/step"}, acc);
        } else {
            acc = op.max_value > 0 ? L + "/uncapped" : op.output;
            auto& r = node(op.alpha == 0 ? "Relu" : "LeakyRelu", L, {x}, acc);
            if (op.alpha != 0) add_float_attr(r, "alpha", op.alpha);
        }
        if (op.max_value <= 0) return;
        node("Sub", L, {x, scalar(L + "/max_value", op.max_value)}, L + "/over");
        node("Relu", L, {L + "/over"}, L + "/excess");
        node("Sub", L, {acc, L + "/excess"}, op.output);
    }

    void activation(const Op& op) {
        const std::string& a = op.activation;
        if (a == "KerasRelu") return keras_relu(op);
        if (a == "Swish") {  // x * sigmoid(x): Swish is not a standard ONNX op
            node("Sigmoid", op.layer, op.inputs, op.output + "/sigmoid");
            node("Mul", op.layer, {op.inputs[0], op.output + "/sigmoid"}, op.output);
            return;
        }
        if (a == "HardSigmoid" || a == "HardSwish") {  // ONNX's default slope is 0.2 (Keras 2's): 1/6 here
            const std::string sigmoid = a == "HardSwish" ? op.output + "/hard_sigmoid" : op.output;
            auto& h = node("HardSigmoid", op.layer, op.inputs, sigmoid);
            add_float_attr(h, "alpha", 1.0 / 6.0);
            add_float_attr(h, "beta", 0.5);
            if (a == "HardSwish") node("Mul", op.layer, {op.inputs[0], sigmoid}, op.output);  // HardSwish needs opset 14
            return;
        }
        auto& n = node(a.c_str(), op.layer, op.inputs, op.output);
        if (a == "LeakyRelu") add_float_attr(n, "alpha", op.alpha);
        if (a == "Softmax") add_int_attr(n, "axis", op.axis);
        if (a == "Elu") add_float_attr(n, "alpha", 1.0);
    }
};

}  // namespace

std::string write_onnx(const InferenceGraph& g, const ExportMetadata& meta, const ExportOptions& options) {
    onnx::ModelProto model;
    model.set_ir_version(onnx::IR_VERSION);
    model.set_producer_name("layerforge");
    model.set_producer_version("0.1.0");
    model.set_doc_string("Exported by Layerforge; metadata_props hold the class names and input normalisation.");
    auto* opset = model.add_opset_import();
    opset->set_domain("");
    opset->set_version(options.opset);
    for (const auto& [k, v] : metadata_entries(meta, options.layout)) {
        auto* p = model.add_metadata_props();
        p->set_key(k);
        p->set_value(v);
    }
    auto* graph = model.mutable_graph();
    graph->set_name("layerforge");
    set_value_info(*graph->add_input(), g.input);
    set_value_info(*graph->add_output(), g.output);
    OnnxBuilder b(*graph);
    for (const Op& op : g.ops) b.op(op);
    try {
        onnx::checker::check_model(model);
        // Strict (error_mode 1) with type checks: any node whose shapes do not infer fails the export.
        onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), onnx::ShapeInferenceOptions(true, 1, false));
        onnx::checker::check_model(model);
    } catch (const std::exception& e) {
        throw runtime_error(std::string("the exported ONNX model does not validate: ") + e.what());
    }
    std::string bytes;
    if (!model.SerializeToString(&bytes)) throw runtime_error("cannot serialise the ONNX model");
    return bytes;
}

}  // namespace lf::exporter
