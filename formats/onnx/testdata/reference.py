#!/usr/bin/python3
"""Reference facts about ONNX files from the onnx Python package.

Usage: reference.py FILE...  prints one JSON object per file (a list), with
what the Go tests compare against formats/onnx: the main graph's node
count and operator counts, each subgraph's node count, and every
initializer's name, NumPy dtype, shape and (where onnx can decode it) the
first values and the sum of all values.
"""
import json
import os
import sys

import numpy as np
import onnx
from onnx import numpy_helper

FIRST = 16


def graph_facts(g):
    ops = {}
    for n in g.node:
        ops[n.op_type] = ops.get(n.op_type, 0) + 1
    subgraphs = []
    for i, n in enumerate(g.node):
        for a in n.attribute:
            if a.type == onnx.AttributeProto.GRAPH:
                subgraphs.append({"node": i, "attr": a.name, "nodes": len(a.g.node)})
            elif a.type == onnx.AttributeProto.GRAPHS:
                for k, sg in enumerate(a.graphs):
                    subgraphs.append({"node": i, "attr": "%s[%d]" % (a.name, k), "nodes": len(sg.node)})
    return {"nodes": len(g.node), "ops": ops, "subgraphs": subgraphs}


def tensor_facts(t, base_dir):
    out = {"name": t.name, "shape": list(t.dims), "data_type": t.data_type}
    try:
        arr = numpy_helper.to_array(t, base_dir)
    except Exception as e:  # newer dtypes, missing external files
        out["error"] = str(e)[:200]
        return out
    out["dtype"] = str(arr.dtype)
    if arr.dtype.kind in "biufc":
        flat = arr.reshape(-1)
        if arr.dtype.kind == "c":
            flat = np.stack([flat.real, flat.imag], axis=-1).reshape(-1)
        flat = flat.astype(np.float64)
        out["first"] = [float(v) for v in flat[:FIRST]]
        out["sum"] = float(flat.sum())
    return out


def facts(path):
    m = onnx.load(path, load_external_data=False)
    base = os.path.dirname(path)
    out = graph_facts(m.graph)
    out["path"] = path
    out["ir_version"] = m.ir_version
    out["initializers"] = [tensor_facts(t, base) for t in m.graph.initializer]
    out["sparse"] = [{"name": s.values.name, "shape": list(s.dims)} for s in m.graph.sparse_initializer]
    out["inputs"] = [i.name for i in m.graph.input]
    out["outputs"] = [o.name for o in m.graph.output]
    return out


if __name__ == "__main__":
    print(json.dumps([facts(p) for p in sys.argv[1:]]))
