"""Attention entropy collapse: per layer and head, how peaked BERT's self-attention is, and how
large the query weights and the attention LayerNorm gains have grown, for one or more checkpoints.

    python3 -m bench.head_entropy assets/bert [OTHER_CHECKPOINT ...] [--data-dir ../shared/data]

A head whose every row puts all its weight on one token (mean row entropy near 0, mean top
weight near 1) has saturated logits; Zhai et al. 2023 ("Stabilizing Transformer Training by
Preventing Attention Entropy Collapse") tie such heads to loss spikes and divergence, which is
what continuing the shipped BERT at lr 5e-4 or more did (runs bQ, bR, bS in docs/training.md).
Comparing a checkpoint with its parent shows which head collapsed and which weights grew.
With --data-dir, also the largest per-tensor gradient norms on training batches (4 of 48
sequences, the shipped recipe's mix, the same draw for every checkpoint; about 2 minutes, most
of it reading the corpora). CPU, a few seconds per checkpoint without. Prints figures; asserts
nothing.
"""
from __future__ import annotations

import argparse
import random
from pathlib import Path

import numpy as np
import torch

from models.checkpoint import load
from models.trace import COLLAPSED_TOP_WEIGHT, head_sharpness
from models.training import data, train

PAIRS = [  # (sentence A, sentence B): written for this script, a mix of long and classroom-short text
    ("The city was founded in the twelfth century and soon became an important trading centre.",
     "Its harbour was enlarged twice before the railway arrived."),
    ("I am a student.", "I like to read books about history in the evening."),
    ("After the war, the government introduced new laws to protect workers and their families.",
     "The weather was cold and the river froze early that year."),
    ("She opened the window because the room was too warm.", "Then she sat down and wrote a letter."),
]


def head_stats(ckpt) -> tuple[np.ndarray, np.ndarray]:
    """Mean row entropy (nats) and mean top weight per [layer, head], over every query row of PAIRS."""
    tok, model = ckpt.tokenizer, ckpt.model.eval()
    encs = tok.encode_batch(PAIRS)
    n = max(len(e.ids) for e in encs)
    ids = torch.tensor([e.ids + [0] * (n - len(e.ids)) for e in encs])
    segments = torch.tensor([e.type_ids + [0] * (n - len(e.ids)) for e in encs])
    with torch.no_grad():
        out = model(ids, segments, need_weights=True)
    ent, top = head_sharpness(out.trace.enc_self, ids != ckpt.config.pad_id)
    return ent.numpy(), top.numpy()


def largest_gradients(ckpt, data_dir: Path, n: int = 5) -> list[tuple[str, float]]:
    """The n largest per-tensor gradient norms (root mean square over 4 batches of 48 sequences)."""
    model = ckpt.model.eval()  # no dropout: the same function for every checkpoint
    sampler = data.checkpoint_train_sampler(ckpt, data_dir, 8.0, random.Random(1))
    task, sq = train.Bound(model, mlm_labelled_only=True), {}
    for _ in range(4):
        model.zero_grad()
        task(**sampler.batch(48)).loss.backward()
        for name, p in model.named_parameters():
            if p.grad is not None:
                sq[name] = sq.get(name, 0.0) + p.grad.norm().item() ** 2 / 4
    return sorted(((k, v ** 0.5) for k, v in sq.items()), key=lambda kv: -kv[1])[:n]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("checkpoints", nargs="+")
    ap.add_argument("--data-dir", type=Path, default=None, help="also the largest gradients on training batches")
    args = ap.parse_args()
    for path in args.checkpoints:
        ckpt = load(path)
        ent, top = head_stats(ckpt)
        print(f"== {path}")
        for layer in range(ent.shape[0]):
            attn = ckpt.model.layers[layer].attn
            norm = ckpt.model.layers[layer].attn_norm
            print(f"layer {layer}: entropy " + " ".join(f"{e:4.2f}" for e in ent[layer])
                  + " | top weight " + " ".join(f"{t:4.2f}" for t in top[layer])
                  + f" | |W_q| {attn.q_proj.weight.norm():6.1f} |W_k| {attn.k_proj.weight.norm():6.1f}"
                  + f" max LN gain {norm.weight.abs().max():4.2f}"
                  + (f" | QK-LN max gain q {attn.q_norm.weight.abs().max():4.2f} k {attn.k_norm.weight.abs().max():4.2f}"
                     if attn.q_norm is not None else ""))
        collapsed = [(int(i), int(j)) for i, j in zip(*np.nonzero(top > COLLAPSED_TOP_WEIGHT))]
        print("collapsed heads (layer, head): " + (", ".join(map(str, collapsed)) if collapsed else "none"))
        if args.data_dir:
            print("largest gradients: " + ", ".join(f"{k} {v:.3f}" for k, v in largest_gradients(ckpt, args.data_dir)))


if __name__ == "__main__":
    main()
