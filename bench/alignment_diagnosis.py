"""Why the shipped seq2seq models' attention piled on </s>: figures for each candidate cause,
measured on the shipped checkpoints, CPU, no training.

    python3 -m bench.alignment_diagnosis --data-dir ../shared/data [--n 400]

1. The hand-aligned check (models/training/alignment_en_fr.tsv, `models.training.evaluate.alignment_scores`): hit rate,
   hit rate with </s> left out of the argmax, mean weight on </s>.
2. Mass on </s> on held-out test pairs (teacher-forced on the reference), by source length and by target
   position (first token, middle, last), beside 1/S, what a uniform row would give.
3. Final punctuation: the check again with the last punctuation mark taken off both sides ("I am a
   student" / "Je suis étudiant"), where the glued token "▁student." becomes "▁student".
4. </s> taken out of the attention (its column masked, the rest renormalised) at inference: greedy BLEU
   on the held-out pairs and the check's hit rate. Then </s>'s encoder state swapped for another
   sentence's: if BLEU holds, </s> is a place to park weight; if it falls, the decoder reads the
   sentence there.
5. The score scale: the scores multiplied by tau at inference (sharper above 1, flatter below).
6. What the encoder's </s> state is: its raw score against the words' (the query at each step), and how
   close it is to the mean of the sentence's states (cosine), against the words' own closeness.
7. Training time: the mass on </s> of the probe sentences' rows over training (the snapshots.json each
   checkpoint folder carries: steps 0 to the end of its 6 minutes).
"""
from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import torch

from models.checkpoint import load
from models.decoding import greedy
from models.training import data
from models.training.evaluate import (ALIGNMENT_CHECKS, alignment_scores, bleu_chrf, heldout_pairs,
                                      read_alignment_check)
from models.tokenizers import special_ids
from models.trace import ModelOutput, Trace

SEQ2SEQ = ["seq2seq-dot", "seq2seq-general", "seq2seq-scaled_dot", "seq2seq-additive"]
BUCKETS = [(1, 4), (5, 7), (8, 10), (11, 100)]


class NoEos(torch.nn.Module):
    """A seq2seq model whose attention cannot see the source's </s> (its column masked in `start`'s
    mask, so `attend` gives it weight 0 and renormalises the rest); everything else is the model's."""

    def __init__(self, m, eos: int):
        super().__init__()
        self.m, self.eos, self.config = m, eos, m.config

    def start(self, src):
        enc, mask, h, c = self.m.start(src)
        return enc, mask & (src != self.eos), h, c

    def step(self, memory, prefix, state=None):
        return self.m.step(memory, prefix, state)

    def forward(self, src, tgt_in, tgt_out=None, need_weights=False):
        """Teacher-forced, as Seq2Seq.forward, through this start and step."""
        memory, state, cross = self.start(src), None, []
        for t in range(tgt_in.size(1)):
            _, state, probs = self.step(memory, tgt_in[:, : t + 1], state)
            cross.append(probs)
        return ModelOutput(None, None, Trace(cross=torch.stack(cross, 1)[:, None, None]))


class SwapEos(NoEos):
    """A seq2seq model whose source </s> state is the </s> state of the next sentence of the batch (the
    attention still sees it): if </s> is a summary of its sentence, another sentence's summary misleads
    the decoder; if it is only a place to park weight, any sentence's </s> serves."""

    def start(self, src):
        enc, mask, h, c = self.m.start(src)
        last = mask.sum(1) - 1  # (B,) </s> is each row's last real token
        rows = torch.arange(src.size(0))
        other = rows.roll(-1)
        enc = enc.clone()
        enc[rows, last] = enc[other, last[other]]
        return enc, mask, h, c


class ScaledScore(torch.nn.Module):
    """A score function times tau."""

    def __init__(self, score, tau: float):
        super().__init__()
        self.score, self.tau = score, tau

    def forward(self, query, keys):
        return self.tau * self.score(query, keys)


@torch.inference_mode()
def rows(model, tok, pairs):
    """Per pair: (source words, attention rows (T, S) that predict the reference's tokens), teacher-forced."""
    sp = special_ids(tok)
    out = []
    for src, tgt in pairs:
        s = tok.encode(src, add_special_tokens=False).ids + [sp["eos"]]
        t = tok.encode(tgt, add_special_tokens=False).ids
        tr = model(torch.tensor([s]), torch.tensor([[sp["bos"]] + t]), need_weights=True).trace
        out.append((len(src.split()), tr.cross[0, -1].float().mean(0)[:-1]))
    return out


def eos_mass(rows_) -> dict:
    """Mean weight on </s> (the last column) by source-length bucket and target position, and 1/S."""
    by_len, by_pos, uniform = {}, {"first": [], "middle": [], "last": []}, []
    for n_words, a in rows_:
        e = a[:, -1]
        b = next(f"{lo}-{hi}" if hi < 100 else f"{lo}+" for lo, hi in BUCKETS if lo <= n_words <= hi)
        by_len.setdefault(b, []).append(e.mean().item())
        by_pos["first"].append(e[0].item())
        by_pos["last"].append(e[-1].item())
        by_pos["middle"] += e[1:-1].tolist()
        uniform.append(1 / a.shape[1])
    mean = lambda xs: round(sum(xs) / len(xs), 3) if xs else None
    return {"all": mean([r[1][:, -1].mean().item() for r in rows_]), "uniform_1_over_S": mean(uniform),
            "by_source_words": {k: (mean(v), len(v)) for k, v in sorted(by_len.items(), key=lambda kv: int(kv[0].split("-")[0].rstrip("+")))},
            "by_target_position": {k: mean(v) for k, v in by_pos.items()}}


def strip_final(text: str) -> str:
    t = text.rstrip()
    while t and t[-1] in ".!?":
        t = t[:-1].rstrip()
    return t


def greedy_bleu(model, tok, pairs) -> float:
    sp = special_ids(tok)
    hyps = []
    for start in range(0, len(pairs), 64):
        chunk = pairs[start:start + 64]
        rows_ = [tok.encode(s, add_special_tokens=False).ids + [sp["eos"]] for s, _ in chunk]
        src = data.pad(rows_, sp["pad"])
        hyps += [tok.decode(list(r)) for r in greedy(model, src, sp["bos"], sp["eos"], int(src.size(1) * 1.5) + 10)]
    return bleu_chrf(hyps, [t for _, t in pairs])["bleu"]


@torch.inference_mode()
def eos_state(model, tok, pairs) -> dict:
    """The encoder's </s> state against the words' states: raw score of the decoder's query on </s> minus
    the mean raw score on the words (teacher-forced rows); cosine of each state with the mean of the
    sentence's states; the states' norms."""
    sp = special_ids(tok)
    margin, cos_eos, cos_word, norm_eos, norm_word = [], [], [], [], []
    for src, tgt in pairs:
        s = torch.tensor([tok.encode(src, add_special_tokens=False).ids + [sp["eos"]]])
        t = torch.tensor([[sp["bos"]] + tok.encode(tgt, add_special_tokens=False).ids])
        memory = model.start(s)
        enc = memory[0][0]  # (S, d)
        centre = enc.mean(0)
        cos = torch.nn.functional.cosine_similarity(enc, centre[None], dim=-1)
        cos_eos.append(cos[-1].item())
        cos_word += cos[:-1].tolist()
        norm_eos.append(enc[-1].norm().item())
        norm_word += enc[:-1].norm(dim=-1).tolist()
        captured = []
        score = model.score
        model.score = Capture(score, captured)
        try:
            state = None
            for i in range(t.size(1)):
                _, state, _ = model.step(memory, t[:, : i + 1], state)
        finally:
            model.score = score
        for sc in captured:  # (1, S) raw scores of one step
            margin.append((sc[0, -1] - sc[0, :-1].mean()).item())
    mean = lambda xs: round(sum(xs) / len(xs), 3)
    return {"score_eos_minus_words": mean(margin), "cos_to_mean_eos": mean(cos_eos), "cos_to_mean_words": mean(cos_word),
            "norm_eos": mean(norm_eos), "norm_words": mean(norm_word)}


class Capture(torch.nn.Module):
    def __init__(self, score, out: list):
        super().__init__()
        self.score, self.out = score, out

    def forward(self, query, keys):
        s = self.score(query, keys)
        self.out.append(s.detach())
        return s


def snapshot_eos(folder: Path) -> list:
    """(step, mean weight on </s> over the probe sentences' rows) from the run's snapshots.json."""
    path = folder / "snapshots.json"
    if not path.is_file():
        return []
    out = []
    for snap in json.loads(path.read_text()):
        probes = snap["cross_head_mean"]
        # each probe (layers, T, S): the last layer's rows that predict words (not the final </s>), </s> the last column
        vals = [row[-1] for p in probes if p for row in p[-1][:-1]]
        out.append((snap["step"], round(sum(vals) / len(vals), 3)))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data-dir", type=Path, default=Path("../shared/data"))
    ap.add_argument("--assets", type=Path, default=Path(__file__).resolve().parent.parent / "assets")
    ap.add_argument("--n", type=int, default=400, help="held-out test pairs read (a seeded sample of each model's split)")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    check = read_alignment_check(ALIGNMENT_CHECKS["en-fr"])
    check_bare = [(strip_final(s), strip_final(t), g) for s, t, g in check]
    for name in SEQ2SEQ + ["transformer-en-fr"]:
        ckpt = load(args.assets / name)
        model, tok = ckpt.model, ckpt.tokenizer
        test = heldout_pairs(ckpt, args.data_dir)
        test = random.Random(0).sample(test, min(args.n, len(test)))  # the split is in corpus order: short first
        print(f"\n== {name} ({args.n} held-out test pairs, {len(check)} hand-aligned pairs)")
        print("1 check               ", json.dumps(alignment_scores(model, tok, check)))
        print("2 </s> mass, held-out ", json.dumps(eos_mass(rows(model, tok, test))))
        print("3 check, no final .?! ", json.dumps(alignment_scores(model, tok, check_bare)))
        bare = [(strip_final(s), strip_final(t)) for s, t in test]
        print("3 </s> mass, no .?!   ", json.dumps(eos_mass(rows(model, tok, bare))["all"]))
        if ckpt.config.arch != "seq2seq":
            continue
        eos = special_ids(tok)["eos"]
        masked = NoEos(model, eos)
        print("4 </s> masked: BLEU   ", greedy_bleu(model, tok, test), "->", greedy_bleu(masked, tok, test),
              "(greedy, as is -> masked); check", json.dumps(alignment_scores(masked, tok, check)))
        print("4 </s> of another sentence: BLEU", greedy_bleu(SwapEos(model, eos), tok, test))
        score = model.score
        for tau in (0.5, 2.0):
            model.score = ScaledScore(score, tau)
            try:
                print(f"5 scores x {tau:<4}       ", json.dumps(alignment_scores(model, tok, check)),
                      "BLEU", greedy_bleu(model, tok, test))
            finally:
                model.score = score
        print("6 </s> state          ", json.dumps(eos_state(model, tok, test[:150])))
        print("7 </s> mass in training", snapshot_eos(args.assets / name))


if __name__ == "__main__":
    main()
