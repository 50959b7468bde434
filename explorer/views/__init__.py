"""The gradio-free view layer: one module per tab (explorer/views/<tab>.py) composes its records into
figures, tables, text and downloads; this package's own module holds what they share: markdown escaping
(`md`, `notices_md`), tables of matrices (`matrix_table`), the downloads (`to_download`: record JSON, CSV tables
and a page of the figures, written only when the visitor presses the download button: explorer/serve/downloads.py)
and the checks of 1-based UI numbers.

The tabs (ui/tabs/<tab>.py) lay these views out; the CLI, bench/ and the tests call them directly.
Numbers come from explorer.compute (inference, lab, snapshots, live, ...), figures from explorer.figures (its
shared ones and its per-view modules). Errors a user can cause raise `UserError`; ui.components.friendly turns
them into a message on screen. No gradio here.
"""
from __future__ import annotations

import html
import re

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from explorer import figures as fg
from explorer.serve.downloads import NO_DOWNLOADS, Downloads, figures_html, jsonable, to_download  # noqa: F401 (the views' imports)
from explorer.serve.cache import keep, shared, stored  # noqa: F401 (the tabs' records: a key in the page, the record here)
from explorer.i18n import notice_text
from explorer.compute.inference import UserError


# ----------------------------------------------------------------------------- text and downloads

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~])")


def md(text) -> str:
    """User text (tokens, notices) made inert for gr.Markdown: HTML escaped, markdown escaped."""
    return _MD_SPECIAL.sub(r"\\\1", html.escape(str(text), quote=False))


def notices_md(notices, lead: list[str] = (), lang: str = "en") -> str:
    """The lead lines, then each notice (in `lang` when it is a keyed Notice) with a warning sign."""
    return "\n\n".join(list(lead) + [f"⚠️ {md(notice_text(n, lang))}" for n in notices])


def matrix_table(matrix, rows, cols) -> pd.DataFrame:
    """A matrix with its tokens as row and column labels (repeated tokens are fine in a CSV)."""
    return pd.DataFrame(np.asarray(matrix), index=pd.Index(list(rows), name="query \\ key"), columns=list(cols))


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
