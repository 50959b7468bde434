"""The calibration run, on this repo's English -> French split: a plain torch.nn.Transformer
(d_model 256, 3 + 3 layers, 8 heads, d_ff 1024, dropout 0.1, one shared BPE vocabulary of 10k,
tied embeddings, the warm-up schedule of Vaswani et al. 2017, eq. 3, label smoothing 0.1, bf16 on CUDA), trained for a
time budget, then greedy BLEU (sacreBLEU) on the split's validation pairs (the first 1,000, as
models/training/train.py logs them, and all) and test pairs. It answers whether this repo's recipe (the
shipped transformer-en-fr) is above the plain model on the same split, or whether the split is
harder than the one behind the calibration figure ("trained for 8.5 minutes on one H200 already
reaches about 50 BLEU on such a split"). Not a shipped model: nothing is saved.

    python3 -m bench.calibration_baseline --data-dir ../shared/data --minutes 8.4   # one GPU
    python3 -m bench.calibration_baseline --data-dir ../shared/data --smoke         # CPU, seconds

The split is the shipped model's (seed and fractions from assets/transformer-en-fr/metrics.json);
`--split pair` cuts the pairs themselves with the same seed and fractions, so a test source may have
another translation among the training pairs (about half of them do), as a split by pair has it.
Prints figures and one JSON line; asserts nothing.

That figure came with the architecture, vocabulary, precision, label smoothing, decoding and time; the rest
(dropout, warm-up steps, batch size, tied embeddings, lengths) is this script's choice.

On CUDA it turns PyTorch's cuDNN attention backend off, as models/training/train.py does (that backend builds a
plan for every new (batch, length) shape, and length-bucketed batches bring a new shape nearly every
step), tells nn.Transformer its target mask is causal (else it compares the mask with a causal one,
a host sync each step) and allows TF32 matmuls. This script's first version had none of the three and
trained at 9.5 steps a second on an H200; with them, 22.7. Which of the three mattered was not isolated.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import time
from pathlib import Path

import torch
import torch.nn as nn
import torch.nn.functional as F

from models.tokenizers import special_ids, train_bpe
from models.training import data
from models.training.evaluate import bleu_by_seen_source, bleu_chrf
from models.transformer import sinusoidal_positions

ROOT = Path(__file__).resolve().parent.parent

MAX_LEN = 64


class PlainTransformer(nn.Module):
    """nn.Transformer with one embedding table for source, target and output (scaled by sqrt(d_model))."""

    def __init__(self, vocab: int, d_model=256, heads=8, layers=3, d_ff=1024, dropout=0.1, pad_id=0):
        super().__init__()
        self.d, self.pad_id = d_model, pad_id
        self.emb = nn.Embedding(vocab, d_model, padding_idx=pad_id)
        nn.init.normal_(self.emb.weight, 0, d_model ** -0.5)
        self.register_buffer("pe", sinusoidal_positions(2 * MAX_LEN + 16, d_model), persistent=False)
        self.drop = nn.Dropout(dropout)
        encoder = nn.TransformerEncoder(  # the default, without the nested-tensor prototype's inference path
            nn.TransformerEncoderLayer(d_model, heads, d_ff, dropout, batch_first=True), layers,
            norm=nn.LayerNorm(d_model), enable_nested_tensor=False)
        self.core = nn.Transformer(d_model, heads, layers, layers, d_ff, dropout, custom_encoder=encoder,
                                   batch_first=True)

    def embed(self, ids):
        return self.drop(self.emb(ids) * math.sqrt(self.d) + self.pe[: ids.size(1)])

    def forward(self, src, tgt_in):
        causal = nn.Transformer.generate_square_subsequent_mask(tgt_in.size(1), device=src.device, dtype=torch.bool)
        pad = src == self.pad_id
        # tgt_is_causal: the mask is the causal one, so nn.Transformer need not compare it with one (a host sync)
        y = self.core(self.embed(src), self.embed(tgt_in), tgt_mask=causal, src_key_padding_mask=pad,
                      tgt_key_padding_mask=tgt_in == self.pad_id, memory_key_padding_mask=pad, tgt_is_causal=True)
        return y @ self.emb.weight.T  # (B, T, vocab): the output projection is the embedding table


@torch.inference_mode()
def greedy(model, tok, pairs, device, batch_size=256) -> list[str]:
    sp, model = special_ids(tok), model.eval()
    order = sorted(range(len(pairs)), key=lambda i: len(pairs[i][0]))
    hyps = [""] * len(pairs)
    for start in range(0, len(order), batch_size):
        idx = order[start:start + batch_size]
        enc = tok.encode_batch([pairs[i][0] for i in idx], add_special_tokens=False)
        src = data.pad([e.ids[: MAX_LEN - 1] + [sp["eos"]] for e in enc], sp["pad"]).to(device)
        out = torch.full((len(idx), 1), sp["bos"], device=device)
        done = torch.zeros(len(idx), dtype=torch.bool, device=device)
        for _ in range(min(2 * MAX_LEN, int(src.size(1) * 1.5) + 10)):  # full recompute: short sentences
            with torch.autocast(device.type, torch.bfloat16, enabled=device.type == "cuda"):
                nxt = model(src, out)[:, -1].argmax(-1).masked_fill(done, sp["eos"])
            out = torch.cat([out, nxt[:, None]], 1)
            done |= nxt == sp["eos"]
            if done.all():
                break
        for i, row in zip(idx, out[:, 1:].tolist()):
            hyps[i] = tok.decode(row[: row.index(sp["eos"])] if sp["eos"] in row else row)
    return hyps


def bleu(hyps, pairs) -> float:
    return bleu_chrf(hyps, [t for _, t in pairs])["bleu"]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data-dir", type=Path, default=Path("../shared/data"))
    ap.add_argument("--minutes", type=float, default=8.4)
    ap.add_argument("--max-tokens", type=int, default=24000, help="tokens a batch (source + target, padded)")
    ap.add_argument("--warmup", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--split", choices=["source", "pair"], default="source",
                    help="source: the shipped model's split (sources never seen in training); pair: the pairs "
                         "shuffled and cut, with the same seed and fractions")
    ap.add_argument("--smoke", action="store_true", help="200 pairs, 20 steps, CPU: the script runs")
    args = ap.parse_args(argv)
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() and not args.smoke else "cpu")
    if device.type == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = True
        torch.backends.cuda.enable_cudnn_sdp(False)  # a plan per new shape (see the docstring)
    meta = json.loads((ROOT / "assets/transformer-en-fr/metrics.json").read_text())["data"]
    pairs = data.read_pairs(args.data_dir, "en-fr")
    split, _ = data.translation_split(pairs, "en-fr", meta["split_seed"], meta["valid_frac"], meta["test_frac"],
                                      args.split)
    train, valid, test = split["train"], split["valid"], split["test"]
    seen = {en for en, _ in train}
    print(f"split by {args.split}: {len(train)} / {len(valid)} / {len(test)} pairs; test pairs whose English "
          f"source is also a training source: {sum(en in seen for en, _ in test)}", flush=True)
    if args.smoke:
        train, valid, test = train[:200], valid[:20], test[:20]
    tok = train_bpe((s for p in train for s in p), 10000)
    sp = special_ids(tok)
    encoded = data.encode_pairs(tok, train, MAX_LEN)
    model = PlainTransformer(tok.get_vocab_size(), pad_id=sp["pad"]).to(device)
    n_params = sum(p.numel() for p in model.parameters())
    opt = torch.optim.Adam(model.parameters(), lr=1.0, betas=(0.9, 0.98), eps=1e-9)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: 256 ** -0.5 * min((s + 1) ** -0.5, (s + 1) * args.warmup ** -1.5))
    rng, step, t0 = random.Random(args.seed), 0, time.time()
    budget = 60 * args.minutes
    print(f"{device}, {n_params / 1e6:.2f} M parameters, {len(train)} training pairs, vocabulary "
          f"{tok.get_vocab_size()}", flush=True)
    model.train()
    while (step < 20) if args.smoke else (time.time() - t0 < budget):
        for b in data.translation_batches(encoded, args.max_tokens, rng):
            batch = {k: v.to(device, non_blocking=True) for k, v in
                     data.translation_batch([encoded[i] for i in b], sp["bos"], sp["eos"], sp["pad"]).items()}
            with torch.autocast(device.type, torch.bfloat16, enabled=device.type == "cuda"):
                logits = model(batch["src"], batch["tgt_in"])
            loss = F.cross_entropy(logits.float().flatten(0, 1), batch["tgt_out"].flatten(), ignore_index=sp["pad"],
                                   label_smoothing=0.1)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            if step % 1000 == 0:
                print(f"step {step}, {time.time() - t0:.0f} s, {step / (time.time() - t0):.1f} steps/s, "
                      f"loss {loss.item():.3f}", flush=True)
            if (step >= 20) if args.smoke else (time.time() - t0 >= budget):
                break
    seconds = round(time.time() - t0, 1)
    valid_hyps, test_hyps = greedy(model, tok, valid, device), greedy(model, tok, test, device)
    res = {"split": args.split, "params": n_params, "steps": step, "train_seconds": seconds,
           "steps_per_second": round(step / seconds, 1), "device": str(device),
           "valid_first_1000_greedy_bleu": bleu(valid_hyps[:1000], valid[:1000]),
           "valid_greedy_bleu": bleu(valid_hyps, valid), "test_greedy_bleu": bleu(test_hyps, test),
           "n_valid": len(valid), "n_test": len(test)}
    if args.split == "pair":  # the test pairs whose source is a training source (another translation) and the rest
        res["test_greedy_by_seen_source"] = bleu_by_seen_source([en for en, _ in test], test_hyps,
                                                                [fr for _, fr in test], seen)
    if device.type == "cuda":
        res["gpu"] = torch.cuda.get_device_name()
    print(json.dumps(res))


if __name__ == "__main__":
    main()
