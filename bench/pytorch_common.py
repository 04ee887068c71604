"""Shared by the PyTorch reference benchmarks: Fashion-MNIST IDX reading, the engine's PyTorch
export as a module, the loss of a model that ends in softmax, percentiles and the training loop.
Imports torch only inside functions, so a script can call torch.set_num_threads() before
anything else touches it."""
import gzip
import os
import sys
import types

import numpy as np


def read_idx(path, magic, header):
    try:
        with gzip.open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        sys.exit(f"{path}: cannot read it ({e.strerror or e}); install the Debian package dataset-fashion-mnist")
    if int.from_bytes(raw[0:4], "big") != magic:
        sys.exit(f"{path}: bad IDX magic")
    return np.frombuffer(raw, dtype=np.uint8, offset=header)


def fashion_dir():
    """Where Debian's dataset-fashion-mnist puts the IDX files (LF_FASHION_MNIST_DIR overrides, as for the engine)."""
    return os.environ.get("LF_FASHION_MNIST_DIR", "/usr/share/datasets/fashion-mnist")


def load_fashion(data, split, limit=None):
    """(images as float32 N x 28 x 28 x 1 in [0, 1], labels as int64) of the split's first `limit`."""
    x = read_idx(os.path.join(data, f"{split}-images-idx3-ubyte.gz"), 0x803, 16)
    y = read_idx(os.path.join(data, f"{split}-labels-idx1-ubyte.gz"), 0x801, 8)
    x = x.reshape(-1, 28, 28, 1).astype(np.float32) / 255.0
    return x[:limit], y.astype(np.int64)[:limit]


# The first line of every exported forward: the NHWC input copied to a contiguous NCHW tensor.
EXPORT_INPUT_LINE = "v1 = x.permute(0, 3, 1, 2).contiguous()  # input"


def exported_module(folder, nchw_input=False):
    """The module of the engine's PyTorch export in `folder` (layerforge-cli export --format pytorch):
    load_model(), INPUT_SHAPE (H, W, C), MEAN, STD. Its forward takes NHWC input and copies it to a
    contiguous NCHW tensor first; nchw_input drops that line, so the caller feeds NCHW tensors kept
    in the memory format it chose (the copy would turn channels_last input back into NCHW at the
    first convolution, every step)."""
    path = os.path.join(folder, "model.py")
    try:
        with open(path) as f:
            source = f.read()
    except OSError as e:
        sys.exit(f"{path}: cannot read the exported model ({e.strerror or e})")
    if nchw_input:
        if source.count(EXPORT_INPUT_LINE) != 1:
            sys.exit(f"{path}: the forward does not begin with '{EXPORT_INPUT_LINE}', so it cannot be fed NCHW")
        source = source.replace(EXPORT_INPUT_LINE, "v1 = x  # input, fed NCHW in the benchmark's memory format")
    module = types.ModuleType("layerforge_export")
    module.__file__ = path  # load_model() finds the weights beside it
    exec(compile(source, path, "exec"), module.__dict__)
    return module


def probability_nll(p, y):
    """Sparse categorical cross-entropy of a model's probabilities as Keras and the engine compute
    it: clipped to [1e-7, 1 - 1e-7], in float32 (outside autocast, as Keras keeps the last layer)."""
    import torch

    return torch.nn.functional.nll_loss(torch.log(p.float().clamp(1e-7, 1 - 1e-7)), y)


def pct(v, q):
    v = sorted(v)
    pos = q * (len(v) - 1)
    i = int(pos)
    f = pos - i
    return v[i] * (1 - f) + v[i + 1] * f if i + 1 < len(v) else v[i]


def train_epochs(model, x, y, batch, epochs, autocast=False, loss_fn=None, memory_format=None):
    """Trains `model` as the Layerforge benchmarks do: Adam(lr=1e-3, eps=1e-7 as Keras), each epoch
    over full batches of a fresh permutation. loss_fn(output, labels): default CrossEntropyLoss on
    logits. autocast: the forward pass under torch.autocast('cpu', dtype=torch.bfloat16), PyTorch's
    mixed precision (float32 master weights and optimizer), the loss outside it. memory_format:
    each gathered batch is made contiguous in it (indexing may hand back another layout).
    Returns the result row: images/s per epoch (median, min, max), step ms (median, p90)."""
    import time

    import torch

    torch.manual_seed(42)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.999), eps=1e-7)
    loss_fn = loss_fn or torch.nn.CrossEntropyLoss()
    n = x.shape[0]
    steps = n // batch
    epoch_ips, step_ms = [], []
    model.train()
    for _ in range(epochs):
        perm = torch.randperm(n)
        t_epoch = time.perf_counter()
        for s in range(steps):
            t0 = time.perf_counter()
            idx = perm[s * batch:(s + 1) * batch]
            xb, yb = x[idx], y[idx]
            if memory_format is not None:
                xb = xb.contiguous(memory_format=memory_format)
            opt.zero_grad(set_to_none=True)
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
                out = model(xb)
            loss = loss_fn(out, yb)
            loss.backward()
            opt.step()
            step_ms.append((time.perf_counter() - t0) * 1000)
        epoch_ips.append(steps * batch / (time.perf_counter() - t_epoch))
    return {"batch": batch, "images_per_s": pct(epoch_ips, 0.5), "images_per_s_min": min(epoch_ips),
            "images_per_s_max": max(epoch_ips), "step_ms_median": pct(step_ms, 0.5),
            "step_ms_p90": pct(step_ms, 0.9), "final_loss": float(loss)}
