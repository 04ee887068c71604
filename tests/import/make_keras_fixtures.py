#!/usr/bin/python3
"""Writes Keras model files for tests/import, with h5py and numpy only (Keras is not installed),
in the layouts Keras' own saving code writes:

- Keras 3 `.keras` (keras/src/saving/saving_lib.py): a zip of metadata.json, config.json
  (serialize_keras_object) and model.weights.h5 with each layer's variables under
  layers/<snake_case class name, _1, _2 per class>/vars/<i>, trainable first.
- legacy `.h5` (legacy_h5_format.save_model_to_hdf5): root attributes keras_version, backend,
  model_config; group model_weights with attribute layer_names, one group per layer with
  attribute weight_names ("conv2d/kernel:0") naming datasets relative to that group.

Also writes expected.json: every weight under Layerforge's name "<layer>/<weight>", a seeded
input batch, and the model's output computed here in numpy (channels last, TF 'same' padding).

usage: make_keras_fixtures.py OUT_DIR
"""
import io
import json
import os
import sys
import zipfile

import h5py
import numpy as np

rng = np.random.default_rng(22)


def rand(*shape, low=-0.5, high=0.5):
    return rng.uniform(low, high, size=shape).astype(np.float32)


# ---- numpy reference ops (NHWC) ----

def pad_same(x, k, s):
    _, h, w, _ = x.shape
    out = []
    for size, kk, ss in ((h, k[0], s[0]), (w, k[1], s[1])):
        o = -(-size // ss)
        total = max((o - 1) * ss + kk - size, 0)
        out.append((total // 2, total - total // 2))
    return np.pad(x, ((0, 0), out[0], out[1], (0, 0)))


def conv2d(x, kernel, bias, strides=(1, 1), padding="valid"):
    kh, kw, _, f = kernel.shape
    if padding == "same":
        x = pad_same(x, (kh, kw), strides)
    n, h, w, _ = x.shape
    oh, ow = (h - kh) // strides[0] + 1, (w - kw) // strides[1] + 1
    y = np.zeros((n, oh, ow, f), np.float64)
    for i in range(oh):
        for j in range(ow):
            patch = x[:, i * strides[0]:i * strides[0] + kh, j * strides[1]:j * strides[1] + kw, :]
            y[:, i, j, :] = np.tensordot(patch, kernel, axes=([1, 2, 3], [0, 1, 2]))
    return y + (bias if bias is not None else 0)


def max_pool(x, k):
    n, h, w, c = x.shape
    oh, ow = h // k, w // k
    return x[:, :oh * k, :ow * k, :].reshape(n, oh, k, ow, k, c).max(axis=(2, 4))


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


# ---- Keras 3 config pieces ----

def k3_layer(cls, config, build_shape=None, inbound=None):
    layer = {"module": "keras.layers", "class_name": cls, "config": config, "registered_name": None}
    if build_shape is not None:
        layer["build_config"] = {"input_shape": build_shape}
    if inbound is not None:
        layer["name"] = config["name"]
        layer["inbound_nodes"] = inbound
    return layer


def k3_tensor(layer, shape):
    return {"class_name": "__keras_tensor__",
            "config": {"shape": shape, "dtype": "float32", "keras_history": [layer, 0, 0]}}


def k3_call(*tensors, as_list=False):
    args = [list(tensors)] if as_list else list(tensors)
    return [{"args": args, "kwargs": {}}]


def common(name, **kw):
    base = {"name": name, "trainable": True,
            "dtype": {"module": "keras", "class_name": "DTypePolicy", "config": {"name": "float32"},
                      "registered_name": None}}
    base.update(kw)
    return base


def initializer(name):
    return {"module": "keras.initializers", "class_name": name, "config": {"seed": None}, "registered_name": None}


# ---- the two models ----

def sequential_cnn():
    """Input(8, 8, 1) -> Conv2D(4, 3, same, relu) -> MaxPooling2D(2) -> Conv2D(6, 3) -> Flatten
    -> Dropout -> Dense(5, softmax). Layer names differ from Keras' defaults, so the .keras reader
    must find variables by class, as Keras does."""
    w = {"features/kernel": rand(3, 3, 1, 4), "features/bias": rand(4),
         "mixer/kernel": rand(3, 3, 4, 6), "mixer/bias": rand(6),
         "classifier/kernel": rand(24, 5), "classifier/bias": rand(5)}
    x = rand(2, 8, 8, 1, low=0, high=1)
    y = np.maximum(conv2d(x, w["features/kernel"], w["features/bias"], padding="same"), 0)
    y = max_pool(y, 2)
    y = conv2d(y, w["mixer/kernel"], w["mixer/bias"])
    y = softmax(y.reshape(2, -1) @ w["classifier/kernel"] + w["classifier/bias"])
    # (Keras name, Keras 3 class, Keras 3 config, Keras 2 config, weight names in Keras order)
    layers = [
        ("features", "Conv2D",
         common("features", filters=4, kernel_size=[3, 3], strides=[1, 1], padding="same", data_format="channels_last",
                dilation_rate=[1, 1], groups=1, activation="relu", use_bias=True,
                kernel_initializer=initializer("GlorotUniform"), bias_initializer=initializer("Zeros"),
                kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                bias_constraint=None),
         None, ["kernel", "bias"]),
        ("pool", "MaxPooling2D",
         common("pool", pool_size=[2, 2], padding="valid", strides=[2, 2], data_format="channels_last"), None, []),
        ("mixer", "Conv2D",
         common("mixer", filters=6, kernel_size=[3, 3], strides=[1, 1], padding="valid", data_format="channels_last",
                dilation_rate=[1, 1], groups=1, activation="linear", use_bias=True,
                kernel_regularizer={"module": "keras.regularizers", "class_name": "L2", "config": {"l2": 0.01},
                                    "registered_name": None}),
         None, ["kernel", "bias"]),
        ("flat", "Flatten", common("flat", data_format="channels_last"), None, []),
        ("drop", "Dropout", common("drop", rate=0.25, seed=None, noise_shape=None), None, []),
        ("classifier", "Dense", common("classifier", units=5, activation="softmax", use_bias=True), None,
         ["kernel", "bias"]),
    ]
    return {"layers": layers, "weights": w, "input": x, "output": y, "input_shape": [8, 8, 1]}


def residual_bn():
    """Functional: Input(6, 6, 3) -> Conv2D(4, 3, same, no bias) -> BatchNormalization -> ReLU,
    plus a 1x1 Conv2D projection of the input, -> Add -> BatchNormalization(center=False) ->
    GlobalAveragePooling2D -> Dense(3)."""
    w = {"conv/kernel": rand(3, 3, 3, 4),
         "bn/gamma": rand(4, low=0.5, high=1.5), "bn/beta": rand(4),
         "bn/moving_mean": rand(4), "bn/moving_variance": rand(4, low=0.5, high=1.5),
         "proj/kernel": rand(1, 1, 3, 4), "proj/bias": rand(4),
         "bn2/gamma": rand(4, low=0.5, high=1.5),
         "bn2/moving_mean": rand(4), "bn2/moving_variance": rand(4, low=0.5, high=1.5),
         "head/kernel": rand(4, 3), "head/bias": rand(3)}
    eps, eps2 = 1e-3, 1e-5
    x = rand(2, 6, 6, 3, low=0, high=1)
    a = conv2d(x, w["conv/kernel"], None, padding="same")
    a = (a - w["bn/moving_mean"]) / np.sqrt(w["bn/moving_variance"] + eps) * w["bn/gamma"] + w["bn/beta"]
    a = np.maximum(a, 0)
    b = conv2d(x, w["proj/kernel"], w["proj/bias"])
    s = a + b
    s = (s - w["bn2/moving_mean"]) / np.sqrt(w["bn2/moving_variance"] + eps2) * w["bn2/gamma"]
    y = s.mean(axis=(1, 2)) @ w["head/kernel"] + w["head/bias"]
    layers = [
        ("conv", "Conv2D", common("conv", filters=4, kernel_size=[3, 3], strides=[1, 1], padding="same",
                                  data_format="channels_last", dilation_rate=[1, 1], groups=1, activation="linear",
                                  use_bias=False), ["input"], ["kernel"]),
        ("bn", "BatchNormalization", common("bn", axis=-1, momentum=0.99, epsilon=eps, center=True, scale=True),
         ["conv"], ["gamma", "beta", "moving_mean", "moving_variance"]),
        ("act", "ReLU", common("act", max_value=None, negative_slope=0.0, threshold=0.0), ["bn"], []),
        ("proj", "Conv2D", common("proj", filters=4, kernel_size=[1, 1], strides=[1, 1], padding="valid",
                                  activation="linear", use_bias=True), ["input"], ["kernel", "bias"]),
        ("sum", "Add", common("sum"), ["act", "proj"], []),
        ("bn2", "BatchNormalization", common("bn2", axis=3, momentum=0.9, epsilon=eps2, center=False, scale=True),
         ["sum"], ["gamma", "moving_mean", "moving_variance"]),
        ("gap", "GlobalAveragePooling2D", common("gap", data_format="channels_last", keepdims=False), ["bn2"], []),
        ("head", "Dense", common("head", units=3, activation="linear", use_bias=True), ["gap"], ["kernel", "bias"]),
    ]
    return {"layers": layers, "weights": w, "input": x, "output": y, "input_shape": [6, 6, 3]}


# ---- writers ----

def snake(cls):
    import re
    s = re.sub(r"\W+", "", cls)
    s = re.sub("(.)([A-Z][a-z]+)", r"\1_\2", s)
    return re.sub("([a-z])([A-Z])", r"\1_\2", s).lower()


def keras3_config(model, functional):
    shape = [None] + model["input_shape"]
    input_layer = {"module": "keras.layers", "class_name": "InputLayer",
                   "config": {"batch_shape": shape, "dtype": "float32", "sparse": False, "name": "input"},
                   "registered_name": None}
    layers = []
    if functional:
        input_layer["name"] = "input"
        input_layer["inbound_nodes"] = []
        layers.append(input_layer)
        for name, cls, cfg, inputs, _ in model["layers"]:
            call = k3_call(*[k3_tensor(i, None) for i in inputs], as_list=len(inputs) > 1)
            layers.append(k3_layer(cls, cfg, inbound=call))
        config = {"name": "residual", "trainable": True, "layers": layers,
                  "input_layers": [["input", 0, 0]], "output_layers": [["head", 0, 0]]}
        return {"module": "keras.src.models.functional", "class_name": "Functional", "config": config,
                "registered_name": "Functional", "build_config": {"input_shape": None}, "compile_config": None}
    layers.append(input_layer)
    for name, cls, cfg, _, _ in model["layers"]:
        layers.append(k3_layer(cls, cfg, build_shape=shape))
    config = {"name": "cnn", "trainable": True, "dtype": "float32", "layers": layers}
    return {"module": "keras", "class_name": "Sequential", "config": config, "registered_name": None,
            "build_config": {"input_shape": shape}, "compile_config": None}


def keras3_weights(model, functional):
    buf = io.BytesIO()
    with h5py.File(buf, "w") as f:
        f.create_group("vars")
        used = {}
        classes = (["InputLayer"] if functional else []) + [cls for _, cls, _, _, _ in model["layers"]]
        names = (["input"] if functional else []) + [name for name, _, _, _, _ in model["layers"]]
        weights = dict((name, wn) for name, _, _, _, wn in model["layers"])
        for name, cls in zip(names, classes):
            key = snake(cls)
            n = used.get(key, -1) + 1
            used[key] = n
            vars_group = f.create_group("layers/" + (key if n == 0 else f"{key}_{n}")).create_group("vars")
            for i, wn in enumerate(weights.get(name, [])):
                vars_group[str(i)] = model["weights"][f"{name}/{wn}"]
    return buf.getvalue()


def write_keras(path, model, functional, with_weights=True):
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("metadata.json", json.dumps({"keras_version": "3.3.3", "date_saved": "2026-12-01@00:00:00"}))
        zf.writestr("config.json", json.dumps(keras3_config(model, functional)))
        if with_weights:
            zf.writestr("model.weights.h5", keras3_weights(model, functional))


def keras2_config(model, functional):
    """tf.keras 2 spelling: no module keys, batch_input_shape, inbound_nodes as nested lists."""
    def strip(cfg):
        out = {k: v for k, v in cfg.items() if k != "dtype"}
        out["dtype"] = "float32"
        return out
    shape = [None] + model["input_shape"]
    layers = [{"class_name": "InputLayer",
               "config": {"batch_input_shape": shape, "dtype": "float32", "sparse": False, "ragged": False,
                          "name": "input"}}]
    if functional:
        layers[0]["name"] = "input"
        layers[0]["inbound_nodes"] = []
        for name, cls, cfg, inputs, _ in model["layers"]:
            layers.append({"class_name": cls, "config": strip(cfg), "name": name,
                           "inbound_nodes": [[[i, 0, 0, {}] for i in inputs]]})
        return {"class_name": "Functional", "config": {"name": "residual", "layers": layers,
                                                       "input_layers": [["input", 0, 0]],
                                                       "output_layers": [["head", 0, 0]]}}
    for name, cls, cfg, _, _ in model["layers"]:
        layers.append({"class_name": cls, "config": strip(cfg)})
    return {"class_name": "Sequential", "config": {"name": "cnn", "layers": layers}}


def write_h5(path, model, functional, drop_weight=None, reshape_weight=None):
    with h5py.File(path, "w") as f:
        f.attrs["keras_version"] = b"2.15.0"
        f.attrs["backend"] = b"tensorflow"
        f.attrs["model_config"] = json.dumps(keras2_config(model, functional)).encode("utf8")
        g = f.create_group("model_weights")
        names = (["input"] if functional else []) + [name for name, _, _, _, _ in model["layers"]]
        g.attrs["layer_names"] = np.array([n.encode("utf8") for n in names])
        weights = dict((name, wn) for name, _, _, _, wn in model["layers"])
        for name in names:
            lg = g.create_group(name)
            listed = [wn for wn in weights.get(name, []) if f"{name}/{wn}" != drop_weight]
            lg.attrs["weight_names"] = np.array([f"{name}/{wn}:0".encode("utf8") for wn in listed], dtype="S")
            for wn in listed:
                value = model["weights"][f"{name}/{wn}"]
                if f"{name}/{wn}" == reshape_weight:
                    value = value.reshape(-1)
                lg.create_dataset(f"{name}/{wn}:0", data=value)


def expected_entry(model):
    return {"weights": {k: {"shape": list(v.shape), "values": [float(t) for t in v.reshape(-1)]}
                        for k, v in model["weights"].items()},
            "input": [float(t) for t in model["input"].reshape(-1)],
            "input_shape": list(model["input"].shape),
            "output": [float(t) for t in np.asarray(model["output"], np.float64).reshape(-1)]}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    cnn, res = sequential_cnn(), residual_bn()
    write_keras(os.path.join(out, "cnn.keras"), cnn, False)
    write_h5(os.path.join(out, "cnn.h5"), cnn, False)
    write_keras(os.path.join(out, "residual.keras"), res, True)
    write_h5(os.path.join(out, "residual.h5"), res, True)
    # Bad files.
    write_keras(os.path.join(out, "no_weights.keras"), cnn, False, with_weights=False)
    write_h5(os.path.join(out, "missing_bias.h5"), cnn, False, drop_weight="mixer/bias")
    write_h5(os.path.join(out, "flat_kernel.h5"), cnn, False, reshape_weight="classifier/kernel")
    with h5py.File(os.path.join(out, "not_keras.h5"), "w") as f:
        f["data"] = np.arange(4, dtype=np.float32)
    with h5py.File(os.path.join(out, "weights_only.h5"), "w") as f:
        f.attrs["layer_names"] = np.array([b"dense"])
        f.create_group("dense").attrs["weight_names"] = np.array([b"dense/kernel:0"])
    with open(os.path.join(out, "text.h5"), "w") as f:
        f.write("this is not an HDF5 file\n")
    with open(os.path.join(out, "expected.json"), "w") as f:
        json.dump({"cnn": expected_entry(cnn), "residual": expected_entry(res)}, f)


if __name__ == "__main__":
    main()
