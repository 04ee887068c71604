"""Shared by the PyTorch reference benchmarks: Fashion-MNIST IDX reading and percentiles.
Imports no torch, so a script can call torch.set_num_threads() before anything else."""
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
