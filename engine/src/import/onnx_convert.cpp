#include "import/onnx_convert.h"

#include <cstdio>

#include "import/onnx_fold.h"
#include "layerforge/core/error.h"
#include "layerforge/core/limits.h"
#include "layerforge/graph/layout.h"
#include "layerforge/layers/registry.h"

namespace lf::onnx_import {

std::string number_text(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::string layer_name(const std::string& onnx_name, const std::string& fallback, std::set<std::string>& taken) {
    std::string s;
    for (char c : onnx_name.empty() ? fallback : onnx_name) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '/' || c == ':' || u < 0x20 || u == 0x7f) {  // Keras and file systems refuse '/' in names
            if (!s.empty() && s.back() != '.') s += '.';
        } else {
            s += c;
        }
    }
    while (!s.empty() && s.back() == '.') s.pop_back();
    if (s.empty()) s = fallback;
    if (s.size() > 200) s.resize(200);
    std::string name = s;
    for (int i = 2; !taken.insert(name).second; ++i) name = s + "_" + std::to_string(i);
    return name;
}

Converter::Converter(const onnx::ModelProto& model, std::string origin, std::string model_dir)
    : model_(model), graph_(model.graph()), origin_(std::move(origin)), model_dir_(std::move(model_dir)) {
    for (std::size_t i = 0; i < std::size_t(graph_.node_size()); ++i) {
        const auto& n = graph_.node(int(i));
        for (const auto& o : n.output()) producer_[o] = i;
        for (const auto& in : n.input()) consumers_[in].push_back(i);
    }
}

const onnx::NodeProto* Converter::producer(const std::string& tensor) const {
    auto it = producer_.find(tensor);
    return it == producer_.end() ? nullptr : &graph_.node(int(it->second));
}

const std::vector<std::size_t>& Converter::consumers(const std::string& tensor) const {
    static const std::vector<std::size_t> none;
    auto it = consumers_.find(tensor);
    return it == consumers_.end() ? none : it->second;
}

void Converter::read_initializers() {
    for (const auto& t : graph_.initializer()) {
        Value v;
        v.constant = read_tensor(t, model_dir_, origin_);
        values_[t.name()] = std::move(v);
    }
}

void Converter::add_graph_input() {
    std::vector<const onnx::ValueInfoProto*> inputs;
    for (const auto& i : graph_.input())
        if (!values_.count(i.name())) inputs.push_back(&i);
    if (inputs.size() != 1)
        throw input_error(origin_ + ": the model has " + std::to_string(inputs.size()) +
                          " inputs besides its weights; Layerforge models have exactly one");
    const auto& in = *inputs[0];
    std::vector<std::int64_t> dims;
    for (const auto& d : in.type().tensor_type().shape().dim()) dims.push_back(d.has_dim_value() ? d.dim_value() : -1);
    for (std::size_t i = 1; i < dims.size(); ++i)
        if (dims[i] < 1)
            throw input_error(origin_ + ": input '" + in.name() + "' has a dimension of unknown size; Layerforge imports "
                              "models with a fixed input size (export with a static input shape)");
    if (dims.size() != 4 && dims.size() != 2)
        throw input_error(origin_ + ": input '" + in.name() + "' has rank " + std::to_string(dims.size()) +
                          "; Layerforge imports image (N, C, H, W) and vector (N, K) inputs");
    batch_ = dims[0];
    bool nhwc = dims.size() == 4 && !consumers(in.name()).empty();
    for (std::size_t c : consumers(in.name())) {
        const auto& n = graph_.node(int(c));
        nhwc = nhwc && n.op_type() == "Transpose" && ints_attribute(n, "perm") == std::vector<std::int64_t>{0, 3, 1, 2};
    }
    Value v;
    v.kind = dims.size() == 2 ? Value::Kind::Vector : nhwc ? Value::Kind::Nhwc : Value::Kind::Image;
    v.shape = dims.size() == 2 ? Shape{dims[1]} : nhwc ? Shape{dims[1], dims[2], dims[3]} : Shape{dims[2], dims[3], dims[1]};
    const std::string id = layer_name(in.name(), "input", names_);
    out_.graph.nodes.push_back({id, "Input", id, {{"shape", IntList(v.shape.dims)}}});
    shapes_[id] = v.shape;
    v.node = id;
    values_[in.name()] = v;
    if (nhwc) note("input (N, H, W, C) + Transpose -> Input (H, W, C)");
    else if (dims.size() == 4) note("input (N, C, H, W) -> Input (H, W, C), channels last");
}

// x * Sigmoid(x), or x * HardSigmoid(x) with PyTorch's slope (its Hardswish below opset 14): the
// sigmoid feeds only that Mul, whose other input is the sigmoid's input.
void Converter::find_patterns() {
    std::set<std::string> outputs;
    for (const auto& o : graph_.output()) outputs.insert(o.name());
    for (std::size_t i = 0; i < std::size_t(graph_.node_size()); ++i) {
        const auto& s = graph_.node(int(i));
        const bool hard = s.op_type() == "HardSigmoid" && is_hard_sigmoid_of_relu6(s);
        if ((s.op_type() != "Sigmoid" && !hard) || s.input_size() != 1 || outputs.count(s.output(0))) continue;
        const auto& users = consumers(s.output(0));
        if (users.size() != 1) continue;
        const auto& m = graph_.node(int(users[0]));
        if (m.op_type() != "Mul" || m.input_size() != 2) continue;
        const std::string& other = m.input(0) == s.output(0) ? m.input(1) : m.input(0);
        if (other != s.input(0)) continue;
        fused_sigmoids_.insert(i);
        swish_muls_[users[0]] = {hard ? "hard_swish" : "swish", other};
    }
}

bool Converter::try_fold(const onnx::NodeProto& n) {
    std::vector<const ConstTensor*> in;
    for (const auto& name : n.input()) {
        auto it = values_.find(name);
        if (name.empty()) in.push_back(nullptr);
        else if (it == values_.end() || it->second.kind != Value::Kind::Constant) return false;
        else in.push_back(&it->second.constant);
    }
    auto folded = fold_node(n, in, model_dir_);
    if (!folded) return false;
    for (std::size_t i = 0; i < folded->size() && int(i) < n.output_size(); ++i) {
        Value v;
        v.constant = std::move((*folded)[i]);
        values_[n.output(int(i))] = std::move(v);
    }
    if (n.op_type() != "Constant" && n.op_type() != "Identity") ++folded_;
    return true;
}

// The conversion of each op type Layerforge imports; null for the others.
Converter::Handler Converter::handler_of(const std::string& op) {
    static const std::map<std::string, Handler> handlers{
        {"Conv", &Converter::conv},
        {"ConvTranspose", &Converter::conv_transpose},
        {"Gemm", &Converter::gemm},
        {"MatMul", &Converter::matmul},
        {"BatchNormalization", &Converter::batch_norm},
        {"Relu", &Converter::activation},
        {"LeakyRelu", &Converter::activation},
        {"Sigmoid", &Converter::activation},
        {"Tanh", &Converter::activation},
        {"HardSigmoid", &Converter::hard_activation},
        {"HardSwish", &Converter::hard_activation},
        {"Clip", &Converter::clip},
        {"Softmax", &Converter::softmax},
        {"Mul", &Converter::mul},
        {"Add", &Converter::add},
        {"Concat", &Converter::concat},
        {"MaxPool", &Converter::pool},
        {"AveragePool", &Converter::pool},
        {"GlobalAveragePool", &Converter::global_pool},
        {"GlobalMaxPool", &Converter::global_pool},
        {"ReduceMean", &Converter::reduce_mean},
        {"Flatten", &Converter::flatten},
        {"Reshape", &Converter::reshape},
        {"Transpose", &Converter::transpose},
        {"Pad", &Converter::pad},
        {"Dropout", &Converter::dropout},
        {"Shape", &Converter::shape},
        {"Squeeze", &Converter::squeeze},
        {"Unsqueeze", &Converter::unsqueeze},
        {"Identity", &Converter::identity},
    };
    auto it = handlers.find(op);
    return it == handlers.end() ? nullptr : it->second;
}

void Converter::dispatch(const onnx::NodeProto& n) {
    const Handler h = n.domain().empty() || n.domain() == "ai.onnx" ? handler_of(n.op_type()) : nullptr;
    if (!h) throw Unsupported{n.domain().empty() ? "no Layerforge layer for this op" : "an op of domain '" + n.domain() + "'"};
    (this->*h)(n);
}

void Converter::convert(std::size_t index) {
    const auto& n = graph_.node(int(index));
    current_ = index;
    for (const auto& in : n.input())
        if (poisoned_.count(in)) {  // behind a node that failed: only an unknown op is worth naming too
            const bool known = (n.domain().empty() || n.domain() == "ai.onnx") &&
                               (handler_of(n.op_type()) || foldable_op(n.op_type()));
            if (!known) problems_.push_back("node '" + n.name() + "' (" + n.op_type() + "): no Layerforge layer for this op");
            for (const auto& o : n.output()) poisoned_.insert(o);
            return;
        }
    if (fused_sigmoids_.count(index) || absorbed_.count(index)) return;
    try {
        if (try_fold(n)) return;
        dispatch(n);
    } catch (const Unsupported& u) {
        problems_.push_back("node '" + n.name() + "' (" + n.op_type() + "): " + u.why);
        for (const auto& o : n.output()) poisoned_.insert(o);
    } catch (const Error& e) {
        problems_.push_back("node '" + n.name() + "' (" + n.op_type() + "): " + e.what());
        for (const auto& o : n.output()) poisoned_.insert(o);
    }
}

void Converter::finish_output() {
    if (graph_.output_size() != 1)
        throw input_error(origin_ + ": the model has " + std::to_string(graph_.output_size()) +
                          " outputs; Layerforge models have exactly one");
    const std::string& name = graph_.output(0).name();
    if (poisoned_.count(name)) return;
    auto it = values_.find(name);
    if (it == values_.end() || it->second.kind == Value::Kind::Constant)
        throw input_error(origin_ + ": the output '" + name + "' does not depend on the input");
    if (it->second.kind == Value::Kind::Image) note("output (N, C, H, W) -> (N, H, W, C), channels last");
    // The engine's output is the one node nothing consumes: drop layers that lead nowhere
    // (the unused second output of a Dropout, for one) by keeping only the output's ancestors.
    std::set<std::string> keep{it->second.node};
    std::vector<std::string> todo{it->second.node};
    while (!todo.empty()) {
        const std::string id = todo.back();
        todo.pop_back();
        for (const Edge& e : out_.graph.edges)
            if (e.to.node == id && keep.insert(e.from.node).second) todo.push_back(e.from.node);
    }
    std::erase_if(out_.graph.nodes, [&](const Node& n) { return !keep.count(n.id); });
    std::erase_if(out_.graph.edges, [&](const Edge& e) { return !keep.count(e.to.node); });
    std::erase_if(out_.weights, [&](const auto& w) { return !keep.count(w.first.substr(0, w.first.rfind('/'))); });
}

ImportedModel Converter::run() {
    read_initializers();
    add_graph_input();
    find_patterns();
    for (std::size_t i = 0; i < std::size_t(graph_.node_size()); ++i) convert(i);
    if (problems_.empty()) finish_output();
    if (!problems_.empty()) {
        std::string msg = origin_ + ": " + std::to_string(problems_.size()) +
                          (problems_.size() == 1 ? " node" : " nodes") + " cannot be converted (nothing was written):";
        for (const std::string& p : problems_) msg += "\n  " + p;
        throw input_error(msg);
    }
    if (folded_ > 0) note(std::to_string(folded_) + " shape and constant nodes (Shape, Gather, Concat, ...) -> folded into the layers' parameters");
    if (!has_batch_norm_ && has_conv_bias_)
        note("no BatchNormalization in the file: folded into the convolutions by the exporter, or never there");
    for (const auto& [line, count] : notes_)
        out_.conversions.push_back(count > 1 ? line + " (x" + std::to_string(count) + ")" : line);
    apply_layout(out_.graph, wrapped_layout(out_.graph, 1600, 900));
    return std::move(out_);
}

void Converter::note(const std::string& line) {
    for (auto& [l, count] : notes_)
        if (l == line) return void(++count);
    notes_.emplace_back(line, 1);
}

bool Converter::has_input(const onnx::NodeProto& n, int port) const {
    return port < n.input_size() && !n.input(port).empty();
}

const Value& Converter::tensor_input(const onnx::NodeProto& n, int port) {
    if (!has_input(n, port)) throw Unsupported{"input " + std::to_string(port) + " is missing"};
    auto it = values_.find(n.input(port));
    if (it == values_.end()) throw Unsupported{"input '" + n.input(port) + "' is produced by no node"};
    if (it->second.kind == Value::Kind::Constant)
        throw Unsupported{"input '" + n.input(port) + "' is a constant where Layerforge needs the network's data"};
    if (it->second.kind == Value::Kind::Nhwc && n.op_type() != "Transpose")
        throw Unsupported{"reads the (N, H, W, C) input directly; Layerforge takes it through a Transpose to (N, C, H, W)"};
    return it->second;
}

const ConstTensor* Converter::optional_constant(const onnx::NodeProto& n, int port, const std::string& what) {
    if (!has_input(n, port)) return nullptr;
    auto it = values_.find(n.input(port));
    if (it == values_.end() || it->second.kind != Value::Kind::Constant)
        throw Unsupported{what + " ('" + n.input(port) + "') must be a constant"};
    return &it->second.constant;
}

const ConstTensor& Converter::constant_input(const onnx::NodeProto& n, int port, const std::string& what) {
    const ConstTensor* c = optional_constant(n, port, what);
    if (!c) throw Unsupported{what + " is missing"};
    return *c;
}

std::string Converter::add_layer(const onnx::NodeProto& n, const std::string& type, Params params,
                                 const std::vector<std::string>& inputs, const std::string& suffix) {
    const LayerSpec* spec = LayerRegistry::instance().find(type);
    std::vector<ParamProblem> issues;
    const Params resolved = resolve_params(*spec, params, issues);
    if (!issues.empty()) throw Unsupported{issues[0].field + ": " + issues[0].message};
    std::vector<Shape> in;
    for (const std::string& id : inputs) in.push_back(shapes_.at(id));
    const LayerInfo info = spec->infer(resolved, in);  // lf::Error (Input) when shapes do not fit
    const std::string base = n.name().empty() ? n.op_type() + "_" + std::to_string(current_) : n.name();
    const std::string id = layer_name(base + suffix, type, names_);
    out_.graph.nodes.push_back({id, type, id, std::move(params)});
    for (std::size_t i = 0; i < inputs.size(); ++i) out_.graph.edges.push_back({{inputs[i], 0}, {id, int(i)}});
    shapes_[id] = info.output;
    return id;
}

Value Converter::layer_value(const std::string& id, Value::Kind kind) const {
    Value v;
    v.kind = kind;
    v.node = id;
    v.shape = shapes_.at(id);
    return v;
}

void Converter::set_output(const onnx::NodeProto& n, Value v, int port) {
    if (port < n.output_size() && !n.output(port).empty()) values_[n.output(port)] = std::move(v);
}

void Converter::alias_output(const onnx::NodeProto& n, const Value& v) { set_output(n, v); }

void Converter::identity(const onnx::NodeProto& n) { alias_output(n, tensor_input(n, 0)); }

std::string Converter::image_node(const onnx::NodeProto& n, const Value& v) {
    if (v.kind == Value::Kind::Image || v.kind == Value::Kind::Nhwc) return v.node;
    if (!v.squeezed) throw Unsupported{"needs an image, got a vector " + v.shape.str()};
    auto it = image_of_.find(v.node);
    if (it != image_of_.end()) return it->second;
    const std::string id = add_layer(n, "Reshape", {{"target_shape", IntList{1, 1, v.shape[0]}}}, {v.node}, ".image");
    note("(N, C, 1, 1) between a global pooling and a convolution -> Reshape (1, 1, C)");
    return image_of_[v.node] = id;
}

void Converter::add_weight(const std::string& layer, const std::string& what, std::vector<std::int64_t> shape,
                           std::vector<float> values) {
    out_.weights[layer + "/" + what] = ImportedTensor{std::move(shape), std::move(values)};
}

std::vector<std::int64_t> Converter::onnx_dims(const Value& v) const {
    switch (v.kind) {
    case Value::Kind::Constant: return v.constant.dims;
    case Value::Kind::Image: return {batch_, v.shape[2], v.shape[0], v.shape[1]};
    case Value::Kind::Nhwc: return {batch_, v.shape[0], v.shape[1], v.shape[2]};
    case Value::Kind::Vector:
        return v.squeezed ? std::vector<std::int64_t>{batch_, v.shape[0], 1, 1} : std::vector<std::int64_t>{batch_, v.shape[0]};
    }
    return {};
}

}  // namespace lf::onnx_import
