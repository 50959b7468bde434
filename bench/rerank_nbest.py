"""Reranking a translation model's beam: how much BLEU is in its n-best list, and whether two rerankers
find it. Both need nothing but what the n-best list and a second model give:

- MBR (minimum Bayes risk, Kumar & Byrne 2004): keep the candidate with the highest expected
  sentence BLEU or chrF against all candidates (itself included) as pseudo-references, weighted by
  the model's probabilities (softmax of the log-probabilities over a temperature).
- Noisy channel (Yee et al. 2019): add lambda * log p(source | candidate) from a model of the
  other direction (`--channel`, e.g. a French -> English model trained on the same training split:
  the command of run nA in docs/training-runs/nA/metrics.json).

    python3 -m bench.rerank_nbest assets/transformer-en-fr [--channel runs/nA/checkpoint] \\
        [--split valid] [--beam 8] [--data-dir ../shared/data]

Prints corpus BLEU on the split's pairs: the beam's own best, the oracle (per source, the candidate
with the most sentence BLEU against all its references: roughly the most any reranker of this beam
could reach), and each reranker over a grid. CPU: 1 min 39 s in all for the 1,620 validation pairs
at beam 8 with --channel on this 2-core machine (2 threads). Choose a setting on valid, then read it
once on test. Asserts nothing.
"""
from __future__ import annotations

import argparse
import math
from pathlib import Path

import sacrebleu
import torch
import torch.nn.functional as F
from sacrebleu.metrics import BLEU, CHRF

from models.checkpoint import load
from models.tokenizers import special_ids
from models.training import data
from models.training.evaluate import heldout_pairs, references_by_source, translate


@torch.inference_mode()
def channel_logprobs(ckpt, items: list[tuple[str, str]], batch_size: int = 256) -> list[float]:
    """log p(source | candidate) for (source, candidate) pairs, teacher-forced in the reverse model."""
    tok, model = ckpt.tokenizer, ckpt.model.eval()
    sp, limit = special_ids(tok), ckpt.config.max_len - 1
    out = []
    for i in range(0, len(items), batch_size):
        chunk = items[i:i + batch_size]
        cands = tok.encode_batch([c for _, c in chunk], add_special_tokens=False)
        srcs = tok.encode_batch([s for s, _ in chunk], add_special_tokens=False)
        src = data.pad([e.ids[:limit - 1] + [sp["eos"]] for e in cands], sp["pad"])
        tgt_in = data.pad([[sp["bos"]] + e.ids[:limit - 1] for e in srcs], sp["pad"])
        tgt_out = data.pad([e.ids[:limit - 1] + [sp["eos"]] for e in srcs], -100)
        logits = model(src, tgt_in).logits.float()
        nll = F.cross_entropy(logits.transpose(1, 2), tgt_out, ignore_index=-100, reduction="none")
        out += (-nll.sum(1)).tolist()
    return out


def mbr_pick(cands, utility, temperature: float) -> str:
    """The candidate with the highest expected utility against every candidate (itself included), weighted by
    p ~ exp(logprob / T)."""
    top = max(lp for _, lp, _ in cands)
    w = [math.exp((lp - top) / temperature) for _, lp, _ in cands]
    z = sum(w)
    return max((sum(wj / z * utility(h, r) for wj, (r, _, _) in zip(w, cands)), -k, h)
               for k, (h, _, _) in enumerate(cands))[2]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkpoint")
    ap.add_argument("--channel", default=None, help="a checkpoint of the reverse direction (noisy channel)")
    ap.add_argument("--split", default="valid", choices=["valid", "test"])
    ap.add_argument("--beam", type=int, default=8)
    ap.add_argument("--alpha", type=float, default=None, help="length penalty (default: the checkpoint's)")
    ap.add_argument("--data-dir", type=Path, default=Path("../shared/data"))
    ap.add_argument("--threads", type=int, default=2, help="torch threads (default 2)")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    ckpt = load(args.checkpoint)
    alpha = ckpt.length_penalty if args.alpha is None else args.alpha
    pairs = heldout_pairs(ckpt, args.data_dir, args.split)
    refs_of = references_by_source(*zip(*pairs))
    sources = list(refs_of)
    nbest = dict(zip(sources, translate(ckpt.model, ckpt.tokenizer, sources, beam=args.beam, alpha=alpha,
                                        nbest=True, progress=True)))

    def corpus_bleu(choice: dict[str, str]) -> float:
        return round(sacrebleu.corpus_bleu([choice[s] for s, _ in pairs], [[r for _, r in pairs]]).score, 2)

    bleu, chrf = BLEU(effective_order=True), CHRF()
    ub = lambda h, r: bleu.sentence_score(h, [r]).score  # noqa: E731
    uc = lambda h, r: chrf.sentence_score(h, [r]).score  # noqa: E731
    print(f"{args.checkpoint}, {args.split} split: {len(pairs)} pairs, {len(sources)} sources, beam {args.beam}, "
          f"alpha {alpha}")
    print(f"beam's best                {corpus_bleu({s: c[0][0] for s, c in nbest.items()})}")
    oracle = {s: max(c, key=lambda x: sum(ub(x[0], r) for r in refs_of[s]))[0] for s, c in nbest.items()}
    print(f"oracle (sentence BLEU)     {corpus_bleu(oracle)}")
    for name, u in (("BLEU", ub), ("chrF", uc)):
        for t in (0.5, 1.0, 2.0):
            print(f"MBR {name}, T {t:<4}          {corpus_bleu({s: mbr_pick(c, u, t) for s, c in nbest.items()})}",
                  flush=True)
    if args.channel:
        items = [(s, h) for s, c in nbest.items() for h, _, _ in c]
        chan = dict(zip(items, channel_logprobs(load(args.channel), items)))
        for lam in (0.1, 0.25, 0.5, 1.0):
            by_score = {s: max(c, key=lambda x: x[2] + lam * chan[(s, x[0])])[0] for s, c in nbest.items()}
            by_logprob = {s: max(c, key=lambda x: x[1] + lam * chan[(s, x[0])])[0] for s, c in nbest.items()}
            print(f"channel, lambda {lam:<4}      beam score + channel {corpus_bleu(by_score)}, "
                  f"log-probability + channel {corpus_bleu(by_logprob)}", flush=True)


if __name__ == "__main__":
    main()
