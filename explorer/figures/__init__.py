"""Attention records -> plotly figures (pure: numpy arrays and token lists in, `go.Figure` out).

This module holds the figures and pieces every view shares (`from explorer import figures as fg`); a view's
own figures are the package's modules (`explorer.figures.lab`, `.inside`, `.live`, ...), built on these.

The views follow the usual ways of looking inside attention models: the alignment matrix of
Bahdanau et al. (2015, fig. 3), one heatmap per layer and head as in bertviz's model view
(Vig, 2019), and the masked score matrix QK^T/sqrt(d_k) of "Attention Is All You Need"
(Vaswani et al., 2017, eq. 1) next to its row softmax.

Nothing here knows a model: no torch, no gradio, no head or layer counts; every shape is read
from the arrays. Tokens are user text and plotly renders tick labels, titles and hover text as
a small subset of HTML, so every string that reaches a figure goes through `_esc`.
Axes are numeric (0..n-1) with the tokens as tick text, so repeated tokens ("the" ... "the")
keep their own rows and columns instead of being merged into one plotly category.

Figures are written as plain dicts and wrapped by `_figure` without plotly's per-property
validation: on a 2-vCPU machine validation was most of a request's figure time (a 6 x 6 head
grid took 27 ms to build, a top-k chart 16 ms). The tests rebuild every figure with validation
on and require the same JSON (tests/test_figures.py), so a misspelt or invalid property still fails.
"""
from __future__ import annotations

import functools
import html
import math
import re
import unicodedata
from typing import Sequence

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
from plotly.colors import get_colorscale

MINUS_INF = "−∞"  # U+2212: the typographic minus, as printed in the papers
PROB_SCALE = "Blues"  # attention probabilities (0..1)
# raw scores: diverging around 0, blue for high as everywhere in the app (probabilities in Blues, the lab's cosines
# and vectors in RdBu); with "RdBu_r" a row's highest score was red beside its darkest blue probability
SCORE_SCALE = "RdBu"
MASK_GRAY = "#d0d0d0"  # masked cells: a neutral gray that no colour scale here uses ...
MASK_TEXT = "#000000"  # ... with black "−∞" on it: ~13:1 (#555 on #c8c8c8, ~4:1, faded on a projector)
BASE_FONT = 14  # px: read from the back of a classroom (plotly's 12 px default was too small projected)
TITLE_FONT = 20
MAX_TICK_FONT = 14  # tick labels shrink from this only where the cells are too small for it
WORD_START = "▁"  # U+2581, SentencePiece's mark of a token that starts a word (a space before it)
SEGMENT_NAMES = "AB"  # BERT segment 0 = sentence A, 1 = sentence B
# A phone held upright gives a plot ~330 px: the desktop layout (72 px cells, panels side by side) cut
# its titles, ran level tick labels into each other and squeezed two panels into ~130 px each. A figure
# therefore also carries its narrow layout (`responsive` below), which the page applies to a plot
# narrower than NARROW_PX (ui/static/page.js) and takes back when the plot widens again.
NARROW_PX = 560
# Side-by-side panels (stacked() below) need more: at 200% zoom on a 1,280 px screen (a 576 px plot) the score
# functions' five titles ran into each other, the rollout's labels into the panel beside them, the contextual view's
# two titles into each other. Such a figure stands its panels one under another below this width.
STACKED_NARROW_PX = 760
NARROW_MATRIX_PX = 160  # what a matrix gets of a ~330 px plot, less its tick labels and colour bar (measured)
NARROW_TITLE_FONT = 15
NARROW_TITLE_PX = 290  # a longer title breaks into two lines there
LABELLED_TOP = 100  # px: Gradio makes the top margin of a titled plot under its label at least this
ROW_OUTLINE = "row outline"  # the name of the shape heatmap(highlight_row=) draws
# Outlines (a query row, the selected head) are black: the red they were had a luminance contrast of 1.02:1 with the
# mid blues of the maps, seen by hue alone (and not in deuteranopia, nor on a washed-out projector).
OUTLINE = "#111111"
# Bars with their number printed inside: white on plotly's first colour (#636efa) was 4.1:1, on this indigo 7.9:1.
BAR_COLOUR = "#4338ca"
# A heatmap of square cells (heatmap() below: meta.colorbarBeside) gives up width at its right, and plotly
# keeps the colour bar at the plot's right edge, ~700 px from a short sentence's map on a wide screen. This
# JavaScript function of a drawn plot moves the bar 16 px right of the map; the page runs it after every draw
# (ui/static/page.js), and so does the offline HTML download (views.figures_html), where the bar stood at the edge.
COLORBAR_BESIDE_JS = """gd => {
    const fl = gd._fullLayout, meta = gd.layout && gd.layout.meta, P = window.Plotly;
    if (!P || !fl || !fl.xaxis || !fl._size || !meta || !meta.colorbarBeside) return;
    const t = (gd.data || []).findIndex(d => d.type === 'heatmap' && d.showscale !== false);
    if (t < 0) return;
    const x = fl.xaxis.domain[1] + 16 / fl._size.w, now = ((gd.data[t].colorbar) || {}).x;
    if (typeof now === 'number' && Math.abs(now - x) < 0.002) return;
    P.restyle(gd, {'colorbar.x': x, 'colorbar.xanchor': 'left'}, [t]);
  }"""

# The script that writes a heatmap's values into a table only screen readers see, after its plot, run after each
# draw by the page (ui/static/page.js) and by the offline figures page of the downloads (views.figures_html). The
# trace's meta.table (value_table) names caption, corner, rows and columns; the numbers are the trace's own z,
# which plotly.js has decoded. Built again only for new data (Gradio 6.31 draws a new figure into a new element
# and drops the old one's box, tables included). Text is set as text, never as markup.
VALUE_TABLES_JS = """gd => {
    if (gd._aeValuesOf === gd.data) return;
    gd._aeValuesOf = gd.data;
    (gd._aeValues || []).forEach(t => t.remove());
    gd._aeValues = [];
    const cell = (tag, text, scope) => {
        const c = document.createElement(tag);
        c.textContent = text;
        if (scope) c.scope = scope;
        return c;
    };
    let after = gd;
    (gd.data || []).forEach((trace, i) => {
        const spec = trace.meta && trace.meta.table;
        const full = spec && (gd._fullData || []).find(f => f.index === i), z = full && full.z;
        if (!z) return;
        const number = v => {  // as the hover writes it: −0.5 with a minus sign, never -0.0000
            if (v === null || v === undefined || Number.isNaN(v)) return spec.empty;
            if (!Number.isFinite(v)) return v > 0 ? '∞' : '−∞';
            const text = v.toFixed(spec.digits);
            return Number(text) === 0 ? text.replace('-', '') : text.replace('-', '−');
        };
        const table = document.createElement('table'), box = document.createElement('div');
        box.className = 'ae-values';  // the box hides it: a table is never narrower than its cells
        box.append(table);
        table.createCaption().textContent = spec.caption;
        table.createTHead().insertRow().append(cell('th', spec.corner, 'col'),
                                               ...spec.cols.map(c => cell('th', c, 'col')));
        const body = table.createTBody();
        spec.rows.forEach((r, y) => {
            const row = body.insertRow();
            row.append(cell('th', r, 'row'), ...spec.cols.map((_, x) => cell('td', number(z[y] ? z[y][x] : null))));
        });
        after.insertAdjacentElement('afterend', box);
        after = box;
        gd._aeValues.push(box);
    });
}"""
# hides the tables from sight, not from screen readers (the box: a table is never narrower than its cells)
VALUE_TABLES_CSS = ("div.ae-values { position: absolute !important; width: 1px; height: 1px; margin: -1px; padding: 0;"
                    " border: 0; overflow: hidden; clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap; }")


# Every figure (here, in explorer.figures.lab and .live) starts from plotly's template plus this one: a drag
# does not zoom. On a phone nearly the whole page is plots, and a swipe over one zoomed it (rows and columns
# gone, "double-click to zoom back out") instead of scrolling the page; the toolbar's zoom still zooms. The
# price: on a touch screen a tap shows a cell's hover text only once a drag mode (the magnifier) is picked.
# Tick labels past the plot's edge are clipped ("allow"), not hidden: plotly.js's default on a non-category axis,
# "hide past div", measures every label once per label drawn (axes.js: positionLabels calls
# _adjustTickLabelsOverflow inside its loop over the labels), n^2 layout reads and style writes. A 256-token map's
# two axes took ~1 s a draw, and a result draws a few times (automargin, the page's fit and colour bar): the
# browser froze after the answer came, 4.1 s on a desktop and 11.5 on a phone; 1.3 and 1.3 s now, loading plotly.js
# included (python3 -m bench.browser_draw).
# A template's xaxis/yaxis apply to every x and y axis of a figure (xaxis2, yaxis3, ...).
# The toolbar keeps zoom, zoom in/out, reset and the PNG download: select, lasso, pan and autoscale mean nothing on a
# heatmap and cost a keyboard user ~4 Tab presses per plot (BERT's tab had 36 toolbar stops between its inputs and
# its downloads).
# The camera button of every plot saves SVG, a vector picture fit for a paper or a slide (bertviz's most-asked-for
# feature), not plotly's default PNG. Gradio 6.31 sends a figure's JSON without a plotly config, so the page sets
# it: plotly.js's default config once (every later plot), and this plot's own context (plotly.js reads it at each
# click). Called by ui/static/page.js on every plot; tests/e2e/test_svg_export.py clicks the button.
SVG_EXPORT_JS = """gd => {
    const P = window.Plotly, svg = {format: 'svg'};
    if (P && !P._aeSvg) { P._aeSvg = true; P.setPlotConfig({toImageButtonOptions: svg}); }
    const c = gd._context;
    if (c && (c.toImageButtonOptions || {}).format !== 'svg') {
      c.toImageButtonOptions = Object.assign({}, c.toImageButtonOptions, svg);
    }
    const b = gd.querySelector('.modebar-btn[data-title^="Download plot"]');
    if (b) b.setAttribute('data-title', 'Download plot as SVG');
  }"""
_AXIS = dict(ticklabeloverflow="allow")
MODEBAR_REMOVED = ("select2d", "lasso2d", "pan2d", "autoScale2d")
pio.templates["attention_explorer"] = go.layout.Template(layout=dict(
    dragmode=False, xaxis=_AXIS, yaxis=_AXIS, modebar=dict(remove=list(MODEBAR_REMOVED))))
pio.templates.default = "plotly+attention_explorer"


# ----------------------------------------------------------------------------- helpers

VALIDATE = False  # tests set True to build every figure through plotly's validators


def _figure(data: list[dict], layout: dict) -> go.Figure:
    """The figure of the plotly.js {"data", "layout"} dicts that the figure functions build."""
    layout = {k: v for k, v in layout.items() if not (isinstance(v, list) and not v)}  # as validation drops them
    return go.Figure(dict(data=data, layout=layout), _validate=VALIDATE)


def _scale(colorscale):
    """A named colorscale as the explicit list plotly's validator would make of it ("RdBu_r" is
    a Python-side name that plotly.js does not know)."""
    return _named_scale(colorscale) if isinstance(colorscale, str) else colorscale


@functools.lru_cache(maxsize=None)
def _named_scale(name: str) -> list:
    return get_colorscale(name)  # 0.3 ms a lookup: as much as building a small figure (go.Figure copies it)


def _subplot_title(text: str, x: float, y: float) -> dict:
    """A panel's title above it, as make_subplots(subplot_titles=...) places them (`text` escaped)."""
    return dict(text=text, x=x, y=y, xref="paper", yref="paper", xanchor="center", yanchor="bottom",
                showarrow=False, font=dict(size=16))


def _esc(s) -> str:
    """Text shown as text by plotly: it decodes &lt; &gt; &amp; and renders a few tags, so
    `<img src=x onerror=...>` must arrive as entities. Quotes stay: plotly has no &quot;."""
    return html.escape(str(s), quote=False)


def segment_labels(tokens: Sequence[str], segments: Sequence[int] | None) -> list[str]:
    """'the' in segment 0 -> 'A·the', in segment 1 -> 'B·the' (unescaped; `_esc` comes later)."""
    if segments is None:
        return [str(t) for t in tokens]
    if len(segments) != len(tokens):
        raise ValueError(f"{len(segments)} segment ids for {len(tokens)} tokens")
    return [f"{SEGMENT_NAMES[s] if 0 <= s < len(SEGMENT_NAMES) else s}·{t}" for t, s in zip(tokens, segments)]


def _segment_breaks(segments: Sequence[int] | None) -> list[float]:
    """Axis positions between two tokens of different segments (where a divider is drawn)."""
    if segments is None:
        return []
    return [i - 0.5 for i in range(1, len(segments)) if segments[i] != segments[i - 1]]


def tick_font(n: int, px: float | None = None) -> int:
    """Tick font for n labels `px` pixels apart (default: a heatmap's cell, _cell_px(n)): MAX_TICK_FONT
    while it fits, smaller where the cells are (still every label at 40+ tokens)."""
    px = _cell_px(n) if px is None else px
    return int(np.clip(0.75 * px, 8, MAX_TICK_FONT))


MAP_PX = 1040  # the widest square map a full-width plot of a 1,280 px window holds (measured ~1,060)
MIN_LABEL_PX = 10  # a tick label's line at the smallest tick font (8 px), level or slanted by 60°, and a gap


def _cell_px(n: int) -> float:
    """Pixels per matrix cell: a short sentence's map is drawn large enough to read on a classroom projector
    (7 tokens: 72 px; at most 40 px made it ~230 px wide in a 1200 px panel), a long one still fits."""
    return float(np.clip(640 / max(n, 1), 13, 72))


def slant_room(labels) -> int:
    """px a figure reserves for `labels` as slanted tick labels (8 px a character)."""
    return 8 * max((len(str(t)) for t in labels), default=0)


def _check_matrix(matrix, x_tokens, y_tokens) -> np.ndarray:
    m = np.asarray(matrix, dtype=np.float32)  # the records' dtype; half the bytes of float64 in the page
    if m.ndim != 2 or m.shape != (len(y_tokens), len(x_tokens)):
        raise ValueError(f"matrix of shape {m.shape} does not match {len(y_tokens)} x {len(x_tokens)} tokens")
    return m


def _token_axis(labels: list[str], title: str, angle: int = 0, px: float | None = None) -> dict:
    n = len(labels)
    # cells narrower than a label's line: every k-th token labelled (they had run into one grey band); every token
    # is in the hover
    every = math.ceil(MIN_LABEL_PX / px) if px and px < MIN_LABEL_PX else 1
    return dict(title=dict(text=_esc(title)), tickmode="array", tickvals=list(range(0, n, every)),
                ticktext=[_esc(t) for t in labels[::every]], tickfont=dict(size=tick_font(n, px)),
                tickangle=angle, automargin=True, showgrid=False, zeroline=False, constraintoward="left",
                range=[-0.5, n - 0.5])


def x_angle(labels: list[str], px: float | None = None) -> int:
    """Level tick labels where the longest fits in its `px`-wide column (a short sentence's), else slanted
    by 60° (slanted, "▁I" reads as "/", so only where level ones would run together)."""
    px = _cell_px(len(labels)) if px is None else px
    longest = max((text_em(t) for t in labels), default=0)
    return 0 if longest * tick_font(len(labels), px) + 6 <= px else -60


def text_em(s: str) -> float:
    """Rough width of `s` in font sizes: ~0.5 a Latin letter, 1 a wide (Hangul, CJK) one."""
    return sum(1.0 if unicodedata.east_asian_width(c) in "WF" else 0.5 for c in str(s))


def _position_labels(labels: list[str], escape: bool = True) -> list[str]:
    """Hover names of tokens, position first ("#3 the", as the head grid's category axes show them), so
    that repeated tokens stay apart. Escaped for plotly, or plain text (`escape=False`: value_table)."""
    return [f"#{i} {_esc(t) if escape else t}" for i, t in enumerate(labels)]


def _hover_tokens(y_labels: list[str], x_labels: list[str]) -> np.ndarray:
    """(q, k, 2) customdata: "#i token" of every cell's query and key (escaped). Hover templates must
    not use %{x}/%{y} for the position: on an axis with tick text plotly shows the tick's token there."""
    cd = np.empty((len(y_labels), len(x_labels), 2), dtype=object)
    cd[:, :, 0] = np.array(_position_labels(y_labels), dtype=object)[:, None]
    cd[:, :, 1] = np.array(_position_labels(x_labels), dtype=object)[None, :]
    return cd


# every translation's maps (at most 65 source tokens with </s>, and the models' 66 target positions) and BERT's up
# to 80 tokens; a 256-token BERT map (65,536 cells) gets none
TABLE_MAX_CELLS = 80 * 80


def value_table(caption: str, rows: Sequence[str], cols: Sequence[str], corner: str = "", digits: int = 4,
                empty: str = "", numbered: bool = True) -> dict:
    """A heatmap trace's `meta`: VALUE_TABLES_JS turns it into a table of the map's values that only screen readers
    see (a plot is a picture to them), rows and columns named as the hover names them ("#2 ▁suis"),
    each cell the trace's own z to `digits` decimals, `empty` where z is NaN. Plain text: the page sets it as text,
    never as markup. `corner` names the rows and columns ("query / key"). `numbered`: tokens get their position
    ("#0"), as in the hover; other names (layers) stand as given. {} (no table) past TABLE_MAX_CELLS: those maps'
    values are in the downloads."""
    if len(rows) * len(cols) > TABLE_MAX_CELLS:
        return {}
    rows, cols = [_position_labels(n, escape=False) if numbered else [str(x) for x in n] for n in (rows, cols)]
    return {"table": {"caption": str(caption), "corner": str(corner), "digits": int(digits), "empty": str(empty),
                      "rows": rows, "cols": cols}}


def _title(text: str, tokens, words: dict) -> dict:
    """A figure's title (escaped); under it, once, what "▁" means when a token carries it."""
    title = dict(text=_esc(text), font=dict(size=TITLE_FONT))
    if any(WORD_START in str(t) for t in tokens):
        title["subtitle"] = dict(text=_esc(words["word_start"]), font=dict(size=BASE_FONT))
    return title


def colorbar(title: str = "", **kw) -> dict:
    """A thin colour bar; its title (escaped) runs along its right side: on top it sat on the "1" tick."""
    bar = dict(thickness=14, **kw)
    if title:
        bar["title"] = dict(text=_esc(title), side="right")
    return bar


def _outline(width: float, **rect) -> list[dict]:
    """A rectangle outlined black over a white halo: it stands out on every colour of every scale."""
    return [dict(rect, type="rect", line=dict(color="white", width=width + 3)),
            dict(rect, type="rect", line=dict(color=OUTLINE, width=width))]


def _dividers(breaks_x, breaks_y, n_x, n_y, xref="x", yref="y") -> list[dict]:
    line = dict(color="#444", width=1.5, dash="dot")
    return ([dict(type="line", xref=xref, yref=yref, x0=b, x1=b, y0=-0.5, y1=n_y - 0.5, line=line) for b in breaks_x]
            + [dict(type="line", xref=xref, yref=yref, x0=-0.5, x1=n_x - 0.5, y0=b, y1=b, line=line) for b in breaks_y])


# The words a figure draws besides its title and tokens, in English; a caller passes a translated
# copy of any of them as `labels` (explorer.i18n.figure_labels gives the Korean one).
LABELS = {"key": "key", "query": "query", "score": "score", "weight": "weight", "masked": "masked",
          "scores_panel": "scores QKᵀ/√d_k (before softmax)", "softmax_panel": "softmax (attention weights)",
          "source": "source", "source_token": "source token", "attention_weight": "attention weight",
          "probability": "probability", "no_mask": "No [MASK] to predict.",
          "word_start": "▁ = start of a word", "layer": "layer", "head": "head", "value": "cell value",
          "no_heads": "No attention heads.",
          "grid_too_large": "Every head at a glance is drawn for inputs of up to {limit} tokens; this one has "
                            "{tokens} ({maps} maps of {tokens} × {tokens} would stall the browser)."}
MAX_GRID_CELLS = 300_000  # head_grid draws at most this many cells: 12 layers x 6 heads of 64 x 64 tokens


def _labels(labels) -> dict:
    return {**LABELS, **(labels or {})}


def placeholder(text: str, title: str = "", height: int = 220) -> go.Figure:
    """An empty figure that says why there is nothing to draw (e.g. a model without attention)."""
    return _figure([], dict(
        annotations=[dict(text=_esc(text), x=0.5, y=0.5, xref="paper", yref="paper", showarrow=False,
                          font=dict(size=BASE_FONT + 2))],
        title=dict(text=_esc(title), font=dict(size=TITLE_FONT)), height=height, font=dict(size=BASE_FONT),
        xaxis=dict(visible=False), yaxis=dict(visible=False),
        margin=dict(l=20, r=20, t=50 if title else 20, b=20)))


def _get(obj, path: str):
    """The value at a plotly attribute path ("xaxis.tickfont.size", "annotations[1].y") of the plain
    dicts a figure is built from; None where it is not set (plotly's default, which null restores)."""
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", path):
        if part.startswith("["):
            i = int(part[1:-1])
            obj = obj[i] if isinstance(obj, list) and i < len(obj) else None
        else:
            obj = obj.get(part) if isinstance(obj, dict) else None
        if obj is None:
            return None
    return obj.tolist() if isinstance(obj, np.ndarray) else obj


def wrap_title(text: str, px: float = NARROW_TITLE_PX, font: int = NARROW_TITLE_FONT) -> list[str]:
    """An escaped title in lines of at most `px` at `font` (by text_em), broken at spaces, after the first
    ": " where the part before it fits ("Layer 3:" / "entropy of each head's ..."). A title with markup of
    its own (a <br> already) is left as it is."""
    if "<" in text or text_em(html.unescape(text)) * font <= px:
        return [text]
    fits = lambda line: text_em(html.unescape(line)) * font <= px
    head, sep, rest = text.partition(": ")
    lines, words = ([head + ":"], rest.split(" ")) if sep and fits(head + ":") else ([], text.split(" "))
    line = ""
    for word in words:
        if line and not fits(f"{line} {word}"):
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return lines + [line] if line else lines


def responsive(data: list[dict], layout: dict, narrow_layout: dict, narrow_data: dict | None = None,
               traces: list[int] | None = None, below: int | None = None) -> dict:
    """`layout` with its narrow variant in layout.meta: {"narrow": ..., "wide": ...}, each the arguments of
    one Plotly.update(gd, data, layout, traces) (attribute paths as keys, per-trace lists for `data`). "wide"
    holds the values the figure has now, so a plot that narrows and widens again is the figure as built.
    Titles get NARROW_TITLE_FONT there without being asked. `below`: the plot width in px under which the page
    applies the narrow layout, where it is not NARROW_PX (STACKED_NARROW_PX for panels that stack)."""
    title, auto = layout.get("title") or {}, {}
    if title and (_get(title, "font.size") or TITLE_FONT) > NARROW_TITLE_FONT:
        auto["title.font.size"] = NARROW_TITLE_FONT
        if "subtitle" in title:
            auto["title.subtitle.font.size"] = NARROW_TITLE_FONT - 3
        text = title.get("text") or ""
        lines = wrap_title(text)
        if len(lines) > 1:
            auto["title.text"] = "<br>".join(lines)
            auto["margin.t"] = (_get(layout, "margin.t") or 80) + (NARROW_TITLE_FONT + 5) * (len(lines) - 1)
    narrow_layout = {**auto, **narrow_layout}
    height = narrow_layout.get("height", layout.get("height"))
    if "margin.t" in auto and height:  # the title's next lines take room from the margin, not from the plot
        narrow_layout["height"] = height + (NARROW_TITLE_FONT + 5) * (len(lines) - 1)
    narrow_data, traces = narrow_data or {}, traces or []
    if any(len(v) != len(traces) for v in narrow_data.values()):
        raise ValueError("narrow_data needs one value per index in `traces`")
    wide = {"layout": {k: _get(layout, k) for k in narrow_layout},
            "data": {k: [_get(data[i], k) for i in traces] for k in narrow_data}, "traces": traces}
    narrow = {"layout": narrow_layout, "data": narrow_data, "traces": traces}
    return dict(layout, meta={"narrow": narrow, "wide": wide, **({"below": below} if below else {})})


def stacked(fig: go.Figure, bands: list[float] | None = None, gap: float = 110, narrow_layout: dict | None = None,
            gaps: list[float] | None = None, narrow_data: tuple[dict, list[int]] | None = None) -> go.Figure:
    """`fig` (side-by-side subplots, as make_subplots lays them out) with a narrow layout in which every subplot
    stands under the one before it (reading order), as wide as the plot: `bands` its height in px (default:
    its height now, at most 260), `gap` (or one per pair, `gaps`) px between two for the upper one's tick labels
    and the lower one's title. Subplot titles, colour bars and the height follow; `narrow_layout` adds to it
    (e.g. tick fonts for the new widths), `narrow_data` = (restyle, trace indices) too. A figure of one subplot
    only gets the narrow title (and what the caller adds)."""
    d = fig.to_dict()
    data, layout = d["data"], d["layout"]
    panels = []  # (x suffix, y suffix, x domain, y domain)
    for xs, xa in ((k[5:], v) for k, v in layout.items() if re.fullmatch(r"xaxis\d*", k)):
        ys = (xa.get("anchor") or "y")[1:]
        ya = layout.get(f"yaxis{ys}", {})
        panels.append((xs, ys, xa.get("domain", [0.0, 1.0]), ya.get("domain", [0.0, 1.0])))
    panels.sort(key=lambda p: (-round(p[3][1], 6), p[2][0]))
    extra = dict(narrow_layout or {})
    traces, tdata = [], {}
    if len(panels) > 1:
        height, margin = layout.get("height") or 450, layout.get("margin") or {}
        inner = height - (margin.get("t", 100)) - (margin.get("b", 80))
        bands = bands or [min(260.0, max(100.0, (p[3][1] - p[3][0]) * inner)) for p in panels]
        gaps = gaps or [gap] * (len(panels) - 1)
        total = sum(bands) + sum(gaps)
        top, where = 1.0, {}
        for i, ((xs, ys, xd, yd), band) in enumerate(zip(panels, bands)):
            y1 = top
            y0 = max(0.0, y1 - band / total)
            where[(xs, ys)] = (y0, y1)
            extra.update({f"xaxis{xs}.domain": [0.0, 1.0], f"yaxis{ys}.domain": [y0, y1],
                          f"xaxis{xs}.automargin": True, f"yaxis{ys}.automargin": True})
            for j, a in enumerate(layout.get("annotations") or []):  # its subplot title (make_subplots places it)
                if (a.get("xref"), a.get("yref")) == ("paper", "paper") and a.get("yanchor") == "bottom" \
                        and abs(a.get("x", -1) - (xd[0] + xd[1]) / 2) < 1e-6 and abs(a.get("y", -1) - yd[1]) < 1e-6:
                    extra.update({f"annotations[{j}].x": 0.5, f"annotations[{j}].y": y1,
                                  f"annotations[{j}].font.size": min(13, _get(a, "font.size") or 16)})
            top = y0 - (gaps[i] / total if i < len(gaps) else 0)
        extra["height"] = int(total + margin.get("t", 100) + margin.get("b", 80))
        # plotly's 80 px side margins were half of a phone's plot: the labels and colour bars take their own room
        extra.update({"margin.l": 10, "margin.r": 10})
        # colour bars beside their own panel (a shared colour axis: beside the panels that use it)
        spans = {}  # colour axis -> (lowest, highest) y of the panels using it
        for i, tr in enumerate(data):
            y0, y1 = where.get(((tr.get("xaxis") or "x")[1:], (tr.get("yaxis") or "y")[1:]), (0.0, 1.0))
            if tr.get("coloraxis"):
                lo, hi = spans.get(tr["coloraxis"], (1.0, 0.0))
                spans[tr["coloraxis"]] = (min(lo, y0), max(hi, y1))
            else:  # a heatmap's own colour bar, or a marker's (None: the trace has none, nothing changes)
                own = tr.get("type") == "heatmap" and tr.get("showscale") is not False
                marker = bool(_get(tr, "marker.showscale"))
                if own or marker:
                    traces.append(i)
                    for key, value in (("x", 1.02), ("y", (y0 + y1) / 2), ("len", y1 - y0), ("yanchor", "middle")):
                        tdata.setdefault(f"colorbar.{key}", []).append(value if own else None)
                        tdata.setdefault(f"marker.colorbar.{key}", []).append(value if marker else None)
        for ca, (lo, hi) in spans.items():
            extra.update({f"{ca}.colorbar.y": (lo + hi) / 2, f"{ca}.colorbar.len": hi - lo,
                          f"{ca}.colorbar.yanchor": "middle"})
    per_trace = {i: {k: v[n] for k, v in tdata.items()} for n, i in enumerate(traces)}
    for key, values in (narrow_data[0].items() if narrow_data else ()):
        for i, v in zip(narrow_data[1], values):
            per_trace.setdefault(i, {})[key] = v
    traces = sorted(per_trace)
    keys = sorted({k for d in per_trace.values() for k in d})
    tdata = {k: [per_trace[i].get(k) for i in traces] for k in keys}  # None: that trace keeps its own
    layout = responsive(data, layout, extra, tdata, traces, STACKED_NARROW_PX if len(panels) > 1 else None)
    return fig.update_layout(meta=layout["meta"])


def _narrow_axis_titles(*suffixes: str) -> dict:
    """12 px axis titles on the axes `suffixes` ("" for xaxis/yaxis, "2" for xaxis2/yaxis2): at 14 px titles such
    as "query: the decoder input it reads" ran past a narrow plot's edge."""
    return {f"{a}axis{n}.title.font.size": 12 for n in suffixes for a in "xy"}


def _narrow_cell(n: int, cell: float) -> float:
    """A matrix cell in a narrow plot: the desktop cell, or less where n of them would not fit."""
    return min(cell, NARROW_MATRIX_PX / max(n, 1))


# ----------------------------------------------------------------------------- heatmaps


def whole_dtick(n: float, most: int = 20) -> int:
    """Tick spacing of a 0..n or 1..n step axis: whole steps only (1, 2, 5, 10, ...), at most ~`most` ticks."""
    for d in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000):
        if n / d <= most:
            return d
    return 10 ** math.ceil(math.log10(max(n, 1) / most))


def token_heatmap(z, x_tokens: Sequence[str], y_tokens: Sequence[str], *, caption: str, corner: str, hover: dict,
                  digits: int = 4, **style) -> dict:
    """The one heatmap trace the figure modules draw a token map with (heatmap here, figures.lab's maps,
    figures.live's alignments): z over integer positions, so that a repeated token ("la ... la") keeps its own
    row and column (the axes' tick labels carry the tokens); `hover` (hovertext, or customdata with a
    hovertemplate) names both tokens of a cell; the trace's `meta` is its values' table for screen readers
    (value_table, `caption` and `corner`). `style`: colours, colour bar, gaps, name. A plain dict: plotly checks
    it once, where the figure is built (a go.Heatmap here checked a 256-token map twice, +58 ms)."""
    nq, nk = np.shape(z)[:2]
    return dict(type="heatmap", z=z, x=list(range(nk)), y=list(range(nq)),
                meta=value_table(caption, y_tokens, x_tokens, corner, digits=digits), **hover, **style)


def heatmap(matrix, x_tokens: Sequence[str], y_tokens: Sequence[str], title: str,
            zmin: float = 0.0, zmax: float = 1.0, x_title: str = "key", y_title: str = "query",
            segments: Sequence[int] | None = None, highlight_row: int | None = None,
            colorscale: str = PROB_SCALE, labels: dict | None = None) -> go.Figure:
    """One attention matrix (rows = queries, columns = keys) with the tokens on both axes.

    `segments` (self-attention only: one id per token on both axes) prefixes ticks with A·/B·
    and draws a divider between the segments; `highlight_row` outlines one query row.
    `labels`: translated LABELS (only "word_start" is drawn here; the axis titles are arguments).
    """
    w0 = _labels(labels)
    m = _check_matrix(matrix, x_tokens, y_tokens)
    if segments is not None and not (len(segments) == len(x_tokens) == len(y_tokens)):
        raise ValueError("segments need a square matrix with one id per token")
    xs, ys = segment_labels(x_tokens, segments), segment_labels(y_tokens, segments)
    nq, nk = m.shape
    hover = dict(customdata=_hover_tokens(ys, xs),
                 hovertemplate=(f"{_esc(y_title)} %{{customdata[0]}}<br>{_esc(x_title)} %{{customdata[1]}}"
                                f"<br>{_esc(w0['value'])}: %{{z:.4f}}<extra></extra>"))
    trace = token_heatmap(m, xs, ys, caption=title, corner=f"{y_title} / {x_title}", hover=hover, zmin=zmin,
                          zmax=zmax, colorscale=_scale(colorscale), xgap=1 if max(nq, nk) <= 40 else 0,
                          ygap=1 if max(nq, nk) <= 40 else 0, colorbar=colorbar())
    shapes = _dividers(_segment_breaks(segments), _segment_breaks(segments), nk, nq)
    if highlight_row is not None and 0 <= highlight_row < nq:
        shapes += _outline(2.5, xref="x", yref="y", x0=-0.5, x1=nk - 0.5, y0=highlight_row - 0.5,
                           y1=highlight_row + 0.5, name=ROW_OUTLINE)
    # no taller than the widest square map: past ~80 tokens the width sets the cells, and a height made for 13 px
    # cells left a 256-token map 1,060 px square in a 3,560 px plot
    cell = min(_cell_px(max(nq, nk)), MAP_PX / max(nq, nk, 1))
    title = _title(title, xs + ys, w0)
    angle = x_angle(xs, cell)

    def height(cell, angle, frame=170):  # frame: title, axis titles, margins (less in a narrow plot: no room to spare)
        return int(frame + cell * nq + (slant_room(xs) if angle else 0) + 20 * ("subtitle" in title))

    layout = dict(
        title=title, shapes=shapes, font=dict(size=BASE_FONT), height=height(cell, angle),
        # square cells, the map at the left: the x axis gives up width (constrain "domain") instead of running on
        # empty past the last token with its title centred over nothing; the page puts the colour bar beside the map
        # (meta.colorbarBeside, ui/static/page.js). The y axis runs top to bottom like the matrix it shows.
        xaxis=dict(_token_axis(xs, x_title, angle, cell), constrain="domain"),
        yaxis=dict(_token_axis(ys, y_title, px=cell), range=[nq - 0.5, -0.5],
                   scaleanchor="x", scaleratio=1, constrain="domain"),
        margin=dict(l=10, r=10, t=90 if "subtitle" in title else 70, b=10), plot_bgcolor="white")
    narrow = _narrow_cell(max(nq, nk), cell)
    slant = x_angle(xs, narrow)
    layout = responsive([trace], layout, {
        "height": height(narrow, slant, 130), "xaxis.tickangle": slant, **_narrow_axis_titles(""),
        "xaxis.tickfont.size": tick_font(nk, narrow), "yaxis.tickfont.size": tick_font(nq, narrow)})
    layout["meta"]["colorbarBeside"] = True
    return _figure([trace], layout)


def without_row_outline(fig: go.Figure) -> go.Figure:
    """A copy of a heatmap figure without the outline of its `highlight_row` (~1 ms; drawing the heatmap again
    without it: ~8)."""
    d = fig.to_dict()
    layout = d["layout"]
    layout["shapes"] = [s for s in layout.get("shapes", []) if s.get("name") != ROW_OUTLINE]
    return _figure(d["data"], layout)


def masked_scores(scores, probs, x_tokens: Sequence[str], y_tokens: Sequence[str],
                  title: str = "Masked self-attention", labels: dict | None = None) -> go.Figure:
    """Left: raw scores QK^T/sqrt(d_k), masked cells (-inf) drawn as a separate gray layer
    marked −∞; right: their row softmax, where those cells are exactly 0."""
    w0 = _labels(labels)  # _token_axis and _subplot_title escape; hover templates take escaped copies
    w = {k: _esc(v) for k, v in w0.items()}
    s = _check_matrix(scores, x_tokens, y_tokens)
    p = _check_matrix(probs, x_tokens, y_tokens)
    masked = np.isneginf(s)
    nq, nk = s.shape
    # a panel is ~0.42 of a ~1100 px plot: a long sentence's cells are narrower than _cell_px says
    cell = min(_cell_px(max(nq, nk)) * 0.8, 440 / max(nq, nk, 1))
    finite = np.where(np.isfinite(s), s, np.nan)  # plotly leaves NaN cells empty; the gray layer fills them
    bound = float(np.nanmax(np.abs(finite))) if np.isfinite(finite).any() else 1.0
    xs, ys = [str(t) for t in x_tokens], [str(t) for t in y_tokens]
    cd = _hover_tokens(ys, xs)
    hover_qk = f"{w['query']} %{{customdata[0]}}<br>{w['key']} %{{customdata[1]}}<br>"
    x, y = list(range(nk)), list(range(nq))
    traces = [
        dict(type="heatmap", z=finite, x=x, y=y, zmin=-bound, zmax=bound, zmid=0, colorscale=_scale(SCORE_SCALE),
             customdata=cd, hovertemplate=hover_qk + f"{w['score']}: %{{z:.4f}}<extra></extra>", name="scores",
             meta=value_table(f"{title}: {w0['scores_panel']}", ys, xs, f"{w0['query']} / {w0['key']}",
                              empty=MINUS_INF),
             colorbar=colorbar(w0["score"], x=0.38), xaxis="x", yaxis="y"),
        dict(type="heatmap", z=np.where(masked, 0.0, np.nan), x=x, y=y, zmin=0, zmax=1,
             colorscale=[[0, MASK_GRAY], [1, MASK_GRAY]], showscale=False, customdata=cd, name="masked",
             text=np.where(masked, MINUS_INF, ""), texttemplate="%{text}",
             textfont=dict(size=int(np.clip(cell / 1.5, 9, 22)), color=MASK_TEXT),  # "−∞" fits its cell
             hovertemplate=hover_qk + f"{w['score']}: {MINUS_INF} ({w['masked']})<extra></extra>", xaxis="x",
             yaxis="y"),
        dict(type="heatmap", z=p, x=x, y=y, zmin=0, zmax=1, colorscale=_scale(PROB_SCALE), customdata=cd,
             hovertemplate=hover_qk + f"{w['weight']}: %{{z:.4f}}<extra></extra>", name="softmax",
             meta=value_table(f"{title}: {w0['softmax_panel']}", ys, xs, f"{w0['query']} / {w0['key']}"),
             colorbar=colorbar(w0["weight"], x=1.0), xaxis="x2", yaxis="y2"),
    ]
    # two panels side by side, laid out as make_subplots(1, 2, horizontal_spacing=0.24) would: between the maps, the
    # scores' colour bar and the softmax's query tokens, also in a ~900 px plot at presenter mode's larger fonts
    panels = ((0.0, 0.38), (0.62, 1.0))
    titles = (w["scores_panel"], w["softmax_panel"])
    title = _title(title, xs + ys, w0)
    angle = x_angle(xs, cell)
    layout = dict(
        title=title, font=dict(size=BASE_FONT),
        height=int(200 + cell * nq + (slant_room(xs) if angle else 0) + 20 * ("subtitle" in title)),
        margin=dict(l=10, r=10, t=125 if "subtitle" in title else 95, b=10), plot_bgcolor="white",
        annotations=[_subplot_title(t, (d0 + d1) / 2, 1.0) for t, (d0, d1) in zip(titles, panels)])
    for i, (d0, d1) in enumerate(panels, start=1):
        n = "" if i == 1 else str(i)
        layout[f"xaxis{n}"] = dict(_token_axis(xs, w0["key"], angle, cell), domain=[d0, d1], anchor=f"y{n}",
                                   constrain="domain")
        layout[f"yaxis{n}"] = dict(_token_axis(ys, w0["query"], px=cell), domain=[0.0, 1.0], anchor=f"x{n}",
                                   range=[nq - 0.5, -0.5], constrain="domain", scaleanchor=f"x{n}")
    # maps narrower than their halves (a plot ~900 px wide, or one given less height) give up width, not range: the
    # scores' colour bar stands beside its map (meta.colorbarBeside, below) and the softmax map at the right, by its
    # own bar; with both maps at the left, the softmax's query tokens and axis title ran into the scores' colour bar
    layout["xaxis2"]["constraintoward"] = "right"
    layout["yaxis2"]["title"] = dict(text="")  # side by side the rows are the scores' own, named at the left
    # narrow: the softmax panel under the scores, each as wide as the plot (side by side, ~130 px each)
    small = _narrow_cell(max(nq, nk), _cell_px(max(nq, nk)))
    slant = x_angle(xs, small)
    panel, ticks = small * nq, slant_room(xs) if slant else 0
    gap = 75 + ticks  # the upper panel's key tokens and axis title, then the lower panel's title
    f = panel / (2 * panel + gap)  # each panel's share of the plot's height
    axes = {}
    for n, y in (("", [1 - f, 1.0]), ("2", [0.0, f])):
        axes.update({f"xaxis{n}.domain": [0.0, 1.0], f"yaxis{n}.domain": y, f"xaxis{n}.tickangle": slant,
                     f"xaxis{n}.constrain": "range", f"xaxis{n}.constraintoward": "left",  # stacked: as before
                     f"xaxis{n}.tickfont.size": tick_font(nk, small), f"yaxis{n}.tickfont.size": tick_font(nq, small)})
    layout = responsive(traces, layout, {
        "height": int(2 * panel + gap + (125 if "subtitle" in title else 95) + 50 + ticks), **axes,
        **_narrow_axis_titles("", "2"), "yaxis2.title.text": _esc(w0["query"]),  # stacked, each names its rows
        "annotations[0].x": 0.5, "annotations[1].x": 0.5, "annotations[1].y": f},
        {"colorbar.x": [1.0, None, 1.0], "colorbar.y": [1 - f / 2, None, f / 2], "colorbar.len": [f, None, f],
         "textfont.size": [None, int(np.clip(small / 2.2, 8, 22)), None]}, traces=[0, 1, 2],
        below=STACKED_NARROW_PX)  # the two panels stack
    layout["meta"]["colorbarBeside"] = True  # the first heatmap's bar: the scores'
    return _figure(traces, layout)


def head_grid(att, x_tokens: Sequence[str], y_tokens: Sequence[str], title: str,
              selected: tuple[int, int] | None = (0, 0), segments: Sequence[int] | None = None,
              labels: dict | None = None) -> go.Figure:
    """Every head of every layer at a glance: a layers x heads grid of small heatmaps with one
    shared colour scale; `selected` = (layer, head), 0-based, is outlined. Past MAX_GRID_CELLS (a
    paragraph in a 12-layer BERT: 72 maps of 256 x 256, ~29 MB of figure JSON) a notice instead.
    `labels`: translated LABELS (the hover's words, the notices)."""
    w0 = _labels(labels)
    words = {k: _esc(v) for k, v in w0.items()}  # hover templates take escaped copies
    a = np.asarray(att, dtype=np.float32)
    if a.ndim != 4 or a.shape[2:] != (len(y_tokens), len(x_tokens)):
        raise ValueError(f"attention of shape {a.shape} is not [layers, heads, {len(y_tokens)}, {len(x_tokens)}]")
    L, H, nq, nk = a.shape
    if L == 0 or H == 0:
        return placeholder(w0["no_heads"], title)
    if a.size > MAX_GRID_CELLS:
        limit = int((MAX_GRID_CELLS / (L * H)) ** 0.5)
        return placeholder(w0["grid_too_large"].format(limit=limit, tokens=max(nq, nk), maps=L * H), title)
    xs, ys = segment_labels(x_tokens, segments), segment_labels(y_tokens, segments)
    # Hover names each cell's tokens through category axes ("#3 the": the position keeps repeated
    # tokens apart) rather than per-cell customdata: the grid repeats its labels per head, not per
    # cell, which made the JSON ~4x smaller and the figure faster to build and send.
    xl, yl = [f"#{j} {_esc(t)}" for j, t in enumerate(xs)], [f"#{i} {_esc(t)}" for i, t in enumerate(ys)]
    breaks = _segment_breaks(segments) if segments is not None and len(xs) == len(ys) == len(segments) else []
    # The grid is laid out by hand (plain dicts) rather than with make_subplots
    # and per-cell updates, which take seconds for a 6 x 6 model.
    gap = min(0.03, 0.3 / max(L, H))
    w, hgt = (1 - (H - 1) * gap) / H, (1 - (L - 1) * gap) / L
    traces, layout, shapes, notes = [], {}, [], []
    for l in range(L):
        for h in range(H):
            i = l * H + h + 1
            xa, ya = ("x", "y") if i == 1 else (f"x{i}", f"y{i}")
            x0, y1 = h * (w + gap), 1 - l * (hgt + gap)
            axis = dict(type="category", showticklabels=False, ticks="", showgrid=False, zeroline=False)
            layout[f"xaxis{'' if i == 1 else i}"] = dict(axis, domain=[x0, min(1.0, x0 + w)], anchor=ya,
                                                         range=[-0.5, nk - 0.5])
            layout[f"yaxis{'' if i == 1 else i}"] = dict(axis, domain=[max(0.0, y1 - hgt), y1], anchor=xa,
                                                         range=[nq - 0.5, -0.5])
            traces.append(dict(
                type="heatmap", z=a[l, h], x=xl, y=yl, xaxis=xa, yaxis=ya, coloraxis="coloraxis",
                hovertemplate=(f"{words['layer']} {l + 1} · {words['head']} {h + 1}<br>{words['query']} %{{y}}"
                               f"<br>{words['key']} %{{x}}<br>{words['value']}: %{{z:.4f}}<extra></extra>")))
            for shape in _dividers(breaks, breaks, nk, nq, xa, ya):
                shapes.append(dict(shape, line=dict(color="#444", width=0.8, dash="dot")))
            if selected is not None and (l, h) == tuple(selected):
                shapes += _outline(3, xref=f"{xa} domain", yref=f"{ya} domain", x0=-0.03, x1=1.03, y0=-0.03, y1=1.03)
            if l == 0:
                # xanchor: plotly's "auto" anchors the left third's labels by their left end and the right
                # third's by their right end, which bunched "H3H4" and "H5 H6" over a phone's 21 px maps
                notes.append(dict(text=f"H{h + 1}", x=x0 + w / 2, y=1, xref="paper", yref="paper", xanchor="center",
                                  yanchor="bottom", showarrow=False, font=dict(size=BASE_FONT)))
        notes.append(dict(text=f"L{l + 1}", x=-0.005, y=1 - l * (hgt + gap) - hgt / 2, xref="paper", yref="paper",
                          xanchor="right", showarrow=False, font=dict(size=BASE_FONT)))
    cell = float(np.clip(900 / H, 55, 130))
    layout.update(title=dict(text=_esc(title), font=dict(size=TITLE_FONT)), height=int(90 + L * cell),
                  shapes=shapes, annotations=notes, font=dict(size=BASE_FONT),
                  coloraxis=dict(colorscale=_scale(PROB_SCALE), cmin=0.0, cmax=1.0, colorbar=colorbar()),
                  margin=dict(l=40, r=40, t=80, b=10), plot_bgcolor="white")
    # narrow: a map ~240/H px wide, its row a little taller (a 12 x 6 BERT was 1,650 px of 36 px wide maps)
    row = float(np.clip(1.2 * 240 / H, 36, cell))
    label = min(BASE_FONT, max(9, int(240 / H / 2.4)))  # "H3" "H4" apart over 8 heads
    layout = responsive(traces, layout, {"height": int(LABELLED_TOP + 10 + L * row),
                                         **{f"annotations[{i}].font.size": label for i in range(len(notes))}})
    return _figure(traces, layout)


# ----------------------------------------------------------------------------- bar charts


def attention_bars(weights, tokens: Sequence[str], title: str, labels: dict | None = None) -> go.Figure:
    """One decoding step's attention distribution over the source tokens (the weights that
    make up the context vector, Bahdanau et al. eq. 5-6)."""
    w0 = _labels(labels)
    w = np.asarray(weights, dtype=np.float64)
    if w.ndim != 1 or len(w) != len(tokens):
        raise ValueError(f"{w.shape} weights for {len(tokens)} tokens")
    names = [str(t) for t in tokens]
    bar = dict(
        type="bar", x=list(range(len(w))), y=w, customdata=_position_labels(names),
        marker=dict(color=w, colorscale=_scale(PROB_SCALE), cmin=0, cmax=1, line=dict(width=0.5, color="#333")),
        textposition="outside", hovertemplate=(f"{_esc(w0['source'])} %{{customdata}}<br>"
                                               f"{_esc(w0['weight'])}: %{{y:.4f}}<extra></extra>"))
    if len(w) <= 24:
        bar["text"] = [f"{v:.2f}" for v in w]
    px = 1000 / max(len(w), 1)  # a bar's slot in a ~1000 px wide plot
    angle = x_angle(names, px)
    title = _title(title, names, w0)

    def height(angle):
        return 340 + (slant_room(names) if angle else 0) + 20 * ("subtitle" in title)

    layout = dict(
        title=title, font=dict(size=BASE_FONT), height=height(angle),
        xaxis=_token_axis(names, w0["source_token"], angle, px),
        yaxis=dict(title=dict(text=_esc(w0["attention_weight"])), range=[0, 1.08]),
        margin=dict(l=10, r=10, t=90 if "subtitle" in title else 70, b=10), plot_bgcolor="white")
    narrow = 260 / max(len(w), 1)  # a bar's slot in a ~330 px plot
    slant = x_angle(names, narrow)
    layout = responsive([bar], layout, {"height": height(slant), "xaxis.tickangle": slant,
                                        "xaxis.tickfont.size": tick_font(len(w), narrow)},
                        {"textfont.size": [int(np.clip(narrow / 2.6, 8, BASE_FONT))]}, traces=[0])
    return _figure([bar], layout)


TOPK_BAR_PX, TOPK_GAP_PX, TOPK_FOOT_PX = 28, 70, 60  # fill-mask bars: one bar, between rows, the last row's x axis


def topk_bars(masks: Sequence[tuple[str, Sequence[str], Sequence[float]]], title: str = "Fill-mask: top predictions",
              labels: dict | None = None) -> go.Figure:
    """One group (subplot) per [MASK]: `masks` is a list of (label, tokens, probabilities),
    best first; the best prediction is drawn at the top."""
    w0 = _labels(labels)
    if not masks:
        return placeholder(w0["no_mask"], title)
    # one row per [MASK], laid out as make_subplots(len(masks), 1, vertical_spacing=gap) would, in pixels: a bar
    # TOPK_BAR_PX tall, TOPK_GAP_PX between rows (a row's tick labels, the next row's title) whatever the number of
    # [MASK]s and of predictions (a fraction of the height squeezed 4+ rows' bars to 17 px and their numbers with them)
    n, most = len(masks), max(len(m[1]) for m in masks)
    plot_px = n * TOPK_BAR_PX * most + (n - 1) * TOPK_GAP_PX + TOPK_FOOT_PX
    h, gap = TOPK_BAR_PX * most / plot_px, TOPK_GAP_PX / plot_px  # under the last row: TOPK_FOOT_PX for its x axis
    bars, layout, titles = [], {}, []
    for r, (label, toks, probs) in enumerate(masks):
        p = np.asarray(probs, dtype=np.float64)
        if len(p) != len(toks):
            raise ValueError(f"{len(p)} probabilities for {len(toks)} tokens")
        k = "" if r == 0 else str(r + 1)
        top = 1 - r * (h + gap)
        bars.append(dict(
            type="bar", x=p, y=list(range(len(p))), orientation="h", customdata=[_esc(t) for t in toks],
            name=_esc(label), text=[f"{v:.4f}" for v in p], textposition="auto", showlegend=False,
            marker=dict(color=BAR_COLOUR),
            hovertemplate="%{customdata}: %{x:.4f}<extra></extra>", xaxis=f"x{k}", yaxis=f"y{k}"))
        last = r == n - 1  # one "probability" title, under the last row: above, it ran into the next row's title
        layout[f"xaxis{k}"] = dict(domain=[0.0, 1.0], anchor=f"y{k}",
                                   title=dict(text=_esc(w0["probability"]) if last else ""), rangemode="tozero")
        layout[f"yaxis{k}"] = dict(_token_axis([str(t) for t in toks], ""), domain=[max(0.0, top - h), top],
                                   anchor=f"x{k}", range=[len(p) - 0.5, -0.5])
        titles.append(_subplot_title(_esc(label), 0.5, top))
    title = _title(title, [t for m in masks for t in m[1]], w0)
    head = 100 if "subtitle" in title else 80
    layout.update(title=title, height=head + plot_px + 10, annotations=titles, font=dict(size=BASE_FONT),
                  margin=dict(l=10, r=10, t=head, b=10), plot_bgcolor="white")
    return _figure(bars, responsive(bars, layout, {}))  # a phone: the title's size (and lines) only


def nsp_bars(is_next: float, not_next: float, title: str = "Next-sentence prediction",
             labels: dict | None = None) -> go.Figure:
    """P(IsNext) and P(NotNext) from BERT's [CLS] classifier."""
    w0 = _labels(labels)
    p = [float(is_next), float(not_next)]
    bar = dict(type="bar", x=["IsNext", "NotNext"], y=p, text=[f"{v:.1%}" for v in p], textposition="outside",
               marker=dict(color=["#2ca02c", "#d62728"]), hovertemplate="%{x}: %{y:.4f}<extra></extra>")
    layout = dict(title=dict(text=_esc(title), font=dict(size=TITLE_FONT)), height=300, font=dict(size=BASE_FONT),
                  yaxis=dict(range=[0, 1.1], title=dict(text=_esc(w0["probability"]))),
                  margin=dict(l=10, r=10, t=60, b=10), plot_bgcolor="white")
    return _figure([bar], responsive([bar], layout, {}))  # a phone: the title's size only
