#!/usr/bin/python3
"""Writes N photo-like JPEGs (500x375, the size of many of Kaggle's cats-vs-dogs photos; smooth
shapes plus sensor noise, quality 90, ~30-60 KB) in --classes classes to OUT/CLASS/*.jpg: an image
folder for the image-folder templates, which shrink it to their input (MobileNetV2-small 96x96,
the cats-vs-dogs CNN 256x256). Match --classes to the template's output units (5 and 2).

usage: /usr/bin/python3 make_photo_folder.py OUT [N=3000] [--classes 4]"""
import argparse
import os
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

ap = argparse.ArgumentParser(description="photo-like JPEGs in class sub-folders")
ap.add_argument("out")
ap.add_argument("n", nargs="?", type=int, default=3000)
ap.add_argument("--classes", type=int, default=4)
args = ap.parse_args()
if args.n < 1 or args.classes < 1:
    sys.exit("make_photo_folder.py: N and --classes must be at least 1")

rng = np.random.default_rng(0)
for i in range(args.n):
    cls = "class%d" % (i % args.classes)
    os.makedirs(os.path.join(args.out, cls), exist_ok=True)
    img = Image.new("RGB", (500, 375), tuple(int(v) for v in rng.integers(0, 255, 3)))
    d = ImageDraw.Draw(img)
    for _ in range(12):
        x, y = rng.integers(0, 500), rng.integers(0, 375)
        r = rng.integers(10, 120)
        d.ellipse([x - r, y - r, x + r, y + r], fill=tuple(int(v) for v in rng.integers(0, 255, 3)))
    img = img.filter(ImageFilter.GaussianBlur(2))
    a = np.asarray(img).astype(np.int16) + rng.integers(-6, 7, (375, 500, 3))
    Image.fromarray(np.clip(a, 0, 255).astype(np.uint8)).save(os.path.join(args.out, cls, "%05d.jpg" % i), quality=90)
