"""An image folder (ROOT/CLASS/..., classes sorted by name as the engine labels them) decoded and
resized once into memory with PIL, for pytorch_cnn.py: what bench_cnn does with the engine's
image pipeline before it trains from memory.

Resizing follows the engine's "stretch" (the templates' default): JPEGs are decoded at a reduced
DCT scale that still covers the output (Image.draft), then shrunk with area weights (PIL's BOX,
which the engine's shrinking filter is) or enlarged bilinearly. Where this differs from the
engine: PIL's draft offers the scales 1/2, 1/4 and 1/8 only, libjpeg-turbo's also 3/8, 5/8, 3/4
and 7/8 (for 500x375 photos the engine decodes 96x96 at 3/8 and 256x256 at 3/4, PIL at 1/2 and
1/1), so PIL decodes more pixels; an image that shrinks along one axis and grows along the other
is resized bilinearly here, per axis there; EXIF orientation is not applied. PIL decodes on one
thread, the engine's pipeline on its default workers (one on a two-core machine).
"""
import os
import sys

import numpy as np
from PIL import Image

EXTENSIONS = {".jpg", ".jpeg", ".png", ".bmp", ".gif", ".ppm", ".pgm", ".pnm"}


def labelled_files(root):
    """[(path, label)] sorted by (label, path); hidden entries skipped, as the engine's scan does."""
    try:
        classes = sorted(d for d in os.listdir(root) if not d.startswith(".") and os.path.isdir(os.path.join(root, d)))
    except OSError as e:
        sys.exit(f"{root}: cannot read the image folder ({e.strerror or e})")
    if not classes:
        sys.exit(f"{root}: no class folders (ROOT/CLASS/images)")
    files = []
    for label, name in enumerate(classes):
        for folder, dirs, names in os.walk(os.path.join(root, name)):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            files += [(os.path.join(folder, f), label) for f in names
                      if not f.startswith(".") and os.path.splitext(f)[1].lower() in EXTENSIONS]
    return sorted(files, key=lambda f: (f[1], f[0]))


def decode(path, height, width, channels):
    """The image as uint8 (height, width, channels), or None when PIL cannot read it."""
    mode = "RGB" if channels == 3 else "L"
    try:
        with Image.open(path) as im:
            im.draft(mode, (width, height))  # JPEG DCT scaling, keeping at least the output size
            im = im.convert(mode)
            shrink = im.width >= width and im.height >= height
            im = im.resize((width, height), Image.BOX if shrink else Image.BILINEAR)
            return np.array(im).reshape(height, width, channels)  # a writable copy, as torch.from_numpy wants
    except (OSError, ValueError, Image.DecompressionBombError):
        return None


def load_image_folder(root, shape, memory_format, limit=None, mean=(), std=()):
    """(images as float32 N x C x H x W in [0, 1] in memory_format, labels as int64) of `limit` files
    of the folder (a seeded choice, the others dropped), each resized to shape (H, W, C); then
    (x - mean) / std per channel where the export names them."""
    import torch

    height, width, channels = shape
    files = labelled_files(root)
    if limit and limit < len(files):
        keep = np.sort(np.random.default_rng(0).permutation(len(files))[:limit])
        files = [files[i] for i in keep]
    x = torch.empty((len(files), channels, height, width), memory_format=memory_format)
    labels, n = [], 0
    for path, label in files:
        image = decode(path, height, width, channels)
        if image is None:
            print(f"pil_image_folder.py: skipped {path}: not a readable image", file=sys.stderr)
            continue
        x[n].copy_(torch.from_numpy(image).permute(2, 0, 1))
        labels.append(label)
        n += 1
    if n == 0:
        sys.exit(f"{root}: no image decoded")
    x = x[:n].div_(255.0)
    if len(mean):
        x = (x - torch.tensor(mean).view(1, -1, 1, 1)) / torch.tensor(std).view(1, -1, 1, 1)
    return x.contiguous(memory_format=memory_format), torch.tensor(labels, dtype=torch.int64)
