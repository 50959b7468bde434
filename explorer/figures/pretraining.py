"""Figures of BERT's pre-training objectives over many draws (explorer/compute/pretraining.py's records): the masked-LM
shares converging to 15% and 80/10/10, and NSP's pairs with the share of IsNext converging to 50%.

Pure: numpy arrays and strings in, a plotly figure out; no torch, models or gradio. Every number drawn is an
argument (the targets too: the caller passes the data code's). The words besides numbers are WORDS[lang]; text
is HTML-escaped before plotly sees it (the sentences of a pair are data, not markup).
"""
from __future__ import annotations

import html

import numpy as np

from explorer.figures import BASE_FONT, TITLE_FONT, _figure

WORDS = {
    "en": {"masking_title": "BERT's masking over many sentences: the shares converge",
           "sentences": "sentences masked", "chosen_axis": "share of tokens",
           "of_chosen_axis": "share of the chosen tokens",
           "chosen": "chosen for prediction", "mask": "[MASK]", "random": "random token", "keep": "unchanged",
           "target": "the rule", "nsp_title": "How NSP's pairs are built", "a": "sentence A", "b": "sentence B",
           "label": "label", "draws": "pairs drawn", "is_next": "share of IsNext"},
    "ko": {"masking_title": "여러 문장에 걸친 BERT의 마스킹: 비율이 수렴합니다",
           "sentences": "마스킹한 문장 수", "chosen_axis": "토큰 중 비율",
           "of_chosen_axis": "고른 토큰 중 비율",
           "chosen": "예측 대상으로 고른 토큰", "mask": "[MASK]", "random": "무작위 토큰", "keep": "그대로",
           "target": "규칙의 값", "nsp_title": "NSP의 문장 쌍을 만드는 방법", "a": "문장 A", "b": "문장 B",
           "label": "레이블", "draws": "뽑은 쌍의 수", "is_next": "IsNext의 비율"},
}
COLORS = {"chosen": "#1f77b4", "mask": "#d62728", "random": "#2ca02c", "keep": "#9467bd", "is_next": "#1f77b4"}


def _w(words: dict | None) -> dict:
    return {k: html.escape(v, quote=False) for k, v in {**WORDS["en"], **(words or {})}.items()}


def _line(x, y, name: str, color: str, xaxis: str, yaxis: str) -> dict:
    return dict(type="scatter", mode="lines", x=np.asarray(x), y=np.asarray(y, dtype=np.float64), name=name,
                line=dict(color=color, width=2), xaxis=xaxis, yaxis=yaxis,
                hovertemplate=f"{name}<br>%{{x}}: %{{y:.4f}}<extra></extra>")


def _target(value: float, color: str, yref: str) -> dict:
    """The rule's share as a dotted line across its panel."""
    return dict(type="line", xref="paper", x0=0, x1=1, yref=yref, y0=value, y1=value,
                line=dict(color=color, dash="dot", width=1.5))


def _check(x, *ys) -> np.ndarray:
    x = np.asarray(x)
    if x.ndim != 1 or not len(x) or any(np.shape(y) != x.shape for y in ys):
        raise ValueError(f"running shares of shapes {[np.shape(y) for y in ys]} for {x.shape} draws")
    return x


def masking_shares(sentences, chosen, mask, random, keep, targets: dict, words: dict | None = None):
    """Two panels over the number of sentences masked (log axis): above, the share of tokens chosen for
    prediction; below, among the chosen, the shares shown as [MASK], as a random token and unchanged. Each
    target (the rule: targets["chosen"], ["mask"], ["random"], ["keep"]) is a dotted line in its colour."""
    w = _w(words)
    x = _check(sentences, chosen, mask, random, keep)
    curves = {"chosen": chosen, "mask": mask, "random": random, "keep": keep}
    # each line's legend entry carries its last share beside the rule's (the dotted line), so a projector shows both
    names = {k: f"{w[k]}: {float(np.asarray(y)[-1]):.1%} ({w['target']} {targets[k]:.0%})" for k, y in curves.items()}
    data = [_line(x, y, names[k], COLORS[k], *(("x", "y") if k == "chosen" else ("x2", "y2")))
            for k, y in curves.items()]
    shapes = [_target(targets[k], COLORS[k], "y" if k == "chosen" else "y2") for k in curves]
    layout = dict(title=dict(text=w["masking_title"], font=dict(size=TITLE_FONT)), height=600,
                  font=dict(size=BASE_FONT), plot_bgcolor="white", margin=dict(l=10, r=10, t=60, b=10),
                  legend=dict(orientation="h", y=-0.14), shapes=shapes,
                  xaxis=dict(type="log", domain=[0, 1], anchor="y", showticklabels=False, gridcolor="#eee"),
                  yaxis=dict(domain=[0.62, 1], range=[0, 0.3], tickformat=".0%", automargin=True, gridcolor="#eee",
                             title=dict(text=w["chosen_axis"])),
                  xaxis2=dict(type="log", domain=[0, 1], anchor="y2", matches="x", gridcolor="#eee",
                              title=dict(text=w["sentences"])),
                  yaxis2=dict(domain=[0, 0.55], range=[0, 1], tickformat=".0%", automargin=True, gridcolor="#eee",
                              title=dict(text=w["of_chosen_axis"])))
    return _figure(data, layout)


def nsp_pairs(rows, draws, is_next_share, target: float, words: dict | None = None):
    """Above, a table of pairs as built (sentence A, sentence B, IsNext or NotNext); below, the running share of
    IsNext over the pairs drawn (log axis), `target` dotted."""
    w = _w(words)
    x = _check(draws, is_next_share)
    cells = [[html.escape(str(r[i]), quote=False) for r in rows] for i in range(3)]
    table = dict(type="table", domain=dict(x=[0, 1], y=[0.44, 1]), columnwidth=[4, 4, 1.2],
                 header=dict(values=[w["a"], w["b"], w["label"]], align="left", font=dict(size=BASE_FONT)),
                 cells=dict(values=cells, align="left", font=dict(size=BASE_FONT - 1), height=30,
                            fill=dict(color=[["#eef4fb" if r[2] == "IsNext" else "#fbeeee" for r in rows]] * 3)))
    share = _line(x, is_next_share, w["is_next"], COLORS["is_next"], "x", "y")
    last = float(np.asarray(is_next_share)[-1])
    note = dict(text=f"{w['is_next']}: {last:.1%} ({w['draws']}: {int(x[-1])})", x=1, xref="paper",
                xanchor="right", y=0.05, yref="y", yanchor="bottom", showarrow=False, font=dict(size=14))
    layout = dict(title=dict(text=w["nsp_title"], font=dict(size=TITLE_FONT)), height=340 + 60 * len(rows),
                  font=dict(size=BASE_FONT), plot_bgcolor="white", margin=dict(l=10, r=10, t=60, b=10),
                  showlegend=False, shapes=[_target(target, COLORS["is_next"], "y")], annotations=[note],
                  xaxis=dict(type="log", domain=[0, 1], anchor="y", gridcolor="#eee", title=dict(text=w["draws"])),
                  yaxis=dict(domain=[0, 0.34], range=[0, 1], tickformat=".0%", automargin=True, gridcolor="#eee",
                             title=dict(text=w["is_next"])))
    return _figure([table, share], layout)
