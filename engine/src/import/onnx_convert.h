#pragma once
// The conversion of a checked ONNX graph into Layerforge layers, channels last: one pass over
// the nodes in their (topological) file order, constants folded on the way. Every node it
// cannot convert is collected, and all of them are thrown together in one lf::Error (Input).
#include <map>
#include <set>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

#include "import/onnx_tensor.h"
#include "layerforge/core/shape.h"
#include "layerforge/import/import.h"

namespace lf::onnx_import {

// What an ONNX tensor is on the Layerforge side.
struct Value {
    enum class Kind {
        Constant,  // known numbers: `constant`
        Image,     // ONNX (N, C, H, W); the engine's (H, W, C) output of `node`
        Vector,    // ONNX (N, K), or (N, K, 1, 1) when `squeezed`; the engine's (K)
        Nhwc,      // ONNX (N, H, W, C) (a channels-last input before its Transpose); the engine's (H, W, C)
    };
    Kind kind = Kind::Constant;
    ConstTensor constant;
    std::string node;  // engine node id
    Shape shape;       // the engine's per-sample shape
    bool squeezed = false;
    // A Vector flattened channels-first from this (H, W, C) image (rank 0: not, or H = W = 1,
    // where both orders agree): a Dense reading it gets its kernel rows permuted.
    Shape flattened_from;
};

// Thrown by an op's conversion: the node cannot be converted, and why.
struct Unsupported {
    std::string why;
};

class Converter {
public:
    Converter(const onnx::ModelProto& model, std::string origin, std::string model_dir);
    ImportedModel run();

private:
    // The driver (onnx_convert.cpp).
    void read_initializers();
    void add_graph_input();
    void find_patterns();
    void convert(std::size_t index);
    void dispatch(const onnx::NodeProto& n);
    using Handler = void (Converter::*)(const onnx::NodeProto&);
    static Handler handler_of(const std::string& op_type);
    void finish_output();
    bool try_fold(const onnx::NodeProto& n);

    // Building blocks shared by the op conversions.
    const Value& tensor_input(const onnx::NodeProto& n, int port);
    const ConstTensor& constant_input(const onnx::NodeProto& n, int port, const std::string& what);
    const ConstTensor* optional_constant(const onnx::NodeProto& n, int port, const std::string& what);
    bool has_input(const onnx::NodeProto& n, int port) const;
    std::string add_layer(const onnx::NodeProto& n, const std::string& type, Params params,
                          const std::vector<std::string>& inputs, const std::string& suffix = "");
    void set_output(const onnx::NodeProto& n, Value v, int port = 0);
    void alias_output(const onnx::NodeProto& n, const Value& v);
    Value layer_value(const std::string& id, Value::Kind kind) const;
    // The engine node that holds `v` as an (H, W, C) image: a squeezed Vector gets a Reshape.
    std::string image_node(const onnx::NodeProto& n, const Value& v);
    void add_weight(const std::string& layer, const std::string& what, std::vector<std::int64_t> shape,
                    std::vector<float> values);
    void note(const std::string& line);
    std::vector<std::int64_t> onnx_dims(const Value& v) const;
    const onnx::NodeProto* producer(const std::string& tensor) const;
    const std::vector<std::size_t>& consumers(const std::string& tensor) const;

    // The op conversions (onnx_ops_*.cpp), one per ONNX op family.
    void conv(const onnx::NodeProto& n);
    void conv_transpose(const onnx::NodeProto& n);
    void gemm(const onnx::NodeProto& n);
    void matmul(const onnx::NodeProto& n);
    void batch_norm(const onnx::NodeProto& n);
    void activation(const onnx::NodeProto& n);
    void hard_activation(const onnx::NodeProto& n);  // HardSigmoid (PyTorch's slope 1/6), HardSwish
    void clip(const onnx::NodeProto& n);
    void softmax(const onnx::NodeProto& n);
    void mul(const onnx::NodeProto& n);
    void add(const onnx::NodeProto& n);
    void concat(const onnx::NodeProto& n);
    void pool(const onnx::NodeProto& n);
    void global_pool(const onnx::NodeProto& n);
    void reduce_mean(const onnx::NodeProto& n);
    void flatten(const onnx::NodeProto& n);
    void reshape(const onnx::NodeProto& n);
    void squeeze(const onnx::NodeProto& n) { squeeze_axes(n, false); }
    void unsqueeze(const onnx::NodeProto& n) { squeeze_axes(n, true); }
    void squeeze_axes(const onnx::NodeProto& n, bool unsqueeze);
    void identity(const onnx::NodeProto& n);
    void transpose(const onnx::NodeProto& n);
    void pad(const onnx::NodeProto& n);
    void dropout(const onnx::NodeProto& n);
    void shape(const onnx::NodeProto& n);
    // A Dense from a (K, units) kernel, rows permuted when `in` was flattened channels-first.
    void dense(const onnx::NodeProto& n, const Value& in, std::vector<float> kernel, std::int64_t units,
               const std::vector<float>* bias, const std::string& from);

    const onnx::ModelProto& model_;
    const onnx::GraphProto& graph_;
    std::string origin_, model_dir_;
    ImportedModel out_;
    std::map<std::string, Value> values_;
    std::set<std::string> poisoned_;  // outputs of nodes that failed: their consumers stay quiet
    std::map<std::string, std::size_t> producer_;
    std::map<std::string, std::vector<std::size_t>> consumers_;
    std::set<std::size_t> fused_sigmoids_, absorbed_;  // nodes another node's conversion covers
    struct SwishMul {
        std::string activation, x;  // swish or hard_swish, of the Mul's input x
    };
    std::map<std::size_t, SwishMul> swish_muls_;  // the Mul of each x * Sigmoid(x) or x * HardSigmoid(x)
    std::map<std::string, Shape> shapes_;              // engine node id -> output shape
    std::map<std::string, std::string> image_of_;      // squeezed vector node -> its Reshape
    std::set<std::string> names_;
    std::vector<std::string> problems_;
    std::vector<std::pair<std::string, int>> notes_;
    std::int64_t batch_ = -1;  // the input's batch size; -1 when symbolic
    int folded_ = 0;           // shape-arithmetic nodes evaluated
    std::size_t current_ = 0;  // index of the node being converted
    bool has_conv_bias_ = false, has_batch_norm_ = false;
};

// "/features/features.0/Conv" -> "features.features.0.Conv", unique among `taken`, <= 200 bytes.
std::string layer_name(const std::string& onnx_name, const std::string& fallback, std::set<std::string>& taken);
// 6 -> "6", 0.5 -> "0.5".
std::string number_text(double v);
// A HardSigmoid with PyTorch's constants (alpha 1/6, beta 0.5): relu6(x + 3) / 6.
bool is_hard_sigmoid_of_relu6(const onnx::NodeProto& n);

}  // namespace lf::onnx_import
