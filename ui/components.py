"""The Gradio pieces every tab shares: the error wrapper every handler wears (`friendly`), a results
table and a slider that behave, input checks that run before an event (`validator`), the labeller that
makes components follow the language switch (`Localized`), and small layout helpers.
"""
from __future__ import annotations

import contextvars
import functools
import html
import inspect
import logging
import numbers
from pathlib import Path

import gradio as gr
import numpy as np
import pandas as pd

from explorer.serve import downloads as dl
from explorer import i18n
from explorer.compute import inference as inf
from explorer.compute.inference import UserError
from explorer.views import md

log = logging.getLogger("attention_explorer")

GENERIC_ERROR = i18n.t("err.generic")
# Two plots share a row only where each is at least this wide (Gradio wraps the row's items below it): on a
# 1,280 px screen two half-width plots (600 px) were drawn in the desktop layout with their labels crowded, and at
# 200% zoom (a 640 px page) two 280 px plots had Gradio's labels over their titles.
BESIDE_MIN_PX = 640
# A dropdown that shares a row: at Gradio's 160 px a phone gave "transformer-en-fr" 80 px beside the arrow, which
# covered its end; at this width such a row wraps on a phone and stays one row from about 480 px up.
DROPDOWN_MIN_PX = 220


# ----------------------------------------------------------------------------- errors


def _shown_error(fn_name: str, e: Exception, lang: str = "en") -> gr.Error:
    """UserError -> its message (escaped) in `lang`; anything else -> a generic message, traceback in the log."""
    if isinstance(e, UserError):
        return gr.Error(html.escape(i18n.error_text(e, lang), quote=False), print_exception=False)
    log.exception("unexpected error in %s", fn_name)
    return gr.Error(i18n.t("err.generic", lang), print_exception=False)


def _lang_of(sig: inspect.Signature, args, kwargs) -> str:
    """The language a handler was called in: its `lang` argument (the switch's value, "en" or "ko"), else English."""
    if "lang" not in sig.parameters:
        return "en"
    try:
        return sig.bind_partial(*args, **kwargs).arguments.get("lang", "en")
    except TypeError:
        return "en"


def _in_event() -> bool:
    """Whether this call is a Gradio event of the page (gr.Warning's own test), not a direct call."""
    from gradio.context import LocalContext
    return LocalContext.event_id.get(None) is not None and LocalContext.blocks.get(None) is not None


_DEPTH = contextvars.ContextVar("friendly_depth", default=0)  # friendly handlers on the call stack


def _failed(fn_name: str, e: Exception, lang: str, keep: bool):
    """On the page (`keep`): the message as a warning toast, and every output keeps what it showed
    (gr.skip()). A raised gr.Error would mark every output "Error" and hide the last result.
    Called directly, by another handler, or through the API: the gr.Error is raised."""
    err = e if isinstance(e, gr.Error) else _shown_error(fn_name, e, lang)
    if keep and _in_event():
        gr.Warning(err.message, duration=8)  # its head: "Warning" (Gradio ignores title=), 경고 in Korean (CSS)
        return gr.skip()
    raise err from None


def friendly(fn=None, *, api: bool = False):
    """UserError -> its message on screen; anything else -> a generic message, traceback in the log.
    In an event of the page, the outermost friendly handler shows the message as a warning and every
    output keeps its last value; a handler called by another one, or directly (tests, Python), raises
    the gr.Error, and so do the API endpoints (`api=True`), whose callers read it through
    gradio_client. Generator handlers (live training) stay generators, so Gradio streams them and
    can close them. Every event's handler is friendly (a test checks)."""
    if fn is None:
        return functools.partial(friendly, api=api)
    sig, name = inspect.signature(fn), getattr(fn, "__name__", "handler")
    if inspect.isgeneratorfunction(fn):
        @functools.wraps(fn)
        def generator(*args, **kwargs):
            try:
                yield from fn(*args, **kwargs)  # close() reaches fn's generator through yield from
            except Exception as e:
                yield _failed(name, e, _lang_of(sig, args, kwargs), not api)
        generator.friendly = True
        return generator

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        outermost = _DEPTH.get() == 0
        token = _DEPTH.set(_DEPTH.get() + 1)
        try:
            return fn(*args, **kwargs)
        except Exception as e:
            return _failed(name, e, _lang_of(sig, args, kwargs), outermost and not api)
        finally:
            _DEPTH.reset(token)
    wrapper.friendly = True
    return wrapper


def _decimals(column: pd.Series, most: int = 6) -> int:
    """The decimals the column's finite numbers need, at most `most` (0.1 + 0.2 needs 1)."""
    shown = (f"{v:.{most}f}".rstrip("0") for v in column if isinstance(v, numbers.Real) and np.isfinite(v))
    return max((len(t.split(".")[1]) for t in shown), default=0)


class Table(gr.Dataframe):
    """A results table whose decimal columns each show one number of decimals, the most any of their cells needs:
    Gradio printed each number as short as it goes, 24.9 among 24.92 and -3.762 beside -3.7564. The cells stay
    numbers (the table sorts by value; the API returns the values)."""
    # drawn by the page as a gr.Dataframe: a subclass of another name is taken for a custom component, whose
    # frontend the page then fails to fetch (404); Gradio's own templates (gr.Numpy, ...) are marked so too
    is_template = True

    def postprocess(self, value):
        if isinstance(value, pd.DataFrame) and len(value):
            fmt = {c: f"{{:.{_decimals(value[c])}f}}" for c in value.columns
                   if pd.api.types.is_float_dtype(value[c])}
            if fmt:
                value = value.style.format(fmt, na_rep="")
        return super().postprocess(value)


class Slider(gr.Slider):
    """A slider whose typed-in number past either end is taken as that end (as dragging it would), instead
    of Gradio's own English toast ("Value 99 is greater than maximum value 12.") and a server-log traceback.
    No ↺ unless asked for (buttons=["reset"]): Gradio's reset fires "change" and "release", not "input", so the
    views that follow a slider's "input" (every step, layer and head slider) kept drawing the old value under a
    slider that read its first one. Home / End and the number box remain."""

    def __init__(self, *args, buttons=None, **kwargs):
        super().__init__(*args, buttons=[] if buttons is None else buttons, **kwargs)

    # Gradio writes a component's config from the attributes its __init__ signature names: gr.Slider's, not
    # (*args, **kwargs), or the page gets no range, value or label (it sent 50 for every slider)
    __init__.__signature__ = inspect.signature(gr.Slider.__init__)

    def preprocess(self, payload):
        if isinstance(payload, (int, float)) and not isinstance(payload, bool):
            payload = min(max(payload, self.minimum), self.maximum)
        return super().preprocess(payload)


def load_errors_md(prefix: str = "") -> str:
    """Which checkpoints failed to load (and which file is wrong), for the tab they belong to."""
    errs = {n: e for n, e in inf.registry().errors.items() if n.startswith(prefix)}
    return "\n\n".join(f"❌ Model **{md(n)}** could not be loaded: {md(e)}" for n, e in sorted(errs.items()))


def no_rows(columns: list[str]) -> pd.DataFrame:
    """A table's headers before its first run (Gradio showed "1 2 3" for an empty one)."""
    return pd.DataFrame(columns=columns)


def empty_table_headers(columns: list[list[str]]):
    """A language-switch handler for tables that start empty (their English `columns`, in order): a table
    still without rows gets its headers in the new language; one with a result is left to its view's
    language redraw (gr.skip())."""
    @friendly
    def _headers_of_empty_tables(lang, *tables):
        return [i18n.localized(no_rows(cols), lang) if shows_nothing(table) else gr.skip()
                for table, cols in zip(tables, columns)]
    return _headers_of_empty_tables


def shows_nothing(table) -> bool:
    """No rows, or (what the browser sends back for an empty table) one row of blank cells."""
    if table is None or len(table) == 0:
        return True
    cells = table.astype(object).to_numpy().ravel()
    return all(c is None or (isinstance(c, float) and np.isnan(c)) or str(c).strip() == "" for c in cells)


def sliders(n_layers: int, n_heads: int, layer, head) -> tuple[gr.Slider, gr.Slider]:
    """Updates of a layer and a head slider to a model's depth, keeping the chosen layer and head where they exist."""
    return (gr.Slider(minimum=1, maximum=n_layers, step=1, value=min(int(layer or 1), n_layers)),
            gr.Slider(minimum=1, maximum=n_heads, step=1, value=min(int(head or 1), n_heads)))


# ----------------------------------------------------------------------------- the language switch


class Localized:
    """Components whose label (Markdown and Button: value) follows the language switch, and the
    examples that change with it. `L(gr.Textbox, "s2s.text", max_lines=3)` builds the component
    with the English string of its key and remembers it."""
    TEXT_VALUED = (gr.Markdown, gr.Button)

    def __init__(self):
        self.items: list[tuple] = []  # (component, key, prop, format fields)
        self.example_sets: list[tuple] = []  # (gr.Dataset, view, row function, the inputs' keys)
        self.tables: list[tuple] = []  # (gr.Dataframe, its English column headers): results tables

    def table(self, key: str, columns: list[str], **kwargs) -> gr.Dataframe:
        """A results table labelled by `key`, showing its English `columns` before the first run; the
        language switch gives the still-empty ones their headers in the new language."""
        table = self(Table, key, value=no_rows(columns), interactive=False, **kwargs)
        self.tables.append((table, columns))
        return table

    def __call__(self, cls, key: str, *args, fields: dict | None = None, **kwargs):
        prop = "value" if issubclass(cls, self.TEXT_VALUED) else "label"
        kwargs[prop] = i18n.t(key, "en", **(fields or {}))
        component = cls(*args, **kwargs)
        self.items.append((component, key, prop, fields or {}))
        return component

    def examples(self, view: str, inputs: list, row=lambda r: r) -> gr.Examples | None:
        """i18n.EXAMPLES[view] as clickable examples; `row` maps an entry to the inputs' values
        (None drops it, e.g. for a model that is not loaded)."""
        rows = self.rows(view, "en", row)
        if not rows:
            return None
        ex = gr.Examples(rows, inputs, label=i18n.t("common.examples"))
        # A click on an example sends each input its value *and* the props it was built with
        # (gradio.helpers.Examples.input_component_props), which would put the English label back
        # over the Korean one. Without "label" there, the click leaves the current label alone.
        for props in ex.input_component_props:
            props.pop("label", None)
        keys = {id(c): k for c, k, *_ in self.items}
        self.example_sets.append((ex.dataset, view, row, [keys.get(id(c)) for c in inputs]))
        return ex

    @staticmethod
    def rows(view: str, lang: str, row) -> list[list]:
        return [r for r in (row(list(e)) for e in i18n.examples(view, lang)) if r is not None]

    @property
    def outputs(self) -> list:
        return [c for c, *_ in self.items] + [d for d, *_ in self.example_sets]


@friendly
def language_from_url(request: gr.Request):
    """A link's ?lang=ko (or ko-KR) opens the page in Korean (a course page can link to it): the switch is set, and
    its change events relabel the page. Any other value, or none, leaves English."""
    code = (request.query_params.get("lang") or "").strip().lower().split("-")[0] if request is not None else ""
    return code if code in i18n.LANGS and code != "en" else gr.skip()


def language_updates(localized: Localized, lang) -> list[dict]:
    """The language switch's handler: one update per registered component, in `outputs` order."""
    ups = [gr.update(**{prop: i18n.t(key, lang, **f)}) for _, key, prop, f in localized.items]
    return ups + [gr.update(label=i18n.t("common.examples", lang), samples=Localized.rows(view, lang, row),
                            headers=[i18n.t(k, lang) if k else "" for k in keys])
                  for _, view, row, keys in localized.example_sets]


# ----------------------------------------------------------------------------- views run again for the switch


# ----------------------------------------------------------------------------- input checks before a run


def validator(*checks):
    """A Gradio `validator` for an event whose last input is the language switch: checks[i], where given, gets
    (the i-th input, all inputs) and raises UserError. A failure is written under that input and the event does
    not run, so the last good result stays on screen (with gr.Error every output went blank under an "Error"
    badge). The checks are the model call's own (explorer.compute.inference), without the model."""
    def validate(*args):
        lang = args[-1]
        out = []
        for i, value in enumerate(args):
            message = ""
            if i < len(checks) and checks[i] is not None:
                try:
                    checks[i](value, args)
                except UserError as e:
                    message = i18n.error_text(e, lang)
                except Exception:  # a bug in a check must not block the run: the handler reports it (friendly)
                    log.exception("input check %d failed", i)
            out.append(gr.validate(not message, message))
        return out
    return validate


def sentence(what: str = "sentence"):
    return lambda value, _: inf.clean_text(value, what)


first_is_a_sentence = validator(sentence())  # translation, score functions, beam search, rollout, query-key


# ----------------------------------------------------------------------------- layout helpers


def depth(reg, name: str | None) -> tuple[int, int]:
    """(layers, heads) of a loaded model, for the sliders drawn before its first run; (8, 8) when none."""
    c = reg.models[name].config if name in reg.models else None
    return (c.n_layers, c.n_heads) if c else (8, 8)


def layer_head_sliders(L: Localized, layers: int = 8, heads: int = 8):
    with gr.Row():
        layer = L(Slider, "common.layer", 1, layers, value=1, step=1)
        head = L(Slider, "common.head", 1, heads, value=1, step=1)
    return layer, head


def example_clicks(examples: gr.Examples | None) -> tuple:
    """The event that runs after an example has filled its inputs (none without examples). Where an example
    sets the model as well as the sentence, the tab runs it, as it does for a model picked by hand: the old
    result stayed under the new model's name until the button was pressed."""
    return () if examples is None else (examples.load_input_event.then,)


def model_or(names):
    """An example row's filter: the row (its last value is a model's name) where that model is loaded, else None."""
    return lambda row: row if row[-1] in names else None


def downloads(L: Localized, key: str = "common.downloads", value=None) -> gr.State:
    """A view's downloads, written only when the visitor asks (every result's files, written at once, would fill the
    server's disk under a class of visitors): a button that writes them and the list
    of the files it wrote, under a gr.State holding what they are made from (the view's `files`, an
    explorer.serve.downloads.Downloads; the State is what handlers return: `{self.files: v.files}`). A run or a slider
    move only replaces the State, which empties the list in the browser: a file shown is always the result's on
    screen. The State carries the button and the list as `.button` and `.list`.
    interactive=False: Gradio drew a list that is also an event's input as an upload box whose ✕ emptied it."""
    pending = gr.State(value)
    pending.button = L(gr.Button, "common.make_files", size="sm", variant="secondary",
                       elem_classes=["ae-make-files"])
    pending.list = L(gr.File, key, file_count="multiple", interactive=False, elem_classes=["ae-downloads"])
    # the files are written in the shared queue: a BERT paragraph's JSON takes about a second of CPU
    pending.button.click(write_files, pending, pending.list, concurrency_id="models", api_visibility="private",
                         trigger_mode="once")
    pending.change(None, None, pending.list, js="() => null", show_progress="hidden", queue=False,
                   api_visibility="private")
    return pending


def download_folder() -> Path:
    """Where the app writes downloads: inside Gradio's cache (GRADIO_TEMP_DIR), so that Gradio serves them without
    a second copy; the disk budget (explorer.serve.downloads) counts the whole cache."""
    from gradio.utils import get_upload_folder

    cache = Path(get_upload_folder())
    dl.watch(cache)
    return cache / "attention-explorer"


@friendly
def _written(files, lang="en"):
    return files.write(download_folder()) if files else None


@friendly
def write_files(files):
    """The download button: the view's files, written now (in the view's language: its messages too)."""
    return _written(files, getattr(files, "lang", "en"))


def keep_disk_budget() -> None:
    """The timed clean-up of the app's downloads and Gradio's cache (app.py's main guard; explorer.serve.downloads)."""
    download_folder()
    dl.start_sweeper()


def safe_initial(fn, *args):
    """A view computed while the page is built (cheap JSON reads); a failure leaves it empty."""
    try:
        return fn(*args)
    except Exception:  # noqa: BLE001 - the tab still works through its button
        log.exception("could not precompute %s", getattr(fn, "__name__", fn))
        return None
