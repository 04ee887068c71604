#!/usr/bin/python3
"""torchvision's ImageFolder + DataLoader on the same folder, for bench/data_pipeline.cpp.
usage: /usr/bin/python3 data_pipeline_torchvision.py DIR HEIGHT WIDTH CHANNELS [BATCH] [WORKERS,...] [REPEATS]
Images are read from DIR/train and DIR/test (or DIR itself), shuffled, one epoch per measurement."""
import os, sys, time
import torch
from torch.utils.data import ConcatDataset, DataLoader
from torchvision import datasets, transforms

root, h, w, c = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
batch = int(sys.argv[5]) if len(sys.argv) > 5 else 128
workers = [int(x) for x in (sys.argv[6] if len(sys.argv) > 6 else "1,2").split(",")]
repeats = int(sys.argv[7]) if len(sys.argv) > 7 else 3
torch.set_num_threads(1)
steps = [] if c == 3 else [transforms.Grayscale(1)]
steps.append(transforms.Resize((h, w)))
steps.append(transforms.ToTensor())
tf = transforms.Compose(steps)
parts = [os.path.join(root, s) for s in ("train", "test") if os.path.isdir(os.path.join(root, s))] or [root]
data = ConcatDataset([datasets.ImageFolder(p, transform=tf) for p in parts])
for nw in workers:
    rates = []
    loader = DataLoader(data, batch_size=batch, shuffle=True, num_workers=nw)
    for _ in range(repeats):
        t0 = time.time()
        n = sum(len(y) for _, y in loader)
        rates.append(n / (time.time() - t0))
    print("torchvision images %d  %dx%dx%d  batch %d  workers %d: %s images/s" %
          (len(data), h, w, c, batch, nw, "  ".join("%.0f" % r for r in rates)), flush=True)
