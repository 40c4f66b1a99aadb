#!/usr/bin/python3
"""Reference values for Tensorscope's ggml block decoders, computed by
gguf-py's own dequantiser (llama.cpp's gguf-py/gguf/quants.py).

Usage:
  /usr/bin/python3 scripts/ggml_reference.py GGUF_PY_DIR SAMPLES_GGUF_DIR OUT_DIR

GGUF_PY_DIR is llama.cpp's gguf-py folder (the one holding gguf/quants.py);
nothing of it is copied into the project. For every block type found in the
quantised samples it writes OUT_DIR/<type>.json with a few blocks of one
sample tensor (first, middle and last block), their bytes and the float32
values gguf-py's quants.dequantize gives for them. Types no sample holds but
gguf-py can quantise (TQ1_0) get blocks quantised from seeded random data.
The GGUF tensor table is read here with a few lines of struct code, so that
the reference does not share a reader with the code it checks.
"""
import importlib
import json
import os
import struct
import sys
import types

import numpy as np


def load_gguf_py(path):
    # Import gguf.constants and gguf.quants without running the package's
    # __init__, which pulls in optional dependencies (sentencepiece, yaml).
    pkg = types.ModuleType("gguf")
    pkg.__path__ = [os.path.join(path, "gguf")]
    sys.modules["gguf"] = pkg
    return importlib.import_module("gguf.constants"), importlib.import_module("gguf.quants")


def read_string(f):
    (n,) = struct.unpack("<Q", f.read(8))
    return f.read(n).decode("utf-8", "replace")


SIZES = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}


def skip_value(f, t):
    if t in SIZES:
        f.read(SIZES[t])
    elif t == 8:
        read_string(f)
    elif t == 9:
        et, n = struct.unpack("<IQ", f.read(12))
        for _ in range(n):
            skip_value(f, et)
    else:
        raise ValueError("value type %d" % t)


def tensors(path):
    """Yields (name, ggml type, dims innermost first, absolute offset)."""
    with open(path, "rb") as f:
        magic, version, n_tensors, n_kv = struct.unpack("<4sIQQ", f.read(24))
        assert magic == b"GGUF" and version in (2, 3), path
        alignment = 32
        for _ in range(n_kv):
            key = read_string(f)
            (t,) = struct.unpack("<I", f.read(4))
            if key == "general.alignment":
                (alignment,) = struct.unpack("<I", f.read(4))
            else:
                skip_value(f, t)
        infos = []
        for _ in range(n_tensors):
            name = read_string(f)
            (nd,) = struct.unpack("<I", f.read(4))
            dims = struct.unpack("<%dQ" % nd, f.read(8 * nd))
            t, off = struct.unpack("<IQ", f.read(12))
            infos.append((name, t, dims, off))
        start = (f.tell() + alignment - 1) // alignment * alignment
    for name, t, dims, off in infos:
        yield name, t, dims, start + off


def entry(constants, quants, qtype, raw, source):
    block, size = constants.GGML_QUANT_SIZES[qtype]
    values = quants.dequantize(np.frombuffer(raw, dtype=np.uint8).reshape(-1, size), qtype)
    values = np.ascontiguousarray(values, dtype=np.float32).reshape(-1)
    assert values.size == len(raw) // size * block
    return {
        "source": source,
        "blocks_hex": raw.hex(),
        "values_f32_bits": values.view(np.uint32).tolist(),
    }


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    gguf_py, samples, out = sys.argv[1:]
    constants, quants = load_gguf_py(gguf_py)
    Q = constants.GGMLQuantizationType
    found = {}
    for root, _, files in sorted(os.walk(samples)):
        for fn in sorted(files):
            if not fn.endswith(".gguf"):
                continue
            path = os.path.join(root, fn)
            try:
                infos = list(tensors(path))
            except (AssertionError, ValueError, struct.error):
                continue
            for name, t, dims, off in infos:
                qtype = Q(t)
                if qtype in found or qtype not in quants._type_traits or qtype == Q.BF16:
                    continue
                block, size = constants.GGML_QUANT_SIZES[qtype]
                n = int(np.prod(dims)) // block
                with open(path, "rb") as f:
                    raw = b""
                    for i in sorted({0, n // 2, n - 1}):
                        f.seek(off + i * size)
                        raw += f.read(size)
                rel = os.path.relpath(path, samples)
                source = {"file": rel, "tensor": name, "blocks": sorted({0, n // 2, n - 1}),
                          "block_bytes": size, "data_offset": off}
                found[qtype] = entry(constants, quants, qtype, raw, source)
    # Types without a sample that gguf-py can quantise: blocks of seeded
    # random data.
    rng = np.random.default_rng(15)
    for qtype in (Q.TQ1_0,):
        if qtype in found:
            continue
        data = rng.normal(0, 0.02, size=(3, 256)).astype(np.float32)
        raw = quants.quantize(data, qtype).tobytes()
        found[qtype] = entry(constants, quants, qtype, raw, {"random": "normal(0, 0.02), seed 15"})
    os.makedirs(out, exist_ok=True)
    for qtype, e in sorted(found.items(), key=lambda kv: kv[0].value):
        e["type"] = qtype.name
        with open(os.path.join(out, qtype.name.lower() + ".json"), "w") as f:
            json.dump(e, f, separators=(",", ":"))
            f.write("\n")
        print(qtype.name, e["source"])


if __name__ == "__main__":
    main()
