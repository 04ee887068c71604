#include "export/pytorch_writer.h"

#include <map>
#include <set>

#include "export/metadata.h"
#include "export/python_code.h"
#include "layerforge/store/weights_file.h"

namespace lf::exporter {

namespace {

const char* kHeader = R"PY("""PyTorch model exported by Layerforge.

    from model import load_model
    model = load_model()                 # weights from the file beside this script, eval mode
    probabilities = model(x)             # x: float32 (N, H, W, C), normalised as below
"""
import json
import os
import struct

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

)PY";

const char* kLoader = R"PY(

def read_safetensors(path):
    """The float32 tensors of a safetensors file, without the safetensors package."""
    with open(path, "rb") as f:
        size = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(size))
        data = f.read()
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        begin, end = info["data_offsets"]
        array = np.frombuffer(data[begin:end], dtype="<f4").reshape(info["shape"])
        tensors[name] = torch.from_numpy(array.copy())
    return tensors


def load_model(path=None):
    """The model with its exported weights, in eval mode."""
    model = LayerforgeModel()
    path = path or os.path.join(os.path.dirname(os.path.abspath(__file__)), WEIGHTS_FILE)
    missing, unexpected = model.load_state_dict(read_safetensors(path), strict=False)
    missing = [k for k in missing if not k.endswith("num_batches_tracked")]
    if missing or unexpected:
        raise RuntimeError(f"{path}: missing {missing}, unexpected {unexpected}")
    return model.eval()
)PY";

std::string pads_lrtb(const Op& op) {  // F.pad order: left, right, top, bottom
    const auto& p = op.pads;
    return "(" + std::to_string(p[1]) + ", " + std::to_string(p[3]) + ", " + std::to_string(p[0]) + ", " +
           std::to_string(p[2]) + ")";
}
bool padded(const Op& op) { return op.pads[0] || op.pads[1] || op.pads[2] || op.pads[3]; }
std::vector<std::int64_t> pair(const std::array<std::int64_t, 2>& a) { return {a[0], a[1]}; }

class TorchBuilder {
public:
    TorchBuilder(const InferenceGraph& g) {
        var_.emplace(g.input.name, std::string(1, 'x'));  // (emplace: GCC 12 warns falsely on = "x")
        rank_.emplace(g.input.name, 1 + g.input.dims.size());
    }

    void op(const Op& op) {
        const std::string in = var(op.inputs[0]);
        const std::size_t rank = rank_.at(op.inputs[0]);
        std::string expr;
        std::size_t out_rank = rank;
        switch (op.kind) {
        case OpKind::Transpose: expr = in + ".permute" + python_tuple(op.perm) + ".contiguous()"; break;
        case OpKind::Gemm: {
            const Tensor& w = *op.weight("W");
            const std::string m = module(op, "nn.Linear(" + std::to_string(w.shape[1]) + ", " + std::to_string(w.shape[0]) +
                                                 ", bias=" + (op.weight("B") ? "True" : "False") + ")");
            state(m + ".weight", w), bias(op, m);
            expr = "self." + m + "(" + in + ")";
            out_rank = 2;
            break;
        }
        case OpKind::Conv: {
            const Tensor& w = *op.weight("W");
            const bool symmetric = op.pads[0] == op.pads[2] && op.pads[1] == op.pads[3];
            const std::string m = module(
                op, "nn.Conv2d(" + std::to_string(w.shape[1] * op.group) + ", " + std::to_string(w.shape[0]) + ", " +
                        python_tuple(pair(op.kernel)) + ", stride=" + python_tuple(pair(op.strides)) +
                        ", padding=" + (symmetric ? python_tuple({op.pads[0], op.pads[1]}) : "0") +
                        ", dilation=" + python_tuple(pair(op.dilations)) + ", groups=" + std::to_string(op.group) +
                        ", bias=" + (op.weight("B") ? "True" : "False") + ")");
            state(m + ".weight", w), bias(op, m);
            expr = "self." + m + "(" + (symmetric || !padded(op) ? in : "F.pad(" + in + ", " + pads_lrtb(op) + ")") + ")";
            break;
        }
        case OpKind::ConvTranspose: {
            const Tensor& w = *op.weight("W");
            const TransposeGeometry t = transpose_geometry(op);
            const std::string m = module(
                op, "nn.ConvTranspose2d(" + std::to_string(w.shape[0]) + ", " + std::to_string(w.shape[1]) + ", " +
                        python_tuple(pair(op.kernel)) + ", stride=" + python_tuple(pair(op.strides)) +
                        ", padding=" + python_tuple(pair(t.symmetric)) + ", output_padding=" +
                        python_tuple(pair(t.output_padding)) + ", dilation=" + python_tuple(pair(op.dilations)) +
                        ", bias=" + (op.weight("B") ? "True" : "False") + ")");
            state(m + ".weight", w), bias(op, m);
            expr = "self." + m + "(" + in + ")";
            if (t.crop) {
                const auto& b = t.crop_begin;
                expr += "[:, :, " + std::to_string(b[0]) + ":" + std::to_string(b[0] + op.shape[0]) + ", " +
                        std::to_string(b[1]) + ":" + std::to_string(b[1] + op.shape[1]) + "]";
            }
            break;
        }
        case OpKind::MaxPool:
            expr = "F.max_pool2d(" + (padded(op) ? "F.pad(" + in + ", " + pads_lrtb(op) + ", value=float(\"-inf\"))" : in) +
                   ", " + python_tuple(pair(op.kernel)) + ", " + python_tuple(pair(op.strides)) + ")";
            break;
        case OpKind::AvgPool: {
            const std::string k = python_tuple(pair(op.kernel)) + ", " + python_tuple(pair(op.strides));
            if (op.count_include_pad) {
                expr = "F.avg_pool2d(F.pad(" + in + ", " + pads_lrtb(op) + "), " + k + ")  # padding counted";
                break;
            }
            expr = padded(op) ? "F.avg_pool2d(F.pad(" + in + ", " + pads_lrtb(op) + "), " + k +
                                    ") / F.avg_pool2d(F.pad(torch.ones_like(" + in + "[:, :1]), " + pads_lrtb(op) + "), " +
                                    k + ")  # padding not counted"
                              : "F.avg_pool2d(" + in + ", " + k + ")";
            break;
        }
        case OpKind::GlobalAvgPool: expr = in + ".mean(dim=(2, 3))", out_rank = 2; break;
        case OpKind::GlobalMaxPool: expr = in + ".amax(dim=(2, 3))", out_rank = 2; break;
        case OpKind::Flatten: expr = "torch.flatten(" + in + ", 1)", out_rank = 2; break;
        case OpKind::Reshape: {
            std::string dims;
            for (auto d : op.shape) dims += ", " + std::to_string(d);
            expr = in + ".reshape(" + in + ".shape[0]" + dims + ")";
            out_rank = 1 + op.shape.size();
            break;
        }
        case OpKind::BatchNorm: {
            const std::string m = module(op, std::string(rank == 4 ? "nn.BatchNorm2d(" : "nn.BatchNorm1d(") +
                                                 std::to_string(op.weight("scale")->shape[0]) +
                                                 ", eps=" + python_float(op.epsilon) + ")");
            state(m + ".weight", *op.weight("scale")), state(m + ".bias", *op.weight("bias"));
            state(m + ".running_mean", *op.weight("mean")), state(m + ".running_var", *op.weight("var"));
            expr = "self." + m + "(" + in + ")";
            break;
        }
        case OpKind::Add:
            for (std::size_t i = 0; i < op.inputs.size(); ++i) expr += (i ? " + " : "") + var(op.inputs[i]);
            break;
        case OpKind::Mul:
            for (std::size_t i = 0; i < op.inputs.size(); ++i) expr += (i ? " * " : "") + var(op.inputs[i]);
            break;
        case OpKind::Concat: {
            std::string list;
            for (std::size_t i = 0; i < op.inputs.size(); ++i) list += (i ? ", " : "") + var(op.inputs[i]);
            expr = "torch.cat([" + list + "], dim=" + std::to_string(op.axis) + ")";
            break;
        }
        case OpKind::Pad: expr = "F.pad(" + in + ", " + pads_lrtb(op) + ")"; break;
        case OpKind::Activation: expr = activation(op, in); break;
        }
        const std::string out = "v" + std::to_string(var_.size());
        var_[op.output] = out;
        rank_[op.output] = out_rank;
        forward_ += "        " + out + " = " + expr + "  # " + op.layer + "\n";
    }

    std::string code(const InferenceGraph& g, const ExportMetadata& meta, const std::string& weights_file) const {
        std::vector<std::int64_t> nhwc = g.input.dims;
        return std::string(kHeader) + python_metadata(meta, nhwc) + "WEIGHTS_FILE = \"" + weights_file + "\"\n\n\n" +
               "class LayerforgeModel(nn.Module):\n" +
               "    \"\"\"Input (N, H, W, C) as in the studio; output " + python_tuple(g.output.dims) +
               " per sample.\"\"\"\n\n" + "    def __init__(self):\n        super().__init__()\n" + init_ +
               "\n    def forward(self, x):\n" + forward_ + "        return " + var(g.output.name) + "\n" + kLoader;
    }

    std::string weights() const {
        std::vector<TensorRef> refs;
        for (const auto& [name, t] : state_) refs.push_back({name, t->shape, t->data.data(), t->data.size()});
        return encode_safetensors(refs, {{"format", "pt"}});
    }

private:
    std::map<std::string, std::string> var_;
    std::map<std::string, std::size_t> rank_;
    std::set<std::string> taken_;
    std::string init_, forward_;
    std::vector<std::pair<std::string, const Tensor*>> state_;

    std::string var(const std::string& value) const { return var_.at(value); }

    std::string module(const Op& op, const std::string& ctor) {
        const std::string m = python_name(op.layer, taken_);
        init_ += "        self." + m + " = " + ctor + "\n";
        return m;
    }
    void state(const std::string& key, const Tensor& t) { state_.push_back({key, &t}); }
    void bias(const Op& op, const std::string& m) {
        if (op.weight("B")) state(m + ".bias", *op.weight("B"));
    }

    // Keras' ReLU: max_value if x >= max_value, x if x >= threshold, else alpha * (x - threshold).
    static std::string keras_relu(const Op& op, const std::string& in) {
        const std::string capped =
            op.max_value > 0 ? "torch.clamp(" + in + ", max=" + python_float(op.max_value) + ")" : in;
        if (op.threshold == 0 && op.alpha == 0) return "torch.clamp(" + in + ", 0.0, " + python_float(op.max_value) + ")";
        return "torch.where(" + in + " >= " + python_float(op.threshold) + ", " + capped + ", " + python_float(op.alpha) +
               " * (" + in + " - " + python_float(op.threshold) + "))";
    }

    static std::string activation(const Op& op, const std::string& in) {
        const std::string& a = op.activation;
        if (a == "Relu") return "torch.relu(" + in + ")";
        if (a == "LeakyRelu") return "F.leaky_relu(" + in + ", " + python_float(op.alpha) + ")";
        if (a == "KerasRelu") return keras_relu(op, in);
        if (a == "Sigmoid") return "torch.sigmoid(" + in + ")";
        if (a == "Tanh") return "torch.tanh(" + in + ")";
        if (a == "Softmax") return "torch.softmax(" + in + ", dim=" + std::to_string(op.axis) + ")";
        if (a == "Elu") return "F.elu(" + in + ")";
        if (a == "Exp") return "torch.exp(" + in + ")";
        if (a == "HardSigmoid") return "F.hardsigmoid(" + in + ")";
        if (a == "HardSwish") return "F.hardswish(" + in + ")";
        return in + " * torch.sigmoid(" + in + ")";  // Swish
    }
};

}  // namespace

PyTorchExport write_pytorch(const InferenceGraph& g, const ExportMetadata& meta, const std::string& weights_file) {
    TorchBuilder b(g);
    for (const Op& op : g.ops) b.op(op);
    return {b.code(g, meta, weights_file), b.weights()};
}

}  // namespace lf::exporter
