#!/usr/bin/python3
"""PyTorch reference for bench_cnn, for every template: the same model, optimizer and data,
measured the same way.

The model is the engine's own PyTorch export of the template (layerforge-cli export PROJECT
--format pytorch --out DIR: DIR/model.py, an nn.Module ending in the project's softmax), so both
sides train one architecture, starting from the exported weights. What the export leaves out
(it writes the inference graph): Dropout (MobileNetV2-small's 0.2 before its last Dense), and
BatchNormalization keeps PyTorch's momentum 0.1 where Keras' 0.99 would be 0.01 (no speed
difference). Training as the project says: Adam(lr=1e-3, eps=1e-7 as Keras), sparse categorical
cross-entropy of the probabilities clipped to [1e-7, 1 - 1e-7] in float32, shuffled full
batches. Training images/s = images / wall time of the epoch, median over epochs. Inference
images/s: model.eval(), torch.no_grad(), batches of the same size over the Fashion-MNIST test
set, or for an image folder over the training images, as bench_cnn does.

Data, in memory before the clock starts: the first --limit Fashion-MNIST training images (IDX
files from --data), or --image-folder DIR (DIR/CLASS/*) decoded and resized once with PIL
(pil_image_folder.py says where its resize differs from the engine's); that decoding is timed
apart (decode_images_per_s).

Memory format: the exported forward takes NHWC and copies it to contiguous NCHW first; here the
data is kept NCHW in the chosen memory format once and fed past that copy (pytorch_common.
exported_module), the model converted with model.to(memory_format=...). A one-batch check with a
forward pre-hook on every Conv2d asserts that the first convolution's input is in that format
(for one input channel, as Fashion-MNIST, both formats are the same layout) and reports how many
convolutions see it (conv_inputs_in_format).

PyTorch at its best: torch.set_num_threads() before anything else, OPENBLAS_CORETYPE unset and
glibc malloc tuned (bench/bench_env.sh), --memory-format channels_last (PyTorch's own advice for
CPU convolutions) or contiguous (its default NCHW). --autocast bf16 trains and infers under
torch.autocast('cpu', dtype=torch.bfloat16).

Usage: /usr/bin/python3 bench/pytorch_cnn.py --model-dir DIR [--image-folder DIR] [--batch 50,128]
       [--epochs 2] [--limit 12000] [--threads 2] [--memory-format channels_last|contiguous]
       [--autocast bf16] [--json] [--data IDX_DIR]
"""
import argparse
import os
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--model-dir", required=True, help="the engine's PyTorch export of the template")
ap.add_argument("--image-folder", help="train on this folder of class sub-folders instead of Fashion-MNIST")
ap.add_argument("--batch", default="50,128")
ap.add_argument("--epochs", type=int, default=2)
ap.add_argument("--limit", type=int, default=12000)
ap.add_argument("--threads", type=int, default=2)
ap.add_argument("--memory-format", default="channels_last", choices=["channels_last", "contiguous"])
ap.add_argument("--autocast", choices=["bf16"])
ap.add_argument("--json", action="store_true")
ap.add_argument("--data", help="the Fashion-MNIST IDX folder (default: Debian's, or LF_FASHION_MNIST_DIR)")
args = ap.parse_args()

import torch  # noqa: E402

torch.set_num_threads(args.threads)

import json  # noqa: E402
import resource  # noqa: E402
import time  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pil_image_folder import load_image_folder  # noqa: E402
from pytorch_common import exported_module, fashion_dir, load_fashion, probability_nll, train_epochs  # noqa: E402

FORMAT = torch.channels_last if args.memory_format == "channels_last" else torch.contiguous_format
AUTOCAST = args.autocast == "bf16"


def nchw(x):
    """NHWC numpy images as an NCHW tensor with FORMAT's strides. Not .contiguous(memory_format=...):
    with one channel both formats are contiguous, and a permuted NHWC tensor would keep strides
    that make mkldnn pick channels_last for the contiguous run too."""
    x = torch.from_numpy(x).permute(0, 3, 1, 2)
    return torch.empty(x.shape, memory_format=FORMAT).copy_(x)


def load_data(export):
    """(train x, train y, inference x, decode images/s or None)."""
    if args.image_folder:
        t0 = time.perf_counter()
        x, y = load_image_folder(args.image_folder, export.INPUT_SHAPE, FORMAT, args.limit, export.MEAN, export.STD)
        return x, y, x, x.shape[0] / (time.perf_counter() - t0)
    data = args.data or fashion_dir()
    x, y = load_fashion(data, "train", args.limit)
    xt, _ = load_fashion(data, "t10k", 10000)
    return nchw(x), torch.from_numpy(y), nchw(xt), None


def conv_inputs_in_format(model, x):
    """(first convolution's input in FORMAT, 'k/n' convolutions whose input is), from one forward."""
    seen = []
    hooks = [m.register_forward_pre_hook(lambda _, i: seen.append(i[0].is_contiguous(memory_format=FORMAT)))
             for m in model.modules() if isinstance(m, torch.nn.Conv2d)]
    with torch.no_grad():
        model.eval()(x)
    for h in hooks:
        h.remove()
    return (not seen or seen[0]), f"{sum(seen)}/{len(seen)}"


def run(export, x, y, xt, batch):
    model = export.load_model().to(memory_format=FORMAT)
    first_ok, in_format = conv_inputs_in_format(model, x[:2])
    if not first_ok:
        sys.exit(f"{args.model_dir}/model.py: the first convolution's input is not {args.memory_format}")
    row = train_epochs(model, x, y, batch, args.epochs, AUTOCAST, probability_nll, FORMAT)
    model.eval()
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=AUTOCAST):
        m = (xt.shape[0] // batch) * batch
        t0 = time.perf_counter()
        for s in range(0, m, batch):
            model(xt[s:s + batch])
        row["inference_images_per_s"] = m / (time.perf_counter() - t0)
    return row, in_format


def main():
    export = exported_module(args.model_dir, nchw_input=True)
    x, y, xt, decode_ips = load_data(export)
    batches = [int(b) for b in args.batch.split(",")]
    if x.shape[0] < max(batches):
        sys.exit(f"pytorch_cnn.py: {x.shape[0]} training images, fewer than a batch of {max(batches)}")
    runs = [run(export, x, y, xt, b) for b in batches]
    rows, in_format = [r for r, _ in runs], runs[0][1]
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    name = os.path.basename(os.path.normpath(args.model_dir))
    if args.json:
        print(json.dumps({"torch": torch.__version__, "threads": torch.get_num_threads(), "model": name,
                          "memory_format": args.memory_format, "autocast": args.autocast or "none",
                          "epochs": args.epochs, "samples": int(x.shape[0]), "decode_images_per_s": decode_ips,
                          "conv_inputs_in_format": in_format, "peak_rss_mb": rss, "results": rows}))
        return
    print(f"PyTorch {torch.__version__}, {name}, {torch.get_num_threads()} threads, {args.memory_format} "
          f"({in_format} convolutions see it), {args.epochs} epoch(s) of {x.shape[0]} images, peak RSS {rss:.0f} MB")
    if decode_ips:
        print(f"decoded once into memory with PIL: {decode_ips:.0f} images/s")
    for r in rows:
        print(f"batch {r['batch']:>4}: train {r['images_per_s']:.0f} images/s "
              f"[{r['images_per_s_min']:.0f}..{r['images_per_s_max']:.0f}], step ms {r['step_ms_median']:.2f}, "
              f"inference {r['inference_images_per_s']:.0f} images/s")


main()
