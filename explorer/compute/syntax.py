"""Heads vs syntax: how well each attention head points from a word to its dependency head (Clark, Khandelwal,
Levy & Manning 2019, "What Does BERT Look At?", section 4.2), against fixed-offset baselines, on a CoNLL-U
treebank (UD English EWT dev: /work/shared/data/pos-ud-english-ewt/v2.15-conllu, read from --data-dir).

The method is theirs, as their released code does it (clarkkev/attention-analysis: bpe_utils.py and
Syntax_Analysis.ipynb):
- word-level attention from WordPiece attention: attention TO a word is the SUM over its pieces, attention FROM a
  word the MEAN over its pieces; [CLS] and [SEP] stay as words of their own while pooling (`word_attention`);
- a head's prediction for word i is the most-attended OTHER word: the word's attention to itself is set to 0 and
  the [CLS]/[SEP] rows and columns are dropped before the argmax (`predict_heads`), so a head that parks its
  attention on [SEP] still names the word it attends to most among the sentence's words;
- two directions: "dep->head" reads word i's row (the dependent attends to its head); "head->dep" reads
  column i (the word that attends most to i should be its head: the transposed map, their mode "transpose");
- the baseline always names the word at a fixed offset (−3…+3, clipped to the sentence as theirs is), the best
  offset per relation;
- a relation's accuracy counts its words; "all" counts every word (root and punct included, as theirs);
- their one special case: a possessive (`nmod:poss`, their `poss`) followed by 's or ' is scored on the
  clitic's prediction (the clitic, not the possessor, attends to the possessed noun in BERT).
Relations are UD's (EWT v2.15), subtypes kept: `obj` is their `dobj`, `aux:pass` their `auxpass`, `nmod:poss`
their `poss`. Numbers only; figures: explorer/figures/syntax.py; the tab's view: explorer/views/syntax.py.

    python3 -m explorer.compute.syntax --data-dir ../shared/data --out assets/syntax/bert-ewt-dev.json
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ASSETS = Path(__file__).resolve().parents[2] / "assets" / "syntax"
TABLE = ASSETS / "bert-ewt-dev.json"  # what the tab shows (made by main(), committed)
DEV = Path("pos-ud-english-ewt") / "v2.15-conllu" / "en_ewt-ud-dev.conllu"  # under --data-dir; test is kept back
OFFSETS = (-3, -2, -1, 1, 2, 3)  # the baseline's fixed offsets (Clark et al.: -3..2; 0, the word itself, never wins)
DIRECTIONS = ("dep->head", "head->dep")
MIN_COUNT = 100  # relations with fewer words in the data are left out of the table, as Clark et al. do
SKIPPED = ("root", "punct")  # never in the table (a head never points at ROOT; punct follows conventions)
POSSESSIVE_CLITICS = {"'s", "'", "s'", "’s", "’"}
CLARK = {  # their figures (BERT-base, WSJ dev, Stanford Dependencies), with the UD relation compared to them
    "det": {"theirs": "det", "head": "8-11", "accuracy": 0.943, "baseline": 0.517},
    "obj": {"theirs": "dobj", "head": "8-10", "accuracy": 0.868, "baseline": 0.400},
    "aux:pass": {"theirs": "auxpass", "head": "4-10", "accuracy": 0.825, "baseline": None},
    "nmod:poss": {"theirs": "poss", "head": "7-6", "accuracy": 0.805, "baseline": 0.477},
}


@dataclass(frozen=True)
class Sentence:
    """One parsed sentence: its syntactic words (CoNLL-U ID 1..n), each word's head (0 = ROOT, else 1-based) and
    relation to it."""
    words: tuple[str, ...]
    heads: tuple[int, ...]
    rels: tuple[str, ...]

    def __post_init__(self):
        n = len(self.words)
        if not (len(self.heads) == len(self.rels) == n) or any(not 0 <= h <= n for h in self.heads):
            raise ValueError("a sentence needs one head (0..n) and one relation per word")


def conllu_rows(path) -> list[list[list[str]]]:
    """Each sentence of a CoNLL-U file as the columns of its syntactic words (multiword-token ranges "3-4" and empty
    nodes "8.1" skipped, comments dropped)."""
    out, rows = [], []
    for line in list(Path(path).read_text(encoding="utf-8").splitlines()) + [""]:
        if not line.strip():
            if rows:
                out.append(rows)
            rows = []
            continue
        cols = line.split("\t")
        if not line.startswith("#") and cols[0].isdigit():
            rows.append(cols)
    return out


def read_conllu(path) -> list[Sentence]:
    """The sentences of a CoNLL-U file (`conllu_rows`), HEAD and DEPREL as given."""
    return [Sentence(tuple(c[1] for c in rows), tuple(int(c[6]) for c in rows), tuple(c[7] for c in rows))
            for rows in conllu_rows(path)]


# ----------------------------------------------------------------------------- the method


def word_attention(att: np.ndarray, groups: list[list[int]]) -> np.ndarray:
    """Token x token attention (..., T, T) -> word x word (..., W, W): `groups[w]` are word w's token positions
    (each special token a group of its own). TO a word: the sum over its pieces; FROM a word: their mean."""
    att = np.asarray(att, dtype=np.float64)
    T = att.shape[-1]
    to = np.zeros((len(groups), T))  # (W, T): 1 where token t belongs to word w
    for w, g in enumerate(groups):
        if not g:
            raise ValueError(f"word {w} has no tokens")
        to[w, g] = 1.0
    frm = to / to.sum(1, keepdims=True)  # (W, T): the mean over the word's pieces
    return frm @ att @ to.T  # (W, T) @ (..., T, T) @ (T, W) -> (..., W, W)


def predict_heads(word_att: np.ndarray, direction: str = "dep->head", specials: tuple[int, int] = (1, 1)) -> np.ndarray:
    """Each word's predicted head (1-based, as CoNLL-U), per head of attention: (..., W, W) -> (..., n) with
    n = W - front - back specials. The word itself is never predicted; the specials are dropped before the argmax."""
    a = np.array(word_att, dtype=np.float64)
    if direction == "head->dep":
        a = np.swapaxes(a, -1, -2)
    elif direction != "dep->head":
        raise ValueError(f"unknown direction {direction!r}")
    W = a.shape[-1]
    a[..., np.arange(W), np.arange(W)] = 0.0
    front, back = specials
    a = a[..., front:W - back, front:W - back]
    return np.argmax(a, axis=-1) + 1


def offset_predictions(n: int, offset: int) -> np.ndarray:
    """The baseline: word i (0-based) names word i + offset, 1-based and clipped to 0 (ROOT) .. n, as Clark et al."""
    return np.clip(np.arange(n) + offset + 1, 0, n)


def is_correct(pred: np.ndarray, s: Sentence) -> np.ndarray:
    """(..., n) predictions -> (..., n) booleans: each word's prediction is its gold head; a possessive followed by
    a clitic ('s, ') is scored on the clitic's prediction (Clark et al.'s special case for poss)."""
    pred = np.asarray(pred)
    gold = np.asarray(s.heads)
    ok = pred == gold
    for i, r in enumerate(s.rels):
        if r == "nmod:poss" and i + 1 < len(s.words) and s.words[i + 1] in POSSESSIVE_CLITICS:
            ok[..., i] = pred[..., i + 1] == gold[i]
    return ok


class Tally:
    """Counts per relation: words, correct per (direction, layer, head), correct per baseline offset."""

    def __init__(self, n_layers: int, n_heads: int):
        self.shape = (n_layers, n_heads)
        self.count: dict[str, int] = {}
        self.heads: dict[str, dict[str, np.ndarray]] = {d: {} for d in DIRECTIONS}
        self.offsets: dict[str, np.ndarray] = {}

    def add(self, s: Sentence, word_att: np.ndarray, specials=(1, 1)) -> None:
        """One sentence: word_att (L, H, W, W) with its specials (front, back) as words."""
        n = len(s.words)
        right = {d: is_correct(predict_heads(word_att, d, specials), s) for d in DIRECTIONS}  # (L, H, n)
        base = np.stack([is_correct(offset_predictions(n, o), s) for o in OFFSETS])  # (offsets, n)
        for rel, idx in _by_relation(s).items():
            self.count[rel] = self.count.get(rel, 0) + len(idx)
            for d in DIRECTIONS:
                self.heads[d].setdefault(rel, np.zeros(self.shape, dtype=np.int64))
                self.heads[d][rel] += right[d][..., idx].sum(-1)
            self.offsets[rel] = self.offsets.get(rel, np.zeros(len(OFFSETS), dtype=np.int64)) + base[:, idx].sum(-1)

    def table(self, min_count: int = MIN_COUNT) -> list[dict]:
        """Per relation ("all" first, then by count): accuracy grids per direction, the best head, the baseline."""
        rels = ["all"] + sorted((r for r, c in self.count.items() if r != "all" and c >= min_count
                                 and r not in SKIPPED), key=lambda r: (-self.count[r], r))
        out = []
        for rel in rels:
            n = self.count.get(rel, 0)
            if not n:
                continue
            grids = {d: self.heads[d][rel] / n for d in DIRECTIONS}
            out.append(relation_record(rel, n, grids, self.offsets[rel] / n))
        return out


def _by_relation(s: Sentence) -> dict[str, np.ndarray]:
    rels: dict[str, list[int]] = {"all": list(range(len(s.words)))}
    for i, r in enumerate(s.rels):
        rels.setdefault(r, []).append(i)
    return {r: np.asarray(i) for r, i in rels.items()}


def relation_record(rel: str, n: int, grids: dict, offsets: np.ndarray) -> dict:
    """One relation's row of the table: grids (direction -> (L, H) accuracy), the best head over both directions
    (1-based layer and head), the best offset's accuracy."""
    best = max(((float(g.max()), d, np.unravel_index(int(np.argmax(g)), g.shape)) for d, g in grids.items()),
               key=lambda x: x[0])
    acc, d, (l, h) = best
    o = int(np.argmax(offsets))
    return {"relation": rel, "count": int(n),
            "best": {"layer": int(l) + 1, "head": int(h) + 1, "direction": d, "accuracy": round(acc, 4)},
            "baseline": {"offset": OFFSETS[o], "accuracy": round(float(offsets[o]), 4)},
            "grids": {k: np.round(g, 4).tolist() for k, g in grids.items()}}


# ----------------------------------------------------------------------------- the model's attention


@dataclass(frozen=True)
class SentenceAttention:
    """A sentence's word-level attention: words, (L, H, n, n) over the words alone (specials dropped after the
    pooling, rows renormalised to 1 for drawing: a row's weight on [CLS]/[SEP] is set aside), and its parse."""
    model: str
    words: list[str]
    attention: np.ndarray  # (L, H, n, n) word x word, rows over the words alone summing to 1
    parse: Sentence | None  # the gold parse, where the sentence is an annotated one
    tokens: list[str]  # the model's pieces, specials included


_WORD = re.compile(r"\w+(?=n't)|n't|'\w+|\w+(?:[-.]\w+)*|[^\w\s]", re.UNICODE)


def split_words(text: str) -> list[str]:
    """A typed sentence as treebank-like words: punctuation split off, "didn't" -> did n't, "it's" -> it 's."""
    return _WORD.findall(str(text or ""))


def _groups(word_ids, n_words: int) -> tuple[list[list[int]], tuple[int, int]] | None:
    """Token positions per word from an Encoding's word_ids of pre-split words, specials as words of their own; None when
    a word has no tokens (the normaliser removed it) or a word was cut."""
    groups: list[list[int]] = [[] for _ in range(n_words)]
    front, back, seen = [], [], False
    for t, w in enumerate(word_ids):
        if w is None:
            (back if seen else front).append([t])
        else:
            seen = True
            groups[w].append(t)
    if any(not g for g in groups):
        return None
    return front + groups + back, (len(front), len(back))


def _encode(ckpt, words: list[str]):
    """(ids, groups, specials) for pre-split words as the model reads them, or None if they do not fit."""
    tok = ckpt.tokenizer
    if ckpt.config.arch == "bert":
        enc = tok.encode(words, is_pretokenized=True)
        limit = ckpt.config.max_len
    else:  # a Transformer's encoder reads the pieces and </s>
        from models.tokenizers import special_ids
        enc = tok.encode(words, is_pretokenized=True, add_special_tokens=False)
        ids, word_ids = list(enc.ids) + [special_ids(tok)["eos"]], list(enc.word_ids) + [None]
        limit = ckpt.config.max_len - 2
        g = _groups(word_ids, len(words))
        return None if g is None or len(ids) > limit else (ids, *g)
    g = _groups(enc.word_ids, len(words))
    return None if g is None or len(enc.ids) > limit else (list(enc.ids), *g)


def _attention(ckpt, batch: list[list[int]]) -> list[np.ndarray]:
    """Token attention (L, H, T, T) of each id list, run as one padded batch."""
    import torch
    T = max(len(b) for b in batch)
    pad = ckpt.config.pad_id
    ids = torch.tensor([b + [pad] * (T - len(b)) for b in batch])
    with torch.inference_mode():
        if ckpt.config.arch == "bert":
            att = ckpt.model(ids, torch.zeros_like(ids), need_weights=True).trace.enc_self  # (B, L, H, T, T)
        else:
            _, _, layers = ckpt.model.encode(ids, need_weights=True)
            att = torch.stack([a.probs for a in layers], dim=1)  # (B, L, H, T, T)
    att = att.float().numpy()
    return [att[i, :, :, :len(b), :len(b)] for i, b in enumerate(batch)]


def sentence_attention(words, model: str = "bert", parse: Sentence | None = None, reg=None) -> SentenceAttention:
    """Word-level attention of one sentence (a list of words, or text split by `split_words`)."""
    from explorer.compute import inference as inf
    ckpt = (reg or inf.registry()).get(model, ("bert", "transformer"))
    if isinstance(words, str):
        text, _ = inf.clean_text(words)
        words = split_words(text)
    words = list(words)
    if not words:
        raise inf.UserError("Please type a sentence.", "empty", what="sentence")
    got = _encode(ckpt, words)
    if got is None:
        raise inf.UserError("The sentence is too long for the model, or has a word it reads as nothing.",
                            "syntax_unreadable")
    ids, groups, specials = got
    att = _attention(ckpt, [ids])[0]
    w = word_attention(att, groups)
    front, back = specials
    W = w.shape[-1]
    w = w[..., front:W - back, front:W - back]
    w = w / np.clip(w.sum(-1, keepdims=True), 1e-12, None)
    tokens = [ckpt.tokenizer.id_to_token(i) for i in ids]
    return SentenceAttention(model, words, w.astype(np.float32), parse, tokens)


def evaluate(sentences: list[Sentence], model: str = "bert", reg=None, batch: int = 32,
             progress=None) -> tuple[Tally, int]:
    """Every sentence through the model (sorted by length, in batches): the tally and how many were skipped (too
    long for the model, or with a word it reads as no tokens)."""
    from explorer.compute import inference as inf
    ckpt = (reg or inf.registry()).get(model, ("bert", "transformer"))
    tally = Tally(ckpt.config.n_layers, ckpt.config.n_heads)
    encoded, skipped = [], 0
    for s in sentences:
        got = _encode(ckpt, list(s.words))
        if got is None:
            skipped += 1
        else:
            encoded.append((s, *got))
    encoded.sort(key=lambda e: len(e[1]))
    for start in range(0, len(encoded), batch):
        chunk = encoded[start:start + batch]
        for (s, _, groups, specials), att in zip(chunk, _attention(ckpt, [e[1] for e in chunk])):
            tally.add(s, word_attention(att, groups), specials)
        if progress:
            progress(min(start + batch, len(encoded)), len(encoded))
    return tally, skipped


# ----------------------------------------------------------------------------- the precomputed table


def load_table(path=TABLE) -> dict:
    """The precomputed table (main() writes it): {"model", "relations": [relation_record...], ...}."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


def relation(table: dict, rel: str) -> dict:
    for r in table["relations"]:
        if r["relation"] == rel:
            return r
    known = ", ".join(r["relation"] for r in table["relations"])
    from explorer.compute.inference import UserError
    raise UserError(f"Unknown relation '{rel}'. Available: {known}.", "syntax_relation", name=rel, known=known)


def cli(args, emit) -> int:
    """`python -m explorer syntax`: one record per relation (grids only with --relation), from the shipped table or
    recomputed from --data-dir."""
    if args.data_dir:
        path = Path(args.data_dir) / DEV
        if not path.is_file():
            print(f"no {DEV} under {args.data_dir}", file=sys.stderr)
            return 2
        tally, _ = evaluate(read_conllu(path)[: args.limit], args.model)
        rows = tally.table()
    else:
        path = ASSETS / f"{args.model}-ewt-dev.json"
        if not path.is_file():
            print(f"no table {path.name} in assets/syntax/; give --data-dir", file=sys.stderr)
            return 2
        rows = load_table(path)["relations"]
    if args.relation:
        rows = [r for r in rows if r["relation"] == args.relation]
        if not rows:
            print(f"unknown relation {args.relation!r}", file=sys.stderr)
            return 2
    for r in rows:
        emit(r if args.relation else {k: v for k, v in r.items() if k != "grids"})
    return 0


def main(argv=None) -> int:
    from models.training.data import file_sha256  # the corpus's hash, as every training run records it

    p = argparse.ArgumentParser(prog="python -m explorer.compute.syntax", description=__doc__.split("\n\n")[0])
    p.add_argument("--data-dir", required=True, help="the folder holding pos-ud-english-ewt/")
    p.add_argument("--model", default="bert", help="bert, or a Transformer (its encoder), e.g. transformer-en-fr")
    p.add_argument("--out", default=None, help="the JSON table to write (default: print it)")
    p.add_argument("--limit", type=int, default=None, help="only the first N sentences (a quick check)")
    p.add_argument("--batch", type=int, default=32)
    args = p.parse_args(argv)
    path = Path(args.data_dir) / DEV
    if not path.is_file():
        print(f"no {DEV} under {args.data_dir}", file=sys.stderr)
        return 2
    sentences = read_conllu(path)[: args.limit]
    t0 = time.time()
    tally, skipped = evaluate(sentences, args.model, batch=args.batch,
                              progress=lambda i, n: print(f"\r{i}/{n} sentences", end="", file=sys.stderr))
    print(file=sys.stderr)
    cmd = ["python3", "-m", "explorer.compute.syntax"] + list(sys.argv[1:] if argv is None else argv)
    table = {
        "model": args.model, "method": "Clark et al. 2019, section 4.2 (explorer/compute/syntax.py)",
        "command": " ".join(cmd), "data": {"file": DEV.as_posix(), "sha256": file_sha256(path),
                                           "sentences": len(sentences), "evaluated": len(sentences) - skipped,
                                           "skipped": skipped, "words": tally.count.get("all", 0)},
        "layers": tally.shape[0], "heads": tally.shape[1], "offsets": list(OFFSETS), "min_count": MIN_COUNT,
        "seconds": round(time.time() - t0, 1), "clark": CLARK, "relations": tally.table(),
    }
    text = json.dumps(table, ensure_ascii=False, separators=(",", ":"))
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text + "\n", encoding="utf-8")
        for r in table["relations"]:
            b = r["best"]
            print(f"{r['relation']:12s} {r['count']:6d}  {b['layer']}-{b['head']} {b['direction']}  "
                  f"{100 * b['accuracy']:.1f}  offset {r['baseline']['offset']:+d}: {100 * r['baseline']['accuracy']:.1f}")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
