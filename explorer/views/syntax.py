"""Heads vs syntax (Clark et al. 2019, section 4.2): the precomputed table of each relation's best head against the
best fixed offset, a relation's layer x head accuracy grid, and a sentence with one head's attention drawn over it
(and its parse, for the example sentences: no dependency parser installs here, so a typed sentence gets the
attention alone). Numbers: explorer/compute/syntax.py and assets/syntax/*.json; figures: explorer/figures/syntax.py."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pandas as pd
import plotly.graph_objects as go

from explorer import figures as fg
from explorer.compute import syntax as sx
from explorer.figures import syntax as sf
from explorer.i18n import t
from explorer.views import Downloads, md, notices_md, one_based, to_download

# Example sentences with parses written for this repo in UD style (EWT's guidelines), not treebank data: the data
# stays out of the repo (docs/data.md), and no parser installs here to parse a typed sentence.
EXAMPLES = [
    sx.Sentence(("The", "dog", "chased", "the", "cat", "."), (2, 3, 0, 5, 3, 3),
                ("det", "nsubj", "root", "det", "obj", "punct")),
    sx.Sentence(("The", "students", "opened", "their", "books", "in", "the", "quiet", "library", "."),
                (2, 3, 0, 5, 3, 9, 9, 9, 3, 3),
                ("det", "nsubj", "root", "nmod:poss", "obj", "case", "det", "amod", "obl", "punct")),
    sx.Sentence(("She", "has", "been", "given", "a", "new", "book", "by", "her", "brother", "."),
                (4, 4, 4, 0, 7, 7, 4, 10, 10, 4, 4),
                ("nsubj:pass", "aux", "aux:pass", "root", "det", "amod", "obj", "case", "nmod:poss", "obl", "punct")),
    sx.Sentence(("John", "'s", "sister", "did", "n't", "cross", "the", "street", "because", "it", "was", "too",
                 "busy", "."), (3, 1, 6, 6, 6, 0, 8, 6, 13, 13, 13, 13, 6, 6),
                ("nmod:poss", "case", "nsubj", "aux", "advmod", "root", "det", "obj", "mark", "nsubj", "cop",
                 "advmod", "advcl", "punct")),
]
EXAMPLE_TEXTS = [" ".join(s.words) for s in EXAMPLES]
DEFAULT_RELATION = "det"


def table_path(model: str) -> Path:
    return sx.ASSETS / f"{model}-ewt-dev.json"


def models_with_tables(names) -> list[str]:
    """The loaded models (of `names`) that have a precomputed table."""
    return [n for n in names if table_path(n).is_file()]


@lru_cache(maxsize=4)
def table(model: str = "bert") -> dict:
    """The precomputed table of `model` (read once; the app never changes it)."""
    path = table_path(model)
    if not path.is_file():
        from explorer.compute.inference import UserError
        raise UserError(f"No heads-vs-syntax table for '{model}': run python3 -m explorer.compute.syntax --model {model}.",
                        "syntax_no_table", name=model)
    return sx.load_table(path)


def relation_names(model: str = "bert") -> list[str]:
    return [r["relation"] for r in table(model)["relations"]]


def best_head(model: str, rel: str) -> tuple[int, int]:
    """The relation's best head, 1-based (layer, head)."""
    b = sx.relation(table(model), rel)["best"]
    return b["layer"], b["head"]


def relations_table(tab: dict, lang: str = "en") -> pd.DataFrame:
    """One row per relation: its count, best head (both directions), the best offset, and Clark et al.'s figure
    for the relations they report under another name."""
    rows = []
    for r in tab["relations"]:
        b, o = r["best"], r["baseline"]
        c = tab.get("clark", {}).get(r["relation"])
        rows.append({t("syn.col_relation", lang): r["relation"], t("syn.col_count", lang): r["count"],
                     t("syn.col_head", lang): f"{b['layer']}-{b['head']}",
                     t("syn.col_direction", lang): t(f"syn.dir_{_dir_key(b['direction'])}", lang),
                     t("syn.col_accuracy", lang): round(100 * b["accuracy"], 1),
                     t("syn.col_offset", lang): f"{o['offset']:+d}",
                     t("syn.col_baseline", lang): round(100 * o["accuracy"], 1),
                     t("syn.col_clark", lang): (f"{c['theirs']} {c['head']}: {100 * c['accuracy']:.1f}"
                                                if c else "")})
    return pd.DataFrame(rows)


def _dir_key(direction: str) -> str:
    return "dep" if direction == "dep->head" else "head"


def grid_figure(tab: dict, rel: str, direction: str = "dep->head", lang: str = "en") -> go.Figure:
    """The relation's layer x head accuracy in one direction, its best head outlined."""
    r = sx.relation(tab, rel)
    if direction not in sx.DIRECTIONS:
        direction = "dep->head"
    grid = r["grids"][direction]
    best = max(((v, (l, h)) for l, row in enumerate(grid) for h, v in enumerate(row)), key=lambda x: x[0])[1]
    title = t("syn.grid_title", lang, rel=rel, direction=t(f"syn.dir_{_dir_key(direction)}", lang), n=r["count"],
              model=tab["model"])
    return sf.accuracy_grid(grid, title, best=best, baseline=r["baseline"]["accuracy"], labels=labels(lang))


def labels(lang: str = "en") -> dict:
    return {k: t(f"synf.{k}", lang) for k in sf.LABELS}


def parse_of(text: str) -> sx.Sentence | None:
    """The example sentence's parse, where `text` is one of them (spaces aside)."""
    key = " ".join(str(text or "").split())
    for s, shown in zip(EXAMPLES, EXAMPLE_TEXTS):
        if key == shown:
            return s
    return None


def sentence_record(text: str, model: str = "bert", reg=None) -> sx.SentenceAttention:
    """A sentence's word-level attention: an example's own words (and parse), or a typed sentence split into words."""
    parse = parse_of(text)
    return sx.sentence_attention(list(parse.words) if parse else text, model, parse=parse, reg=reg)


def arcs_figure(rec: sx.SentenceAttention, layer, head, lang: str = "en") -> go.Figure:
    L, H = rec.attention.shape[:2]
    l, h = one_based(layer, "Layer", L), one_based(head, "Head", H)
    p = rec.parse
    title = t("syn.arcs_title", lang, layer=l + 1, head=h + 1, model=rec.model)
    return sf.attention_arcs(rec.words, rec.attention[l, h], title, heads=list(p.heads) if p else None,
                             rels=list(p.rels) if p else None, labels=labels(lang))


def arcs_summary(rec: sx.SentenceAttention, layer, head, lang: str = "en") -> str:
    """Under the arcs: how many of the sentence's words this head points at their head (an example), or that a
    typed sentence has no parse here."""
    L, H = rec.attention.shape[:2]
    l, h = one_based(layer, "Layer", L), one_based(head, "Head", H)
    if rec.parse is None:
        return t("syn.no_parse", lang)
    pred = sx.predict_heads(rec.attention[l, h][None, None], "dep->head", specials=(0, 0))[0, 0]
    right = sx.is_correct(pred, rec.parse)
    scored = [i for i, r in enumerate(rec.parse.rels) if r not in sx.SKIPPED]
    hits = ", ".join(md(f"{rec.words[i]} → {rec.words[rec.parse.heads[i] - 1]} ({rec.parse.rels[i]})")
                     for i in scored if right[i])
    return t("syn.hits", lang, k=int(sum(right[i] for i in scored)), n=len(scored), hits=hits or "–")


@dataclass(frozen=True)
class SyntaxRun:
    """What a run computed (the model's attention on the sentence) and what it was asked: the language switch and
    the layer/head sliders redraw from it without running the model."""
    model: str
    rel: str
    direction: str
    sentence: sx.SentenceAttention


@dataclass(frozen=True)
class SyntaxView:
    table: pd.DataFrame  # one row per relation: best head vs the best offset
    grid: go.Figure  # the chosen relation's layer x head accuracy
    arcs: go.Figure  # the sentence with the chosen head's attention (and the example's parse)
    summary: str  # markdown: the data the table comes from, and the head on the sentence
    files: Downloads
    layer: int  # the head drawn, 1-based
    head: int
    record: SyntaxRun


def syntax_view(model: str = "bert", rel: str = DEFAULT_RELATION, direction: str = "dep->head",
                text: str = EXAMPLE_TEXTS[0], layer=None, head=None, lang: str = "en", reg=None) -> SyntaxView:
    """Everything the tab shows: layer/head None = the relation's best head."""
    rel = rel if rel in relation_names(model) else DEFAULT_RELATION
    return syntax_redraw(SyntaxRun(model, rel, direction, sentence_record(text, model, reg)), layer, head, lang)


def syntax_redraw(run: SyntaxRun, layer=None, head=None, lang: str = "en") -> SyntaxView:
    """The view of a kept run for another layer, head or language (no model call)."""
    model, rel, direction, rec = run.model, run.rel, run.direction, run.sentence
    tab = table(model)
    bl, bh = best_head(model, rel)
    layer, head = layer or bl, head or bh
    d = tab["data"]
    lead = t("syn.source", lang, sentences=d["evaluated"], words=d["words"], skipped=d["skipped"],
             sha=d["sha256"][:12], command=md(tab["command"]))
    summary = notices_md([], [lead, arcs_summary(rec, layer, head, lang)])
    rows = relations_table(tab, lang)
    grid = grid_figure(tab, rel, direction, lang)
    arcs = arcs_figure(rec, layer, head, lang)
    files = to_download(f"syntax-{model}", {"table": tab, "sentence": {"words": rec.words, "layer": int(layer),
                                                                       "head": int(head)}},
                        {"relations": rows})
    return SyntaxView(rows, grid, arcs, summary, files, int(layer), int(head), run)


def placeholder(lang: str = "en") -> go.Figure:
    return fg.placeholder(t("view.run_first", lang))
