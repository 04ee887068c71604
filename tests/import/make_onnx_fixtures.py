"""Writes the ONNX fixtures of tests/import/test_import_onnx.cpp (offline, random seeded weights).

usage: make_onnx_fixtures.py OUTDIR
For each case OUTDIR/NAME.onnx, with OUTDIR/NAME.x.f32 (the NCHW batch) and OUTDIR/NAME.y.f32
(torch's output on it); OUTDIR/cases.json lists them with their shapes. Also the bad inputs:
an external-data model (its data file beside it, and a copy whose data file is missing), a
model with unsupported ops, a truncated file and a file that is not ONNX.
"""
import json
import os
import shutil
import sys

import numpy as np
import onnx
import onnx.helper as oh
import torch
import torchvision

torch.set_num_threads(2)
OUT = sys.argv[1]
BATCH = 2
cases = []


def export(name, net, size, opset, keep_bn):
    torch.manual_seed(1)
    x = torch.randn(BATCH, 3, size, size)
    path = os.path.join(OUT, name + ".onnx")
    kw = dict(opset_version=opset)
    if keep_bn:
        kw.update(training=torch.onnx.TrainingMode.PRESERVE, do_constant_folding=False)
    torch.onnx.export(net, x, path, **kw)
    with torch.no_grad():
        y = net(x).numpy()
    np.ascontiguousarray(x.numpy(), dtype="<f4").tofile(os.path.join(OUT, name + ".x.f32"))
    np.ascontiguousarray(y, dtype="<f4").tofile(os.path.join(OUT, name + ".y.f32"))
    ops = sorted({n.op_type for n in onnx.load(path).graph.node})
    cases.append({"name": name, "shape": list(x.shape), "outputs": int(y.shape[1]), "ops": ops})


def classifier(arch, seed=0):
    torch.manual_seed(seed)
    net = getattr(torchvision.models, arch)(weights=None, num_classes=10).eval()
    # Random BatchNormalization statistics, so a folded or kept normalisation matters.
    g = torch.Generator().manual_seed(seed + 1)
    for m in net.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.copy_(torch.randn(m.num_features, generator=g) * 0.1)
            m.running_var.copy_(torch.rand(m.num_features, generator=g) + 0.5)
            m.weight.data.copy_(torch.rand(m.num_features, generator=g) + 0.5)
            m.bias.data.copy_(torch.randn(m.num_features, generator=g) * 0.1)
    return net


for arch in ["mobilenet_v2", "resnet18"]:
    net = classifier(arch)
    for opset in [13, 17]:
        for keep in [False, True]:
            export("%s_op%d_%s" % (arch, opset, "bn" if keep else "folded"), net, 64, opset, keep)
export("squeezenet1_1", classifier("squeezenet1_1"), 64, 13, False)
export("efficientnet_b0", classifier("efficientnet_b0"), 64, 13, False)
export("densenet121", classifier("densenet121"), 64, 13, True)
export("mnasnet0_5", classifier("mnasnet0_5"), 64, 13, False)
# MobileNetV3: Hardswish (x * HardSigmoid(x) below opset 14, HardSwish from 14) and the
# squeeze-and-excitation's HardSigmoid scale.
for opset in [13, 14]:
    export("mobilenet_v3_small_op%d" % opset, classifier("mobilenet_v3_small"), 64, opset, False)

# A small CNN whose weights live in a file beside the model (onnx external data).
torch.manual_seed(3)
small = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2, ceil_mode=True),
                            torch.nn.Flatten(), torch.nn.Linear(8 * 5 * 5, 4)).eval()
export("external", small, 9, 13, False)
model = onnx.load(os.path.join(OUT, "external.onnx"))
onnx.save_model(model, os.path.join(OUT, "external.onnx"), save_as_external_data=True, all_tensors_to_one_file=True,
                location="external.data", size_threshold=0)
os.makedirs(os.path.join(OUT, "missing"), exist_ok=True)
shutil.copy(os.path.join(OUT, "external.onnx"), os.path.join(OUT, "missing", "external.onnx"))

# Two ops Layerforge has no layer for (one behind a node that fails), a grouped convolution and a
# HardSigmoid with Keras 2's slope (0.2, not PyTorch's 1/6): all four must be named.
x = oh.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [1, 4, 8, 8])
y = oh.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [1, 4, 8, 8])
w = oh.make_tensor("w", onnx.TensorProto.FLOAT, [4, 2, 1, 1], np.ones(8, dtype=np.float32).tolist())
nodes = [oh.make_node("Erf", ["x"], ["a"], name="erf_1"),
         oh.make_node("Conv", ["x", "w"], ["b"], name="grouped_conv", group=2),
         oh.make_node("Softsign", ["b"], ["c"], name="softsign_1"),
         oh.make_node("HardSigmoid", ["x"], ["d"], name="hard_sigmoid_1", alpha=0.2),
         oh.make_node("Add", ["a", "c"], ["e"], name="sum"),
         oh.make_node("Add", ["e", "d"], ["y"], name="sum_2")]
graph = oh.make_graph(nodes, "unsupported", [x], [y], [w])
onnx.save(oh.make_model(graph, opset_imports=[oh.make_opsetid("", 14)]), os.path.join(OUT, "unsupported.onnx"))

data = open(os.path.join(OUT, "resnet18_op13_folded.onnx"), "rb").read()
open(os.path.join(OUT, "truncated.onnx"), "wb").write(data[: len(data) // 3])
open(os.path.join(OUT, "not_onnx.onnx"), "wb").write(b"PK\x03\x04 this is a zip header, then text\n" * 20)

with open(os.path.join(OUT, "cases.json"), "w") as f:
    json.dump(cases, f)
