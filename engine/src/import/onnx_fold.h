#pragma once
// Constant folding of the shape arithmetic exporters emit (torch.onnx.export without constant
// folding, tf2onnx): Shape of a tensor of known size, Gather, Concat, Unsqueeze, Cast, Slice,
// ... evaluated on the small constant tensors they work on, so the layers after them see plain
// numbers (a Reshape's target, a Pad's pads, a Clip's bounds).
#include <optional>
#include <vector>

#include "import/onnx_tensor.h"

namespace lf::onnx_import {

// The outputs of node `n` when every input is a constant (`inputs`, null for an omitted optional
// input); nullopt when `n` is not an op this folds. Throws lf::Error (Input) on a malformed node.
std::optional<std::vector<ConstTensor>> fold_node(const onnx::NodeProto& n, const std::vector<const ConstTensor*>& inputs,
                                                  const std::string& model_dir);

// Whether fold_node knows this op (it still needs constant inputs).
bool foldable_op(const std::string& op_type);

// Attribute helpers shared with the layer conversion.
const onnx::AttributeProto* find_attribute(const onnx::NodeProto& n, const std::string& name);
std::int64_t int_attribute(const onnx::NodeProto& n, const std::string& name, std::int64_t def);
float float_attribute(const onnx::NodeProto& n, const std::string& name, float def);
std::vector<std::int64_t> ints_attribute(const onnx::NodeProto& n, const std::string& name,
                                         std::vector<std::int64_t> def = {});
std::string string_attribute(const onnx::NodeProto& n, const std::string& name, const std::string& def);

}  // namespace lf::onnx_import
