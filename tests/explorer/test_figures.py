"""explorer/figures/__init__.py on synthetic arrays: every number in a figure is the array's, masked
cells are marked, repeated tokens keep their own cells, user text is escaped, and the grid
works for any layers x heads."""
import ast
import html
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import drawn_json
from explorer import figures as fg

XSS = "<img src=x onerror=alert(1)>"


def softmax_rows(s):
    e = np.exp(s - np.nanmax(np.where(np.isneginf(s), np.nan, s), axis=-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def causal(n, seed=0):
    """(scores with -inf above the diagonal, their row softmax), as a decoder produces them."""
    s = np.random.default_rng(seed).normal(size=(n, n)).astype(np.float32)
    s[np.triu_indices(n, 1)] = -np.inf
    return s, softmax_rows(s).astype(np.float32)


def probs(*shape, seed=0):
    a = np.random.default_rng(seed).random(shape).astype(np.float32)
    return a / a.sum(-1, keepdims=True)


def strings(obj):
    """Every string anywhere in a plotly JSON-like structure (arrays of objects included)."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from strings(v)
    elif isinstance(obj, (list, tuple)) or (isinstance(obj, np.ndarray) and obj.dtype == object):
        for v in obj:
            yield from strings(v)
    elif isinstance(obj, np.ndarray) and obj.dtype.kind == "U":
        yield from (str(v) for v in obj.ravel())


FIGURES = Path(fg.__file__).parent  # explorer/figures/: every module in it is pure (CONTRIBUTING.md, "Explorer")
NOT_IN_A_FIGURE = ("torch", "gradio", "models", "explorer.compute", "explorer.serve", "explorer.views")


def figure_modules() -> list[str]:
    return sorted("explorer.figures" + ("" if p.stem == "__init__" else "." + p.stem) for p in FIGURES.glob("*.py"))


def test_no_figure_module_imports_torch_models_or_gradio():
    """Read from the source, so that an import inside a function counts too: numpy, plotly and the strings only."""
    assert len(figure_modules()) > 10
    found = []
    for path in sorted(FIGURES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            else:
                continue
            found += [f"{path.name}:{node.lineno} {n}" for n in names
                      if any(n == bad or n.startswith(bad + ".") for bad in NOT_IN_A_FIGURE)]
    assert not found, found


def test_figure_modules_are_pure():
    """Importing every figure module loads none of torch, gradio, the models or the computations."""
    code = (f"import importlib, sys; [importlib.import_module(m) for m in {figure_modules()!r}]; "
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'gradio', 'models') "
            f"or m.startswith(('explorer.compute', 'explorer.serve', 'explorer.views'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_heatmap_numbers_axes_and_hover():
    x, y = ["I", "am", "a", "student", "</s>"], ["je", "suis", "étudiant"]
    m = probs(3, 5)
    fig = fg.heatmap(m, x, y, "cross")
    (tr,) = fig.data
    np.testing.assert_array_equal(np.asarray(tr.z), m)
    assert list(fig.layout.xaxis.ticktext) == ["I", "am", "a", "student", "&lt;/s&gt;"]
    assert list(fig.layout.yaxis.ticktext) == y
    assert list(fig.layout.xaxis.tickvals) == list(range(5))
    assert tuple(tr.customdata[2][4]) == ("#2 étudiant", "#4 &lt;/s&gt;")  # (query, key) of cell [2, 4]
    assert "%{z:.4f}" in tr.hovertemplate
    assert (tr.zmin, tr.zmax) == (0.0, 1.0)
    assert list(fig.layout.yaxis.range) == [2.5, -0.5]  # first query on top


def test_heatmap_rejects_mismatched_tokens():
    with pytest.raises(ValueError):
        fg.heatmap(probs(3, 5), ["a"] * 4, ["b"] * 3, "t")


def test_duplicate_tokens_keep_their_own_cells():
    toks = ["the", "cat", "saw", "the", "dog", "the"]
    m = probs(6, 6)
    fig = fg.heatmap(m, toks, toks, "dups")
    ax = fig.layout.xaxis
    assert list(ax.ticktext) == toks and len(set(ax.tickvals)) == 6  # one tick per token, text shown as is
    assert len(set(fig.data[0].x)) == 6 and len(set(fig.data[0].y)) == 6  # no category collapsed
    np.testing.assert_array_equal(np.asarray(fig.data[0].z), m)


def test_heatmap_stays_readable_with_many_tokens():
    small, big = fg.heatmap(probs(5, 5), list("abcde"), list("abcde"), "s"), None
    toks = [f"tok{i}" for i in range(60)]
    big = fg.heatmap(probs(60, 60), toks, toks, "b")
    assert len(big.layout.xaxis.tickvals) == 60 and len(big.layout.yaxis.ticktext) == 60  # every tick shown
    assert big.layout.xaxis.tickfont.size < small.layout.xaxis.tickfont.size
    assert big.layout.height > small.layout.height
    assert big.layout.xaxis.automargin and big.layout.yaxis.scaleanchor == "x"


def test_user_text_is_escaped_everywhere():
    toks = ["ok", XSS, "a&b"]
    s, p = causal(3)
    figs = [fg.heatmap(p, toks, toks, XSS, segments=[0, 0, 1]), fg.masked_scores(s, p, toks, toks, XSS),
            fg.head_grid(np.stack([np.stack([p, p])]), toks, toks, XSS),
            fg.attention_bars(p[2], toks, XSS), fg.topk_bars([(XSS, toks, [0.5, 0.3, 0.2])], XSS),
            fg.nsp_bars(0.9, 0.1, XSS), fg.placeholder(XSS, XSS)]
    for fig in figs:
        texts = list(strings(drawn_json(fig.to_plotly_json())))
        assert not any("<img" in t for t in texts), fig.layout.title.text
        assert any("&lt;img src=x onerror=alert(1)&gt;" in t for t in texts)
    assert "a&amp;b" in figs[0].layout.xaxis.ticktext[2]


def _rgb(colour: str) -> tuple:
    from plotly.colors import hex_to_rgb, unlabel_rgb
    return tuple(int(v) for v in (hex_to_rgb(colour) if colour.startswith("#") else unlabel_rgb(colour)))


def test_every_diverging_map_is_blue_for_high_values():
    """High is blue in every map, as the probabilities' Blues are: the masked scores used RdBu_r, so a row's highest
    score was red beside its darkest blue probability, while the lab's maps were blue for high."""
    from explorer.figures import lab as lf
    rng = np.random.default_rng(0)
    toks = ["<s>", "je", "suis"]
    s, p = causal(3)
    sim = rng.uniform(-1, 1, (3, 3))
    figs = [fg.masked_scores(s, p, toks, toks, "dec"),
            lf.positional_figure(rng.uniform(-1, 1, (8, 16)), sim),
            lf.contextual_figure(["a bank", "the bank", "bank"], "bank", sim, rng.uniform(-1, 1, 3)),
            lf.query_key_figure(toks, 1, rng.normal(size=4), rng.normal(size=(3, 4)), rng.normal(size=3),
                                np.full(3, 1 / 3))]
    scales = [t.colorscale for f in figs for t in f.data if getattr(t, "colorscale", None)]
    scales += [t.marker.colorscale for f in figs for t in f.data if t.type == "bar" and t.marker.colorscale]
    # the diverging ones: light in the middle (not the masked cells' one gray, nor a sequential scale like Viridis)
    scales = [sc for sc in scales if _rgb(sc[0][1]) != _rgb(sc[-1][1]) and min(_rgb(sc[len(sc) // 2][1])) > 200]
    assert len(scales) >= 5
    for scale in scales:
        r, g, b = _rgb(scale[-1][1])
        assert b > r, scale


def test_tick_labels_past_the_edge_are_clipped_not_measured():
    """plotly.js's default on a numeric axis, "hide past div", measures every tick label once per label drawn: a
    256-token map froze the browser for seconds (bench/browser_draw.py). Every axis of every figure clips instead."""
    from explorer.figures import lab as lf
    toks = ["<s>", "je", "suis"]
    s, p = causal(3)
    for fig in (fg.heatmap(probs(3, 3), toks, toks, "t"), fg.masked_scores(s, p, toks, toks, "t"),
                fg.head_grid(probs(2, 2, 3, 3), toks, toks, "t"), lf.entropy_figure(np.ones((2, 3, 4)))):
        template = fig.layout.template.layout  # a template's xaxis and yaxis apply to every x and y axis
        assert template.xaxis.ticklabeloverflow == template.yaxis.ticklabeloverflow == "allow"


@pytest.mark.parametrize("n", [7, 80, 256])
def test_a_long_map_is_no_taller_than_the_widest_square_and_labels_fit(n):
    """Past ~80 tokens the plot's width sets a square map's cells: a 256-token map was 1,060 px square in a 3,560 px
    plot, its 256 labels a grey band. The height follows the widest square map, and labels stand MIN_LABEL_PX apart."""
    toks = [f"w{i}" for i in range(n)]
    fig = fg.heatmap(probs(n, n), toks, toks, "long")
    cell = min(fg._cell_px(n), fg.MAP_PX / n)
    assert fig.layout.height <= 200 + cell * n + fg.slant_room(toks)
    for axis in (fig.layout.xaxis, fig.layout.yaxis):
        step = axis.tickvals[1] - axis.tickvals[0]
        assert step * cell >= fg.MIN_LABEL_PX or step == 1
        assert list(axis.ticktext) == toks[::step] and list(axis.tickvals) == list(range(0, n, step))
    assert (fig.layout.xaxis.tickvals[1] == 1) == (n <= 80)


def test_masked_scores_marks_minus_infinity():
    toks = ["<s>", "je", "suis", "je"]
    s, p = causal(4)
    fig = fg.masked_scores(s, p, toks, toks, "dec")
    scores, masked, soft = fig.data
    masked_cells = np.isneginf(s)
    z = np.asarray(scores.z, dtype=float)
    assert np.isnan(z[masked_cells]).all() and not np.isinf(z).any()  # no -inf handed to plotly
    np.testing.assert_array_equal(z[~masked_cells], s[~masked_cells])
    gray = np.asarray(masked.z, dtype=float)
    assert (~np.isnan(gray) == masked_cells).all()  # the gray layer covers exactly the masked cells
    text = np.asarray(masked.text)
    assert (text[masked_cells] == "−∞").all() and (text[~masked_cells] == "").all()
    assert "−∞ (masked)" in masked.hovertemplate
    np.testing.assert_array_equal(np.asarray(soft.z), p)
    assert (np.asarray(soft.z)[masked_cells] == 0).all()
    assert scores.xaxis == "x" and soft.xaxis == "x2"  # side by side
    assert scores.zmid == 0


def test_masked_scores_keep_the_gap_between_their_maps_clear():
    """Side by side, maps narrower than their halves give up width (not range): the scores' colour bar goes beside
    its map (the page's meta.colorbarBeside), the softmax map stands at the right by its own bar, and its rows are
    named once, at the left; stacked (a phone), each map is at the left and names its rows."""
    toks = ["<s>", "je", "suis", "étudiant"]
    s, p = causal(4)
    fig = fg.masked_scores(s, p, toks, toks, "dec")
    lay = fig.layout
    assert lay.meta["colorbarBeside"] is True and fig.data[0].colorbar.x <= lay.xaxis.domain[1]
    assert lay.xaxis.constrain == lay.xaxis2.constrain == "domain"
    assert (lay.xaxis.constraintoward, lay.xaxis2.constraintoward) == ("left", "right")
    assert lay.xaxis.domain[1] < lay.xaxis2.domain[0] and lay.yaxis2.title.text == ""
    narrow, wide = lay.meta["narrow"]["layout"], lay.meta["wide"]["layout"]
    assert narrow["xaxis2.constraintoward"] == "left" and narrow["yaxis2.title.text"] == "query"
    assert narrow["xaxis.constrain"] == narrow["xaxis2.constrain"] == "range"  # each the plot's full width
    assert wide["xaxis2.constraintoward"] == "right" and wide["yaxis2.title.text"] == ""


@pytest.mark.parametrize("L,H", [(1, 1), (2, 3), (3, 8), (5, 2), (6, 6)])
def test_head_grid_any_layers_and_heads(L, H):
    toks_k, toks_q = ["a", "b", "c", "a"], ["x", "y", "z"]
    att = probs(L, H, 3, 4, seed=L * 10 + H)
    sel = (L - 1, H // 2)
    fig = fg.head_grid(att, toks_k, toks_q, "grid", selected=sel)
    assert len(fig.data) == L * H
    for i, tr in enumerate(fig.data):
        np.testing.assert_array_equal(np.asarray(tr.z), att[i // H, i % H])  # row-major: layer, then head
        assert tr.coloraxis == "coloraxis"  # one shared colour scale
    assert (fig.layout.coloraxis.cmin, fig.layout.coloraxis.cmax) == (0, 1)
    rects = [s for s in fig.layout.shapes if s.type == "rect"]
    assert [r.line.color for r in rects] == ["white", fg.OUTLINE]  # one outline, black on a white halo
    chosen = fig.data[sel[0] * H + sel[1]]
    assert all(r.xref == f"{chosen.xaxis} domain" and r.yref == f"{chosen.yaxis} domain" for r in rects)
    labels = {a.text for a in fig.layout.annotations}
    assert labels == {f"L{l + 1}" for l in range(L)} | {f"H{h + 1}" for h in range(H)}
    # every cell has its own axes, and the domains do not overlap within a row
    doms = sorted(tuple(fig.layout[f"xaxis{'' if i == 0 else i + 1}"].domain) for i in range(H))
    assert all(a[1] <= b[0] for a, b in zip(doms, doms[1:]))


def test_head_grid_without_selection_and_bad_shape():
    fig = fg.head_grid(probs(2, 2, 3, 3), list("abc"), list("abc"), "g", selected=None)
    assert not [s for s in fig.layout.shapes if s.type == "rect"]
    with pytest.raises(ValueError):
        fg.head_grid(probs(2, 3, 3), list("abc"), list("abc"), "g")  # 3-D: not [L, H, q, k]


def test_head_grid_past_its_cell_budget_says_why_instead_of_drawing():
    """72 maps of 256 x 256 (a paragraph in a 12-layer BERT) were ~29 MB of figure JSON."""
    fits = int((fg.MAX_GRID_CELLS / 72) ** 0.5)  # 64 tokens for 12 layers x 6 heads
    toks = [f"t{i}" for i in range(fits)]
    assert len(fg.head_grid(probs(12, 6, fits, fits), toks, toks, "g").data) == 72
    toks += ["one more"]
    fig = fg.head_grid(probs(12, 6, fits + 1, fits + 1), toks, toks, "g",
                       labels={"grid_too_large": "{limit}/{tokens}/{maps}"})
    assert not fig.data and fig.layout.title.text == "g"
    assert fig.layout.annotations[0].text == f"{fits}/{fits + 1}/72"
    english = fg.head_grid(probs(12, 6, 65, 65), toks, toks, "g").layout.annotations[0].text
    assert "up to 64 tokens; this one has 65" in english


def test_segments_label_ticks_and_divide_the_matrix():
    toks = ["[CLS]", "the", "[SEP]", "he", "[SEP]"]
    segs = [0, 0, 0, 1, 1]
    assert fg.segment_labels(toks, segs) == ["A·[CLS]", "A·the", "A·[SEP]", "B·he", "B·[SEP]"]
    fig = fg.heatmap(probs(5, 5), toks, toks, "bert", segments=segs)
    assert list(fig.layout.xaxis.ticktext) == fg.segment_labels(toks, segs)
    assert list(fig.layout.yaxis.ticktext) == fg.segment_labels(toks, segs)
    lines = [s for s in fig.layout.shapes if s.type == "line"]
    assert sorted({s.x0 for s in lines if s.x0 == s.x1}) == [2.5]  # between the first [SEP] and "he"
    grid = fg.head_grid(probs(2, 2, 5, 5), toks, toks, "g", segments=segs)
    assert list(grid.data[0].x) == ["#0 A·[CLS]", "#1 A·the", "#2 A·[SEP]", "#3 B·he", "#4 B·[SEP]"]
    assert list(grid.data[3].y) == list(grid.data[0].x)  # every head names the same tokens
    with pytest.raises(ValueError):
        fg.segment_labels(toks, [0, 1])


def test_attention_bars_topk_and_nsp():
    w = probs(4)
    bars = fg.attention_bars(w, ["I", "am", "a", "I"], "step 1")
    np.testing.assert_array_equal(np.asarray(bars.data[0].y), w)
    assert list(bars.layout.xaxis.ticktext) == ["I", "am", "a", "I"]
    with pytest.raises(ValueError):
        fg.attention_bars(w, ["I"], "t")
    masks = [("[MASK] #1", ["store", "house"], [0.4, 0.2]), ("[MASK] #2", ["milk", "water", "tea"], [0.5, 0.1, 0.05])]
    top = fg.topk_bars(masks)
    assert len(top.data) == 2  # one group per [MASK]
    for tr, (_, toks, p) in zip(top.data, masks):
        np.testing.assert_array_equal(np.asarray(tr.x), p)
        assert list(tr.customdata) == toks
    assert fg.topk_bars([]).data == ()  # a notice, not a crash
    # a heatmap keeps its map at the left and gives up width (its x title under the map, not under empty range past
    # the last token); the page reads meta.colorbarBeside to put the colour bar beside it
    hm = fg.heatmap(probs(3, 3), ["a", "b", "c"], ["a", "b", "c"], "t")
    assert hm.layout.xaxis.constrain == "domain"
    assert hm.layout.yaxis.scaleanchor == "x" and hm.layout.meta["colorbarBeside"] is True
    # a bar keeps its height however many [MASK]s there are (rows squeezed to 17 px bars from four [MASK]s on)
    for n, k in ((1, 5), (4, 5), (30, 5), (3, 20)):
        fig = fg.topk_bars([(f"[MASK] #{i}", [f"w{j}" for j in range(k)], [1 / (j + 2) for j in range(k)])
                            for i in range(n)])
        plot_px = fig.layout.height - fig.layout.margin.t - fig.layout.margin.b
        rows = [getattr(fig.layout, f"yaxis{'' if r == 0 else r + 1}").domain for r in range(n)]
        assert all(fg.TOPK_BAR_PX - 1e-6 <= (hi - lo) * plot_px / k < fg.TOPK_BAR_PX + 15 for lo, hi in rows), (n, k)
        assert all(a[0] - b[1] >= 0.99 * fg.TOPK_GAP_PX / plot_px for a, b in zip(rows, rows[1:]))  # room between
    nsp = fg.nsp_bars(0.75, 0.25)
    assert list(nsp.data[0].x) == ["IsNext", "NotNext"] and list(nsp.data[0].y) == [0.75, 0.25]


def _every_figure(seed):
    """One of each figure function's outputs, on odd shapes and user text with markup."""
    rng = np.random.default_rng(seed)
    n, m = int(rng.integers(1, 9)), int(rng.integers(1, 9))
    L, H = int(rng.integers(1, 7)), int(rng.integers(1, 9))
    xt, yt = [f"x{i}" for i in range(m - 1)] + [XSS], [f"y{i}" for i in range(n)]
    s, p = causal(n, seed)
    sq = [f"t{i}" for i in range(n)]
    k = int(rng.integers(1, 6))
    masks = [(f"[MASK] #{j}", [f"w{i}" for i in range(k)], sorted(probs(k, seed=seed + j), reverse=True))
             for j in range(int(rng.integers(1, 5)))]
    return [
        fg.heatmap(probs(n, m, seed=seed), xt, yt, XSS),
        fg.heatmap(probs(n, n, seed=seed), sq, sq, "segments", segments=[0] * (n // 2) + [1] * (n - n // 2),
                   highlight_row=n - 1, colorscale=fg.SCORE_SCALE),
        fg.masked_scores(s, p, sq, sq, XSS),
        fg.head_grid(probs(L, H, n, m, seed=seed), xt, yt, XSS, selected=(L - 1, H - 1)),
        fg.attention_bars(probs(m, seed=seed), xt, XSS),
        fg.attention_bars(probs(30, seed=seed), [str(i) for i in range(30)], "long"),
        fg.topk_bars(masks, XSS),
        fg.nsp_bars(0.7, 0.3, XSS),
        fg.placeholder(XSS, XSS),
    ]


@pytest.mark.parametrize("seed", range(6))
def test_figures_built_without_validation_are_what_plotly_validates(monkeypatch, seed):
    """The figures skip plotly's validators for speed; built again with validation on, every one
    must pass the validators (no misspelt property, no value out of range) and give the same JSON."""
    fast = [json.loads(f.to_json()) for f in _every_figure(seed)]
    monkeypatch.setattr(fg, "VALIDATE", True)
    checked = [json.loads(f.to_json()) for f in _every_figure(seed)]
    assert fast == checked




# ----------------------------------------------------------------------------- readability (review fixes)

SENTENCE = ["▁I", "▁am", "▁a", "▁student", ".", "</s>"]
LONG = [f"▁word{i}" for i in range(31)] + [".", "</s>"]


def test_hover_reads_position_then_token_in_every_single_head_heatmap():
    """plotly fills %{x}/%{y} with an axis's tick text, so "key #%{x}: ..." showed "key #▁am: ▁am":
    the position must come from customdata, "#1 ▁am" as the head grid's category axes show it."""
    s, p = causal(len(SENTENCE))
    heat = fg.heatmap(p, SENTENCE, SENTENCE, "h").data[0]
    masked = fg.masked_scores(s, p, SENTENCE, SENTENCE, "m").data
    bars = fg.attention_bars(p[-1], SENTENCE, "b").data[0]
    grid = fg.head_grid(p[None, None], SENTENCE, SENTENCE, "g").data[0]
    for tr in (heat, *masked):
        assert "%{x}" not in tr.hovertemplate and "%{y}" not in tr.hovertemplate
        assert "%{customdata[0]}" in tr.hovertemplate and "%{customdata[1]}" in tr.hovertemplate
        assert tuple(tr.customdata[3][1]) == ("#3 ▁student", "#1 ▁am")  # (query, key) of cell [3, 1]
        # the very labels of the all-heads grid, whose hover was right
        assert [tr.customdata[i][0][0] for i in range(len(SENTENCE))] == list(grid.y)
        assert [tr.customdata[0][j][1] for j in range(len(SENTENCE))] == list(grid.x)
    assert "%{x}" not in bars.hovertemplate and list(bars.customdata) == list(grid.x)


def test_every_heatmap_carries_the_table_of_its_values_for_screen_readers():
    """figures.VALUE_TABLES_JS writes a map's values into a table that only screen readers see, from the trace's z
    and its meta.table: rows and columns named as the hover names them, the masked scores' −∞ cells named, plain
    text (the page sets it as text; an escaped '&lt;' would be read out as such)."""
    s, p = causal(len(SENTENCE))
    toks = SENTENCE[:-1] + [XSS]
    heat = fg.heatmap(p, toks, toks, "Encoder: layer 1, head 1", x_title="key", y_title="query").data[0]
    table = heat.meta["table"]
    assert table["caption"] == "Encoder: layer 1, head 1" and table["corner"] == "query / key"
    assert table["rows"] == table["cols"] == [f"#{i} {t}" for i, t in enumerate(toks)]
    assert table["rows"][-1].endswith(XSS)  # raw: never markup on the page, and read as typed
    assert [c[0] for c in heat.customdata[:-1, 0]] == table["rows"][:-1]  # the hover's names
    scores, masked, soft = fg.masked_scores(s, p, SENTENCE, SENTENCE, "dec").data
    assert scores.meta["table"]["empty"] == "−∞" and np.isnan(np.asarray(scores.z, float)[np.isneginf(s)]).all()
    assert soft.meta["table"]["empty"] == "" and not masked.meta  # the gray layer repeats the scores' cells
    assert [t.meta["table"]["caption"] for t in (scores, soft)] == [
        f"dec: {fg.LABELS['scores_panel']}", f"dec: {fg.LABELS['softmax_panel']}"]
    # segment labels (BERT's A·/B·) name the rows as on the axes
    bert = fg.heatmap(p[:3, :3], ["[CLS]", "a", "[SEP]"], ["[CLS]", "a", "[SEP]"], "b", segments=[0, 0, 1]).data[0]
    assert bert.meta["table"]["rows"] == ["#0 A·[CLS]", "#1 A·a", "#2 B·[SEP]"]
    # a translation's largest maps have their table (65 source tokens with </s>, 66 target positions); past 80 x 80
    # tokens none (a 256-token BERT map would be 65,536 cells): its values are in the downloads
    assert fg.heatmap(np.full((66, 65), 1 / 65), ["t"] * 65, ["t"] * 66, "long").data[0].meta["table"]
    assert fg.heatmap(np.full((80, 80), 1 / 80), ["t"] * 80, ["t"] * 80, "long").data[0].meta["table"]
    assert not fg.heatmap(np.full((81, 80), 1 / 80), ["t"] * 80, ["t"] * 81, "long").data[0].meta


def _luminance(hex_colour):
    rgb = [int(hex_colour.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def test_minus_infinity_cells_are_high_contrast_and_legible():
    s, p = causal(len(SENTENCE))
    masked = fg.masked_scores(s, p, SENTENCE, SENTENCE, "m").data[1]
    text, cell = masked.textfont.color, masked.colorscale[0][1]
    hi, lo = sorted((_luminance(text), _luminance(cell)), reverse=True)
    assert (hi + 0.05) / (lo + 0.05) >= 7  # WCAG AAA; the old #555 on #c8c8c8 was ~4:1
    assert masked.textfont.size >= 16  # a short sentence's cells are large: so is their −∞
    s, p = causal(len(LONG))
    assert fg.masked_scores(s, p, LONG, LONG, "m").data[1].textfont.size >= 9


def test_colour_bar_titles_run_beside_the_bar_not_on_its_top_tick():
    s, p = causal(4)
    fig = fg.masked_scores(s, p, list("abcd"), list("abcd"), "m")
    titled = [tr.colorbar for tr in fig.data if tr.showscale is not False]
    assert [c.title.text for c in titled] == ["score", "weight"]
    assert all(c.title.side == "right" for c in titled)


def test_projector_fonts_and_level_ticks_for_a_short_sentence():
    s, p = causal(len(SENTENCE))
    short = [fg.heatmap(p, SENTENCE, SENTENCE, "h"), fg.masked_scores(s, p, SENTENCE, SENTENCE, "m"),
             fg.attention_bars(p[-1], SENTENCE, "b"), fg.head_grid(p[None, None], SENTENCE, SENTENCE, "g"),
             fg.topk_bars([("[MASK]", ["a", "b"], [0.6, 0.4])]), fg.nsp_bars(0.6, 0.4), fg.placeholder("x", "t")]
    for fig in short:
        assert fig.layout.font.size >= 14 and fig.layout.title.font.size >= 18, fig.layout.title.text
    heat, bars = short[0], short[2]
    assert heat.layout.xaxis.tickfont.size == heat.layout.yaxis.tickfont.size == 14
    assert heat.layout.xaxis.tickangle == 0 and bars.layout.xaxis.tickangle == 0  # level: "▁I" is no "/"
    wide = ["▁대학교에서", "▁공부하는", "▁학생", "."]  # Hangul is twice as wide as Latin: these would collide
    assert fg.heatmap(probs(4, 4), wide, wide, "h").layout.xaxis.tickangle == -60
    big = fg.heatmap(probs(len(LONG), len(LONG)), LONG, LONG, "h")
    assert big.layout.xaxis.tickangle == -60  # 33 tokens: slanted (the font shrinks past ~40, see above)


def test_word_start_mark_is_explained_once_where_tokens_carry_it():
    s, p = causal(len(SENTENCE))
    figs = [fg.heatmap(p, SENTENCE, SENTENCE, "h"), fg.masked_scores(s, p, SENTENCE, SENTENCE, "m"),
            fg.attention_bars(p[-1], SENTENCE, "b")]
    for fig in figs:
        assert fig.layout.title.subtitle.text == fg.LABELS["word_start"] == "▁ = start of a word"
        assert fig.layout.title.text in ("h", "m", "b")  # the title itself unchanged
    bert = ["[CLS]", "the", "cat", "[SEP]"]
    assert fg.heatmap(probs(4, 4), bert, bert, "h").layout.title.subtitle.text is None  # no mark, no note
    ko = {"word_start": "▁ = 단어의 시작"}
    assert fg.heatmap(p, SENTENCE, SENTENCE, "h", labels=ko).layout.title.subtitle.text == "▁ = 단어의 시작"
    masked = fg.masked_scores(s, p, SENTENCE, SENTENCE, "m", labels=ko)
    assert masked.layout.title.subtitle.text == "▁ = 단어의 시작"


def test_hover_words_follow_the_language():
    """In Korean the head grid's hover read "layer 1 · head 1 / query #2 ▁a / key #1 ▁am / value: 0.0621" and a
    single head's "value:": every word of a hover template comes from `labels`."""
    ko = {"layer": "레이어", "head": "헤드", "query": "쿼리", "key": "키", "value": "값", "word_start": "▁ = 단어의 시작"}
    english = re.compile(r"\b(layer|head|query|key|value)\b")
    p = probs(2, 3, 4, 4)
    grid = fg.head_grid(p, SENTENCE[:4], SENTENCE[:4], "g", labels=ko)
    head = fg.heatmap(p[0, 0], SENTENCE[:4], SENTENCE[:4], "h", x_title="키", y_title="쿼리", labels=ko)
    for fig in (grid, head):
        for tr in fig.data:
            assert not english.search(tr.hovertemplate), tr.hovertemplate
            assert "%{z:.4f}" in tr.hovertemplate  # the number still there
    assert grid.data[5].hovertemplate.startswith("레이어 2 · 헤드 3<br>쿼리 %{y}<br>키 %{x}<br>값: ")
    assert "<br>값: %{z:.4f}" in head.data[0].hovertemplate
    en = fg.head_grid(p, SENTENCE[:4], SENTENCE[:4], "g")
    assert en.data[5].hovertemplate.startswith("layer 2 · head 3<br>query %{y}<br>key %{x}<br>cell value: ")
    assert fg.head_grid(np.zeros((0, 0, 4, 4)), SENTENCE[:4], SENTENCE[:4], "g",
                        labels={"no_heads": "헤드 없음"}).layout.annotations[0].text == "헤드 없음"


# ----------------------------------------------------------------------------- narrow (phone) layouts


def _apply(fig, which: str):
    """`fig` after the page's Plotly.update(gd, meta[which].data, meta[which].layout, traces), done through
    plotly's validators: a misspelt attribute path or an invalid value raises."""
    u = fig.layout.meta[which]
    out = fig.__class__(fig)  # a copy
    for path, value in u["layout"].items():
        out.layout[path] = value
    other = "wide" if which == "narrow" else "narrow"
    for path, values in u["data"].items():
        assert len(values) == len(u["traces"]), path
        for i, value, there in zip(u["traces"], values, fig.layout.meta[other]["data"][path]):
            if value is None and there is None:  # (a key that this trace does not have: left alone)
                continue
            out.data[i][path] = value
    return out


def _responsive_figures():
    s, p = causal(len(SENTENCE))
    title = "Decoder masked self-attention: layer 1, head 1"  # ~320 px at 15 px: two lines on a phone
    return {"heatmap": fg.heatmap(p, SENTENCE, SENTENCE, title), "masked": fg.masked_scores(s, p, SENTENCE, SENTENCE),
            "bars": fg.attention_bars(p[-1], SENTENCE, "b"), "grid": fg.head_grid(probs(12, 6, 6, 6), SENTENCE,
                                                                                    SENTENCE, "g"),
            "long": fg.heatmap(probs(len(LONG), len(LONG)), LONG, LONG, "h")}


def test_side_by_side_panels_stack_below_a_wider_plot_than_one_map():
    """Five score-function panels at 576 px (200% zoom on a 1,280 px screen) ran their titles into each other:
    a figure whose narrow layout stacks panels switches at STACKED_NARROW_PX, one map at NARROW_PX (the page's
    script reads meta.below; the browser test checks the page at 390 and 1,280 px)."""
    panels = fg.masked_scores(np.zeros((3, 3)), probs(3, 3), list("abc"), list("abc"), "m")
    one = fg.heatmap(probs(3, 3), list("abc"), list("abc"), "h")
    assert panels.layout.meta["below"] == fg.STACKED_NARROW_PX > fg.NARROW_PX
    assert "below" not in one.layout.meta


@pytest.mark.parametrize("name", ["heatmap", "masked", "bars", "grid", "long"])
def test_narrow_layout_is_valid_and_wide_gives_the_figure_back(monkeypatch, name):
    monkeypatch.setattr(fg, "VALIDATE", True)
    fig = _responsive_figures()[name]
    meta = fig.layout.meta
    assert meta["narrow"]["layout"].keys() == meta["wide"]["layout"].keys()
    assert meta["narrow"]["data"].keys() == meta["wide"]["data"].keys()
    narrow = _apply(fig, "narrow")
    if name in ("heatmap", "grid", "long"):  # (the masked panels stack, the bars' labels slant: taller)
        assert narrow.layout.height < fig.layout.height  # a phone's matrix is not a projector's
    assert narrow.layout.title.font.size == fg.NARROW_TITLE_FONT < fig.layout.title.font.size
    back = _apply(narrow, "wide")
    assert _pruned(json.loads(back.to_json())) == _pruned(json.loads(fig.to_json()))  # widened: the figure as built


def _pruned(obj):
    """A figure's JSON without empty objects (a font whose only size was set to null and back: the same figure)."""
    if isinstance(obj, dict):
        kept = {k: _pruned(v) for k, v in obj.items()}
        return {k: v for k, v in kept.items() if v != {}}
    return [_pruned(v) for v in obj] if isinstance(obj, list) else obj


def test_narrow_layout_slants_what_would_collide_and_breaks_long_titles():
    figs = _responsive_figures()
    heat, masked, grid = (_apply(figs[k], "narrow") for k in ("heatmap", "masked", "grid"))
    # level on a projector (72 px cells), slanted in a phone's ~27 px cells, where "▁student" would run into "▁a"
    assert figs["heatmap"].layout.xaxis.tickangle == 0 and heat.layout.xaxis.tickangle == -60
    assert heat.layout.title.text == "Decoder masked self-attention:<br>layer 1, head 1"
    assert heat.layout.margin.t > figs["heatmap"].layout.margin.t  # the second line has its room
    assert _apply(figs["bars"], "narrow").layout.title.text == "b"  # a short title stays on one line
    # the masked scores stack: both panels the plot's full width, scores above softmax, apart
    (x1, x2), (y1, y2) = (masked.layout.xaxis.domain, masked.layout.xaxis2.domain), \
        (masked.layout.yaxis.domain, masked.layout.yaxis2.domain)
    assert tuple(x1) == tuple(x2) == (0.0, 1.0) and y2[1] < y1[0]
    assert masked.layout.annotations[1].y == pytest.approx(y2[1])  # "softmax" titles the lower panel
    bars = [tr.colorbar for tr in masked.data if tr.showscale is not False]
    assert bars[0].y > y1[0] and bars[1].y < y2[1]  # each colour bar beside its own panel
    # the 12-layer grid: a phone's screen or two, not 1,650 px
    assert grid.layout.height <= 800 < figs["grid"].layout.height
    assert {a.font.size for a in grid.layout.annotations} == {fg.BASE_FONT}  # 6 heads: "H1".."H6" fit
    eight = _apply(fg.head_grid(probs(3, 8, 6, 6), SENTENCE, SENTENCE, "g"), "narrow")  # ~30 px a head
    assert {a.font.size for a in eight.layout.annotations} == {12}  # "H3H4" ran together at 14 px
    heads = [a for a in eight.layout.annotations if a.text.startswith("H")]
    # centred over their maps: plotly's "auto" anchored the left third's by their left end, the right third's
    # by their right end (10 px off over a phone's 21 px maps)
    assert len(heads) == 8 and {a.xanchor for a in heads} == {"center"}
    assert np.allclose(np.diff([a.x for a in heads]), heads[1].x - heads[0].x)  # evenly spaced
    # past the matrix budget tick labels shrink, never below the floor
    long = _apply(figs["long"], "narrow")
    assert fg.tick_font(1, 1) <= long.layout.xaxis.tickfont.size < figs["long"].layout.xaxis.tickfont.size


@pytest.mark.parametrize("text", ["Layer 12: entropy of each head's attention row (nats; uniform = log 17 = 2.83)",
                                  "디코더 마스크드 셀프 어텐션: 레이어 1, 헤드 1", "Encoder self-attention: all layers × heads",
                                  "a " * 60, "&lt;img src=x onerror=alert(1)&gt; " * 4, "short"])
def test_a_long_title_breaks_into_lines_that_fit_a_phone(text):
    lines = fg.wrap_title(text)
    assert " ".join(lines).split() == text.split()  # every word, in order, none cut
    for line in lines:  # each fits (a single word longer than the width stands alone)
        assert fg.text_em(html.unescape(line)) * fg.NARROW_TITLE_FONT <= fg.NARROW_TITLE_PX or " " not in line
    if ": " in text and len(lines) > 1:
        assert lines[0].endswith(":")  # "Layer 12:" above what it names
    assert fg.wrap_title("already<br>two lines" + " x" * 50) == ["already<br>two lines" + " x" * 50]
