"""Writes DIR/resnet18.onnx and DIR/densenet121.onnx (torchvision, random weights, 224x224, 1000
classes, opset 13) for bench_import.

usage: /usr/bin/python3 bench/make_import_models.py DIR
"""
import os
import sys

import torch
import torchvision

torch.set_num_threads(2)
for arch in ["resnet18", "densenet121"]:
    torch.manual_seed(0)
    net = getattr(torchvision.models, arch)(weights=None).eval()
    torch.onnx.export(net, torch.randn(1, 3, 224, 224), os.path.join(sys.argv[1], arch + ".onnx"), opset_version=13)
