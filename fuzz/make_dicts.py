#!/usr/bin/python3
"""Writes libFuzzer dictionaries to fuzz/dict/<target>.dict: the words a format is made of, so the
fuzzers splice whole keys, layer names and magic numbers instead of finding them byte by byte.
run_fuzzers.sh and run_campaign.sh pass a target's dictionary with -dict= when it exists.

The JSON targets' words are the identifier-like string literals of the code that reads the format
(keys, layer types and parameter names, dtypes), plus JSON's own tokens; the image decoders' words
are the formats' signatures and chunk names. Deterministic; rerun after the readers change.

    /usr/bin/python3 fuzz/make_dicts.py
"""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "engine" / "src"
OUT = ROOT / "fuzz" / "dict"

JSON_TOKENS = ["{", "}", "[", "]", ":", ",", '""', "null", "true", "false", "-1", "0", "1e308", "1.5"]

# Signatures and structure words of PNG, JPEG, GIF, BMP and PNM, and the EXIF orientation tag.
IMAGE_TOKENS = [
    b"\x89PNG\r\n\x1a\n", b"IHDR", b"PLTE", b"IDAT", b"IEND", b"tRNS", b"gAMA", b"iCCP", b"sRGB",
    b"\xff\xd8\xff", b"\xff\xc0", b"\xff\xc2", b"\xff\xc4", b"\xff\xdb", b"\xff\xdd", b"\xff\xda", b"\xff\xd9",
    b"\xff\xe0", b"\xff\xe1", b"JFIF\x00", b"Exif\x00\x00", b"MM\x00*", b"II*\x00", b"\x01\x12",
    b"GIF87a", b"GIF89a", b"!\xf9\x04", b"!\xff\x0bNETSCAPE2.0", b",", b";",
    b"BM", b"\x28\x00\x00\x00", b"\x38\x00\x00\x00", b"\x7c\x00\x00\x00", b"BI_BITFIELDS",
    b"P1", b"P2", b"P3", b"P4", b"P5", b"P6", b"255", b"65535", b"#",
]

# The readers each JSON target goes through.
SOURCES = {
    "project": ["project/project_parse.cpp", "project/json_view.cpp", "layers", "graph/analysis.cpp",
                "core/limits.cpp"],
    "keras": ["project/keras_import.cpp", "project/json_view.cpp", "layers"],
    "safetensors": ["store/weights_file.cpp", "store/checkpoint.cpp"],
}

LITERAL = re.compile(r'"([A-Za-z_][A-Za-z0-9_./]{1,40})"')


def literals(paths):
    words = set()
    for rel in paths:
        p = SRC / rel
        for f in sorted(p.glob("*.cpp")) if p.is_dir() else [p]:
            words.update(LITERAL.findall(f.read_text()))
    return sorted(words)


def escape(token):
    """A dictionary entry: printable ASCII as is, quote and backslash escaped, the rest as \\xNN."""
    out = []
    for b in token if isinstance(token, bytes) else token.encode():
        c = chr(b)
        out.append("\\" + c if c in '"\\' else c if 0x20 <= b < 0x7F else f"\\x{b:02x}")
    return '"' + "".join(out) + '"'


def write(target, tokens):
    OUT.mkdir(exist_ok=True)
    lines = [f"# {target}: written by fuzz/make_dicts.py"] + [escape(t) for t in tokens]
    (OUT / f"{target}.dict").write_text("\n".join(lines) + "\n")
    print(target, len(tokens), "words")


if __name__ == "__main__":
    for target, paths in SOURCES.items():
        # Keys also appear quoted, as the JSON holds them.
        words = literals(paths)
        write(target, JSON_TOKENS + words + ['"' + w + '"' for w in words])
    write("image", IMAGE_TOKENS)
