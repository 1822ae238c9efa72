"""The PyTorch side of `pnpm bench` in @reward-lens/train: the same decoder as the Node side
(Llama block: RMSNorm, RoPE rotate-half, grouped-query causal attention, SwiGLU; a 2-class
token-classification head), the same batch and the same training step (cross-entropy at the
read positions, clipping, AdamW), on the threads torch is given.

Protocol on stdin/stdout, so that Node can time the two sides alternately: each line "run N"
runs N training steps and answers one JSON line {"seconds": [...]} (wall time per step);
"forward N" does the same for forward passes; "quit" ends.
"""
import json
import math
import sys
import time

import torch

spec = json.loads(sys.argv[1])
torch.set_num_threads(spec["threads"])
torch.manual_seed(spec["seed"])
H, L, NH, NKV, I, V = spec["hidden"], spec["layers"], spec["heads"], spec["kvHeads"], spec["intermediate"], spec["vocab"]
D = H // NH


class RMSNorm(torch.nn.Module):
    def __init__(self, width, eps):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(width))
        self.eps = eps

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.input_layernorm = RMSNorm(H, 1e-5)
        self.q_proj = torch.nn.Linear(H, NH * D, bias=False)
        self.k_proj = torch.nn.Linear(H, NKV * D, bias=False)
        self.v_proj = torch.nn.Linear(H, NKV * D, bias=False)
        self.o_proj = torch.nn.Linear(NH * D, H, bias=False)
        self.post_attention_layernorm = RMSNorm(H, 1e-5)
        self.gate_proj = torch.nn.Linear(H, I, bias=False)
        self.up_proj = torch.nn.Linear(H, I, bias=False)
        self.down_proj = torch.nn.Linear(I, H, bias=False)

    def forward(self, x, cos, sin, mask):
        B, T, _ = x.shape
        n = self.input_layernorm(x)
        q = self.q_proj(n).view(B, T, NH, D).transpose(1, 2)
        k = self.k_proj(n).view(B, T, NKV, D).transpose(1, 2)
        v = self.v_proj(n).view(B, T, NKV, D).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        if NKV != NH:
            k = k.repeat_interleave(NH // NKV, dim=1)
            v = v.repeat_interleave(NH // NKV, dim=1)
        scores = (q @ k.transpose(-1, -2)) / math.sqrt(D) + mask
        attended = (scores.softmax(-1) @ v).transpose(1, 2).reshape(B, T, NH * D)
        x = x + self.o_proj(attended)
        n = self.post_attention_layernorm(x)
        return x + self.down_proj(torch.nn.functional.silu(self.gate_proj(n)) * self.up_proj(n))


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.embed_tokens = torch.nn.Embedding(V, H)
        self.layers = torch.nn.ModuleList([Block() for _ in range(L)])
        self.norm = RMSNorm(H, 1e-5)
        self.score = torch.nn.Linear(H, 2)

    def forward(self, ids, cos, sin, mask):
        x = self.embed_tokens(ids)
        for layer in self.layers:
            x = layer(x, cos, sin, mask)
        return self.score(self.norm(x))


rows, length = spec["rows"], spec["length"]
ids = torch.tensor(spec["inputIds"], dtype=torch.long).view(rows, length)
read_rows = torch.tensor([row for row, positions in enumerate(spec["positions"]) for _ in positions])
read_columns = torch.tensor([position for positions in spec["positions"] for position in positions])
labels = torch.tensor(spec["labels"], dtype=torch.long)
inverse = 1.0 / (10000 ** (torch.arange(0, D, 2, dtype=torch.float64) / D))
angles = torch.outer(torch.arange(length, dtype=torch.float64), inverse)
angles = torch.cat((angles, angles), dim=-1)
cos, sin = angles.cos().float(), angles.sin().float()
mask = torch.full((length, length), float("-inf")).triu(1)

model = Model()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4, betas=(0.9, 0.95), weight_decay=0.01)


def train_step():
    logits = model(ids, cos, sin, mask)[read_rows, read_columns]
    loss = torch.nn.functional.cross_entropy(logits, labels)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()


def forward():
    with torch.no_grad():
        model(ids, cos, sin, mask)


print(json.dumps({"ready": True, "torch": torch.__version__, "threads": torch.get_num_threads(), "parameters": sum(p.numel() for p in model.parameters())}), flush=True)
for line in sys.stdin:
    command, _, count = line.strip().partition(" ")
    if command == "quit":
        break
    work = train_step if command == "run" else forward
    seconds = []
    for _ in range(int(count or 1)):
        start = time.perf_counter()
        work()
        seconds.append(time.perf_counter() - start)
    print(json.dumps({"seconds": seconds}), flush=True)
