#!/usr/bin/env python3
"""NumPy reference for `tensorscope summary --json` (issue #24).

    summary_reference.py FILE.safetensors   a checkpoint read with NumPy alone
    summary_reference.py DIR                a directory holding manifest.json
                                            and one float64 .npy per tensor
                                            (what the tests dump for formats
                                            NumPy cannot read)

prints, for each argument and on a line of its own, the same JSON object
as the command: totals, every tensor's figures
and flags, and the blocks. It computes the figures per tensor the plain
NumPy way, one figure at a time, as a user's script would; the tests hold
the Go code to it and the benchmarks time it beside the command.
"""
import json
import os
import re
import sys

import numpy as np

ST_DTYPES = {
    "F64": ("float64", np.float64), "F32": ("float32", np.float32),
    "F16": ("float16", np.float16), "BF16": ("bfloat16", None),
    "I64": ("int64", np.int64), "I32": ("int32", np.int32), "I16": ("int16", np.int16),
    "I8": ("int8", np.int8), "U64": ("uint64", np.uint64), "U32": ("uint32", np.uint32),
    "U16": ("uint16", np.uint16), "U8": ("uint8", np.uint8), "BOOL": ("bool", np.bool_),
}


def read_safetensors(path):
    """Yields (name, dtype name, shape, bytes, float64 values) in file order."""
    with open(path, "rb") as f:
        n = int.from_bytes(f.read(8), "little")
        header = json.loads(f.read(n))
    data = np.memmap(path, dtype=np.uint8, mode="r", offset=8 + n)
    # The order of the data, as the file lays it out.
    entries = sorted(((k, v) for k, v in header.items() if k != "__metadata__"),
                     key=lambda kv: kv[1]["data_offsets"][0])
    for name, info in entries:
        dname, npt = ST_DTYPES[info["dtype"]]
        lo, hi = info["data_offsets"]
        raw = data[lo:hi]
        shape = tuple(info["shape"])
        if dname == "bfloat16":
            vals = (raw.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
        else:
            vals = raw.view(npt)
        yield name, dname, list(shape), hi - lo, vals.reshape(shape)


def read_dump(d):
    with open(os.path.join(d, "manifest.json")) as f:
        man = json.load(f)
    for t in man["tensors"]:
        vals = np.load(os.path.join(d, t["file"]))
        yield t["name"], t["dtype"], t["shape"], t["bytes"], vals.reshape(t["shape"])


def num(v):
    v = float(v)
    return v if np.isfinite(v) else None


def figures(name, dtype, shape, nbytes, a):
    x = np.asarray(a).astype(np.float64)
    flat = x.reshape(-1)
    fin = flat[np.isfinite(flat)]
    count = int(flat.size)
    t = {"name": name, "dtype": dtype, "shape": list(shape), "params": count, "bytes": int(nbytes),
         "count": count, "finite": int(fin.size),
         "nan": int(np.isnan(flat).sum()), "posinf": int(np.isposinf(flat).sum()),
         "neginf": int(np.isneginf(flat).sum()), "zeros": int((flat == 0).sum()),
         "min": None, "max": None, "mean": None, "std": None, "absmax": None,
         "l2": float(np.sqrt(np.sum(fin * fin))), "kurtosis": None, "outlier_ratio": None}
    if fin.size:
        mean = fin.mean()
        std = fin.std()
        dev = fin - mean
        m2 = np.mean(dev ** 2)
        m4 = np.mean(dev ** 4)
        t.update(min=num(fin.min()), max=num(fin.max()), mean=num(mean), std=num(std),
                 absmax=num(np.abs(fin).max()))
        if fin.min() != fin.max() and m2 > 0:
            t["kurtosis"] = num(m4 / m2 ** 2 - 3)
        if fin.min() != fin.max() and std > 0:
            t["outlier_ratio"] = num(np.abs(dev).max() / std)
    dead = 0
    if x.ndim >= 2 and x.shape[0] > 0:
        dead = int(np.all(x.reshape(x.shape[0], -1) == 0, axis=1).sum())
    t["dead_rows"] = dead
    flags = []
    if t["nan"]:
        flags.append("nan")
    if t["posinf"] or t["neginf"]:
        flags.append("inf")
    all_zero = count > 0 and t["zeros"] == count
    if all_zero:
        flags.append("all_zero")
    if count >= 2 and fin.size and t["std"] == 0 and not all_zero:
        flags.append("constant")
    if dead:
        flags.append("dead_rows")
    t["flags"] = flags
    return t


def split_name(name):
    parts = name.split(".")
    for i, p in enumerate(parts):
        if re.fullmatch(r"[0-9]+", p):
            return ".".join(parts[:i]), int(p), ".".join(parts[i + 1:])
    return None


def summarise(path, fmt, tensors):
    out = {"path": path, "format": fmt,
           "totals": {"tensors": 0, "params": 0, "bytes": 0, "by_dtype": {}},
           "tensors": [], "blocks": []}
    tot = out["totals"]
    for name, dtype, shape, nbytes, a in tensors:
        t = figures(name, dtype, shape, nbytes, a)
        out["tensors"].append(t)
        tot["tensors"] += 1
        tot["params"] += t["params"]
        tot["bytes"] += t["bytes"]
        d = tot["by_dtype"].setdefault(dtype, {"tensors": 0, "params": 0, "bytes": 0})
        d["tensors"] += 1
        d["params"] += t["params"]
        d["bytes"] += t["bytes"]
    blocks, groups = {}, {}
    for t in out["tensors"]:
        s = split_name(t["name"])
        if s is None:
            continue
        prefix, index, role = s
        b = blocks.setdefault(prefix, {"prefix": prefix, "indices": [], "roles": []})
        if index not in b["indices"]:
            b["indices"].append(index)
        if role not in b["roles"]:
            b["roles"].append(role)
        groups.setdefault((prefix, role), []).append((index, t))
    for b in blocks.values():
        b["indices"].sort()
    out["blocks"] = list(blocks.values())
    for members in groups.values():
        if len({i for i, _ in members}) < 4:
            continue
        stds = [t["std"] for _, t in members if t["finite"]]
        if not stds:
            continue
        med = float(np.median(stds))
        if not med > 0:
            continue
        for _, t in members:
            if t["finite"] and (t["std"] > 4 * med or t["std"] < med / 4):
                t["flags"].append("layer_anomaly")
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: summary_reference.py FILE.safetensors|DIR...")
    for src in sys.argv[1:]:
        if os.path.isdir(src):
            with open(os.path.join(src, "manifest.json")) as f:
                man = json.load(f)
            out = summarise(man["path"], man["format"], read_dump(src))
        else:
            out = summarise(src, "safetensors", read_safetensors(src))
        json.dump(out, sys.stdout)
        sys.stdout.write("\n")


if __name__ == "__main__":
    main()
