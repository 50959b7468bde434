"""The "Luong's four steps" tab's composition: one decoding step of an RNN encoder-decoder (explorer.compute.luong,
Luong et al. 2015 sec. 3; Bahdanau et al. 2015 for additive), as figures in the page's language."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from explorer.figures import inside as fi
from explorer import i18n
from explorer.compute import luong
from explorer.views import Downloads, md, notices_md, to_download

TOP_COLUMNS = ["rank", "token", "probability"]


@dataclass(frozen=True)
class LuongView:
    summary: str
    steps: go.Figure  # steps 1, 2, 4: e_t, alpha_t and the top-k
    vectors: go.Figure  # h_i, the query, a_t (step 3), h~_t (step 4)
    table: pd.DataFrame  # the top-k
    files: Downloads
    record: luong.LuongResult
    n_steps: int  # the steps there are (for a slider)


def luong_view(text: str, model: str, step=0, target: str = "", top_k=5, lang: str = "en") -> LuongView:
    r = luong.four_steps(model, text, step=int(step or 0), target=target or None, top_k=top_k)
    return luong_redraw(r, lang)


def luong_redraw(r: luong.LuongResult, lang: str = "en") -> LuongView:
    t = lambda key_, **f: i18n.t(key_, lang, **f)  # noqa: E731
    read = r.decoder_input_tokens[r.step]
    chosen = next((i for i, c in enumerate(r.top) if c.token == r.token), None)
    steps = fi.luong_steps(r.source_tokens, r.scores, r.weights, [c.token for c in r.top],
                           [c.probability for c in r.top], chosen,
                           [t("lu.panel_scores", query=r.query_name), t("lu.panel_weights"),
                            t("lu.panel_top", k=len(r.top)), t("lu.fig_steps", t=r.step, read=read, token=r.token)])
    state = "h_t" if r.query_name == "h_t" else "s_t"
    rows = [r.encoder_states[i] for i in range(len(r.source_tokens))] + [r.query]
    names = [t("lu.row_enc", i=i, token=tok) for i, tok in enumerate(r.source_tokens)]
    names.append(t("lu.row_query", query=r.query_name))
    if r.query_name != "h_t":
        rows.append(r.state), names.append(t("lu.row_state", state=state))
    rows += [r.context, r.attentional]
    names += [t("lu.row_context"), t("lu.row_attentional", concat=r.concat_name)]
    vectors = fi.vector_rows(rows, names, t("lu.fig_vectors", t=r.step), t("il.dimension"), t("il.norm"))
    table = pd.DataFrame([[i + 1, c.token, c.probability] for i, c in enumerate(r.top)], columns=TOP_COLUMNS)
    best = int(np.argmax(r.weights))
    p = "—" if r.probability is None else f"{r.probability:.3f}"
    summary = t("lu.summary", model=md(r.model), score=t(f"lu.score_{r.score}"), t=r.step, read=md(read),
                token=md(r.token), p=p, rank=r.rank if r.rank is not None else "—", src=md(r.source_tokens[best]),
                a=float(r.weights[best]))
    tables = {"top": table, "steps": pd.DataFrame({"source": r.source_tokens, "e_t": r.scores, "α_t": r.weights})}
    files = to_download(f"{r.model}-step{r.step}-four-steps", r, tables, {"steps": steps, "vectors": vectors},
                            lang)
    return LuongView(notices_md(r.notices, [summary], lang), steps, vectors, i18n.localized(table, lang), files, r,
                     len(r.decoder_input_tokens))
