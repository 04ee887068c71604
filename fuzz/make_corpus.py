#!/usr/bin/python3
"""Writes the seed corpora of the fuzz targets to fuzz/corpus/<target>/: a few valid inputs and a
few broken ones each. Deterministic; rerun after a format changes. Regression inputs found by
fuzzing live beside the seeds as crash-*/regress-* files and are not touched by this script.

    /usr/bin/python3 fuzz/make_corpus.py
"""
import copy
import gzip
import io
import json
import re
import sqlite3
import struct
import zlib
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fuzz" / "corpus"


def put(target, name, data):
    d = CORPUS / target
    d.mkdir(parents=True, exist_ok=True)
    (d / name).write_bytes(data if isinstance(data, bytes) else data.encode())


def deep(n):
    return "[" * n + "]" * n


# --- project files: the shipped templates, then damaged variants -------------------------------
def projects():
    mlp = json.loads((ROOT / "resources/templates/fashion_mlp.lfproj").read_text())
    for t in ["fashion_mlp", "fashion_functional", "fashion_cnn"]:
        put("project", f"seed-{t}.lfproj", (ROOT / f"resources/templates/{t}.lfproj").read_text())
    text = json.dumps(mlp)
    put("project", "broken-truncated.lfproj", text[: len(text) // 2])
    cyc = copy.deepcopy(mlp)
    cyc["model"]["edges"].append({"from": "softmax:0", "to": "flatten:0"})
    put("project", "broken-cycle.lfproj", json.dumps(cyc))
    dup = copy.deepcopy(mlp)
    dup["model"]["nodes"][1]["id"] = "input"
    put("project", "broken-duplicate-id.lfproj", json.dumps(dup))
    bad = copy.deepcopy(mlp)
    bad["model"]["nodes"][2]["params"]["units"] = -5
    bad["training"]["batch_size"] = "fifty"
    put("project", "broken-types.lfproj", json.dumps(bad))
    put("project", "broken-deep-nesting.lfproj", '{"model": ' + deep(5000) + "}")


# --- Keras model files (.keras, .h5): tests/import/make_keras_fixtures.py writes them with h5py --
def keras_file():
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["/usr/bin/python3", str(ROOT / "tests" / "import" / "make_keras_fixtures.py"), tmp], check=True)
        for name, seed in [("cnn.keras", "seed-sequential.keras"), ("residual.keras", "seed-functional.keras"),
                           ("cnn.h5", "seed-sequential.h5"), ("residual.h5", "seed-functional.h5"),
                           ("no_weights.keras", "broken-no-weights.keras"), ("missing_bias.h5", "broken-missing-bias.h5"),
                           ("not_keras.h5", "broken-not-keras.h5"), ("weights_only.h5", "broken-weights-only.h5")]:
            put("keras_file", seed, (Path(tmp) / name).read_bytes())
        put("keras_file", "broken-truncated.keras", (Path(tmp) / "cnn.keras").read_bytes()[:4000])


# --- tf.keras model.to_json() --------------------------------------------------------------------
def keras():
    seq = {"class_name": "Sequential", "config": {"name": "sequential", "layers": [
        {"class_name": "InputLayer", "config": {"batch_input_shape": [None, 28, 28, 1], "name": "input_1"}},
        {"class_name": "Flatten", "config": {"name": "flatten"}},
        {"class_name": "Dense", "config": {"name": "dense", "units": 128, "activation": "relu"}},
        {"class_name": "Dropout", "config": {"name": "dropout", "rate": 0.2}},
        {"class_name": "Dense", "config": {"name": "dense_1", "units": 10}}]}}
    put("keras", "seed-sequential.json", json.dumps(seq))
    fn = {"class_name": "Functional", "config": {"name": "model", "layers": [
        {"class_name": "InputLayer", "name": "in", "config": {"batch_input_shape": [None, 8], "name": "in"}, "inbound_nodes": []},
        {"class_name": "Dense", "name": "a", "config": {"name": "a", "units": 8}, "inbound_nodes": [[["in", 0, 0, {}]]]},
        {"class_name": "Dense", "name": "b", "config": {"name": "b", "units": 8}, "inbound_nodes": [[["in", 0, 0, {}]]]},
        {"class_name": "Add", "name": "add", "config": {"name": "add"}, "inbound_nodes": [[["a", 0, 0, {}], ["b", 0, 0, {}]]]},
        {"class_name": "Softmax", "name": "sm", "config": {"name": "sm"}, "inbound_nodes": [[["add", 0, 0, {}]]]}]}}
    put("keras", "seed-functional-keras2.json", json.dumps(fn))
    k3 = copy.deepcopy(fn)
    for layer in k3["config"]["layers"][1:]:
        srcs = [s[0] for s in layer["inbound_nodes"][0]]
        hist = [{"class_name": "__keras_tensor__", "config": {"keras_history": [s, 0, 0]}} for s in srcs]
        layer["inbound_nodes"] = [{"args": hist if len(hist) > 1 else hist, "kwargs": {}}]
    put("keras", "seed-functional-keras3.json", json.dumps(k3))
    broken = copy.deepcopy(fn)
    broken["config"]["layers"][1]["inbound_nodes"] = [[["nowhere", 0, 0, {}]]]
    put("keras", "broken-unknown-source.json", json.dumps(broken))
    empty_hist = copy.deepcopy(k3)
    empty_hist["config"]["layers"][1]["inbound_nodes"] = [{"args": [{"config": {"keras_history": []}}]}]
    put("keras", "broken-empty-history.json", json.dumps(empty_hist))
    put("keras", "broken-not-keras.json", '{"class_name": "Sequential", "config": {"layers": 7}}')
    put("keras", "broken-deep-nesting.json", deep(5000))


# --- IDX pairs: u32le length of the images file, the images file, the labels file ----------------
def idx_pair(images, labels):
    return struct.pack("<I", len(images)) + images + labels


def idx():
    n, h, w = 3, 4, 5
    images = struct.pack(">IIII", 0x803, n, h, w) + bytes(range(n * h * w))
    labels = struct.pack(">II", 0x801, n) + bytes([0, 1, 2])
    put("idx", "seed-plain", idx_pair(images, labels))
    gz = lambda b: gzip.compress(b, mtime=0)
    put("idx", "seed-gzip", idx_pair(gz(images), gz(labels)))
    put("idx", "broken-truncated", idx_pair(images[:30], labels))
    put("idx", "broken-huge-header", idx_pair(struct.pack(">IIII", 0x803, 60000, 16384, 16384) + b"\0" * 16,
                                              struct.pack(">II", 0x801, 60000)))
    put("idx", "broken-gzip-huge-header", idx_pair(gz(struct.pack(">IIII", 0x803, 1000, 9000, 9000)),
                                                   gz(struct.pack(">II", 0x801, 1000))))
    put("idx", "broken-magic", idx_pair(struct.pack(">IIII", 0x80d, n, h, w), labels))
    put("idx", "broken-label-count", idx_pair(images, struct.pack(">II", 0x801, 2) + b"\0\1"))


# --- images ---------------------------------------------------------------------------------------
def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def image():
    rgba = Image.new("RGBA", (7, 5))
    for x in range(7):
        for y in range(5):
            rgba.putpixel((x, y), (x * 30, y * 40, 128, 255 if (x + y) % 2 else 0))
    for fmt, mode, ext in [("PNG", "RGBA", "png"), ("PNG", "L", "gray.png"), ("JPEG", "RGB", "jpg"),
                           ("JPEG", "L", "gray.jpg"), ("BMP", "RGB", "bmp"), ("GIF", "P", "gif"),
                           ("PPM", "RGB", "ppm"), ("PPM", "L", "pgm")]:
        buf = io.BytesIO()
        rgba.convert(mode).save(buf, fmt)
        put("image", f"seed-{ext}", buf.getvalue())
        put("image", f"broken-truncated-{ext}", buf.getvalue()[: len(buf.getvalue()) * 2 // 3])
    buf = io.BytesIO()
    rgba.convert("RGB").save(buf, "JPEG", progressive=True)
    put("image", "seed-progressive.jpg", buf.getvalue())
    # decompression bombs: headers that declare huge images in a few bytes
    ihdr = struct.pack(">IIBBBBB", 100000, 100000, 8, 2, 0, 0, 0)
    put("image", "broken-bomb.png", b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) +
        png_chunk(b"IDAT", zlib.compress(b"\0" * 1000)) + png_chunk(b"IEND", b""))
    put("image", "broken-bomb.ppm", b"P6\n60000 60000\n255\n" + b"\0" * 64)
    put("image", "broken-bomb.bmp", b"BM" + struct.pack("<IHHI", 0, 0, 0, 54) +
        struct.pack("<IiiHHIIiiII", 40, 50000, -50000, 1, 24, 0, 0, 0, 0, 0, 0) + b"\0" * 16)
    put("image", "broken-bomb.gif", b"GIF89a" + struct.pack("<HH", 65535, 65535) + b"\0\0\0" + b",\0\0\0\0" +
        struct.pack("<HH", 65535, 65535) + b"\0\2\2\x44\1\0;")


# --- safetensors checkpoints for Input(4) -> Dense(3) -> Softmax ---------------------------------
def safetensors(tensors, metadata=None, header_extra=None):
    header, data = {}, b""
    if metadata is not None:
        header["__metadata__"] = metadata
    for name, shape, values in tensors:
        raw = struct.pack(f"<{len(values)}f", *values)
        header[name] = {"dtype": "F32", "shape": shape, "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    header.update(header_extra or {})
    text = json.dumps(header).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    return struct.pack("<Q", len(text)) + text + data


def checkpoint_tensors(prefixes):
    out = []
    for p in prefixes:
        out.append((p + "dense/kernel", [4, 3], [0.1 * i for i in range(12)]))
        out.append((p + "dense/bias", [3], [0.0, 0.5, -0.5]))
    return out


def ckpt_header(**changes):
    state = {"epoch": 1, "step_in_epoch": 0, "iterations": 5, "steps_per_epoch": 5, "shuffle_rng": 7,
             "loss_sum": 0.0, "seen": 0, "learning_rate": 0.001, "lr_scale": 1.0,
             "metric_states": [{"name": "accuracy", "state": [3, 5]}],
             "early_stopping": {"best": None, "best_epoch": 0, "wait": 0, "last_improved": 0}}
    h = {"format": 1, "step": 5, "epoch": 1, "graph_hash": "crc32:00000000",
         "optimizer": {"name": "Adam", "iterations": 5, "slots": ["m", "v"]}, "state": state}
    h.update(changes)
    return {"format": "layerforge-checkpoint", "layerforge_checkpoint": json.dumps(h)}


def safetensors_corpus():
    full = checkpoint_tensors(["", "optimizer/m/", "optimizer/v/"])
    put("safetensors", "seed-checkpoint", safetensors(full, ckpt_header()))
    put("safetensors", "seed-weights-only", safetensors(checkpoint_tensors([""]), {"format": "pt"}))
    good = safetensors(full, ckpt_header())
    put("safetensors", "broken-truncated", good[: len(good) - 20])
    put("safetensors", "broken-header-length", struct.pack("<Q", 1 << 62) + good[8:])
    put("safetensors", "broken-shape-vs-bytes", safetensors(
        [("dense/kernel", [4000000, 3000000], [0.0] * 12), ("dense/bias", [3], [0.0] * 3)], ckpt_header()))
    put("safetensors", "broken-negative-shape", safetensors(
        [("dense/kernel", [-4, -3], [0.0] * 12), ("dense/bias", [3], [0.0] * 3)], ckpt_header()))
    put("safetensors", "broken-format-string", safetensors(full, ckpt_header(format="one")))
    put("safetensors", "broken-state-types", safetensors(full, ckpt_header(state={"epoch": "x"})))
    put("safetensors", "broken-deep-metadata", safetensors(full, {"layerforge_checkpoint": deep(5000)}))
    put("safetensors", "broken-offsets", safetensors(full, ckpt_header(),
                                                     {"dense/bias": {"dtype": "F32", "shape": [3], "data_offsets": [40, 8]}}))


# --- run stores: the real schema (from engine/src/store/schema.cpp), filled, then damaged ---------
def run_store():
    schema = (ROOT / "engine/src/store/schema.cpp").read_text()
    steps = re.findall(r'R"sql\((.*?)\)sql"', schema, re.S)
    path = CORPUS / "run_store.tmp"
    path.unlink(missing_ok=True)
    db = sqlite3.connect(path)
    for s in steps:
        db.executescript(s)
    db.execute(f"PRAGMA user_version = {len(steps)}")
    db.execute("INSERT INTO runs(id, name, created, status, graph, settings) VALUES "
               "(1, 'run 1', '2026-01-01T00:00:00Z', 'finished', '{}', '{}')")
    db.executemany("INSERT INTO metrics VALUES (1, ?, 0, 'train', 'loss', ?, 0)", [(i, 1.0 / (i + 1)) for i in range(20)])
    blob = safetensors(checkpoint_tensors([""]), ckpt_header())
    db.execute("INSERT INTO checkpoints(run, step, epoch, created, metrics, bytes, checksum, blob) VALUES "
               "(1, 20, 1, '2026-01-01T00:00:00Z', '{\"loss\": 0.5}', ?, ?, ?)",
               (len(blob), "crc32:%08x" % zlib.crc32(blob), blob))
    db.commit()
    db.close()
    good = path.read_bytes()
    path.unlink()
    put("run_store", "seed-store.db", good)
    put("run_store", "broken-truncated.db", good[: len(good) // 2])
    flipped = bytearray(good)
    for i in range(100, len(flipped), 509):  # damaged pages: header stays, b-trees break
        flipped[i] ^= 0x5A
    put("run_store", "broken-flipped.db", bytes(flipped))
    put("run_store", "broken-not-sqlite.db", b"SQLite format 2\0" + b"\xff" * 100)
    put("run_store", "broken-empty.db", b"")


def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c ^= b
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
    return c ^ 0xFFFFFFFF


def tfrecord(data):
    mask = lambda c: ((((c >> 15) | (c << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF
    length = struct.pack("<Q", len(data))
    return length + struct.pack("<I", mask(crc32c(length))) + data + struct.pack("<I", mask(crc32c(data)))


def varint(v):
    out = b""
    while v >= 0x80:
        out += bytes([v & 0x7F | 0x80])
        v >>= 7
    return out + bytes([v])


def field(number, wire, payload):
    key = varint(number << 3 | wire)
    return key + (varint(len(payload)) + payload if wire == 2 else payload)


def tb_event(step, wall=1.7e9, version=None, scalars=(), tensor_scalars=(), start=False):
    e = field(1, 1, struct.pack("<d", wall)) + field(2, 0, varint(step))
    if version:
        e += field(3, 2, version.encode())
    values = b""
    for tag, v in scalars:
        values += field(1, 2, field(1, 2, tag.encode()) + field(2, 5, struct.pack("<f", v)))
    for tag, v in tensor_scalars:  # TF2 tf.summary.scalar: DT_FLOAT tensor, empty shape, packed float_val
        tensor = field(1, 0, varint(1)) + field(2, 2, b"") + field(5, 2, struct.pack("<f", v))
        values += field(1, 2, field(1, 2, tag.encode()) + field(8, 2, tensor))
    if values:
        e += field(5, 2, values)
    if start:
        e += field(6, 2, field(1, 0, varint(1)))
    return e


def tensorboard():
    good = tfrecord(tb_event(0, version="brain.Event:2"))
    for step in range(1, 6):
        good += tfrecord(tb_event(step, scalars=[("batch_loss", 1.0 / step), ("batch_accuracy", 0.1 * step)]))
    good += tfrecord(tb_event(5, scalars=[("epoch_loss", 0.5)]))
    put("tensorboard", "seed-keras-train", good)
    put("tensorboard", "seed-tf2-tensors", tfrecord(tb_event(0, version="brain.Event:2")) +
        b"".join(tfrecord(tb_event(s, tensor_scalars=[("loss", 2.0 - s)])) for s in range(3)))
    put("tensorboard", "seed-resumed", tfrecord(tb_event(3, start=True)) + tfrecord(tb_event(3, scalars=[("x", 1)])))
    put("tensorboard", "broken-truncated", good[: len(good) - 7])
    flipped = bytearray(good)
    flipped[len(good) // 2] ^= 0x20
    put("tensorboard", "broken-crc", bytes(flipped))
    put("tensorboard", "broken-protobuf", good + tfrecord(b"\x2a\x7f\x0a"))
    put("tensorboard", "broken-huge-length", struct.pack("<Q", 1 << 62) + good[8:])
    put("tensorboard", "broken-foreign", b"wall_time,step,value\n1.7e9,1,0.5\n")


if __name__ == "__main__":
    projects()
    keras()
    keras_file()
    idx()
    image()
    safetensors_corpus()
    run_store()
    tensorboard()
    for d in sorted(CORPUS.iterdir()):
        print(d.name, len(list(d.iterdir())), "files")
