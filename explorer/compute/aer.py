"""Alignment error rate: attention read as a word alignment, scored as Och & Ney (2003) score aligners, beside
IBM Models 1 and 2 trained by EM on the same parallel data.

    python -m explorer.compute.aer --data-dir ../shared/data            # one JSON line per model and method
    python -m explorer.compute.aer --data-dir ../shared/data --models transformer-en-fr --ibm-pairs 20000

AER = 1 - (|A∩S| + |A∩P|) / (|A| + |S|) (Och & Ney 2003, eq. 5) for predicted links A, sure links S and possible
links P (S ⊆ P), summed over the whole test set before the ratio. Gold: the repo's hand-aligned checks
(models/training/alignment_*.tsv, read by `models.training.evaluate.read_alignment_check`); their format marks no possible links,
so every gold link is sure and P = S.

Attention is read as in the repo's alignment check (`models.training.evaluate.alignment_scores`): teacher-forced on the
gold target, the cross attention of a layer averaged over heads (the seq2seq model's one attention), subwords
pooled to space-separated words (`models.training.evaluate.pool_words`), each target word linked to its most-attended
source word (`</s>` left out). Two readings of which decoder step belongs to a target word y_t:

- naive: the step that *predicts* y_t (its input is y_{t-1});
- shifted (Chen et al. 2020, "Accurate Word Alignment Induction from Neural Machine Translation", shift-att):
  the step whose *input* is y_t, one step later, where the decoder has seen the word it is aligning.

Two scopes: "scored", the checks' protocol (a target word with no gold link is not scored: its predicted links
are dropped from A), and "all", every predicted link counts, as in Och & Ney's test sets, which mark a word
with no counterpart unaligned or with possible links where these checks only leave it out.

IBM Model 1 (Brown et al. 1993) and Model 2 (its alignment table a(i | j, l, m)) are trained by EM in numpy on a
seeded sample of the checkpoint's own training pairs (`models.data.translation_split` with the split of its
metrics.json, so no validation or test source is seen), on lower-cased space-separated words with edge
punctuation stripped, a NULL source word, and Viterbi links (a link to NULL is no link).
"""
from __future__ import annotations

import argparse
import json
import random
import re
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from models.checkpoint import load
from models.tokenizers import special_ids
from models.training import data
from models.training.evaluate import ALIGNMENT_CHECKS, pool_words, read_alignment_check, token_words

ASSETS = Path(__file__).resolve().parents[2] / "assets"
# The shipped translators with attention and their gold check; "reversed" reads the ko-en check from English
# (its links flipped): transformer-en-ko has no check of its own. seq2seq-none has no attention to read.
MODELS = {"seq2seq-dot": ("en-fr", False), "seq2seq-general": ("en-fr", False),
          "seq2seq-scaled_dot": ("en-fr", False), "seq2seq-additive": ("en-fr", False),
          "transformer-en-fr": ("en-fr", False), "transformer-ko-en": ("ko-en", False),
          "transformer-en-ko": ("ko-en", True)}
READINGS = ("naive", "shifted")


# ----------------------------------------------------------------------------- the metric


def aer_counts(pred: set, sure: set, possible: set | None = None) -> tuple[int, int, int, int]:
    """(|A∩S|, |A∩P|, |A|, |S|) of one sentence; P defaults to S (every gold link sure). S ⊆ P is enforced."""
    possible = set(sure) | (possible or set())
    return len(pred & sure), len(pred & possible), len(pred), len(sure)


def aer(preds: list[set], sures: list[set], possibles: list[set] | None = None) -> dict:
    """Och & Ney's AER over a test set, with precision |A∩P|/|A| and recall |A∩S|/|S| (counts summed over
    sentences, then divided, as their eq. 5 is applied to a corpus)."""
    possibles = possibles or [set()] * len(sures)
    a_s = a_p = n_a = n_s = 0
    for pred, sure, poss in zip(preds, sures, possibles, strict=True):
        c = aer_counts(set(pred), set(sure), set(poss))
        a_s, a_p, n_a, n_s = a_s + c[0], a_p + c[1], n_a + c[2], n_s + c[3]
    return {"aer": 1 - (a_s + a_p) / (n_a + n_s) if n_a + n_s else 0.0,
            "precision": a_p / n_a if n_a else 0.0, "recall": a_s / n_s if n_s else 0.0,
            "predicted": n_a, "sure": n_s}


def scored_only(pred: set, sure: set) -> set:
    """The checks' protocol: links of target words that have no gold link are not scored."""
    targets = {j for _, j in sure}
    return {(i, j) for i, j in pred if j in targets}


def check_pairs(direction: str, reverse: bool = False) -> list[tuple[str, str, set]]:
    """The gold check of `direction` as (source, target, sure links (i source word, j target word));
    reversed: source and target swapped and each link flipped."""
    check = read_alignment_check(ALIGNMENT_CHECKS[direction])
    return [(t, s, {(j, i) for i, j in g}) for s, t, g in check] if reverse else check


# ----------------------------------------------------------------------------- attention as alignment


def argmax_links(word_att: np.ndarray) -> set:
    """Word attention (n_tgt, n_src) -> one link (source argmax, target) per target word."""
    return {(int(i), j) for j, i in enumerate(np.asarray(word_att).argmax(1))}


def step_rows(cross: np.ndarray, reading: str) -> np.ndarray:
    """The decoder steps that belong to the target tokens y_1..y_T, from cross attention (T+1, S) of a pass
    whose inputs are <s> y_1..y_T (row t's input is token t of that list). naive: row t-1, the step that
    predicts y_t; shifted (Chen et al. 2020): row t, the step whose input is y_t."""
    if reading == "naive":
        return cross[:-1]
    if reading == "shifted":
        return cross[1:]
    raise ValueError(f"reading {reading!r}: one of {READINGS}")


def word_attention(rows: np.ndarray, src_words: list[int], tgt_words: list[int], n_src: int, n_tgt: int) -> np.ndarray:
    """Token rows (T, S) -> word attention (n_tgt, n_src): `pool_words` (a target word's rows averaged, a
    source word's columns summed) with the source's final </s> column (index n_src in `src_words`) dropped."""
    return pool_words(rows, src_words, tgt_words, n_src + 1, n_tgt).numpy()[:, :n_src]


@dataclass(frozen=True)
class PassAttention:
    """One teacher-forced pass, as data: cross attention per layer, head mean, (layers, T+1, S), and the word
    of every token (the source's </s> is word n_src)."""
    cross: np.ndarray
    src_words: list[int]
    tgt_words: list[int]
    n_src: int
    n_tgt: int


@torch.inference_mode()
def teacher_forced(model, tok, src: str, tgt: str) -> PassAttention | None:
    """The model's cross attention on `src` with `tgt` forced (as `models.training.evaluate.alignment_scores` runs it:
    source + </s>, decoder inputs <s> + target, whose last row predicts </s>); None without attention."""
    sp = special_ids(tok)
    es, et = tok.encode(src, add_special_tokens=False), tok.encode(tgt, add_special_tokens=False)
    s_ids = torch.tensor([es.ids + [sp["eos"]]])
    t_ids = torch.tensor([[sp["bos"]] + et.ids])
    trace = model(s_ids, t_ids, need_weights=True).trace
    if trace is None or trace.cross is None:
        return None
    cross = trace.cross[0].float().mean(1).numpy()  # (L, T+1, S): heads averaged
    n_src, n_tgt = len(src.split()), len(tgt.split())
    return PassAttention(cross, token_words(src, es.offsets) + [n_src], token_words(tgt, et.offsets), n_src, n_tgt)


def attention_links(p: PassAttention, layer: int, reading: str) -> set:
    """Predicted links of one pass at `layer`, read the `reading` way."""
    rows = step_rows(p.cross[layer], reading)
    return argmax_links(word_attention(rows, p.src_words, p.tgt_words, p.n_src, p.n_tgt))


def score(preds: list[set], check: list) -> dict:
    """AER on both scopes (module docstring), rounded for the JSON line."""
    golds = [g for _, _, g in check]
    scored = aer([scored_only(a, g) for a, g in zip(preds, golds)], golds)
    every = aer(preds, golds)
    return {"aer": round(scored["aer"], 4), "precision": round(scored["precision"], 4),
            "recall": round(scored["recall"], 4), "aer_all_words": round(every["aer"], 4),
            "precision_all_words": round(every["precision"], 4), "links": scored["predicted"],
            "links_all_words": every["predicted"], "gold_links": scored["sure"]}


def next_word_links(preds: list[set], check: list) -> int:
    """How many predicted links of scored target words j land on a gold source word of target word j + 1:
    a reading one step late."""
    n = 0
    for pred, (_, _, gold) in zip(preds, check):
        for i, j in scored_only(pred, gold):
            n += (i, j + 1) in gold
    return n


def model_rows(name: str, folder: Path | None = None) -> list[dict]:
    """One row per reading of a shipped model: AER at its last layer (the repo check's layer) and, for a
    model of several layers, at every layer (`by_layer`, first to last)."""
    direction, reverse = MODELS[name]
    check = check_pairs(direction, reverse)
    ckpt = load(folder or ASSETS / name)
    passes = [teacher_forced(ckpt.model, ckpt.tokenizer, s, t) for s, t, _ in check]
    if passes[0] is None:
        return []
    n_layers = passes[0].cross.shape[0]
    out = []
    for reading in READINGS:
        by_layer = [score([attention_links(p, layer, reading) for p in passes], check) for layer in range(n_layers)]
        last = [attention_links(p, n_layers - 1, reading) for p in passes]
        row = {"model": name, "direction": ckpt.metrics.get("data", {}).get("direction", direction),
               "check": ALIGNMENT_CHECKS[direction].name + (" (reversed)" if reverse else ""),
               "method": f"attention-{reading}", "layer": n_layers - 1, "layers": n_layers, **by_layer[-1],
               "links_on_next_words_source": next_word_links(last, check)}
        if n_layers > 1:
            row["by_layer"] = [{"layer": k, "aer": r["aer"], "aer_all_words": r["aer_all_words"]}
                               for k, r in enumerate(by_layer)]
        out.append(row)
    return out


# ----------------------------------------------------------------------------- IBM Models 1 and 2

_EDGE = re.compile(r"^[^\w]+|[^\w]+$")


def ibm_words(sentence: str) -> list[str]:
    """One word per space-separated word (the gold's word positions), lower-cased, edge punctuation off
    ("student." and "Student" are one word to count); a word of punctuation only stays as it is."""
    return [_EDGE.sub("", w.lower()) or w for w in sentence.split()]


@dataclass(frozen=True)
class IBMModel:
    """Translation table t(f | e) over the co-occurring pairs seen in training (keys e * n_f + f, sorted), and
    for Model 2 the alignment table a(i | j, l, m) (keys from `_a_key`, sorted; None for Model 1).
    Source id 0 is NULL."""
    src_vocab: dict
    tgt_vocab: dict
    t_keys: np.ndarray
    t: np.ndarray
    a_keys: np.ndarray | None = None
    a: np.ndarray | None = None


def _a_key(i, j, l, m):
    """A flat key of (source position i with NULL at 0, target position j, source length l, target length m)."""
    return ((np.asarray(m, np.int64) * 256 + l) * 256 + j) * 256 + i


def _corpus(pairs: list[tuple[str, str]]):
    """The EM's flat arrays: one entry per (sentence, target position j, source position i incl. NULL)."""
    src_vocab, tgt_vocab = {"<null>": 0}, {}
    es, fs, groups, ii, jj, ll, mm = [], [], [], [], [], [], []
    g = 0
    for src, tgt in pairs:
        e = [0] + [src_vocab.setdefault(w, len(src_vocab)) for w in ibm_words(src)]
        f = [tgt_vocab.setdefault(w, len(tgt_vocab)) for w in ibm_words(tgt)]
        l1, m = len(e), len(f)
        if m == 0 or l1 > 255 or m > 255:
            continue
        es.append(np.tile(e, m))
        fs.append(np.repeat(f, l1))
        groups.append(np.repeat(np.arange(g, g + m), l1))
        ii.append(np.tile(np.arange(l1), m))
        jj.append(np.repeat(np.arange(m), l1))
        ll.append(np.full(l1 * m, l1 - 1))
        mm.append(np.full(l1 * m, m))
        g += m
    cat = lambda xs: np.concatenate(xs).astype(np.int64)  # noqa: E731
    return src_vocab, tgt_vocab, cat(es), cat(fs), cat(groups), _a_key(cat(ii), cat(jj), cat(ll), cat(mm))


def train_ibm(pairs: list[tuple[str, str]], model: int = 1, iterations: int = 5,
              ibm1_iterations: int = 5) -> IBMModel:
    """IBM Model 1 by EM (uniform t at the start; `iterations` rounds), or Model 2: Model 1's t
    (`ibm1_iterations` rounds) then `iterations` rounds of EM on t and a(i | j, l, m), a uniform at the start.
    E-step: the posterior of each link within its target word, p(i | j) = t(f_j | e_i) a(i | j, l, m) / Σ_i' ...;
    M-step: expected counts normalised per source word (t) and per (j, l, m) (a)."""
    src_vocab, tgt_vocab, e, f, group, akey = _corpus(pairs)
    n_f = len(tgt_vocab)
    t_keys, t_idx = np.unique(e * n_f + f, return_inverse=True)
    t_e = t_keys // n_f
    t = np.ones(len(t_keys))
    a_keys = a_idx = a = a_jlm = None
    if model == 2:
        a_keys, a_idx = np.unique(akey, return_inverse=True)
        _, a_jlm = np.unique(a_keys // 256, return_inverse=True)  # (j, l, m) of each key
        a = np.ones(len(a_keys))
    for it in range((ibm1_iterations if model == 2 else 0) + iterations):
        use_a = model == 2 and it >= ibm1_iterations
        p = t[t_idx] * (a[a_idx] if use_a else 1.0)
        post = p / np.bincount(group, p)[group]
        c = np.bincount(t_idx, post, minlength=len(t_keys))
        t = c / np.bincount(t_e, c)[t_e]
        if use_a:
            ca = np.bincount(a_idx, post, minlength=len(a_keys))
            a = ca / np.bincount(a_jlm, ca)[a_jlm]
    return IBMModel(src_vocab, tgt_vocab, t_keys, t, a_keys if model == 2 else None, a if model == 2 else None)


def _lookup(keys: np.ndarray, values: np.ndarray, query: np.ndarray, default: float) -> np.ndarray:
    """values at the positions of `query` in sorted `keys`; `default` where a query is not a key."""
    pos = np.clip(np.searchsorted(keys, query), 0, len(keys) - 1)
    return np.where(keys[pos] == query, values[pos], default)


UNSEEN_T = 1e-9  # t of a pair never seen together in training: below any learned value


def ibm_align(model: IBMModel, src: str, tgt: str) -> set:
    """Viterbi links of a pair: each target word to argmax_i t(f_j | e_i) a(i | j, l, m) over NULL and the
    source words; a link to NULL, or a target word never seen in training (every t is UNSEEN_T, NULL wins the
    tie), is no link. Model 2 with (l, m) never seen: a uniform a."""
    e = np.array([0] + [model.src_vocab.get(w, -1) for w in ibm_words(src)])
    f = np.array([model.tgt_vocab.get(w, -1) for w in ibm_words(tgt)])
    l1, m = len(e), len(f)
    n_f = len(model.tgt_vocab)
    q = e[None, :] * n_f + f[:, None]  # (m, l+1)
    score = _lookup(model.t_keys, model.t, q, UNSEEN_T)
    score[(e[None, :] < 0) | (f[:, None] < 0)] = UNSEEN_T
    if model.a is not None:
        jj, ii = np.meshgrid(np.arange(m), np.arange(l1), indexing="ij")
        score = score * _lookup(model.a_keys, model.a, _a_key(ii, jj, l1 - 1, m), 1.0 / l1)
    best = score.argmax(1)
    return {(int(i) - 1, j) for j, i in enumerate(best) if i > 0}


def training_pairs(data_dir: Path, meta: dict, n: int, seed: int = 0) -> tuple[list, int]:
    """A seeded sample of `n` training pairs (all with n=0) of a checkpoint's split (its metrics.json "data":
    pair, direction, split seed and fractions), so that no validation or test source is in it. Returns
    (pairs, training pairs in the split)."""
    pairs = data.read_pairs(data_dir, meta["pair"])
    split, _ = data.translation_split(pairs, meta["direction"], meta["split_seed"], meta["valid_frac"],
                                      meta["test_frac"])
    train = split["train"]
    sample = train if not n or n >= len(train) else random.Random(seed).sample(train, n)
    return sample, len(train)


def ibm_rows(data_dir: Path, direction: str, meta: dict, n: int, iterations: int = 5) -> list[dict]:
    """IBM Models 1 and 2 on a sample of one direction's training pairs, scored on its check."""
    check = check_pairs(direction)
    pairs, n_train = training_pairs(data_dir, meta, n)
    rel = data.TRANSLATION_FILES[meta["pair"]]
    sha = data.file_sha256(data.find(data_dir, rel))  # another copy than the checkpoint's: another split
    seen_src = {s for s, _ in pairs}
    out = []
    for k in (1, 2):
        t0 = time.time()
        m = train_ibm(pairs, model=k, iterations=iterations)
        seconds = time.time() - t0
        preds = [ibm_align(m, s, t) for s, t, _ in check]
        unseen = sum(w not in m.tgt_vocab for _, t, _ in check for w in ibm_words(t))
        out.append({"model": f"ibm{k}", "direction": direction, "check": ALIGNMENT_CHECKS[direction].name,
                    "method": f"ibm{k}", **score(preds, check), "train_pairs": len(pairs),
                    "train_pairs_in_split": n_train, "iterations": iterations + (5 if k == 2 else 0),
                    "check_sources_in_training": sum(s in seen_src for s, _, _ in check),
                    "check_target_words_unseen": unseen, "data_file": rel, "data_sha256": sha,
                    "data_as_checkpoint": sha == meta.get("files", {}).get(rel), "seconds": round(seconds, 1)})
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-dir", type=Path, help="the corpora (docs/data.md); without it, no IBM baseline")
    ap.add_argument("--models", nargs="*", default=list(MODELS), choices=list(MODELS))
    ap.add_argument("--ibm-pairs", type=int, default=0, help="training pairs sampled for IBM 1/2 (0: all)")
    ap.add_argument("--ibm-iterations", type=int, default=5)
    args = ap.parse_args(argv)
    torch.set_num_threads(1)  # tiny passes; threads only contend
    for name in args.models:
        for row in model_rows(name):
            print(json.dumps(row, ensure_ascii=False), flush=True)
    if args.data_dir:
        directions = {}
        for name in args.models:  # the split of the direction's first checkpoint (all of one direction share it)
            direction, reverse = MODELS[name]
            if not reverse:
                directions.setdefault(direction, load(ASSETS / name).metrics["data"])
        for direction, meta in directions.items():
            for row in ibm_rows(args.data_dir, direction, meta, args.ibm_pairs, args.ibm_iterations):
                print(json.dumps(row, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
