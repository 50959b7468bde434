"""The "Inside a layer" tab's composition: one token through one Transformer, BERT or GPT layer
(explorer.compute.inside, Vaswani et al. 2017 sec. 3), as figures in the page's language, a summary and downloads."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from explorer.figures import inside as fi
from explorer import i18n
from explorer.compute import inside
from explorer.compute import inference as inf
from explorer.views import Downloads, md, notices_md, to_download

STACK_KEYS = {"encoder": "il.encoder", "decoder": "il.decoder"}
# The LayerNorm table's columns (English; i18n.localized gives their "col.*" names): u is the vector normalised.
LN_COLUMNS = ["LayerNorm", "mean μ", "std σ", "mean of (u − μ)/σ", "std of (u − μ)/σ", "mean after γ, β",
              "std after γ, β"]


def model_depth(model: str, reg=None) -> tuple[int, str | None]:
    """The layer slider's range for `model` (its deeper stack's layers) and the one stack it has, if it has one
    (BERT an encoder, a GPT a decoder; None: a Transformer has both)."""
    c = (reg or inf.registry()).get(model, ("transformer", "bert", "gpt")).config
    stack = {"bert": "encoder", "gpt": "decoder"}.get(c.arch)
    return max(c.n_layers, getattr(c, "n_dec_layers", None) or c.n_layers), stack


@dataclass(frozen=True)
class InsideView:
    summary: str  # markdown
    stream: go.Figure  # the residual stream, vector by vector, in compute order
    attention: list[AttentionFigures]  # one per attention sublayer (a decoder layer: masked self, then cross)
    ffn: go.Figure  # the feed-forward's hidden layer
    layer_norms: pd.DataFrame  # every LayerNorm on the way: mean and std before and after normalising (LN_COLUMNS)
    files: Downloads
    record: inside.InsideResult


@dataclass(frozen=True)
class AttentionFigures:
    kind: str  # self, masked_self or cross
    scores: go.Figure  # every head's scores beside its softmax
    qkv: go.Figure  # q and weights x V per head
    heads: go.Figure  # each head's contribution |head_j W^O_j|
    keys_values: go.Figure  # per head: the token's q over every key's k (K) and every token's v (V)


def _kind(kind: str, lang: str) -> str:
    return i18n.t(f"il.kind_{kind}", lang)


def stream_rows(r: inside.InsideResult, lang: str = "en") -> tuple[list[np.ndarray], list[str]]:
    """The token's residual stream in the order the block computes it, with each row's name."""
    t = lambda key_, **f: i18n.t(key_, lang, **f)  # noqa: E731
    vecs, names = [r.x], [t("il.row_x")]
    for s in r.steps:
        what = t(f"il.short_{s.kind}") if isinstance(s, inside.AttentionStep) else "FFN"
        if r.pre_ln:
            vecs.append(s.read), names.append(f"{what}: {t('il.row_ln')}")
        vecs.append(s.out), names.append(t("il.row_out", kind=what) if isinstance(s, inside.AttentionStep)
                                         else t("il.row_ffn_out"))
        vecs.append(s.residual), names.append(f"{what}: {t('il.row_residual')}")
        if not r.pre_ln:
            vecs.append(s.result), names.append(f"{what}: {t('il.row_add_norm')}")
    names[-1] += f" = {t('il.row_next')}"
    if r.final is not None:
        vecs.append(r.final), names.append(t("il.row_final"))
    return vecs, names


def layer_norm_rows(r: inside.InsideResult, lang: str = "en") -> pd.DataFrame:
    """Every LayerNorm the token goes through (inside.InsideResult.layer_norms), one row each, named as the residual
    stream's rows: the vector's mean and std (sqrt(var + eps), what LayerNorm divides by), the normalised vector's
    (0 and ~1) and the output's, after the gain γ and bias β. Rounded to 6 decimals (-0 shown as 0)."""
    t = lambda key_, **f: i18n.t(key_, lang, **f)  # noqa: E731
    rows, names = [], []
    for i, ln in r.layer_norms:
        if i is None:
            names.append(t("il.ln_final"))
        else:
            s = r.steps[i]
            what = t(f"il.short_{s.kind}") if isinstance(s, inside.AttentionStep) else "FFN"
            names.append(f"{what}: {t('il.row_ln' if r.pre_ln else 'il.row_add_norm')}")
        rows.append([ln.mean, ln.std, ln.normalised.mean(), ln.normalised.std(), ln.out.mean(), ln.out.std()])
    table = pd.DataFrame(np.round(np.array(rows, dtype=np.float64).reshape(-1, 6), 6) + 0.0, columns=LN_COLUMNS[1:])
    table.insert(0, LN_COLUMNS[0], names)
    return table


def token_choices(r: inside.InsideResult) -> list[tuple[str, int]]:
    """(label, position) of the tokens the layer runs over, for a chooser."""
    return [(f"{i}: {tok}", i) for i, tok in enumerate(r.tokens)]


def inside_view(text: str, model: str, layer=1, token=0, stack: str = "encoder", target: str = "",
                lang: str = "en") -> InsideView:
    """Run explorer.compute.inside on `text` (layer is 1-based as on the page, token 0-based) and draw it."""
    layer_i = int(layer or 1) - 1 if str(layer).strip() not in ("", "None") else 0
    r = inside.inside_layer(model, text, layer=layer_i, token=token or 0, stack=stack or "encoder",
                            target=target or None)
    return inside_redraw(r, lang)


def inside_redraw(r: inside.InsideResult, lang: str = "en") -> InsideView:
    """Figures and text of a record (no model call)."""
    t = lambda key_, **f: i18n.t(key_, lang, **f)  # noqa: E731
    atts = [s for s in r.steps if isinstance(s, inside.AttentionStep)]
    ffn = next(s for s in r.steps if isinstance(s, inside.FFNStep))
    token = r.tokens[r.token_index]
    vecs, names = stream_rows(r, lang)
    stream = fi.vector_rows(vecs, names, t("il.fig_stream", token=token, l=r.layer + 1), t("il.dimension"),
                            t("il.norm"))
    heads = [t("il.head", h=h + 1) for h in range(r.n_heads)]
    figs, tables, parts = {}, {}, []
    for a in atts:
        kind = _kind(a.kind, lang)
        part = AttentionFigures(
            a.kind,
            fi.head_rows(a.scores, a.probs, a.key_tokens, heads, t("il.fig_scores", kind=kind, token=token),
                         t("il.scores"), t("il.softmax"), t("il.key")),
            fi.vector_rows(list(a.q) + list(a.head_out), [t("il.row_q", h=h + 1) for h in range(r.n_heads)]
                           + [t("il.row_head_out", h=h + 1) for h in range(r.n_heads)],
                           t("il.fig_qkv", kind=kind, token=token, h=r.n_heads, d_k=r.d_k), t("il.dimension"),
                           t("il.norm")),
            fi.bars(a.head_norm, heads, t("il.fig_heads", kind=kind), t("il.norm"), digits=2),
            fi.qkv_heads(a.q, a.k, a.v, token, a.key_tokens, heads,
                         t("il.fig_kv", kind=kind, token=token, h=r.n_heads, d_k=r.d_k),
                         (t("il.band_q", token=token), t("il.band_k"), t("il.band_v")), t("il.dimension"),
                         masked=np.isneginf(a.scores).all(0),
                         highlight=None if a.kind == "cross" else r.token_index))
        parts.append(part)
        figs.update({f"{a.kind}-kv": part.keys_values, f"{a.kind}-scores": part.scores, f"{a.kind}-qkv": part.qkv,
                     f"{a.kind}-heads": part.heads})
        tables[f"{a.kind}-scores"] = pd.DataFrame(a.scores, index=pd.Index(heads, name="head"), columns=a.key_tokens)
        tables[f"{a.kind}-softmax"] = pd.DataFrame(a.probs, index=pd.Index(heads, name="head"), columns=a.key_tokens)
    act = {"relu": "ReLU", "gelu": "GELU", "gelu_tanh": "GELU (tanh)"}.get(ffn.activation, ffn.activation)
    ffn_fig = fi.vector_rows([ffn.hidden_pre, ffn.hidden], [t("il.row_hidden_pre"), t("il.row_hidden", act=act)],
                             t("il.fig_ffn", token=token, act=act, d_ff=r.d_ff), t("il.dimension"), t("il.norm"))
    chain = ["x"]
    for s in r.steps:
        what = _kind(s.kind, lang) if isinstance(s, inside.AttentionStep) else "FFN"
        chain += ["LayerNorm", what, "+ x"] if r.pre_ln else [what, "Add & Norm"]
    order = t("il.order_pre" if r.pre_ln else "il.order_post", chain=" → ".join(chain))
    summary = t("il.summary", model=md(r.model), stack=t(STACK_KEYS[r.stack]), l=r.layer + 1, n=r.n_layers,
                token=md(token), i=r.token_index, d=r.d_model, h=r.n_heads, d_k=r.d_k, d_ff=r.d_ff, order=order,
                nx=float(np.linalg.norm(r.x)), nn=float(np.linalg.norm(r.next_input)))
    if any(a.qk_norm for a in atts):
        summary += t("il.qk_norm")
    tables["stream"] = pd.DataFrame(np.stack(vecs), index=pd.Index(names, name="vector"))
    lns = layer_norm_rows(r, lang)
    tables["layernorm"] = lns
    figs.update({"stream": stream, "ffn": ffn_fig})
    files = to_download(f"{r.model}-L{r.layer + 1}-{r.stack}-inside", r, tables, figs, lang)
    return InsideView(notices_md(r.notices, [summary], lang), stream, parts, ffn_fig, i18n.localized(lns, lang),
                      files, r)
