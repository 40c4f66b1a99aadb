#!/usr/bin/python3
"""Export a small Llama-style decoder with torch.onnx.export itself (the
attention of transformers 4.36: GQA with repeat_kv, rotary embedding per
layer, a key/value cache, the 4-D causal mask built once; dynamic batch and
sequence axes), to count the nodes a real exporter writes per layer beside
those of scripts/gen-transformer.py, which writes its graph directly.

    /usr/bin/python3 scripts/torch-decoder-reference.py OUT.onnx [--layers 2]

Needs python3-torch (Debian's 1.13 names nodes by module scope, as
/model/layers.0/self_attn/MatMul) and python3-onnx. Prints the node count,
the nodes of one layer by op, and those outside the layers.
"""
import argparse
import collections
import math

import onnx
import torch
from torch import nn

H, HEADS, KV = 64, 8, 2
HD = H // HEADS
L = 2  # layers; set from --layers
class RMS(nn.Module):
    def __init__(s): super().__init__(); s.weight = nn.Parameter(torch.ones(H))
    def forward(s, x):
        t = x.dtype; x = x.to(torch.float32)
        v = x.pow(2).mean(-1, keepdim=True)
        x = x * torch.rsqrt(v + 1e-6)
        return s.weight * x.to(t)
class Rot(nn.Module):
    def __init__(s):
        super().__init__()
        inv = 1.0 / (10000 ** (torch.arange(0, HD, 2).float() / HD))
        s.register_buffer("inv_freq", inv, persistent=False)
        t = torch.arange(2048, dtype=inv.dtype); f = torch.outer(t, inv); e = torch.cat((f, f), dim=-1)
        s.register_buffer("cos_cached", e.cos(), persistent=False); s.register_buffer("sin_cached", e.sin(), persistent=False)
    def forward(s, x, seq_len):
        return s.cos_cached[:seq_len].to(dtype=x.dtype), s.sin_cached[:seq_len].to(dtype=x.dtype)
def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]; x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)
def rep(x, n):
    b, k, s, d = x.shape
    x = x[:, :, None, :, :].expand(b, k, n, s, d)
    return x.reshape(b, k * n, s, d)
class Attn(nn.Module):
    def __init__(s):
        super().__init__()
        s.q_proj = nn.Linear(H, H, bias=False); s.k_proj = nn.Linear(H, KV*HD, bias=False)
        s.v_proj = nn.Linear(H, KV*HD, bias=False); s.o_proj = nn.Linear(H, H, bias=False); s.rotary_emb = Rot()
    def forward(s, x, mask, pos, pk, pv):
        bsz, q_len, _ = x.size()
        q = s.q_proj(x).view(bsz, q_len, HEADS, HD).transpose(1, 2)
        k = s.k_proj(x).view(bsz, q_len, KV, HD).transpose(1, 2)
        v = s.v_proj(x).view(bsz, q_len, KV, HD).transpose(1, 2)
        kv_seq_len = k.shape[-2] + pk.shape[-2]
        cos, sin = s.rotary_emb(v, seq_len=kv_seq_len)
        cos = cos[pos].unsqueeze(1); sin = sin[pos].unsqueeze(1)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        k = torch.cat([pk, k], dim=2); v = torch.cat([pv, v], dim=2)
        present = (k, v)
        k = rep(k, HEADS // KV); v = rep(v, HEADS // KV)
        w = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(HD)
        w = w + mask
        w = nn.functional.softmax(w, dim=-1, dtype=torch.float32).to(q.dtype)
        o = torch.matmul(w, v).transpose(1, 2).contiguous().reshape(bsz, q_len, H)
        return s.o_proj(o), present
class MLP(nn.Module):
    def __init__(s):
        super().__init__(); I = H * 8 // 3
        s.gate_proj = nn.Linear(H, I, bias=False); s.up_proj = nn.Linear(H, I, bias=False); s.down_proj = nn.Linear(I, H, bias=False); s.act_fn = nn.SiLU()
    def forward(s, x): return s.down_proj(s.act_fn(s.gate_proj(x)) * s.up_proj(x))
class Layer(nn.Module):
    def __init__(s):
        super().__init__(); s.self_attn = Attn(); s.mlp = MLP(); s.input_layernorm = RMS(); s.post_attention_layernorm = RMS()
    def forward(s, x, mask, pos, pk, pv):
        h, pr = s.self_attn(s.input_layernorm(x), mask, pos, pk, pv); x = x + h
        return x + s.mlp(s.post_attention_layernorm(x)), pr
class Model(nn.Module):
    def __init__(s):
        super().__init__(); s.embed_tokens = nn.Embedding(512, H); s.layers = nn.ModuleList([Layer() for _ in range(L)]); s.norm = RMS()
    def forward(s, ids, am, past):
        b, n = ids.shape; pl = past[0].shape[2]
        pos = torch.arange(pl, n + pl, dtype=torch.long).unsqueeze(0)
        x = s.embed_tokens(ids)
        # _prepare_4d_causal_attention_mask
        m = torch.full((n, n), torch.finfo(x.dtype).min)
        c = torch.arange(m.size(-1))
        m.masked_fill_(c < (c + 1).view(m.size(-1), 1), 0)
        m = torch.cat([torch.zeros(n, pl, dtype=x.dtype), m], dim=-1)
        m = m[None, None, :, :].expand(b, 1, n, n + pl)
        e = am[:, None, None, :].expand(b, 1, n, n + pl).to(x.dtype)
        inv = 1.0 - e
        e = inv.masked_fill(inv.to(torch.bool), torch.finfo(x.dtype).min)
        mask = m.masked_fill(e.to(torch.bool), torch.finfo(x.dtype).min)
        pres = []
        for i, l in enumerate(s.layers):
            x, pr = l(x, mask, pos, past[2*i], past[2*i+1]); pres += pr
        return (x,) + tuple(pres)
class LM(nn.Module):
    def __init__(s):
        super().__init__()
        s.model = Model()
        s.lm_head = nn.Linear(H, 512, bias=False)

    def forward(s, ids, am, *past):
        o = s.model(ids, am, past)
        return (s.lm_head(s.model.norm(o[0])),) + o[1:]


def main():
    global L
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--layers", type=int, default=2)
    a = ap.parse_args()
    L = a.layers
    m = LM().eval()
    ids = torch.zeros(1, 3, dtype=torch.long)
    am = torch.ones(1, 5, dtype=torch.long)
    past = [torch.zeros(1, KV, 2, HD) for _ in range(2 * L)]
    names = [f"past_key_values.{i // 2}.{'key' if i % 2 == 0 else 'value'}" for i in range(2 * L)]
    outs = ["logits"] + [n.replace("past_key_values", "present") for n in names]
    dyn = {"input_ids": {0: "batch", 1: "sequence"}, "attention_mask": {0: "batch", 1: "total"},
           "logits": {0: "batch", 1: "sequence"}}
    dyn.update({n: {0: "batch", 2: "past"} for n in names})
    dyn.update({n: {0: "batch", 2: "total"} for n in outs[1:]})
    torch.onnx.export(m, (ids, am, *past), a.out, input_names=["input_ids", "attention_mask"] + names,
                      output_names=outs, dynamic_axes=dyn, opset_version=14)
    g = onnx.load(a.out).graph
    layer = [n for n in g.node if "/layers.0/" in n.name]
    print(f"{len(g.node)} nodes; layers.0 holds {len(layer)}:",
          dict(collections.Counter(n.op_type for n in layer).most_common()))
    print(f"{sum(1 for n in g.node if '/layers.' not in n.name)} nodes outside the layers "
          "(the mask, positions, final norm, head, and constants the exporter left unscoped)")


if __name__ == "__main__":
    main()
