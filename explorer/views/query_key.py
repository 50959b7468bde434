"""Query · key: one query token's scores q·k/√d_k against every key, their softmax beside the model's own
attention (Vaswani et al. 2017, eq. 1), and the head's queries and keys of many held-out sentences in one plane
with the typed sentence's own (AttentionViz, Yeh et al. 2023; explorer/compute/qk_embedding.py).

A run (`query_key_view`) computes a `QueryKeyRecord`; `query_key_redraw` draws a record again in another language
or colouring without a model call (the tab keeps the record for the language switch).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from explorer.compute import inference as inf
from explorer.compute import lab
from explorer.figures import lab as lf
from explorer.compute import qk_embedding as qe
from explorer.figures import qk_embedding as qf
from explorer.figures import placeholder
from explorer.i18n import lab_labels, localized, t
from explorer.views import Downloads, UserError, md, notices_md, one_based, to_download, whole_number  # noqa: F401

registry = inf.registry  # the tab sizes its sliders from the chosen model


QK_COLUMNS = ["position", "key token", "q·k/√d_k", "softmax", "model attention"]  # English headers, i18n.localized


def query_tokens(text: str, model: str = "bert") -> list[tuple[str, int]]:
    """(label, position) of every token BERT sees, for the query chooser (the tokenizer alone: it follows typing)."""
    return [(f"{i}: {tok}", i) for i, tok in enumerate(inf.bert_tokens(text, name=model))]


EMBEDDING_COLUMNS = ["position", "token", "query PC 1", "query PC 2", "key PC 1", "key PC 2"]


@dataclass(frozen=True)
class QueryKeyRecord:
    """A run: the head's terms for the chosen query, and the typed sentence in the head's plane (None: the model has
    no precomputed embedding)."""
    qk: lab.QueryKeyResult
    model: str
    projection: qe.TypedProjection | None

    @property
    def query_index(self) -> int:
        return self.qk.query_index


@dataclass(frozen=True)
class QueryKeyView:
    figure: go.Figure
    table: pd.DataFrame  # key token, q.k/sqrt(d_k), softmax, the model's own attention
    text: str  # markdown
    choices: list[tuple[str, int]]
    files: Downloads
    record: QueryKeyRecord
    embedding: go.Figure  # the head's queries and keys of many sentences, the typed sentence's among them
    embedding_text: str  # markdown


def colour_choices(lang: str = "en") -> list[tuple[str, str]]:
    """(label, value) of the embedding's colourings, for a radio."""
    return [(t(f"qke.by_{c}", lang), c) for c in qf.COLOUR_BY]


def query_key_view(text: str, layer=1, head=1, query_index=0, model: str = "bert", lang: str = "en",
                   colour_by: str = "kind") -> QueryKeyView:
    """One head's q . k_j / sqrt(d_k) and softmax for one query token (layer, head 1-based), and the typed sentence's
    queries and keys among many sentences' in the head's plane."""
    c = inf.registry().get(model, "bert").config
    l, h = one_based(layer, "Layer", c.n_layers), one_based(head, "Head", c.n_heads)
    n = len(query_tokens(text, model))
    # the chooser lists the previous text's tokens until this run returns: clamp to this text's
    q = min(max(whole_number(0 if query_index in (None, "") else query_index, "Query token"), 0), n - 1)
    r = lab.query_key(text, l, h, q, name=model)
    e = qe.load(model)
    if e is not None and e.shape != (c.n_layers, c.n_heads):
        e = None  # an embedding made for another model under this name: none rather than a wrong one
    projection = qe.project_sentence(text, l, h, model, embedding=e) if e is not None else None
    return query_key_redraw(QueryKeyRecord(r, model, projection), lang, colour_by)


def embedding_view(record: QueryKeyRecord, lang: str = "en", colour_by: str = "kind") -> tuple[go.Figure, str]:
    """The head's plane with the typed sentence in it, and its explanation; a placeholder where there is none."""
    r, p = record.qk, record.projection
    e = qe.load(record.model) if p is not None else None
    if e is None:
        note = t("qke.none", lang, model=md(record.model))
        return placeholder(note.replace("**", "").replace("`", "")), note
    l, h = p.layer, p.head
    tags = [e.tags[i] for i in e.tag]
    labels = {k: t(f"qkef.{k}", lang) for k in qf.LABELS}
    title = t("qke.title", lang, layer=l + 1, head=h + 1, points=len(e.tokens), sentences=e.meta["sentences"])
    fig = qf.qk_embedding_figure(e.coords[l, h, 0], e.coords[l, h, 1], e.position, tags, e.tokens, e.sentence,
                                 title, colour_by if colour_by in qf.COLOUR_BY else "kind", e.explained[l, h],
                                 p.q_xy, p.k_xy, p.tokens, r.query_index, labels)
    text = t("qke.text", lang, layer=l + 1, head=h + 1, points=len(e.tokens), sentences=e.meta["sentences"],
             share=float(e.explained[l, h].sum()))
    return fig, text


def embedding_table(p: qe.TypedProjection, lang: str = "en") -> pd.DataFrame:
    """The typed sentence's queries and keys in the plane, one row per token (English headers, localised)."""
    rows = [(i, tok, *p.q_xy[i], *p.k_xy[i]) for i, tok in enumerate(p.tokens)]
    return localized(pd.DataFrame(rows, columns=EMBEDDING_COLUMNS), lang)


def query_key_redraw(record: QueryKeyRecord, lang: str = "en", colour_by: str = "kind") -> QueryKeyView:
    """Everything a run shows, drawn from its record in `lang` (no model call)."""
    r = record.qk
    l, h = r.layer, r.head
    table = pd.DataFrame(zip(range(len(r.tokens)), r.tokens, [float(s) if np.isfinite(s) else None for s in r.scores],
                             r.probs, r.model_probs), columns=QK_COLUMNS)
    table = localized(table, lang)
    fig = lf.query_key_figure(r.tokens, r.query_index, r.q, r.k, r.scores, r.probs, lab_labels(lang))
    j = int(np.argmax(r.probs))
    text_md = t("qk.summary", lang, q=md(r.tokens[r.query_index]), layer=l + 1, head=h + 1, k=md(r.tokens[j]),
                p=float(r.probs[j]), d=r.d_k)
    if r.qk_norm:
        text_md += " " + t("qk.qk_norm", lang)
    if r.notices:
        text_md += "\n\n" + notices_md(r.notices, lang=lang)
    choices = [(f"{i}: {tok}", i) for i, tok in enumerate(r.tokens)]
    tables = {"terms": table}
    if record.projection is not None:
        tables["plane"] = embedding_table(record.projection, lang)
    files = to_download(f"query-key-L{l + 1}H{h + 1}", r, tables)
    emb, emb_text = embedding_view(record, lang, colour_by)
    return QueryKeyView(fig, table, text_md, choices, files, record, emb, emb_text)
