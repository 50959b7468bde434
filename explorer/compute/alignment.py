"""One sentence pair's attention read as a word alignment, naive and shifted (Chen et al. 2020, shift-att), against
its gold links, with each reading's alignment error rate (Och & Ney 2003, eq. 5): explorer/compute/aer.py's reading of the
whole check, on the one pair a class chose or typed.

`pair_alignment` runs the model once, teacher-forced on the target (the model's own greedy translation when none
is given), and keeps the word attention of every layer for both readings, so choosing another layer redraws
without a model call. Its links and AER are explorer/compute/aer.py's functions on that attention, scored as the checks
score (a target word with no gold link is left out, its predicted link too). `aer_table` reads the numbers of
docs/alignment-error.md that the app shows beside it, from assets/explains/alignment-error.json.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from explorer.compute import aer
from explorer.compute.inference import Registry, UserError, clean_text, registry, translate

TABLE = Path(__file__).resolve().parents[2] / "assets" / "explains" / "alignment-error.json"
READINGS = aer.READINGS  # ("naive", "shifted")
MAX_WORDS = 30  # words per side: a map a projector still shows word by word


def models(names) -> list[str]:
    """The loaded models (of `names`) whose attention explorer/compute/aer.py reads, in its order."""
    names = set(names)
    return [m for m in aer.MODELS if m in names]


@lru_cache(maxsize=4)
def gold_pairs(name: str) -> tuple[tuple[str, str, tuple], ...]:
    """The hand-aligned check the model is scored on, as (source, target, sorted gold links)."""
    direction, reverse = aer.MODELS[name]
    return tuple((s, t, tuple(sorted(g))) for s, t, g in aer.check_pairs(direction, reverse))


def parse_links(text: str, n_src: int, n_tgt: int) -> list[tuple[int, int]]:
    """Links typed as the gold files write them: "i-j" (source word i, target word j, from 0), space-separated."""
    out = set()
    for item in (text or "").replace(",", " ").split():
        try:
            i, j = (int(x) for x in item.split("-"))
        except ValueError:
            raise UserError(f"A link is written i-j (source word i, target word j, from 0); got {item!r}.",
                            "bad_link", link=item) from None
        if not (0 <= i < n_src and 0 <= j < n_tgt):
            raise UserError(f"The link {item} points past the last word ({n_src} source, {n_tgt} target words).",
                            "link_past_end", link=item, n_src=n_src, n_tgt=n_tgt)
        out.add((i, j))
    return sorted(out)


@dataclass(frozen=True)
class PairAlignment:
    model: str
    source: str
    target: str
    src_words: list[str]  # space-separated words, as the gold files count them
    tgt_words: list[str]
    gold: list[tuple[int, int]] | None  # (source word, target word), from 0; None: no gold links given
    attention: dict  # reading -> (layers, n_tgt, n_src) word attention, rows summing to at most 1 (</s> left out)
    translated: bool  # the target is the model's own greedy translation
    notices: list[str] = field(default_factory=list)

    @property
    def layers(self) -> int:
        return self.attention[READINGS[0]].shape[0]

    def links(self, reading: str, layer: int) -> set:
        """Each target word linked to its most-attended source word (explorer/compute/aer.py's argmax reading)."""
        return aer.argmax_links(self.attention[reading][layer])

    def score(self, reading: str, layer: int) -> dict | None:
        """AER, precision and recall of one reading at one layer on this pair (the checks' protocol); None
        without gold links."""
        if not self.gold:
            return None
        gold = set(self.gold)
        return aer.aer([aer.scored_only(self.links(reading, layer), gold)], [gold])

    def to_json(self) -> dict:
        return {"model": self.model, "source": self.source, "target": self.target, "src_words": self.src_words,
                "tgt_words": self.tgt_words, "gold": None if self.gold is None else [list(x) for x in self.gold],
                "attention": {r: np.round(a, 5).tolist() for r, a in self.attention.items()},
                "translated": self.translated, "notices": list(self.notices)}


def _words(text: str, what: str) -> tuple[str, list[str], list[str]]:
    text, notices = clean_text(text, what)
    words = text.split()
    if len(words) > MAX_WORDS:
        raise UserError(f"Keep the {what} within {MAX_WORDS} words (it has {len(words)}).", "too_many_words",
                        what=what, n=MAX_WORDS, got=len(words))
    return text, words, notices


def pair_alignment(name: str, source: str, target: str = "", links: str | None = None,
                   reg: Registry | None = None) -> PairAlignment:
    """The model's attention on (source, target) read both ways at every layer. An empty target: the model's
    greedy translation (then no gold links). `links`: gold links as the files write them ("0-0 1-2")."""
    reg = reg or registry()
    if name not in aer.MODELS:
        raise UserError(f"{name} is not read as an alignment here: choose one of {', '.join(aer.MODELS)}.",
                        "no_alignment_model", name=name)
    ckpt = reg.get(name, ("transformer", "seq2seq"))
    source, src_words, notices = _words(source, "source")
    translated = not (target or "").strip()
    if translated:
        target = translate(name, source, reg=reg).translation
        links = None
    target, tgt_words, more = _words(target, "target")
    notices += more
    gold = parse_links(links, len(src_words), len(tgt_words)) if (links or "").strip() else None
    p = aer.teacher_forced(ckpt.model, ckpt.tokenizer, source, target)
    if p is None:
        raise UserError(f"{name} has no attention to read.", "no_attention", name=name)
    attention = {r: np.stack([aer.word_attention(aer.step_rows(p.cross[layer], r), p.src_words, p.tgt_words,
                                                 p.n_src, p.n_tgt) for layer in range(p.cross.shape[0])])
                 for r in READINGS}  # (layers, n_tgt, n_src)
    return PairAlignment(name, source, target, src_words, tgt_words, gold, attention, translated, list(notices))


@lru_cache(maxsize=1)
def aer_table(path: Path = TABLE) -> dict:
    """docs/alignment-error.md's numbers as the app ships them (tests/explorer/test_alignment.py holds the two
    to each other): {"attention": [rows], "ibm": [rows], "published": [rows]}."""
    return json.loads(Path(path).read_text(encoding="utf-8"))
