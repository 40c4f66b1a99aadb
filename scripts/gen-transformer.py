#!/usr/bin/python3
"""Write a decoder-only transformer (Llama-style) as ONNX, unfused, with
node and value names as torch.onnx.export gives them
(/model/layers.0/self_attn/q_proj/MatMul, /model/layers.0/self_attn/
Reshape_output_0): the graph the hierarchical graph view is measured on.

    scripts/gen-transformer.py OUT.onnx [--layers 32] [--hidden 64]
                               [--fault-layer N]

--fault-layer plants one extra Add in that layer's MLP, so that the layer
is no longer identical to its siblings. Weights are small (hidden 64) and
seeded, so the file is a few MB and the same on every run.
"""
import argparse
import collections

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


class Exporter:
    """Names nodes the way torch.onnx.export does: scope/Op, scope/Op_1, …,
    outputs scope/Op_output_0."""

    def __init__(self, rng):
        self.nodes = []
        self.inits = []
        self.counts = collections.Counter()
        self.rng = rng
        self.matmuls = 0
        self.outputs = []  # (graph output name, value) pairs

    def op(self, scope, op, inputs, n_out=1, **attrs):
        k = self.counts[(scope, op)]
        self.counts[(scope, op)] += 1
        name = f"{scope}/{op}" if k == 0 else f"{scope}/{op}_{k}"
        outs = [f"{name}_output_{i}" for i in range(n_out)]
        self.nodes.append(helper.make_node(op, inputs, outs, name=name, **attrs))
        return outs[0] if n_out == 1 else outs

    def const(self, scope, value):
        arr = np.array(value, dtype=np.int64 if isinstance(value, (int, list)) else np.float32)
        return self.op(scope, "Constant", [], value=numpy_helper.from_array(arr))

    def weight(self, name, shape):
        arr = (self.rng.standard_normal(shape) * 0.02).astype(np.float32)
        self.inits.append(numpy_helper.from_array(arr, name))
        return name

    def linear(self, scope, x, fan_in, fan_out):
        # torch exports nn.Linear(bias=False) as MatMul with the transposed
        # weight in an initializer named after the op.
        self.matmuls += 1
        w = self.weight(f"onnx::MatMul_{1000 + self.matmuls}", (fan_in, fan_out))
        return self.op(scope, "MatMul", [x, w])

    def dim(self, scope, x, axis):
        """x.size(axis) as a 1-element tensor: Shape → Gather → Unsqueeze."""
        s = self.op(scope, "Shape", [x])
        g = self.op(scope, "Gather", [s, self.const(scope, axis)], axis=0)
        return self.op(scope, "Unsqueeze", [g, self.const(scope, [0])])

    def view(self, scope, x, like, tail):
        """x.view(like.size(0), like.size(1), *tail) with dynamic sizes."""
        parts = [self.dim(scope, like, 0), self.dim(scope, like, 1)]
        parts += [self.const(scope, [t]) for t in tail]
        shape = self.op(scope, "Concat", parts, axis=0)
        return self.op(scope, "Reshape", [x, shape])


def rms_norm(e, scope, x, hidden, name):
    x32 = e.op(scope, "Cast", [x], to=TensorProto.FLOAT)
    p = e.op(scope, "Pow", [x32, e.const(scope, 2.0)])
    m = e.op(scope, "ReduceMean", [p], axes=[-1], keepdims=1)
    a = e.op(scope, "Add", [m, e.const(scope, 1e-6)])
    s = e.op(scope, "Sqrt", [a])
    r = e.op(scope, "Div", [e.const(scope, 1.0), s])
    y = e.op(scope, "Mul", [x32, r])
    y = e.op(scope, "Cast", [y], to=TensorProto.FLOAT)
    w = e.weight(f"{name}.weight", (hidden,))
    return e.op(scope, "Mul", [w, y])


def half_dim(e, scope, x):
    """x.shape[-1] // 2 as torch traces it: Shape → Gather → Div → Cast."""
    s = e.op(scope, "Shape", [x])
    g = e.op(scope, "Gather", [s, e.const(scope, 3)], axis=0)
    d = e.op(scope, "Div", [g, e.const(scope, 2)])
    d = e.op(scope, "Cast", [d], to=TensorProto.INT64)
    d = e.op(scope, "Cast", [d], to=TensorProto.INT64)
    return e.op(scope, "Unsqueeze", [d, e.const(scope, [0])])


def rotate_half(e, scope, x, half):
    x1 = e.op(scope, "Slice", [x, e.const(scope, [0]), half_dim(e, scope, x), e.const(scope, [3]), e.const(scope, [1])])
    x2 = e.op(scope, "Slice", [x, half_dim(e, scope, x), e.const(scope, [1 << 62]), e.const(scope, [3]), e.const(scope, [1])])
    n = e.op(scope, "Neg", [x2])
    return e.op(scope, "Concat", [n, x1], axis=-1)


def rotary(e, scope, x, cos, sin, half):
    a = e.op(scope, "Mul", [x, cos])
    b = e.op(scope, "Mul", [rotate_half(e, scope, x, half), sin])
    return e.op(scope, "Add", [a, b])


def gathered(e, scope, table, pos):
    """cos[position_ids].unsqueeze(1), with the dynamic slicing torch emits."""
    n = e.dim(scope, pos, 1)
    t = e.op(scope, "Slice", [table, e.const(scope, [0]), n, e.const(scope, [0]), e.const(scope, [1])])
    g = e.op(scope, "Gather", [t, pos], axis=0)
    return e.op(scope, "Unsqueeze", [g, e.const(scope, [1])])


def repeat_kv(e, scope, x, kv_heads, rep, head_dim):
    """x[:, :, None].expand(b, kv, rep, s, d).reshape(b, kv*rep, s, d)."""
    u = e.op(scope, "Unsqueeze", [x, e.const(scope, [2])])
    parts = [e.dim(scope, x, 0), e.const(scope, [kv_heads]), e.const(scope, [rep]), e.dim(scope, x, 2), e.const(scope, [head_dim])]
    shape = e.op(scope, "Concat", parts, axis=0)
    ones = e.op(scope, "ConstantOfShape", [e.op(scope, "Shape", [shape])],
                value=numpy_helper.from_array(np.array([1], dtype=np.int64)))
    m = e.op(scope, "Mul", [ones, e.const(scope, -1)])
    eq = e.op(scope, "Equal", [shape, m])
    w = e.op(scope, "Where", [eq, ones, shape])
    x = e.op(scope, "Expand", [u, w])
    parts = [e.dim(scope, x, 0), e.const(scope, [kv_heads * rep]), e.dim(scope, x, 3), e.const(scope, [head_dim])]
    return e.op(scope, "Reshape", [x, e.op(scope, "Concat", parts, axis=0)])


def attention(e, scope, layer, x, mask, cos_t, sin_t, pos, hidden, heads, kv_heads):
    head_dim = hidden // heads
    q = e.linear(f"{scope}/q_proj", x, hidden, hidden)
    k = e.linear(f"{scope}/k_proj", x, hidden, kv_heads * head_dim)
    v = e.linear(f"{scope}/v_proj", x, hidden, kv_heads * head_dim)
    q = e.op(scope, "Transpose", [e.view(scope, q, x, [heads, head_dim])], perm=[0, 2, 1, 3])
    k = e.op(scope, "Transpose", [e.view(scope, k, x, [kv_heads, head_dim])], perm=[0, 2, 1, 3])
    v = e.op(scope, "Transpose", [e.view(scope, v, x, [kv_heads, head_dim])], perm=[0, 2, 1, 3])
    # Each layer's rotary embedding slices its own cos/sin cache to the
    # sequence length (transformers before 4.38).
    rs = f"{scope}/rotary_emb"
    n = e.dim(rs, v, 2)
    cos = e.op(rs, "Slice", [cos_t, e.const(rs, [0]), n, e.const(rs, [0]), e.const(rs, [1])])
    sin = e.op(rs, "Slice", [sin_t, e.const(rs, [0]), n, e.const(rs, [0]), e.const(rs, [1])])
    cos = e.op(rs, "Cast", [cos], to=TensorProto.FLOAT)
    sin = e.op(rs, "Cast", [sin], to=TensorProto.FLOAT)
    # The key/value cache: past states in front of this step's.
    k = e.op(scope, "Concat", [f"past_key_values.{layer}.key", k], axis=2)
    v = e.op(scope, "Concat", [f"past_key_values.{layer}.value", v], axis=2)
    e.outputs += [(f"present.{layer}.key", k), (f"present.{layer}.value", v)]
    cos = gathered(e, scope, cos, pos)
    sin = gathered(e, scope, sin, pos)
    q = rotary(e, scope, q, cos, sin, head_dim // 2)
    k = rotary(e, scope, k, cos, sin, head_dim // 2)
    k = repeat_kv(e, scope, k, kv_heads, heads // kv_heads, head_dim)
    v = repeat_kv(e, scope, v, kv_heads, heads // kv_heads, head_dim)
    kt = e.op(scope, "Transpose", [k], perm=[0, 1, 3, 2])
    s = e.op(scope, "MatMul", [q, kt])
    s = e.op(scope, "Div", [s, e.const(scope, float(np.sqrt(head_dim)))])
    # causal_mask = attention_mask[:, :, :, : key_states.shape[-2]]
    m = e.op(scope, "Slice", [mask, e.const(scope, [0]), e.dim(scope, k, 2), e.const(scope, [3]), e.const(scope, [1])])
    s = e.op(scope, "Add", [s, m])
    p = e.op(scope, "Softmax", [s], axis=-1)
    p = e.op(scope, "Cast", [p], to=TensorProto.FLOAT)
    o = e.op(scope, "MatMul", [p, v])
    o = e.op(scope, "Transpose", [o], perm=[0, 2, 1, 3])
    o = e.view(scope, o, x, [hidden])
    return e.linear(f"{scope}/o_proj", o, hidden, hidden)


def mlp(e, scope, x, hidden, inter, fault):
    g = e.linear(f"{scope}/gate_proj", x, hidden, inter)
    sg = e.op(f"{scope}/act_fn", "Sigmoid", [g])
    a = e.op(f"{scope}/act_fn", "Mul", [g, sg])
    u = e.linear(f"{scope}/up_proj", x, hidden, inter)
    y = e.linear(f"{scope}/down_proj", e.op(scope, "Mul", [a, u]), inter, hidden)
    if fault:
        y = e.op(scope, "Add", [y, e.const(scope, 0.0)])
    return y


def causal_mask(e, scope, ids, attn):
    """The 4-D additive mask, built once from the 2-D attention mask."""
    n = e.dim(scope, ids, 1)
    r = e.op(scope, "Range", [e.const(scope, 0), e.op(scope, "Squeeze", [n, e.const(scope, [0])]), e.const(scope, 1)])
    c = e.op(scope, "Unsqueeze", [r, e.const(scope, [1])])
    t = e.op(scope, "Unsqueeze", [r, e.const(scope, [0])])
    tri = e.op(scope, "Less", [c, t])
    tri = e.op(scope, "Cast", [tri], to=TensorProto.FLOAT)
    tri = e.op(scope, "Mul", [tri, e.const(scope, -3.4e38)])
    am = e.op(scope, "Cast", [attn], to=TensorProto.FLOAT)
    am = e.op(scope, "Sub", [e.const(scope, 1.0), am])
    am = e.op(scope, "Mul", [am, e.const(scope, -3.4e38)])
    am = e.op(scope, "Unsqueeze", [am, e.const(scope, [1, 2])])
    tri = e.op(scope, "Unsqueeze", [tri, e.const(scope, [0, 1])])
    return e.op(scope, "Add", [tri, am])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--layers", type=int, default=32)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--heads", type=int, default=8)
    ap.add_argument("--kv-heads", type=int, default=2)
    ap.add_argument("--vocab", type=int, default=512)
    ap.add_argument("--fault-layer", type=int, default=-1)
    a = ap.parse_args()
    hidden, inter, head_dim = a.hidden, a.hidden * 8 // 3, a.hidden // a.heads
    e = Exporter(np.random.default_rng(25))
    emb = e.weight("model.embed_tokens.weight", (a.vocab, hidden))
    x = e.op("/model/embed_tokens", "Gather", [emb, "input_ids"])
    pos = e.op("/model", "Unsqueeze", [e.op("/model", "Range", [e.const("/model", 0), e.op("/model", "Squeeze", [e.dim("/model", x, 1), e.const("/model", [0])]), e.const("/model", 1)]), e.const("/model", [0])])
    mask = causal_mask(e, "/model", "input_ids", "attention_mask")
    rs = "/model/rotary_emb"
    inv = e.weight("model.rotary_emb.inv_freq", (head_dim // 2,))
    t = e.op(rs, "Cast", [e.op(rs, "Range", [e.const(rs, 0.0), e.const(rs, 2048.0), e.const(rs, 1.0)])], to=TensorProto.FLOAT)
    f = e.op(rs, "Mul", [e.op(rs, "Unsqueeze", [t, e.const(rs, [1])]), e.op(rs, "Unsqueeze", [inv, e.const(rs, [0])])])
    f = e.op(rs, "Concat", [f, f], axis=-1)
    cos_t, sin_t = e.op(rs, "Cos", [f]), e.op(rs, "Sin", [f])
    for i in range(a.layers):
        ls = f"/model/layers.{i}"
        h = rms_norm(e, f"{ls}/input_layernorm", x, hidden, f"model.layers.{i}.input_layernorm")
        h = attention(e, f"{ls}/self_attn", i, h, mask, cos_t, sin_t, pos, hidden, a.heads, a.kv_heads)
        x = e.op(ls, "Add", [x, h])
        h = rms_norm(e, f"{ls}/post_attention_layernorm", x, hidden, f"model.layers.{i}.post_attention_layernorm")
        h = mlp(e, f"{ls}/mlp", h, hidden, inter, i == a.fault_layer)
        x = e.op(ls, "Add", [x, h])
    x = rms_norm(e, "/model/norm", x, hidden, "model.norm")
    logits = e.linear("/lm_head", x, hidden, a.vocab)
    e.nodes[-1].output[0] = "logits"
    past, present = [], []
    rename = dict((value, name) for name, value in e.outputs)
    for n in e.nodes:  # graph outputs are named as torch names them
        for j, o in enumerate(n.output):
            n.output[j] = rename.get(o, o)
        for j, o in enumerate(n.input):
            n.input[j] = rename.get(o, o)
    for name, value in e.outputs:
        shape = ["batch", a.kv_heads, "total_sequence", head_dim]
        past.append(helper.make_tensor_value_info(name.replace("present", "past_key_values"), TensorProto.FLOAT,
                                                  ["batch", a.kv_heads, "past_sequence", head_dim]))
        present.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, shape))
    g = helper.make_graph(
        e.nodes, "decoder",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "sequence"]),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "sequence"])] + past,
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", "sequence", a.vocab])] + present,
        initializer=e.inits)
    m = helper.make_model(g, producer_name="pytorch", producer_version="2.1.0",
                          opset_imports=[helper.make_opsetid("", 17)])
    onnx.save(m, a.out)


if __name__ == "__main__":
    main()
