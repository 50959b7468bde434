"""Downloads written when a visitor asks for them, and the disk budget of the app's temporary files: a
run or a slider move used to rewrite every download, so a public Space filled its disk.

A view says what its downloads are without writing anything: `to_download(stem, record, tables, figs, lang)`
gives a `Downloads`, a small handle (a key, the file names) that a page keeps in a gr.State; what the files are
made from (the record, its tables and figures) waits in a byte-budgeted cache (`pending()`, like the records'
in explorer/serve/cache.py). The page's download button calls `Downloads.write()`: a slider move or a run writes
nothing.

What is written:
* `<stem>.json`, the record; past `heads_max_tokens()` tokens (the API's rule, explorer.views.api) each attention
  array keeps its mean over heads in place of every head (models.trace.Trace.to_json(heads=False): [L, 1, q, k]),
  and the JSON says so under "download_note";
* one CSV per table;
* `<stem>-figures.html`, every figure of the view, which loads plotly.js from `plotly-<version>.min.js` beside it
  (one copy in the folder, written once, listed with the files: saved together they work offline) and from
  plotly's CDN when that file is not there (not the 4.7 MB library inlined in every page).

Disk: `DiskBudget` keeps the app's folder and Gradio's cache (GRADIO_TEMP_DIR) under `BUDGET_MB` together: files
older than `MAX_AGE_S` go first, then the oldest until the folders fit; it runs after every write and every
`SWEEP_EVERY_S` in a thread (`Sweeper`, `start_sweeper`), beside Gradio's own `delete_cache`. Gradio-free.
"""
from __future__ import annotations

import dataclasses
import functools
import html
import inspect
import logging
import os
import re
import secrets
import tempfile
import threading
import time
import weakref
from pathlib import Path

import numpy as np
import orjson

from explorer import figures as fg
from explorer.serve.cache import DEFAULT_TTL, RecordCache, expire_in_background, sharing
from explorer.i18n import lang_code

log = logging.getLogger("attention_explorer")

def _env(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return default


BUDGET_MB = 500  # the app's temporary files and Gradio's cache together (ATTN_EXPLORER_DISK_MB)
MAX_AGE_S = int(_env("ATTN_EXPLORER_DISK_AGE_S", 30 * 60))  # a file is deleted this long after it was written
SWEEP_EVERY_S = int(_env("ATTN_EXPLORER_SWEEP_S", 5 * 60))  # the timed clean-up's period (and Gradio's)
PENDING_MB = 256  # what downloads are made from, waiting for a press (ATTN_EXPLORER_PENDING_MB)
FOLDER_ENV = "ATTN_EXPLORER_DOWNLOADS_DIR"  # where `write()` puts files by default


def default_folder() -> Path:
    """$ATTN_EXPLORER_DOWNLOADS_DIR, else <tmp>/attention-explorer-downloads (the app passes Gradio's cache)."""
    return Path(os.environ.get(FOLDER_ENV) or Path(tempfile.gettempdir()) / "attention-explorer-downloads")


# ----------------------------------------------------------------------------- what the JSON holds


API_TRACE_MAX_TOKENS = 64  # /fill_mask and /nsp send every layer and head for inputs up to this many tokens
# (explorer/views/api.py); the downloads follow the same rule


def heads_max_tokens() -> int:
    return API_TRACE_MAX_TOKENS


def attention_tokens(record) -> int:
    """The most tokens on any axis of the record's per-head attention ([L, H, q, k]: a Trace's arrays, or a 4-D
    array field such as a rollout's), 0 when it has none."""
    most, seen = 0, set()

    def visit(obj, depth):
        nonlocal most
        if id(obj) in seen or depth > 4:
            return
        seen.add(id(obj))
        if isinstance(obj, np.ndarray):
            if obj.ndim == 4:
                most = max(most, obj.shape[-1], obj.shape[-2])
        elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            for f in dataclasses.fields(obj):
                visit(getattr(obj, f.name), depth + 1)
        elif isinstance(obj, dict):
            for v in obj.values():
                visit(v, depth + 1)
        elif isinstance(obj, (list, tuple)) and len(obj) < 64:
            for v in obj:
                visit(v, depth + 1)

    visit(record, 0)
    return most


@functools.lru_cache(maxsize=None)
def _takes_heads(cls) -> bool:
    try:
        return "heads" in inspect.signature(cls.to_json).parameters
    except (TypeError, ValueError):
        return False


def jsonable(obj, heads: bool = True):
    """Records (dataclasses of tokens, numpy arrays, tables) as plain JSON values. Arrays are rounded to 6
    decimals; non-finite numbers (a masked score's -inf) become None, since JSON has no infinity. heads=False:
    per-head attention as its mean over heads (a record's to_json(heads=False); a 4-D array [L, H, q, k] as
    [L, 1, q, k])."""
    import pandas as pd

    from models.trace import json_array

    if isinstance(obj, pd.DataFrame):  # before to_json: a DataFrame's to_json returns a string
        return jsonable(obj.to_dict("records"), heads)
    if hasattr(obj, "to_json") and not isinstance(obj, type):
        return obj.to_json(heads=heads) if not heads and _takes_heads(type(obj)) else obj.to_json()
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: jsonable(getattr(obj, f.name), heads) for f in dataclasses.fields(obj)}
    if isinstance(obj, dict):
        return {str(k): jsonable(v, heads) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [jsonable(v, heads) for v in obj]
    if isinstance(obj, np.ndarray):
        if not heads and obj.ndim == 4 and obj.dtype.kind == "f":
            obj = np.where(np.isfinite(obj), obj, 0).mean(1, keepdims=True)
        return json_array(obj)
    if isinstance(obj, (np.floating, float)):
        return float(obj) if np.isfinite(obj) else None
    if isinstance(obj, np.integer):
        return int(obj)
    return obj


def record_json(record) -> bytes:
    """The record's JSON download (UTF-8): every head up to `heads_max_tokens()` tokens, else the heads' mean."""
    n, limit = attention_tokens(record), heads_max_tokens()
    data = jsonable(record, heads=n <= limit)
    if n > limit and isinstance(data, dict):
        data["download_note"] = (f"Attention is the mean over heads ([layers, 1, query, key]): every head is saved "
                                 f"for inputs of up to {limit} tokens (this one has {n}), as in the API; "
                                 "explorer.compute.inference in Python returns every head for any length.")
    # orjson: ~7x faster than json on a BERT paragraph's attention numbers (bench/long_input.py)
    return orjson.dumps(data)


# ----------------------------------------------------------------------------- the figures page


def plotly_js_name() -> str:
    from plotly.offline import get_plotlyjs_version
    return f"plotly-{get_plotlyjs_version()}.min.js"


def plotly_js_file(folder: Path) -> Path:
    """plotly.js in `folder`, written once (4.7 MB); its time is renewed on each use, so a clean-up by age keeps
    it while pages that need it are written."""
    path = folder / plotly_js_name()
    if not path.is_file():
        from plotly.offline import get_plotlyjs
        staging = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
        staging.write_text(get_plotlyjs(), encoding="utf-8")
        os.replace(staging, path)  # a concurrent writer never serves half a file
    else:
        os.utime(path)
    return path


def plotly_script() -> str:
    """The <script>s of a figures page: plotly.js from the file beside the page, else from plotly's CDN."""
    name = plotly_js_name()
    return (f"<script src='{name}'></script><script>window.Plotly || document.write("
            f"'<script src=\"https://cdn.plot.ly/{name}\"><\\/script>')</script>")


# ----------------------------------------------------------------------------- downloads on demand


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_") or "view"


def _count(value) -> int:
    """How many values a figure property holds (nested lists, possibly ragged)."""
    if isinstance(value, (list, tuple)):
        return sum(_count(v) for v in value)
    return 1


@dataclasses.dataclass(frozen=True)
class Payload:
    """What a view's downloads are made from (kept in `pending()` until a press)."""
    stem: str
    record: object
    tables: dict  # name -> pandas DataFrame
    figs: dict  # name -> go.Figure (empty: no figures page)
    lang: str

    def nbytes(self) -> int:
        """Its memory, estimated: the record's arrays, the tables' columns, and the figures' data arrays (walking
        a go.Figure's objects, as explorer.serve.cache.nbytes would, took 30-40 ms a slider move: bench/redraw.py)."""
        from explorer.serve.cache import nbytes

        size = nbytes(self.record) + sum(int(t.memory_usage(index=True, deep=False).sum()) for t in self.tables.values())
        for fig in self.figs.values():
            for trace in fig.data:
                for prop in ("x", "y", "z", "text", "customdata"):
                    value = trace[prop] if prop in trace else None
                    if value is not None and not isinstance(value, str):
                        size += getattr(value, "nbytes", None) or 8 * _count(value)
        return size


@dataclasses.dataclass(frozen=True, eq=False)
class Downloads:
    """A view's downloads, not yet written: `names` the files `write()` would give (plotly.js aside). Falsy when
    the view has none (a live run still training). `source` is the key of its Payload in `pending()`, or the
    Payload itself for a first screen every visitor shares (explorer.serve.cache.shared)."""
    names: tuple[str, ...] = ()
    source: object = None
    lang: str = "en"  # the figures' language, and the button's messages'

    def __len__(self) -> int:
        return len(self.names)

    def __deepcopy__(self, memo):
        return self  # immutable: a gr.State's initial value is deep-copied for every visitor

    def payload(self) -> Payload:
        from explorer.compute.inference import UserError

        if isinstance(self.source, Payload):
            return self.source
        p = pending().get(self.source)
        if p is None:
            raise UserError(f"These files are no longer prepared on the server (a result's files wait "
                            f"{DEFAULT_TTL // 60} minutes after its last use, or less when many visitors are "
                            "here); run the view again and press the button.", "downloads_gone",
                            minutes=DEFAULT_TTL // 60)
        return p

    def write(self, folder: Path | None = None, budget: "DiskBudget | None" = None) -> list[str]:
        """Write the files into a new folder under `folder` (default_folder()) and return their paths; then the
        disk budget is kept (`budget`, default `disk_budget()`), the new files last to go. A set bigger than the
        whole budget is deleted again and refused."""
        from explorer.compute.inference import UserError

        if not self.names:
            return []
        import pandas as pd

        p = self.payload()
        root = Path(folder) if folder is not None else default_folder()
        root.mkdir(parents=True, exist_ok=True)
        out = Path(tempfile.mkdtemp(dir=root))
        paths = [out / f"{p.stem}.json"]  # the payload's names: the latest of its record and view
        paths[0].write_bytes(record_json(p.record))
        for name, table in p.tables.items():
            paths.append(out / f"{p.stem}-{_safe(name)}.csv")
            # row labels only where they mean something (tokens, layers), not pandas' 0, 1, 2 …; a byte-order
            # mark, so that Excel reads the Korean and French tokens as UTF-8 (pandas and csv's utf-8-sig skip it)
            labelled = table.index.name is not None or not table.index.equals(pd.RangeIndex(len(table)))
            table.to_csv(paths[-1], encoding="utf-8-sig", index=labelled)
        if p.figs:
            paths.append(out / f"{p.stem}-figures.html")
            paths[-1].write_text(figures_html(p.stem, p.figs, p.lang, plotly=plotly_script()), encoding="utf-8")
            paths.append(plotly_js_file(root))
        budget = budget or disk_budget()
        size = sum(q.stat().st_size for q in paths)
        if size > budget.max_bytes:
            for q in paths[:-1] if p.figs else paths:
                q.unlink(missing_ok=True)
            raise UserError(f"These files would take {size / 1e6:.0f} MB, more than the server keeps for all "
                            f"visitors ({budget.max_bytes / 1e6:.0f} MB).", "downloads_too_big",
                            mb=f"{size / 1e6:.0f}", limit=f"{budget.max_bytes / 1e6:.0f}")
        budget.sweep(keep=set(paths))
        return [str(q) for q in paths]


NO_DOWNLOADS = Downloads()


def to_download(stem: str, record, tables: dict, figs: dict | None = None, lang: str = "en") -> Downloads:
    """A view's downloads, written only by `write()` (the page's button): record.json, one CSV per table, and one
    HTML page of the figures when `figs` is given, in the figures' language `lang`."""
    stem = _safe(stem)
    payload = Payload(stem, record, dict(tables), dict(figs or {}), lang)
    names = (f"{stem}.json", *(f"{stem}-{_safe(n)}.csv" for n in tables), *((f"{stem}-figures.html",) if figs else ()))
    if sharing():
        return Downloads(names, payload, lang)
    return Downloads(names, pending().put(payload, key=_key_of(record, stem), size=payload.nbytes()), lang)


_BY_RECORD: dict = {}  # (id(record), stem) -> (weakref to the record, its key in pending())


def _key_of(record, stem: str) -> str | None:
    """One key per record and view: a slider move's downloads replace the last move's in `pending()` (one entry,
    its record counted once) instead of filling it. The key is dropped with the record (a weak reference, so
    that another record at the same address never gets it); None (a new key) for a record that has no weak
    reference (a dict)."""
    try:
        ref = weakref.ref(record)
    except TypeError:
        return None
    at = (id(record), stem)
    with _LOCK:
        known = _BY_RECORD.get(at)
        if known is not None and known[0]() is record:
            return known[1]
        key = secrets.token_urlsafe(32)
        _BY_RECORD[at] = (ref, key)
    weakref.finalize(record, _BY_RECORD.pop, at, None)
    return key


_PENDING: RecordCache | None = None
_LOCK = threading.Lock()


def pending() -> RecordCache:
    """The process-wide cache of downloads waiting for a press: PENDING_MB (ATTN_EXPLORER_PENDING_MB), least
    recently used out first, each dropped DEFAULT_TTL after its last use. Apart from the records' cache, so
    that slider moves (each a new Downloads) never push a visitor's record out."""
    global _PENDING
    with _LOCK:
        if _PENDING is None:
            _PENDING = expire_in_background(RecordCache(int(_env("ATTN_EXPLORER_PENDING_MB", PENDING_MB) * 2**20),
                                                         DEFAULT_TTL))
        return _PENDING


# ----------------------------------------------------------------------------- the disk budget


class DiskBudget:
    """`folders` (nested ones counted once) kept under `max_bytes` together: `sweep()` deletes files older than
    `max_age` seconds, then the oldest until the rest fit, then empty folders; `keep` is spared. Thread-safe."""

    def __init__(self, folders, max_bytes: int, max_age: float, clock=time.time):
        self.folders = [Path(f) for f in folders]
        self.max_bytes, self.max_age, self.clock = int(max_bytes), float(max_age), clock
        self._lock = threading.Lock()
        self.stats = {"sweeps": 0, "deleted": 0, "deleted_bytes": 0}

    def files(self) -> list[tuple[float, int, str]]:
        """(mtime, size, path) of every file under the folders, each once."""
        seen, out = set(), []
        for folder in self.folders:
            for root, _, names in os.walk(folder):
                for n in names:
                    path = os.path.realpath(os.path.join(root, n))
                    if path in seen:
                        continue
                    seen.add(path)
                    try:
                        st = os.lstat(path)
                    except OSError:
                        continue
                    out.append((st.st_mtime, st.st_size, path))
        return out

    def usage(self) -> int:
        return sum(size for _, size, _ in self.files())

    def sweep(self, keep=()) -> dict:
        """Delete what is too old, then the oldest past the budget; returns {"deleted", "bytes", "left"}."""
        keep = {os.path.realpath(k) for k in keep}
        with self._lock:
            files = sorted(self.files())
            now, total, deleted, freed = self.clock(), sum(f[1] for f in files), 0, 0
            for mtime, size, path in files:
                if path in keep or (now - mtime <= self.max_age and total <= self.max_bytes):
                    continue
                try:
                    os.remove(path)
                except OSError:
                    continue
                total, deleted, freed = total - size, deleted + 1, freed + size
            self._remove_empty_folders()
            self.stats["sweeps"] += 1
            self.stats["deleted"] += deleted
            self.stats["deleted_bytes"] += freed
            return {"deleted": deleted, "bytes": freed, "left": total}

    def _remove_empty_folders(self) -> None:
        """The empty folders of single writes (mkdtemp's tmpXXXXXXXX, Gradio's cache's sha256 ones), a minute old
        (not one a write is filling right now); any other folder, Gradio's own included, stays."""
        for folder in self.folders:
            for root, dirs, names in os.walk(folder, topdown=False):
                if not dirs and not names and _DISPOSABLE.match(os.path.basename(root)) and \
                        self.clock() - os.stat(root).st_mtime > 60:
                    try:
                        os.rmdir(root)
                    except OSError:
                        pass


_DISPOSABLE = re.compile(r"^(tmp[a-z0-9_]{8}|[0-9a-f]{64})$")


_BUDGET: DiskBudget | None = None
_EXTRA: list[Path] = []


def watch(folder) -> None:
    """Count `folder` (Gradio's cache, the app's download folder) in the disk budget too."""
    global _BUDGET
    with _LOCK:
        if Path(folder) not in _EXTRA:
            _EXTRA.append(Path(folder))
        _BUDGET = None


def disk_budget() -> DiskBudget:
    """The process-wide budget over default_folder() and the folders `watch` added: BUDGET_MB
    (ATTN_EXPLORER_DISK_MB), files older than MAX_AGE_S deleted first."""
    global _BUDGET
    with _LOCK:
        if _BUDGET is None:
            _BUDGET = DiskBudget([default_folder(), *_EXTRA], int(_env("ATTN_EXPLORER_DISK_MB", BUDGET_MB) * 1e6),
                                 MAX_AGE_S)
        return _BUDGET


class Sweeper(threading.Thread):
    """The timed clean-up: `budget.sweep()` (default `disk_budget()`) every `every` seconds until `stop()`."""

    def __init__(self, every: float = SWEEP_EVERY_S, budget: DiskBudget | None = None):
        super().__init__(name="disk-budget", daemon=True)
        self.every, self.budget, self.stopped = every, budget, threading.Event()

    def run(self) -> None:
        while not self.stopped.wait(self.every):
            try:
                done = (self.budget or disk_budget()).sweep()
                if done["deleted"]:
                    log.info("disk budget: deleted %d files (%.1f MB), %.1f MB left", done["deleted"],
                             done["bytes"] / 1e6, done["left"] / 1e6)
            except Exception:  # noqa: BLE001 - the next sweep tries again
                log.exception("disk budget sweep failed")

    def stop(self) -> None:
        self.stopped.set()


_SWEEPER: Sweeper | None = None


def start_sweeper(every: float = SWEEP_EVERY_S) -> Sweeper:
    """The process's timed clean-up of `disk_budget()` (started once; app.py's main guard)."""
    global _SWEEPER
    with _LOCK:
        if _SWEEPER is None or not _SWEEPER.is_alive():
            _SWEEPER = Sweeper(every)
            _SWEEPER.start()
        return _SWEEPER


# ----------------------------------------------------------------------------- the figures page


@functools.lru_cache(maxsize=1)
def _plotly_js() -> str:
    """plotly.js as an inline <script>, read once per process (it is 4.7 MB)."""
    from plotly.offline import get_plotlyjs
    return f"<script type='text/javascript'>{get_plotlyjs()}</script>"


# plotly runs this after drawing the plot {plot_id}, and keeps it running after every redraw (a resized window)
_AFTER_DRAW_SCRIPT = ("var gd = document.getElementById('{plot_id}'), beside = " + fg.COLORBAR_BESIDE_JS
                      + ", values = " + fg.VALUE_TABLES_JS + ";\n"
                      "gd.on('plotly_afterplot', function () { beside(gd); values(gd); }); beside(gd); values(gd);")


def figures_html(title: str, figs: dict[str, go.Figure], lang: str = "en", plotly: str | None = None) -> str:
    """Every figure of a tab in one page, in `lang` (the page's <html lang>, for screen readers and fonts), with
    `plotly` as its <script>s (the downloads': plotly.js from the file beside it, explorer.serve.downloads.plotly_script),
    by default plotly.js inlined (4.7 MB: one page that works offline on its own). As on the page, a heatmap's
    colour bar stands beside its map after each draw (figures.COLORBAR_BESIDE_JS), and its values follow it as a
    table for screen readers (figures.VALUE_TABLES_JS)."""
    parts = [f"<h2>{html.escape(name)}</h2>" + fig.to_html(full_html=False, include_plotlyjs=False,
                                                           post_script=_AFTER_DRAW_SCRIPT)
             for name, fig in figs.items()]
    return (f"<!DOCTYPE html><html lang='{lang_code(lang)}'><head><meta charset='utf-8'>"
            f"<title>{html.escape(title)}</title><style>{fg.VALUE_TABLES_CSS}</style>"
            f"{_plotly_js() if plotly is None else plotly}</head><body>{''.join(parts)}</body></html>")
