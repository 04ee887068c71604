#!/usr/bin/python3
"""PyTorch reference for bench_cnn: the same CNNs, optimizer and data, measured the same way.

Models (channels-first here, as PyTorch is fastest with them):
  fashion_cnn:    Conv(1->32, 5x5, pad 2) ReLU MaxPool(2) Conv(32->64, 5x5, pad 2) ReLU MaxPool(2)
                  Flatten Linear(3136, 1024) ReLU Linear(1024, 10)   (the tutorial's CNN)
  fashion_resnet: resources/templates/fashion_resnet.lfproj: stem Conv(32, 3x3)+BN+ReLU, two
                  residual blocks (32 and 64 channels, the second with stride 2 and a 1x1
                  projection), global average pooling, Linear(64, 10); BN momentum 0.01 (Keras
                  0.99), eps 1e-3.
Adam(lr=1e-3, eps=1e-7 as Keras), nn.CrossEntropyLoss on the logits, on the first --limit
Fashion-MNIST training images (IDX files, float32 in [0, 1]); each epoch draws a permutation and
trains on full batches. Training images/s = images / wall time of the epoch, median over epochs.
Inference images/s: model.eval(), torch.no_grad(), batches of the same size over the test set.
peak_rss_mb: ru_maxrss of this process at the end.

PyTorch at its best: torch.set_num_threads() before anything else, OPENBLAS_CORETYPE unset and
MALLOC_MMAP_THRESHOLD_=33554432 MALLOC_TRIM_THRESHOLD_=4294967296 (bench/compare_pytorch.sh
sets them), and --memory-format channels_last (model and inputs), PyTorch's own advice for CPU
convolutions. --autocast bf16 trains under torch.autocast('cpu', dtype=torch.bfloat16).

Usage: /usr/bin/python3 bench/pytorch_cnn.py [--model fashion_cnn] [--batch 50,128] [--epochs 2]
       [--limit 12000] [--threads 2] [--memory-format channels_last|contiguous] [--autocast bf16]
       [--json]
"""
import argparse

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="fashion_cnn", choices=["fashion_cnn", "fashion_resnet"])
ap.add_argument("--batch", default="50,128")
ap.add_argument("--epochs", type=int, default=2)
ap.add_argument("--limit", type=int, default=12000)
ap.add_argument("--threads", type=int, default=2)
ap.add_argument("--memory-format", default="channels_last", choices=["channels_last", "contiguous"])
ap.add_argument("--autocast", choices=["bf16"])
ap.add_argument("--json", action="store_true")
ap.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
args = ap.parse_args()

import torch  # noqa: E402

torch.set_num_threads(args.threads)

import json  # noqa: E402
import resource  # noqa: E402
import time  # noqa: E402

from torch import nn  # noqa: E402

from pytorch_common import load_fashion, train_epochs  # noqa: E402


def load(data, split, limit):
    x, y = load_fashion(data, split, limit)
    return torch.from_numpy(x).permute(0, 3, 1, 2).contiguous(), torch.from_numpy(y)


def fashion_cnn():
    return nn.Sequential(nn.Conv2d(1, 32, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(32, 64, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                         nn.Linear(3136, 1024), nn.ReLU(), nn.Linear(1024, 10))


def bn(c):
    return nn.BatchNorm2d(c, eps=1e-3, momentum=0.01)


class Block(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), bn(cout), nn.ReLU(),
                                  nn.Conv2d(cout, cout, 3, 1, 1, bias=False), bn(cout))
        self.short = (nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), bn(cout))
                      if stride != 1 else nn.Identity())

    def forward(self, x):
        return torch.relu(self.body(x) + self.short(x))


def fashion_resnet():
    # Keras 'same' with stride 2 on 28x28 pads (0, 1); PyTorch pads 1 on both sides, same size.
    return nn.Sequential(nn.Conv2d(1, 32, 3, padding=1, bias=False), bn(32), nn.ReLU(), Block(32, 32, 1),
                         Block(32, 64, 2), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 10))


def run(x, y, xt, batch, epochs):
    torch.manual_seed(42)
    model = {"fashion_cnn": fashion_cnn, "fashion_resnet": fashion_resnet}[args.model]()
    fmt = torch.channels_last if args.memory_format == "channels_last" else torch.contiguous_format
    model = model.to(memory_format=fmt)
    x, xt = x.contiguous(memory_format=fmt), xt.contiguous(memory_format=fmt)
    autocast = args.autocast == "bf16"
    row = train_epochs(model, x, y, batch, epochs, autocast)
    model.eval()
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
        m = (xt.shape[0] // batch) * batch
        t0 = time.perf_counter()
        for s in range(0, m, batch):
            model(xt[s:s + batch])
        row["inference_images_per_s"] = m / (time.perf_counter() - t0)
    return row


def main():
    x, y = load(args.data, "train", args.limit)
    xt, _ = load(args.data, "t10k", 10000)
    rows = [run(x, y, xt, int(b), args.epochs) for b in args.batch.split(",")]
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    if args.json:
        print(json.dumps({"torch": torch.__version__, "threads": torch.get_num_threads(), "model": args.model,
                          "memory_format": args.memory_format, "autocast": args.autocast or "none",
                          "epochs": args.epochs, "peak_rss_mb": rss, "results": rows}))
        return
    print(f"PyTorch {torch.__version__}, {args.model}, {torch.get_num_threads()} threads, {args.epochs} epoch(s) "
          f"of {x.shape[0]} images, peak RSS {rss:.0f} MB")
    for r in rows:
        print(f"batch {r['batch']:>4}: train {r['images_per_s']:.0f} images/s "
              f"[{r['images_per_s_min']:.0f}..{r['images_per_s_max']:.0f}], step ms {r['step_ms_median']:.2f}, "
              f"inference {r['inference_images_per_s']:.0f} images/s")


main()
