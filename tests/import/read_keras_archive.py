#!/usr/bin/python3
"""Reads a .keras file as Keras' loader would see it, with zipfile and h5py only, and prints JSON:
the archive's entry names, config.json, and every dataset of model.weights.h5 by path (shape and
values). usage: read_keras_archive.py MODEL.keras OUT.json"""
import io
import json
import sys
import zipfile

import h5py
import numpy as np

with zipfile.ZipFile(sys.argv[1]) as z:
    names = z.namelist()
    config = json.loads(z.read("config.json"))
    metadata = json.loads(z.read("metadata.json"))
    datasets = {}
    groups = []
    with h5py.File(io.BytesIO(z.read("model.weights.h5")), "r") as h5:
        def visit(path, obj):
            if isinstance(obj, h5py.Dataset):
                value = np.asarray(obj)
                datasets[path] = {"shape": list(value.shape), "dtype": str(value.dtype),
                                  "values": [float(v) for v in value.reshape(-1)]}
            else:
                groups.append(path)
        h5.visititems(visit)
json.dump({"names": names, "config": config, "metadata": metadata, "datasets": datasets, "groups": groups},
          open(sys.argv[2], "w"))
