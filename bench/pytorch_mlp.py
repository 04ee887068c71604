#!/usr/bin/python3
"""PyTorch reference for bench_mlp: the same MLP, optimizer and data, measured the same way.

Model: Flatten -> Linear(784, 100) -> ReLU -> Linear(100, 10) [-> Softmax], Adam(lr=1e-3,
betas=(0.9, 0.999), eps=1e-7 as Keras), on the 60,000 Fashion-MNIST training images read from the
Debian IDX files (gzip + numpy), kept in memory as one float32 tensor in [0, 1].
Loss: the model ends in softmax + SparseCategoricalCrossentropy; the numerically equivalent and
fastest standard PyTorch form is nn.CrossEntropyLoss on the logits (log_softmax + NLL fused), so
the softmax is not materialised during training. Each epoch draws a random permutation and
trains on full batches in that order (x[idx] gathers the batch, like our gather_batch).
images/s = images / wall time of the whole epoch; step ms = per-step wall time (median, p90).

PyTorch at its best (as the benchmark issue asks): torch.set_num_threads() is called before
anything else touches torch; run with OPENBLAS_CORETYPE unset and
MALLOC_MMAP_THRESHOLD_=33554432 MALLOC_TRIM_THRESHOLD_=4294967296 (bench/compare_pytorch.sh does).

Usage: /usr/bin/python3 bench/pytorch_mlp.py [--batch 50,128] [--epochs 3] [--threads 2] [--json]
"""
import argparse

ap = argparse.ArgumentParser()
ap.add_argument("--batch", default="50,128")
ap.add_argument("--epochs", type=int, default=3)
ap.add_argument("--threads", type=int, default=2)
ap.add_argument("--json", action="store_true")
ap.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
args = ap.parse_args()

import torch  # noqa: E402

torch.set_num_threads(args.threads)

import json  # noqa: E402

from pytorch_common import load_fashion, train_epochs  # noqa: E402


def load(data):
    x, y = load_fashion(data, "train")
    return torch.from_numpy(x).contiguous(), torch.from_numpy(y)


def run(x, y, batch, epochs):
    torch.manual_seed(42)
    model = torch.nn.Sequential(
        torch.nn.Flatten(), torch.nn.Linear(784, 100), torch.nn.ReLU(), torch.nn.Linear(100, 10))
    return train_epochs(model, x, y, batch, epochs)


def main():
    x, y = load(args.data)
    rows = [run(x, y, int(b), args.epochs) for b in args.batch.split(",")]
    if args.json:
        print(json.dumps({"torch": torch.__version__, "threads": torch.get_num_threads(),
                          "epochs": args.epochs, "results": rows}))
        return
    print(f"PyTorch {torch.__version__}, {torch.get_num_threads()} threads, {args.epochs} epoch(s), "
          f"{x.shape[0]} images; CrossEntropyLoss on logits")
    print(f"{'batch':>6} | {'images/s [min..max]':<28} | step ms median / p90")
    for r in rows:
        ips = f"{r['images_per_s']:.0f} [{r['images_per_s_min']:.0f}..{r['images_per_s_max']:.0f}]"
        print(f"{r['batch']:>6} | {ips:<28} | {r['step_ms_median']:.3f} / {r['step_ms_p90']:.3f}")


main()
