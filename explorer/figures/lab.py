"""Figures for the analysis lab (explorer/compute/lab.py): numpy arrays and tokens in, plotly Figure out.

Pure, like explorer/figures/__init__.py: no torch, no models, no gradio, and no knowledge of a
model's layer or head count. Every token, sentence or word that reaches a label or a hover
is passed through html.escape (plotly renders a subset of HTML in labels). Token axes use
integer positions with the tokens as tick text, so a repeated token ("the ... the") keeps
its own row instead of being merged by a categorical axis.
"""
from __future__ import annotations

import html
import math
import re

import numpy as np
import plotly.graph_objects as go
from plotly.colors import sample_colorscale
from plotly.subplots import make_subplots

from explorer.figures import (BASE_FONT, NARROW_MATRIX_PX, TITLE_FONT, WORD_START, colorbar, slant_room, stacked,
                               tick_font, token_heatmap, value_table, whole_dtick, x_angle)

BLUES = "Blues"
SMALL_TICK_FONT = 12  # the score-functions view's five small maps
MIN_TICK_FONT = 8  # the smallest tick label drawn (hover names every cell's token at any size)
EVERY_TICK = 20  # a small map labels every token up to this many (a classroom sentence), thinning only past it
NOTE_TOP = 36  # px from a figure's top to the "▁" note of a figure without a title: Gradio's plot label is ~28 px
LINE_EM = 1.1  # a tick label's height in font sizes: neighbouring labels need this much room between them
PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]
# lines told apart by more than colour (orange/green/red run together in protanopia and deuteranopia)
DASHES = ["solid", "dash", "dot", "dashdot", "longdash", "longdashdot"]
SYMBOLS = ["circle", "square", "diamond", "triangle-up", "x", "star"]
UNIFORM_HEADROOM = 1.2  # the entropy axis ends this far above log S: a band for the uniform line's label
# one hue per family (the comparison that matters), shades within it for its models
FAMILY_SHADES = {"RNN, no attention": ["#7f7f7f", "#b0b0b0"],
                 "RNN + attention": ["#08519c", "#3182bd", "#6baed6", "#9ecae1", "#c6dbef"],
                 "Transformer": ["#d62728", "#ff9896", "#a50f15"]}


# The words these figures draw besides tokens and numbers, in English; a caller passes a translated
# copy of any of them as `labels` (explorer.i18n.lab_labels gives the Korean one). {fields} are
# filled with str.format.
LABELS = {
    "no_model": "No model to compare.", "no_attention": "no attention", "mean_h": "mean H = {h:.2f} nats",
    "entropy_per_target": "Attention entropy per target token",
    "no_attention_panel": "no attention:<br>the decoder sees only<br>the encoder's final state",
    "uniform": "uniform: log S = {u:.2f}", "target_step": "target step", "entropy_nats": "entropy (nats)",
    "no_length": "No BLEU-by-length results yet.", "source_length": "source length (words)",
    "test_bleu": "test BLEU", "length_hover": "{model}, {bucket} words: BLEU {bleu:.2f} (n = {n})",
    "rollout_left": "Mean over heads (last layer)", "rollout_right": "Attention rollout (all layers)",
    "entropy_hover": "layer {l}, head {h}: {v:.3f} nats", "head": "head", "layer": "layer", "nats": "nats",
    "entropy_per_head": "Mean attention entropy per head", "uniform_keys": " (uniform = log {n} = {u:.2f})",
    "dimension": "dimension", "position": "position", "cos_before": "cosine: embedding × √d",
    "cos_after": "cosine: + positional encoding", "norms": "vector norms",
    "ctx_across": "'{word}' across contexts (cosine)", "ctx_static": "cosine with the static embedding",
    "qk_query": "query q of '{token}'", "qk_keys": "keys k_j", "softmax": "softmax",
    "qk_dim": "dimension of the head", "no_hyps": "No hypotheses.",
    "beam_score": "score (length-normalised log-prob)", "beam_tree": "prefix tree (colour: cumulative log-prob)",
    "step": "step", "logprob": "log-prob", "word_start": "▁ = start of a word",
    "score": "score", "token_logprob": "log p(token)", "cumulative": "cumulative",
    "norm_embedding": "‖embedding × √d‖", "norm_pe": "‖PE‖",
    # the screen readers' tables (figures.value_table): a map's caption and what its rows / columns are
    "sf_map": "{name}: attention over the source", "target_source": "target / source",
    "rollout_axes": "position / input token", "positions": "position / position", "layer_head": "layer / head",
}


def _words(labels) -> dict:
    return {**LABELS, **(labels or {})}


def _esc(s) -> str:
    return html.escape(str(s))


def _short(s, n: int = 40) -> str:
    s = str(s)
    return _esc(s if len(s) <= n else s[: n - 1] + "…")


def _field(obj, name):
    """Attribute or mapping key: figures accept lab's records or their JSON dicts."""
    return obj[name] if isinstance(obj, dict) else getattr(obj, name)


def _ticks(tokens, px: float | None = None) -> dict:
    """Every token as a tick label; with `px` (pixels between two ticks) a font that fits them."""
    ticks = {"tickmode": "array", "tickvals": list(range(len(tokens))), "ticktext": [_esc(t) for t in tokens]}
    if px is not None:
        ticks["tickfont"] = {"size": tick_font(len(tokens), px)}
    return ticks


def _map_ticks(tokens, px: float, font: int, slanted: bool = False) -> dict:
    """Tick labels for a small map's axis `px` pixels long: every token up to EVERY_TICK or as many as
    fit at MIN_TICK_FONT (a ~145 px map: 16), in a font that fits their spacing (`font` at most), and
    every k-th token past that (hover still names every cell's token). `slanted` (an x axis): -60° where
    `font` fits that way (neighbours are a spacing · sin 60° apart), else upright labels (-90°), which
    need the least room. Thinning wherever 12 px labels would overlap showed 7 of a 12-word sentence's
    13 tokens."""
    n = len(tokens)
    step = max(1, math.ceil(n / EVERY_TICK), math.ceil(n * LINE_EM * MIN_TICK_FONT / max(px, 1.0)))
    gap = step * px / max(n, 1)  # pixels between two shown labels
    angle = -60 if gap * math.sin(math.pi / 3) >= LINE_EM * font else -90
    room = gap * math.sin(math.pi / 3) if angle == -60 else gap
    keep = list(range(0, n, step))
    ticks = {"tickmode": "array", "tickvals": keep, "ticktext": [_esc(tokens[i]) for i in keep],
             "tickfont": {"size": int(np.clip(room / LINE_EM, MIN_TICK_FONT, font))}}
    return dict(ticks, tickangle=angle) if slanted else ticks


def _narrow_ticks(tokens, band: float, axes=("", "2")) -> dict:
    """A narrow (phone) layout's tick labels for token maps NARROW_MATRIX_PX wide and `band` px tall: fonts
    that fit, x labels slanted where level ones would collide (see explorer.figures.responsive)."""
    n, px = max(len(tokens), 1), NARROW_MATRIX_PX / max(len(tokens), 1)
    out = {}
    for a in axes:
        out.update({f"xaxis{a}.tickfont.size": tick_font(n, px), f"xaxis{a}.tickangle": x_angle(tokens, px),
                    f"yaxis{a}.tickfont.size": tick_font(n, band / n)})
    return out


def _title(text, tokens, w: dict) -> dict:
    """A figure title (escaped; "" for none) and, under it once, what "▁" means when a token carries it.
    Without a title the note is held NOTE_TOP px below the figure's top: at the top (plotly's place for an
    empty title's subtitle) Gradio's plot label covered it."""
    title = {"text": _esc(text) if text else "", "font": {"size": TITLE_FONT}}
    if any(WORD_START in str(t) for t in tokens):
        note = {"text": _esc(w["word_start"]), "font": {"size": BASE_FONT}}
        if text:
            title["subtitle"] = note
        else:  # the note is the title
            title.update(note, yref="container", y=1.0, yanchor="top", pad={"t": NOTE_TOP})
    return title


def _heat(z, x_tokens, y_tokens, zmin=None, zmax=None, colorscale=BLUES, showscale=True, name="", coloraxis=None, *,
          caption: str, corner: str):
    """Heatmap over integer axes, hover naming the position and token of both axes ("#2 am → #0 I").
    With `coloraxis` its colours come from that shared layout axis (zmin, zmax, colorscale unused). `caption`
    and `corner` (plain text) name its values' table for screen readers (figures.value_table)."""
    z = np.asarray(z, dtype=np.float64)
    hover = [[f"#{i} {_esc(y_tokens[i])} → #{j} {_esc(x_tokens[j])}: {z[i, j]:.4f}" for j in range(z.shape[1])]
             for i in range(z.shape[0])]
    colours = ({"coloraxis": coloraxis} if coloraxis else
               {"zmin": zmin, "zmax": zmax, "colorscale": colorscale, "showscale": showscale})
    return go.Heatmap(token_heatmap(z, x_tokens, y_tokens, caption=caption, corner=corner,
                                    hover={"hovertext": hover, "hoverinfo": "text"}, name=name, **colours))


def _empty(message: str) -> go.Figure:
    fig = go.Figure()
    fig.add_annotation(text=_esc(message), x=0.5, y=0.5, xref="paper", yref="paper", showarrow=False,
                       font={"size": BASE_FONT + 2})
    fig.update_xaxes(visible=False)
    fig.update_yaxes(visible=False)
    return fig


# ----------------------------------------------------------------------------- 1. score functions


def score_functions_figure(results, labels: dict | None = None) -> go.Figure:
    """One row of cross-attention heatmaps (one per model) above the row entropy per target step.

    `results`: records with name, score, source_tokens, target_tokens, cross (T, S) or None,
    entropy (T,) or None, mean_entropy, max_entropy (e.g. lab.ScoreFunctionResult).
    """
    w = _words(labels)
    results = list(results)
    if not results:
        return _empty(w["no_model"])
    n = len(results)
    titles = []
    for r in results:
        m = _field(r, "mean_entropy")
        note = w["no_attention"] if m is None else w["mean_h"].format(h=m)
        titles.append(f"{_esc(_field(r, 'name'))}<br>{_esc(note)}")
    fig = make_subplots(rows=2, cols=n, specs=[[{}] * n, [{"colspan": n}] + [None] * (n - 1)],
                        row_heights=[0.62, 0.38], subplot_titles=titles + [_esc(w["entropy_per_target"])],
                        vertical_spacing=0.2,  # room for the maps' slanted source tokens
                        horizontal_spacing=0.07)  # room for every panel's own rows
    height, plot_w = 780, 1000  # px; plot_w: the plot area of a ~1150 px wide page, where the panels' room is counted
    top_h = (height - 90 - 90) * (1 - 0.2) * 0.62  # a map's height: the figure less margins, spacing, entropy row
    first_scale = True
    for i, r in enumerate(results, 1):
        src, tgt, cross = _field(r, "source_tokens"), _field(r, "target_tokens"), _field(r, "cross")
        if cross is None:
            # a text trace, not an annotation: plotly.js does not place annotations on a data-less subplot
            fig.add_trace(go.Scatter(x=[0.5], y=[0.5], mode="text", hoverinfo="skip", showlegend=False,
                                     textfont={"size": SMALL_TICK_FONT},
                                     text=[w["no_attention_panel"]]),  # its <br>s are markup: not escaped
                          1, i)
            bare = {"showticklabels": False, "showgrid": False, "zeroline": False, "range": [0, 1]}
            fig.update_xaxes(**bare, row=1, col=i)
            fig.update_yaxes(**bare, row=1, col=i)
            continue
        heat = _heat(cross, src, tgt, 0.0, 1.0, showscale=first_scale, name=_esc(_field(r, "name")),
                     caption=w["sf_map"].format(name=_field(r, "name")), corner=w["target_source"])
        heat.colorbar = colorbar(len=0.5, y=1.0, yanchor="top")  # beside the maps, not the entropy plot
        fig.add_trace(heat, 1, i)
        first_scale = False
        x0, x1 = fig.layout[f"xaxis{'' if i == 1 else i}"].domain
        # a 12-word sentence's 14 tokens in a ~150 px panel: all of them, upright and smaller
        fig.update_xaxes(**_map_ticks(src, (x1 - x0) * plot_w, SMALL_TICK_FONT, slanted=True), row=1, col=i)
        # every panel its own target rows: each score function's model translates the sentence its own way
        fig.update_yaxes(**_map_ticks(tgt, top_h, SMALL_TICK_FONT), autorange="reversed", row=1, col=i)
    uniform, steps = set(), 1
    for i, r in enumerate(results):
        ent = _field(r, "entropy")
        if ent is None:
            continue
        tgt = _field(r, "target_tokens")
        fig.add_trace(go.Scatter(x=list(range(1, len(ent) + 1)), y=np.asarray(ent, dtype=np.float64),
                                 mode="lines+markers", name=_esc(_field(r, "name")),
                                 line={"color": PALETTE[i % len(PALETTE)], "dash": DASHES[i % len(DASHES)]},
                                 marker={"symbol": SYMBOLS[i % len(SYMBOLS)], "size": 8},
                                 hovertext=[_esc(t) for t in tgt], hoverinfo="text+y"), 2, 1)
        uniform.add(round(float(_field(r, "max_entropy")), 6))
        steps = max(steps, len(ent))
    for u in sorted(uniform):
        fig.add_hline(y=u, line_dash="dash", line_color="#999", row=2, col=1,
                      annotation_text=_esc(w["uniform"].format(u=u)), annotation_position="top left")
    # decoding steps are whole numbers: no tick at 1.5
    fig.update_xaxes(title_text=_esc(w["target_step"]), tickmode="linear", tick0=0, dtick=whole_dtick(steps),
                     range=[0.5, steps + 0.5], row=2, col=1)
    # room above the highest uniform line for its label: no row's entropy exceeds log S, so nothing is drawn
    # there (autorange ended at the line, and the label sat on scaled dot's near-uniform points)
    fig.update_yaxes(title_text=_esc(w["entropy_nats"]), rangemode="tozero", row=2, col=1,
                     **({"range": [0, max(uniform) * UNIFORM_HEADROOM]} if uniform else {}))
    tokens = [t for r in results for k in ("source_tokens", "target_tokens") for t in _field(r, k)]
    fig.update_layout(height=height, margin={"t": 100, "b": 90}, legend={"orientation": "h", "y": -0.12},
                      title=_title("", tokens, w), font={"size": BASE_FONT})
    # a phone: the maps one under another (five in a row were ~45 px each), then the entropy
    longest = max((len(str(t)) for r in results for t in _field(r, "source_tokens")), default=0)
    return stacked(fig, [220.0] * n + [240.0], gap=100 + 7 * longest,  # its steps: fewer ticks, not jammed
                   narrow_layout={"legend.y": -0.03, f"xaxis{n + 1}.dtick": whole_dtick(steps, 8)})


# ----------------------------------------------------------------------------- 2. BLEU by length


def bucket_start(bucket) -> int:
    """Sort key of a length bucket label such as "5-7" or "14+": its first number."""
    m = re.match(r"\d+", str(bucket))
    return int(m.group()) if m else 10**9


def length_figure(rows, message: str = "", labels: dict | None = None,
                  families: dict | None = None) -> go.Figure:
    """Grouped bars of test BLEU per source-length bucket, one bar per model, coloured by
    family (no attention / attention / Transformer), one panel per translation direction.

    `rows`: records with model, family, direction, bucket, n, bleu (a list of dicts or
    anything with .to_dict("records"), e.g. lab.LengthTable.table), the family by its English
    name (FAMILY_SHADES' keys: the colours are the same in every language); `families`: the
    name the legend shows for each (a translation), default the English one.
    """
    w = _words(labels)
    if hasattr(rows, "to_dict"):
        rows = rows.to_dict("records")
    rows = list(rows)
    if not rows:
        return _empty(message or w["no_length"])
    directions = sorted({str(r["direction"]) for r in rows})
    fig = make_subplots(rows=1, cols=len(directions), subplot_titles=[_esc(d) for d in directions],
                        shared_yaxes=True)
    family = {r["model"]: r["family"] for r in rows}
    models = list(family)
    shade = {m: [x for x in models if family[x] == family[m]].index(m) for m in models}
    shown = set()
    for col, d in enumerate(directions, 1):
        buckets = sorted({str(r["bucket"]) for r in rows if str(r["direction"]) == d}, key=bucket_start)
        for m in models:
            mine = sorted((r for r in rows if r["model"] == m and str(r["direction"]) == d),
                          key=lambda r: bucket_start(r["bucket"]))
            if not mine:
                continue
            shades = FAMILY_SHADES.get(family[m], PALETTE)
            colour = shades[shade[m] % len(shades)]
            fig.add_trace(go.Bar(  # each model in the legend once, whichever panel it is in
                x=[str(r["bucket"]) for r in mine], y=[float(r["bleu"]) for r in mine],
                name=f"{_esc(m)} ({_esc((families or {}).get(family[m], family[m]))})", marker={"color": colour},
                hovertext=[_esc(w["length_hover"].format(model=m, bucket=r["bucket"], bleu=float(r["bleu"]),
                                                         n=int(r["n"]))) for r in mine],
                hoverinfo="text", legendgroup=_esc(m), showlegend=m not in shown,
                customdata=[int(r["n"]) for r in mine]), 1, col)
            shown.add(m)
        fig.update_xaxes(categoryorder="array", categoryarray=buckets, title_text=_esc(w["source_length"]),
                         row=1, col=col)
    fig.update_yaxes(title_text=_esc(w["test_bleu"]), rangemode="tozero", row=1, col=1)
    fig.update_layout(barmode="group", height=480, title=_title(message, [], w) if message else None,
                      legend={"orientation": "h", "y": -0.25}, font={"size": BASE_FONT})
    # a phone: the directions one under another, each with its own BLEU ticks (side by side they shared one)
    return stacked(fig, [300.0] * len(directions), gap=130,
                   narrow_layout={f"yaxis{i}.showticklabels": True for i in range(2, len(directions) + 1)})


# ----------------------------------------------------------------------------- 3. rollout


def rollout_figure(tokens, attention, rollout, left_title: str | None = None, right_title: str | None = None,
                   labels: dict | None = None) -> go.Figure:
    """Raw head-averaged attention (T, T) next to the rollout (T, T): rows are positions,
    columns the input tokens whose information they hold. Both panels share one colour scale,
    0..the larger maximum, so that the one colour bar reads for both (each on its own scale, a
    layer's 0.7 and the rollout's 0.45 were the same dark blue)."""
    w = _words(labels)
    left_title, right_title = left_title or w["rollout_left"], right_title or w["rollout_right"]
    fig = make_subplots(rows=1, cols=2, subplot_titles=[_esc(left_title), _esc(right_title)],
                        horizontal_spacing=0.12)
    a, r = np.asarray(attention, dtype=np.float64), np.asarray(rollout, dtype=np.float64)
    top = max(float(a.max(initial=0.0)), float(r.max(initial=0.0))) or 1.0
    for col, (m, caption) in enumerate(((a, left_title), (r, right_title)), start=1):
        fig.add_trace(_heat(m, tokens, tokens, coloraxis="coloraxis", caption=caption, corner=w["rollout_axes"]),
                      1, col)
    n = max(len(tokens), 1)
    height = int(np.clip(240 + 22 * n, 520, 900))  # a long sentence's rows stay tall enough for their tokens
    px_x, px_y = 440 / n, (height - 240) / n  # a column (a panel is ~0.44 of a ~1000 px plot) and a row
    for col in (1, 2):
        fig.update_xaxes(**_ticks(tokens, px_x), tickangle=x_angle(tokens, px_x), row=1, col=col)
        fig.update_yaxes(**_ticks(tokens, px_y), autorange="reversed", row=1, col=col)
    fig.update_layout(height=height, font={"size": BASE_FONT}, title=_title("", tokens, w), margin={"t": 90},
                      coloraxis={"colorscale": BLUES, "cmin": 0.0, "cmax": top, "colorbar": colorbar()})
    band = float(np.clip(16 * n, 200, 420))  # a row for each token's label
    return stacked(fig, [band, band], gap=80 + slant_room(tokens), narrow_layout=_narrow_ticks(tokens, band))


def entropy_figure(entropy, n_keys: int | None = None, labels: dict | None = None) -> go.Figure:
    """Mean row entropy (nats) of every head, [L, H, T] -> a layers x heads heatmap."""
    w = _words(labels)
    e = np.asarray(entropy, dtype=np.float64)
    mean = e.mean(-1)  # (L, H)
    L, H = mean.shape
    # layers and heads are numbered from 1, as on the sliders and in the head grids
    hover = [[_esc(w["entropy_hover"].format(l=i + 1, h=j + 1, v=mean[i, j])) for j in range(H)] for i in range(L)]
    fig = go.Figure(go.Heatmap(z=mean, x=list(range(1, H + 1)), y=list(range(1, L + 1)), colorscale="Viridis", zmin=0,
                               zmax=math.log(n_keys) if n_keys else None, hovertext=hover, hoverinfo="text",
                               colorbar=colorbar(w["nats"]),
                               meta=value_table(f"{w['entropy_per_head']} ({w['nats']})",
                                                [f"{w['layer']} {i + 1}" for i in range(L)],
                                                [f"{w['head']} {j + 1}" for j in range(H)], w["layer_head"],
                                                digits=3, numbered=False)))  # as its hover
    fig.update_xaxes(title_text=_esc(w["head"]), dtick=1)
    fig.update_yaxes(title_text=_esc(w["layer"]), dtick=1, autorange="reversed")
    title = w["entropy_per_head"] + (w["uniform_keys"].format(n=n_keys, u=math.log(n_keys)) if n_keys else "")
    fig.update_layout(title=_title(title, [], w), height=380, font={"size": BASE_FONT})
    return stacked(fig)


# ----------------------------------------------------------------------------- 4. positions


def positional_figure(pe, similarity, labels: dict | None = None) -> go.Figure:
    """The sinusoidal table (position x dimension) and PE . PE^T (position x position)."""
    w = _words(labels)
    pe, sim = np.asarray(pe, dtype=np.float64), np.asarray(similarity, dtype=np.float64)
    fig = make_subplots(rows=1, cols=2, subplot_titles=["PE(pos, i)", "PE · PEᵀ"], horizontal_spacing=0.1)
    pos, dim = _esc(w["position"]), _esc(w["dimension"])
    positions = [f"{w['position']} {i}" for i in range(pe.shape[0])]  # the screen readers' tables, as the hover
    fig.add_trace(go.Heatmap(z=pe, colorscale="RdBu", zmid=0, zmin=-1, zmax=1,  # its bar in the gap between the two
                             colorbar=colorbar(x=0.455, len=0.9),
                             hovertemplate=f"{pos} %{{y}}, {dim} %{{x}}: %{{z:.3f}}<extra></extra>",
                             meta=value_table("PE(pos, i)", positions,
                                              [f"{w['dimension']} {i}" for i in range(pe.shape[1])],
                                              f"{w['position']} / {w['dimension']}", digits=3, numbered=False)), 1, 1)
    fig.add_trace(go.Heatmap(z=sim, colorscale="Viridis",
                             hovertemplate=f"{pos} %{{y}} · {pos} %{{x}}: %{{z:.2f}}<extra></extra>",
                             meta=value_table("PE · PEᵀ", positions, positions, w["positions"], digits=2,
                                              numbered=False)), 1, 2)
    fig.update_xaxes(title_text=_esc(w["dimension"]), row=1, col=1)
    fig.update_xaxes(title_text=_esc(w["position"]), row=1, col=2)
    fig.update_yaxes(title_text=_esc(w["position"]), autorange="reversed")
    fig.update_layout(height=480, font={"size": BASE_FONT})
    return stacked(fig, [260.0, 260.0], gap=110)


def positional_sentence_figure(tokens, cos_before, cos_after, embedding_norm, pe_norm,
                               labels: dict | None = None) -> go.Figure:
    """Cosine between positions before and after adding PE, and the sizes of the two parts."""
    w = _words(labels)
    fig = make_subplots(rows=1, cols=3, column_widths=[0.36, 0.36, 0.28], horizontal_spacing=0.11,
                        subplot_titles=[_esc(w[k]) for k in ("cos_before", "cos_after", "norms")])
    fig.add_trace(_heat(cos_before, tokens, tokens, -1.0, 1.0, colorscale="RdBu", showscale=False,
                        caption=w["cos_before"], corner=w["positions"]), 1, 1)
    after = _heat(cos_after, tokens, tokens, -1.0, 1.0, colorscale="RdBu", caption=w["cos_after"],
                  corner=w["positions"])
    # its colour bar beside the two maps it reads for (past the norms' bars, it seemed to be theirs)
    after.colorbar = colorbar(x=fig.layout.xaxis2.domain[1] + 0.008, len=0.9)
    fig.add_trace(after, 1, 2)
    x = list(range(len(tokens)))
    fig.add_trace(go.Bar(x=x, y=np.asarray(embedding_norm, dtype=np.float64), name=_esc(w["norm_embedding"])), 1, 3)
    fig.add_trace(go.Bar(x=x, y=np.asarray(pe_norm, dtype=np.float64), name=_esc(w["norm_pe"])), 1, 3)
    n = max(len(tokens), 1)
    height = int(np.clip(260 + 20 * n, 480, 860))
    px_x, px_y = 330 / n, (height - 260) / n  # a column (a panel is ~0.3 of a ~1100 px plot) and a row
    for col in (1, 2, 3):
        fig.update_xaxes(**_ticks(tokens, px_x), tickangle=x_angle(tokens, px_x), row=1, col=col)
    for col in (1, 2):
        fig.update_yaxes(**_ticks(tokens, px_y), autorange="reversed", row=1, col=col)
    legend_y = -min(0.3, 140 / (height - 180))  # ~140 px under the plot, below the slanted tokens
    fig.update_layout(height=height, barmode="group", legend={"orientation": "h", "y": legend_y},
                      font={"size": BASE_FONT}, title=_title("", tokens, w), margin={"t": 90})
    band = float(np.clip(16 * n, 200, 420))
    ticks = {**_narrow_ticks(tokens, band), **_narrow_ticks(tokens, 220.0, axes=("3",))}
    return stacked(fig, [band, band, 220.0], gap=80 + slant_room(tokens),
                   narrow_layout={**ticks, "legend.y": -0.06})


# ----------------------------------------------------------------------------- 5. contextual vectors


def _luminance(rgb: str) -> float:
    """WCAG relative luminance of an "rgb(r,g,b)" colour."""
    c = np.array([float(v) for v in rgb[rgb.index("(") + 1:-1].split(",")[:3]]) / 255
    c = np.where(c <= 0.03928, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return float(c @ [0.2126, 0.7152, 0.0722])


def ink(values, colorscale, zmin: float, zmax: float) -> np.ndarray:
    """Black or white for text on each value's colour in `colorscale`, whichever contrasts more (WCAG)."""
    where = np.clip((np.asarray(values, dtype=np.float64).ravel() - zmin) / (zmax - zmin), 0, 1)
    lum = np.array([_luminance(c) for c in sample_colorscale([list(p) for p in colorscale], list(where))])
    return np.where((lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05), "black", "white")


def cell_numbers(z, colorscale, zmin: float, zmax: float, size: int = BASE_FONT) -> list[go.Scatter]:
    """Each cell's number (3 decimals) in black or white, whichever contrasts more with the cell's colour: as two
    text traces (plotly's own heatmap text takes one colour, and its automatic one gave 3.4:1 on mid blues)."""
    z = np.asarray(z, dtype=np.float64)
    rows, cols = np.indices(z.shape)
    colours = ink(z, colorscale, zmin, zmax)
    out = []
    for colour in ("black", "white"):
        pick = colours == colour
        if pick.any():
            out.append(go.Scatter(x=cols.ravel()[pick], y=rows.ravel()[pick], mode="text",
                                  text=[f"{v:.3f}" for v in z.ravel()[pick]], textfont={"color": colour, "size": size},
                                  hoverinfo="skip", showlegend=False))
    return out


def contextual_figure(sentences, word: str, similarity, to_static, source: str = "",
                      labels: dict | None = None) -> go.Figure:
    """Cosine between the word's contextual vectors (N x N) and of each with the static embedding."""
    w = _words(labels)
    numbered = [f"{i + 1}: {_short(s)}" for i, s in enumerate(sentences)]  # the sentences, numbered
    sim, st = np.asarray(similarity, dtype=np.float64), np.asarray(to_static, dtype=np.float64)
    fig = make_subplots(rows=1, cols=2, column_widths=[0.6, 0.4], horizontal_spacing=0.25,
                        subplot_titles=[_esc(w["ctx_across"].format(word=word)), _esc(w["ctx_static"])])
    heat = go.Heatmap(z=sim, x=list(range(len(numbered))), y=list(range(len(numbered))), zmin=-1, zmax=1,
                      colorscale="RdBu",
                      # the sentences' numbers as the ticks give them (1, 2, ...), not the 0-based axis
                      customdata=[[[i + 1, j + 1] for j in range(len(numbered))] for i in range(len(numbered))],
                      hovertemplate="%{customdata[0]} vs %{customdata[1]}: %{z:.3f}<extra></extra>")
    fig.add_trace(heat, 1, 1)
    n = max(len(numbered), 1)
    # "0.546" is ~2.8 font sizes wide: it fits a cell of the ~500 px wide map, and of the ~300 px a phone gives it
    numbers_on = cell_numbers(sim, heat.colorscale, -1.0, 1.0, size=int(np.clip(150 / n, 8, BASE_FONT)))
    for t in numbers_on:
        fig.add_trace(t, 1, 1)
    # the bars take their colours from the heatmap's scale and range, so the one colour bar reads for both
    # (plotly's default red for +0.38 said "negative" on that bar)
    fig.add_trace(go.Bar(x=st, y=list(range(len(numbered))), orientation="h", showlegend=False,
                         marker={"color": st, "colorscale": "RdBu", "cmin": -1, "cmax": 1, "showscale": False,
                                 "line": {"width": 0.5, "color": "#333"}},
                         text=np.round(st, 3), textposition="auto", outsidetextfont={"color": "#111111"},
                         insidetextfont={"color": [str(c) for c in ink(st, heat.colorscale, -1.0, 1.0)]}), 1, 2)
    ticks = {"tickmode": "array", "tickvals": list(range(len(numbered))), "ticktext": numbered}
    fig.update_yaxes(**ticks, autorange="reversed", row=1, col=1)
    fig.update_yaxes(**ticks, autorange="reversed", showticklabels=False, row=1, col=2)
    numbers = [str(i + 1) for i in range(len(numbered))]
    fig.update_xaxes(tickmode="array", tickvals=list(range(len(numbered))), ticktext=numbers, row=1, col=1)
    fig.update_xaxes(range=[min(0.0, float(st.min()) if st.size else 0.0), 1.0], row=1, col=2)
    fig.update_layout(height=380, title=_title(source, [], w) if source else None, font={"size": BASE_FONT})
    # a phone: the bars go under the map, and both name the sentences by number, as its x axis does (the table
    # under the figure has them in full): the phone's width went to the sentences
    small = int(np.clip(90 / n, 7, BASE_FONT))
    return stacked(fig, [max(160.0, 45.0 * n), max(120.0, 30.0 * n)], gap=90,
                   narrow_layout={"yaxis.ticktext": numbers, "yaxis2.ticktext": numbers, "yaxis2.showticklabels": True},
                   narrow_data=({"textfont.size": [small] * len(numbers_on)}, list(range(1, 1 + len(numbers_on)))))


# ----------------------------------------------------------------------------- 6. query / key


def query_key_figure(tokens, query_index: int, q, k, scores, probs, labels: dict | None = None) -> go.Figure:
    """q (d_k,) and k (T, d_k) as heatmaps, the terms q . k_j / sqrt(d_k) and their softmax as bars."""
    w = _words(labels)
    q, k = np.asarray(q, dtype=np.float64), np.asarray(k, dtype=np.float64)
    s = np.asarray(scores, dtype=np.float64)
    p = np.asarray(probs, dtype=np.float64)

    lim = float(max(np.abs(q).max(initial=0), np.abs(k).max(initial=0))) or 1.0
    fig = make_subplots(rows=3, cols=2, specs=[[{"colspan": 2}, None], [{"colspan": 2}, None], [{}, {}]],
                        row_heights=[0.12, 0.48, 0.40], vertical_spacing=0.13,
                        subplot_titles=[_esc(w["qk_query"].format(token=tokens[query_index])), _esc(w["qk_keys"]),
                                        "q · k_j / √d_k", _esc(w["softmax"])])
    fig.add_trace(go.Heatmap(z=q[None], colorscale="RdBu", zmid=0, zmin=-lim, zmax=lim, showscale=False,
                             hovertemplate=f"{_esc(w['dimension'])} %{{x}}: %{{z:.3f}}<extra></extra>"), 1, 1)
    hover = [[f"{_esc(t)}, {_esc(w['dimension'])} {d}: {k[j, d]:.3f}" for d in range(k.shape[1])]
             for j, t in enumerate(tokens)]
    fig.add_trace(go.Heatmap(z=k, y=list(range(len(tokens))), colorscale="RdBu", zmid=0, zmin=-lim, zmax=lim,
                             hovertext=hover, hoverinfo="text"), 2, 1)
    x = list(range(len(tokens)))
    finite = [float(v) if np.isfinite(v) else None for v in s]  # a masked key (-inf) draws no bar
    colours = ["#d62728" if j == query_index else "#1f77b4" for j in x]
    fig.add_trace(go.Bar(x=x, y=finite, marker={"color": colours}, showlegend=False,
                         hovertext=[_esc(t) for t in tokens], hoverinfo="text+y"), 3, 1)
    fig.add_trace(go.Bar(x=x, y=p, marker={"color": colours}, showlegend=False,
                         hovertext=[_esc(t) for t in tokens], hoverinfo="text+y"), 3, 2)
    n = max(len(tokens), 1)
    fig.update_yaxes(visible=False, row=1, col=1)
    fig.update_yaxes(**_ticks(tokens, 300 / n), autorange="reversed", row=2, col=1)  # k's rows: ~300 px
    fig.update_xaxes(title_text=_esc(w["qk_dim"]), row=2, col=1)
    for col in (1, 2):
        fig.update_xaxes(**_ticks(tokens, 450 / n), tickangle=x_angle(tokens, 450 / n), automargin=True,
                         row=3, col=col)
    fig.update_yaxes(range=[0, 1], row=3, col=2)
    fig.update_layout(height=820, margin=dict(b=110, t=90),  # the slanted key tokens under the bars, "[CLS]" in full
                      font={"size": BASE_FONT}, title=_title("", tokens, w))
    ticks = {f"{a}.{k}": v for a in ("xaxis3", "xaxis4") for k, v in
             (("tickfont.size", tick_font(n, 260 / n)), ("tickangle", x_angle(tokens, 260 / n)))}
    ticks["yaxis2.tickfont.size"] = tick_font(n, 220 / n)
    return stacked(fig, [40.0, 220.0, 200.0, 200.0], gaps=[70, 80, 90 + slant_room(tokens)], narrow_layout=ticks)


# ----------------------------------------------------------------------------- beam search


def beam_tree(hypotheses) -> list[dict]:
    """The beam's hypotheses as a prefix tree: one node per distinct token prefix.

    Each node: prefix (tuple of tokens), token, depth (0 = <s>), lane (rank of the best
    hypothesis through it, so shared prefixes lie on the better one's lane), parent (index
    or None), logprob (of this token), cumulative (sum of log-probs up to here).
    A finished hypothesis (one more log-prob than tokens) ends in its own </s> leaf.
    """
    nodes = [{"prefix": (), "token": "<s>", "depth": 0, "lane": 0, "parent": None, "logprob": 0.0, "cumulative": 0.0}]
    where = {(): 0}
    for rank, h in enumerate(hypotheses):
        tokens, lps = list(_field(h, "tokens")), list(_field(h, "token_logprobs"))
        if len(lps) == len(tokens) + 1:
            tokens = tokens + ["</s>"]
        cum, parent = 0.0, 0
        for t, (tok, lp) in enumerate(zip(tokens, lps), 1):
            cum += float(lp)
            prefix = tuple(tokens[:t]) if tok != "</s>" else tuple(tokens[:t]) + (rank,)  # each </s> its own leaf
            if prefix not in where:
                where[prefix] = len(nodes)
                nodes.append({"prefix": prefix, "token": tok, "depth": t, "lane": rank, "parent": parent,
                              "logprob": float(lp), "cumulative": cum})
            parent = where[prefix]
    return nodes


def beam_figure(hypotheses, labels: dict | None = None) -> go.Figure:
    """Beam search's n-best: ranked scores (left) and the prefix tree with log-probs (right).

    `hypotheses`: records with text, tokens, logprob, score, token_logprobs (best first),
    e.g. inference.translate(..., beam=N).hypotheses or their JSON dicts.
    """
    w = _words(labels)
    hyps = list(hypotheses)
    if not hyps:
        return _empty(w["no_hyps"])
    fig = make_subplots(rows=1, cols=2, column_widths=[0.3, 0.7], horizontal_spacing=0.04,
                        subplot_titles=[_esc(w["beam_score"]), _esc(w["beam_tree"])])
    ranks = list(range(len(hyps)))
    scores = [float(_field(h, "score")) for h in hyps]
    fig.add_trace(go.Bar(x=scores, y=ranks, orientation="h", showlegend=False, cliponaxis=False,
                         text=[f"{v:.3f}" for v in scores], textposition="outside",
                         hovertext=[_short(_field(h, "text"), 80) for h in hyps],
                         customdata=[float(_field(h, "logprob")) for h in hyps],
                         hovertemplate=(f"%{{hovertext}}<br>{_esc(w['score'])} %{{x:.4f}}<br>{_esc(w['logprob'])} "
                                        "%{customdata:.4f}<extra></extra>"),
                         marker={"color": ["#d62728"] + ["#1f77b4"] * (len(hyps) - 1)}), 1, 1)
    nodes = beam_tree(hyps)
    ex, ey = [], []
    for n in nodes[1:]:
        p = nodes[n["parent"]]
        ex += [p["depth"], n["depth"], None]
        ey += [p["lane"], n["lane"], None]
    fig.add_trace(go.Scatter(x=ex, y=ey, mode="lines", line={"color": "#bbb"}, hoverinfo="skip", showlegend=False), 1, 2)
    fig.add_trace(go.Scatter(
        x=[n["depth"] for n in nodes], y=[n["lane"] for n in nodes], mode="markers+text",
        text=[_esc(n["token"]) for n in nodes], textfont={"size": SMALL_TICK_FONT},
        # above and below in turn, so that neighbouring subwords ("▁traversé", "▁la") do not run together
        textposition=["top center" if n["depth"] % 2 == 0 else "bottom center" for n in nodes],
        customdata=[[n["logprob"], n["cumulative"]] for n in nodes],
        hovertemplate=(f"%{{text}}<br>{_esc(w['token_logprob'])} %{{customdata[0]:.4f}}<br>{_esc(w['cumulative'])} "
                       "%{customdata[1]:.4f}<extra></extra>"),
        marker={"size": 11, "color": [n["cumulative"] for n in nodes], "colorscale": "Viridis", "showscale": True,
                "colorbar": colorbar(w["logprob"])}, showlegend=False), 1, 2)
    fig.update_yaxes(tickmode="array", tickvals=ranks, ticktext=[f"#{i + 1}" for i in ranks], autorange="reversed")
    fig.update_xaxes(range=[min(scores + [0.0]) * 1.3 - 0.05, 0], row=1, col=1)
    fig.update_xaxes(title_text=_esc(w["step"]), tick0=0, dtick=whole_dtick(max(n["depth"] for n in nodes)),
                     row=1, col=2)  # whole steps only
    tokens = [n["token"] for n in nodes]
    fig.update_layout(height=max(320, 90 * len(hyps) + 160), font={"size": BASE_FONT}, title=_title("", tokens, w),
                      margin={"t": 90})
    # a phone: the tree under the scores, its nodes without their tokens (22 steps in ~250 px ran them together;
    # a tap on a node still names it)
    return stacked(fig, [40.0 * len(hyps) + 40, 70.0 * len(hyps) + 60], gap=110,
                   narrow_layout={"xaxis2.dtick": whole_dtick(max(n["depth"] for n in nodes), 8)},
                   narrow_data=({"mode": ["markers"]}, [2]))
