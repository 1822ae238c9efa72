"""The PyTorch side of the 7B bench: the folder's BF16 weights held as bfloat16, each matrix
widened to float32 for its product (the arithmetic backend-tiny runs bf16 weights with), through
Qwen2's forward as transformers writes it (RMSNorm in float32, rotate-half RoPE with theta 1e6,
grouped-query causal attention, SwiGLU, QKV biases) and Qwen2.5-Math-PRM's head (Linear, ReLU,
Linear), read at the given positions. Written from the architecture, not from reward-lens's code.

argv[1]: JSON {"folder", "ids", "positions", "threads"}. Prints one JSON line: the logits, load
and forward seconds, and the peak resident memory (ru_maxrss).
"""
import json
import math
import os
import resource
import struct
import sys
import time

import numpy as np
import torch

spec = json.loads(sys.argv[1])
torch.set_num_threads(spec["threads"])
folder = spec["folder"]
config = json.load(open(os.path.join(folder, "config.json")))
H, L, NH, NKV, I = config["hidden_size"], config["num_hidden_layers"], config["num_attention_heads"], config["num_key_value_heads"], config["intermediate_size"]
D = H // NH
EPS, THETA = config["rms_norm_eps"], config["rope_theta"]

started = time.perf_counter()
index = json.load(open(os.path.join(folder, "model.safetensors.index.json")))["weight_map"]
weights = {}
for shard in sorted(set(index.values())):
    with open(os.path.join(folder, shard), "rb") as file:
        (length,) = struct.unpack("<Q", file.read(8))
        header = json.loads(file.read(length))
        base = 8 + length
        for name, entry in header.items():
            if name == "__metadata__":
                continue
            assert entry["dtype"] == "BF16", entry["dtype"]
            begin, end = entry["data_offsets"]
            file.seek(base + begin)
            raw = np.frombuffer(file.read(end - begin), dtype=np.int16)
            weights[name] = torch.from_numpy(raw.copy()).view(torch.bfloat16).reshape(entry["shape"])
load_seconds = time.perf_counter() - started


def w(name):
    return weights[name].float()


def rms_norm(x, name):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + EPS) * w(name)


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


@torch.no_grad()
def forward(ids):
    T = len(ids)
    x = weights["model.embed_tokens.weight"][torch.tensor(ids)].float()
    inverse = 1.0 / (THETA ** (torch.arange(0, D, 2, dtype=torch.float64) / D))
    angles = torch.outer(torch.arange(T, dtype=torch.float64), inverse)
    cos = torch.cat((angles.cos(), angles.cos()), -1).float()
    sin = torch.cat((angles.sin(), angles.sin()), -1).float()
    mask = torch.full((T, T), float("-inf")).triu(1)
    for layer in range(L):
        p = f"model.layers.{layer}."
        h = rms_norm(x, p + "input_layernorm.weight")
        q = (h @ w(p + "self_attn.q_proj.weight").T + w(p + "self_attn.q_proj.bias")).view(T, NH, D).transpose(0, 1)
        k = (h @ w(p + "self_attn.k_proj.weight").T + w(p + "self_attn.k_proj.bias")).view(T, NKV, D).transpose(0, 1)
        v = (h @ w(p + "self_attn.v_proj.weight").T + w(p + "self_attn.v_proj.bias")).view(T, NKV, D).transpose(0, 1)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        k = k.repeat_interleave(NH // NKV, dim=0)
        v = v.repeat_interleave(NH // NKV, dim=0)
        scores = (q @ k.transpose(1, 2)) / math.sqrt(D) + mask
        attention = torch.softmax(scores, dim=-1) @ v
        x = x + attention.transpose(0, 1).reshape(T, H) @ w(p + "self_attn.o_proj.weight").T
        h = rms_norm(x, p + "post_attention_layernorm.weight")
        gate = h @ w(p + "mlp.gate_proj.weight").T
        up = h @ w(p + "mlp.up_proj.weight").T
        x = x + (torch.nn.functional.silu(gate) * up) @ w(p + "mlp.down_proj.weight").T
    x = rms_norm(x, "model.norm.weight")
    hidden = torch.relu(x @ w("score.0.weight").T + w("score.0.bias"))
    return hidden @ w("score.2.weight").T + w("score.2.bias")


started = time.perf_counter()
logits = forward(spec["ids"])
forward_seconds = time.perf_counter() - started
read = logits[spec["positions"]].flatten().tolist()
print(json.dumps({"logits": read, "loadSeconds": load_seconds, "forwardSeconds": forward_seconds, "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, "torch": torch.__version__}))
