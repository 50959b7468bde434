"""Query · key: one query token's scores q·k/√d_k against every key, their softmax beside the model's own
attention (Vaswani et al. 2017, eq. 1).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from explorer import inference as inf
from explorer import lab
from explorer import lab_figures as lf
from explorer.i18n import lab_labels, localized, t
from explorer.views import Downloads, md, notices_md, one_based, to_download, whole_number


QK_COLUMNS = ["position", "key token", "q·k/√d_k", "softmax", "model attention"]  # English headers, i18n.localized


def query_tokens(text: str, model: str = "bert") -> list[tuple[str, int]]:
    """(label, position) of every token BERT sees, for the query chooser (the tokenizer alone: it follows typing)."""
    return [(f"{i}: {tok}", i) for i, tok in enumerate(inf.bert_tokens(text, name=model))]


@dataclass(frozen=True)
class QueryKeyView:
    figure: go.Figure
    table: pd.DataFrame  # key token, q.k/sqrt(d_k), softmax, the model's own attention
    text: str  # markdown
    choices: list[tuple[str, int]]
    files: Downloads
    record: lab.QueryKeyResult


def query_key_view(text: str, layer=1, head=1, query_index=0, model: str = "bert", lang: str = "en") -> QueryKeyView:
    """One head's q . k_j / sqrt(d_k) and softmax for one query token (layer, head 1-based)."""
    c = inf.registry().get(model, "bert").config
    l, h = one_based(layer, "Layer", c.n_layers), one_based(head, "Head", c.n_heads)
    n = len(query_tokens(text, model))
    # the chooser lists the previous text's tokens until this run returns: clamp to this text's
    q = min(max(whole_number(0 if query_index in (None, "") else query_index, "Query token"), 0), n - 1)
    r = lab.query_key(text, l, h, q, name=model)
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
    files = to_download(f"query-key-L{l + 1}H{h + 1}", r, {"terms": table})
    return QueryKeyView(fig, table, text_md, choices, files, r)
