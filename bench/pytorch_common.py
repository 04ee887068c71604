"""Shared by the PyTorch reference benchmarks: Fashion-MNIST IDX reading, percentiles and the
training loop. Imports torch only inside functions, so a script can call
torch.set_num_threads() before anything else touches it."""
import gzip
import os
import sys

import numpy as np


def read_idx(path, magic, header):
    with gzip.open(path, "rb") as f:
        raw = f.read()
    if int.from_bytes(raw[0:4], "big") != magic:
        sys.exit(f"{path}: bad IDX magic")
    return np.frombuffer(raw, dtype=np.uint8, offset=header)


def load_fashion(data, split, limit=None):
    """(images as float32 N x 28 x 28 x 1 in [0, 1], labels as int64) of the split's first `limit`."""
    x = read_idx(os.path.join(data, f"{split}-images-idx3-ubyte.gz"), 0x803, 16)
    y = read_idx(os.path.join(data, f"{split}-labels-idx1-ubyte.gz"), 0x801, 8)
    x = x.reshape(-1, 28, 28, 1).astype(np.float32) / 255.0
    return x[:limit], y.astype(np.int64)[:limit]


def pct(v, q):
    v = sorted(v)
    pos = q * (len(v) - 1)
    i = int(pos)
    f = pos - i
    return v[i] * (1 - f) + v[i + 1] * f if i + 1 < len(v) else v[i]


def train_epochs(model, x, y, batch, epochs, autocast=False):
    """Trains `model` as the Layerforge benchmarks do: Adam(lr=1e-3, eps=1e-7 as Keras),
    CrossEntropyLoss on the logits, each epoch over full batches of a fresh permutation.
    autocast: the forward pass and the loss under torch.autocast('cpu', dtype=torch.bfloat16),
    PyTorch's mixed precision (float32 master weights and optimizer).
    Returns the result row: images/s per epoch (median, min, max), step ms (median, p90)."""
    import time

    import torch

    torch.manual_seed(42)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.999), eps=1e-7)
    loss_fn = torch.nn.CrossEntropyLoss()
    n = x.shape[0]
    steps = n // batch
    channels_last = x.dim() == 4 and x.is_contiguous(memory_format=torch.channels_last) and not x.is_contiguous()
    epoch_ips, step_ms = [], []
    model.train()
    for _ in range(epochs):
        perm = torch.randperm(n)
        t_epoch = time.perf_counter()
        for s in range(steps):
            t0 = time.perf_counter()
            idx = perm[s * batch:(s + 1) * batch]
            xb, yb = x[idx], y[idx]
            if channels_last:  # indexing may hand back a channels-first batch
                xb = xb.contiguous(memory_format=torch.channels_last)
            opt.zero_grad(set_to_none=True)
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
                loss = loss_fn(model(xb), yb)
            loss.backward()
            opt.step()
            step_ms.append((time.perf_counter() - t0) * 1000)
        epoch_ips.append(steps * batch / (time.perf_counter() - t_epoch))
    return {"batch": batch, "images_per_s": pct(epoch_ips, 0.5), "images_per_s_min": min(epoch_ips),
            "images_per_s_max": max(epoch_ips), "step_ms_median": pct(step_ms, 0.5),
            "step_ms_p90": pct(step_ms, 0.9), "final_loss": float(loss)}
