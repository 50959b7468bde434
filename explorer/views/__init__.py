"""The gradio-free view layer: one module per tab (explorer/views/<tab>.py) composes its records into
figures, tables, text and downloads; this package's own module holds what they share: markdown escaping
(`md`, `notices_md`), tables of matrices (`matrix_table`), the downloads (`write_downloads`: record JSON,
CSV tables and an offline HTML of the figures) and the checks of 1-based UI numbers.

The tabs (ui/tabs/<tab>.py) lay these views out; the CLI, bench/ and the tests call them directly.
Numbers come from explorer.inference / lab / snapshots / live, figures from explorer.figures /
lab_figures / live_figures. Errors a user can cause raise `UserError`; ui.components.friendly turns
them into a message on screen. No gradio here.
"""
from __future__ import annotations

import dataclasses
import functools
import html
import math
import re
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np
import orjson
import pandas as pd
import plotly.graph_objects as go

from explorer import figures as fg
from explorer.i18n import lang_code, notice_text
from explorer.inference import UserError
from models.trace import json_array


DOWNLOADS = Path(tempfile.gettempdir()) / "attention-explorer-downloads"
KEEP_DOWNLOADS_S = 3600


# ----------------------------------------------------------------------------- text and downloads

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~])")


def md(text) -> str:
    """User text (tokens, notices) made inert for gr.Markdown: HTML escaped, markdown escaped."""
    return _MD_SPECIAL.sub(r"\\\1", html.escape(str(text), quote=False))


def notices_md(notices, lead: list[str] = (), lang: str = "en") -> str:
    """The lead lines, then each notice (in `lang` when it is a keyed Notice) with a warning sign."""
    return "\n\n".join(list(lead) + [f"⚠️ {md(notice_text(n, lang))}" for n in notices])


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_") or "view"


def matrix_table(matrix, rows, cols) -> pd.DataFrame:
    """A matrix with its tokens as row and column labels (repeated tokens are fine in a CSV)."""
    return pd.DataFrame(np.asarray(matrix), index=pd.Index(list(rows), name="query \\ key"), columns=list(cols))


@functools.lru_cache(maxsize=1)
def _plotly_js() -> str:
    """plotly.js as an inline <script>, read once per process (it is 4.7 MB)."""
    from plotly.offline import get_plotlyjs
    return f"<script type='text/javascript'>{get_plotlyjs()}</script>"


# plotly runs this after drawing the plot {plot_id}, and keeps it running after every redraw (a resized window)
_AFTER_DRAW_SCRIPT = ("var gd = document.getElementById('{plot_id}'), beside = " + fg.COLORBAR_BESIDE_JS
                      + ", values = " + fg.VALUE_TABLES_JS + ";\n"
                      "gd.on('plotly_afterplot', function () { beside(gd); values(gd); }); beside(gd); values(gd);")


def figures_html(title: str, figs: dict[str, go.Figure], lang: str = "en") -> str:
    """Every figure of a tab in one page that works offline (plotly.js inlined once), in `lang` (the page's
    <html lang>, for screen readers and fonts). As on the page, a heatmap's colour bar stands beside its map after
    each draw (figures.COLORBAR_BESIDE_JS), and its values follow it as a table for screen readers
    (figures.VALUE_TABLES_JS)."""
    parts = [f"<h2>{html.escape(name)}</h2>" + fig.to_html(full_html=False, include_plotlyjs=False,
                                                           post_script=_AFTER_DRAW_SCRIPT)
             for name, fig in figs.items()]
    return (f"<!DOCTYPE html><html lang='{lang_code(lang)}'><head><meta charset='utf-8'>"
            f"<title>{html.escape(title)}</title><style>{fg.VALUE_TABLES_CSS}</style>"
            f"{_plotly_js()}</head><body>{''.join(parts)}</body></html>")


def jsonable(obj):
    """Records (dataclasses of tokens, numpy arrays, tables) as plain JSON values. Arrays are
    rounded to 6 decimals; non-finite numbers (a masked score's -inf) become None, since
    JSON has no infinity."""
    if isinstance(obj, pd.DataFrame):  # before to_json: a DataFrame's to_json returns a string
        return jsonable(obj.to_dict("records"))
    if hasattr(obj, "to_json"):
        return obj.to_json()
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: jsonable(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return json_array(obj)
    if isinstance(obj, (np.floating, float)):
        return float(obj) if math.isfinite(obj) else None
    if isinstance(obj, np.integer):
        return int(obj)
    return obj


def write_downloads(stem: str, record, tables: dict[str, pd.DataFrame],
                    figs: dict[str, go.Figure] | None = None, lang: str = "en") -> list[str]:
    """record.json + one CSV per shown matrix/table (+ one offline HTML of the figures when
    `figs` is given, in the figures' language `lang`); returns the paths. Files live an hour."""
    DOWNLOADS.mkdir(exist_ok=True)
    now = time.time()
    for old in DOWNLOADS.iterdir():  # downloads are per request; keep an hour of them
        if old.is_dir() and now - old.stat().st_mtime > KEEP_DOWNLOADS_S:
            shutil.rmtree(old, ignore_errors=True)
    folder = Path(tempfile.mkdtemp(dir=DOWNLOADS))
    stem = _safe(stem)
    paths = [folder / f"{stem}.json"]
    # orjson: ~7x faster than json on a BERT paragraph's 4.7M attention numbers (bench/long_input.py); UTF-8
    paths[0].write_bytes(orjson.dumps(jsonable(record)))
    for name, table in tables.items():
        paths.append(folder / f"{stem}-{_safe(name)}.csv")
        # row labels only where they mean something (tokens, layers), not pandas' 0, 1, 2 …; a byte-order
        # mark, so that Excel reads the Korean and French tokens as UTF-8 (pandas and csv's utf-8-sig skip it)
        labelled = table.index.name is not None or not table.index.equals(pd.RangeIndex(len(table)))
        table.to_csv(paths[-1], encoding="utf-8-sig", index=labelled)
    if figs:
        paths.append(folder / f"{stem}-figures.html")
        paths[-1].write_text(figures_html(stem, figs, lang), encoding="utf-8")
    return [str(p) for p in paths]


def whole_number(value, what: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError):
        raise UserError(f"{what} must be a whole number.", "whole_any", name=what) from None


def one_based(value, what: str, n: int) -> int:
    """A 1-based UI number (layer, head, snapshot) -> 0-based index, or a UserError with the range."""
    v = whole_number(value, what)
    if not 1 <= v <= n:
        raise UserError(f"{what} must be from 1 to {n} (got {v}).", "range", name=what, lo=1, hi=n, value=v)
    return v - 1
