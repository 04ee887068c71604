"""Runs exported models in runtimes Layerforge did not write, for tests/export.

usage: run_exported.py JOBS.json
Each job: {"kind": ..., "model": path, "input": raw float32 file, "shape": [...], "output": path}
  cv2      OpenCV DNN runs the ONNX file; writes the output as raw float32
  torch    imports model.py from the model folder, load_model(), runs it; raw float32
  check    onnx.checker.check_model(full_check=True); writes JSON {opset, ops, metadata, inputs, outputs}
  keras    parses keras_model.py (py_compile + ast): JSON {layers: [[class, name]], weight_shapes, npz}
"""
import ast
import json
import os
import py_compile
import sys

import numpy as np


def load_input(job):
    return np.fromfile(job["input"], dtype="<f4").reshape(job["shape"])


def run_cv2(job):
    import cv2
    net = cv2.dnn.readNetFromONNX(job["model"])
    net.setInput(load_input(job))
    np.ascontiguousarray(net.forward(), dtype="<f4").tofile(job["output"])


def run_torch(job):
    import torch
    torch.set_num_threads(1)
    import importlib.util
    # Each job imports its own model.py (as `from model import load_model` would), uncached.
    spec = importlib.util.spec_from_file_location("model_%d" % id(job), os.path.join(job["model"], "model.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with torch.no_grad():
        out = module.load_model()(torch.from_numpy(load_input(job))).numpy()
    np.ascontiguousarray(out, dtype="<f4").tofile(job["output"])


def dims(value_info):
    return [d.dim_param or d.dim_value for d in value_info.type.tensor_type.shape.dim]


def run_check(job):
    import onnx
    model = onnx.load(job["model"])
    onnx.checker.check_model(model, full_check=True)
    info = {"opset": model.opset_import[0].version,
            "ops": [n.op_type for n in model.graph.node],
            "metadata": {p.key: p.value for p in model.metadata_props},
            "inputs": {i.name: dims(i) for i in model.graph.input},
            "outputs": {o.name: dims(o) for o in model.graph.output}}
    with open(job["output"], "w") as f:
        json.dump(info, f)


def keras_call(node):
    """('Dense', 'dense_2') for tf.keras.layers.Dense(..., name='dense_2') / tf.keras.Input(name=...)."""
    f = node.func
    if not isinstance(f, ast.Attribute):
        return None
    chain = []
    v = f.value
    while isinstance(v, ast.Attribute):
        chain.insert(0, v.attr)
        v = v.value
    if not isinstance(v, ast.Name) or v.id != "tf":
        return None
    if chain not in (["keras", "layers"], ["keras"]) or (chain == ["keras"] and f.attr != "Input"):
        return None
    name = next((k.value.value for k in node.keywords if k.arg == "name"), None)
    return [f.attr, name]


def run_keras(job):
    path = os.path.join(job["model"], "keras_model.py")
    py_compile.compile(path, doraise=True)
    tree = ast.parse(open(path).read())
    layers, shapes = [], {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and keras_call(node):
            layers.append(keras_call(node))
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "WEIGHT_SHAPES":
            shapes = ast.literal_eval(node.value)
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "CLASSES":
            classes = ast.literal_eval(node.value)
    npz = np.load(os.path.join(job["model"], "keras_weights.npz"))
    info = {"layers": layers, "classes": classes,
            "weight_shapes": {k: [[n, list(s)] for n, s in v] for k, v in shapes.items()},
            "npz": {k: list(npz[k].shape) for k in npz.files},
            "checksum": {k: float(npz[k].astype(np.float64).sum()) for k in npz.files}}
    with open(job["output"], "w") as f:
        json.dump(info, f)


if __name__ == "__main__":
    for job in json.load(open(sys.argv[1])):
        {"cv2": run_cv2, "torch": run_torch, "check": run_check, "keras": run_keras}[job["kind"]](job)
