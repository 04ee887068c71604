#!/usr/bin/python3
"""Writes N photo-like JPEGs (500x375, smooth shapes plus sensor noise, quality 90, ~30-60 KB)
in 4 classes to OUT/CLASS/*.jpg. usage: /usr/bin/python3 make_photo_folder.py OUT [N=3000]"""
import os, sys
import numpy as np
from PIL import Image, ImageDraw, ImageFilter

out, n = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 3000
rng = np.random.default_rng(0)
for i in range(n):
    cls = "class%d" % (i % 4)
    os.makedirs(os.path.join(out, cls), exist_ok=True)
    img = Image.new("RGB", (500, 375), tuple(int(v) for v in rng.integers(0, 255, 3)))
    d = ImageDraw.Draw(img)
    for _ in range(12):
        x, y = rng.integers(0, 500), rng.integers(0, 375)
        r = rng.integers(10, 120)
        d.ellipse([x - r, y - r, x + r, y + r], fill=tuple(int(v) for v in rng.integers(0, 255, 3)))
    img = img.filter(ImageFilter.GaussianBlur(2))
    a = np.asarray(img).astype(np.int16) + rng.integers(-6, 7, (375, 500, 3))
    Image.fromarray(np.clip(a, 0, 255).astype(np.uint8)).save(os.path.join(out, cls, "%05d.jpg" % i), quality=90)
