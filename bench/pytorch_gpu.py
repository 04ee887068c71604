#!/usr/bin/env python3
"""PyTorch on the GPU for scripts/gpu_check.sh: the same model as Layerforge trains, one epoch of
Fashion-MNIST per batch size, measured as the Layerforge side is.

The model is the engine's own PyTorch export of the project (layerforge-cli export PROJECT
--format pytorch --out DIR: DIR/model.py, an nn.Module over NHWC input ending in the project's
softmax), so both sides train exactly one architecture; it starts from the exported weights
(a few CPU steps made them, gpu_check.sh --bundle), which a speed comparison does not mind. Training as the
project says for these templates: Adam(lr=1e-3, eps=1e-7 as Keras), sparse categorical
cross-entropy of the probabilities (Keras clips them to [1e-7, 1 - 1e-7]), shuffled full batches,
float32 with TF32 off (the Layerforge CUDA backend's precision), or with --autocast bf16/fp16
PyTorch's mixed precision against Layerforge's mixed_bfloat16/mixed_float16 (torch.autocast on
CUDA; fp16 with torch.amp.GradScaler, PyTorch's dynamic loss scaling). The images live on the GPU
before the epoch, as a PyTorch user at their best would keep them.

images/s: the epoch's images over its wall time (torch.cuda.synchronize() at both ends), after
a warm-up of 20 steps (cuDNN's autotuning off, as Layerforge's heuristics need no timing).
peak_allocated_mib: torch.cuda.max_memory_allocated() over the epoch (the caching allocator's
tensors; the process's whole use, CUDA context included, is what gpu_check.sh samples with
nvidia-smi for both sides).

Usage: python3 bench/pytorch_gpu.py --model-dir DIR --data DIR [--batch 50,128] [--limit N]
       [--compile] [--autocast bf16|fp16] [--json]
"""
import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pytorch_common import exported_module, load_fashion, probability_nll  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--model-dir", required=True)
ap.add_argument("--data", required=True)
ap.add_argument("--batch", default="50,128")
ap.add_argument("--limit", type=int, default=None)
ap.add_argument("--compile", action="store_true", help="torch.compile the model")
ap.add_argument("--autocast", choices=["bf16", "fp16"], default=None, help="mixed precision")
ap.add_argument("--json", action="store_true")
args = ap.parse_args()

import torch  # noqa: E402

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
torch.backends.cudnn.benchmark = False


def train_epoch(x, y, batch):
    model = exported_module(args.model_dir).load_model().cuda().train()
    if args.compile:
        model = torch.compile(model)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.999), eps=1e-7)
    dtype = {"bf16": torch.bfloat16, "fp16": torch.float16}.get(args.autocast)
    scaler = torch.amp.GradScaler("cuda") if args.autocast == "fp16" else None
    n = x.shape[0]
    steps = n // batch
    gen = torch.Generator(device="cuda").manual_seed(42)

    def step(idx):
        opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=dtype, enabled=dtype is not None):
            p = model(x[idx])
        loss = probability_nll(p, y[idx])
        if scaler:
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
        else:
            loss.backward()
            opt.step()
        return loss

    warm = torch.randperm(n, device="cuda", generator=gen)
    for s in range(20):
        step(warm[s * batch:(s + 1) * batch])
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    perm = torch.randperm(n, device="cuda", generator=gen)
    t0 = time.perf_counter()
    for s in range(steps):
        loss = step(perm[s * batch:(s + 1) * batch])
    torch.cuda.synchronize()
    seconds = time.perf_counter() - t0
    return {"batch": batch, "images_per_s": steps * batch / seconds, "seconds": seconds, "final_loss": float(loss),
            "peak_allocated_mib": torch.cuda.max_memory_allocated() / 2**20}


def main():
    xs, ys = load_fashion(args.data, "train", args.limit)
    x = torch.from_numpy(xs).cuda()
    y = torch.from_numpy(ys).cuda()
    rows = [train_epoch(x, y, int(b)) for b in args.batch.split(",")]
    info = {"torch": torch.__version__, "device": torch.cuda.get_device_name(0), "images": int(x.shape[0]),
            "compile": args.compile, "autocast": args.autocast, "results": rows}
    if args.json:
        print(json.dumps(info))
        return
    print(f"PyTorch {info['torch']} on {info['device']}, {info['images']} images")
    for r in rows:
        print(f"batch {r['batch']:>4}: {r['images_per_s']:.0f} images/s, peak {r['peak_allocated_mib']:.0f} MiB allocated, "
              f"loss {r['final_loss']:.4f}")


main()
