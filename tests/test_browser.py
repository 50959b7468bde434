"""The app in a real browser: `python app.py` driven by Chromium through Playwright.

For each main tab (seq2seq + attention, Transformer, BERT) the test runs the course example,
waits until the plotly figures have really been drawn (an SVG of non-zero size with the
heatmap/bar traces in it, tick labels carrying the tokens) and the translation or the
predictions are on screen, and fails on any browser console error or uncaught page error.
One screenshot per tab goes to assets/screenshots/<tab>.png (the README shows one) and to
pytest's tmp_path. A last test types HTML/JS payloads into the inputs: no dialog may ever
open, no element may be injected, and the payload must read back as plain text (in the
tick labels) or as the app's clean error message.

Uses Debian's Chromium (/usr/bin/chromium): Playwright's own browser download needs the
network, which CI and this sandbox do not have.
"""
import re
import shutil
from pathlib import Path
from urllib.parse import urlparse

import pytest

from bench._server import start_app, stop

try:
    from playwright.sync_api import expect, sync_playwright
except ImportError:  # skipped below with the reason
    expect = sync_playwright = None

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(sync_playwright is None,
                       reason="playwright is not installed (pip install -r requirements-dev.txt)"),
    pytest.mark.skipif(not CHROMIUM.is_file(), reason=f"{CHROMIUM} is missing (make chromium / apt-get install chromium)"),
]

ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = ROOT / "assets" / "screenshots"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1280, "height": 900}
FIRST_CALL_MS = 60_000  # the first model call of a cold server on a busy 2-core machine; typically ~4 s
STEP_MS = 30_000  # anything after that (a redraw, a tab switch)

COURSE = "I am a student."
ANIMAL = "The animal didn't cross the street because it was too tired."
MASKED, NEXT = "the man went to the [MASK] .", "he bought a gallon of milk ."
XSS = ["<img src=x onerror=alert(1)>", '"><script>alert(1)</script>']

# Rendered = a visible .js-plotly-plot whose SVG has a size and holds drawn traces (heatmap
# images or bar paths); `want` lists substrings of the titles that must all be on screen.
PLOTS_JS = """
want => {
  const drawn = [...document.querySelectorAll('.js-plotly-plot')].filter(p => {
    const svg = p.querySelector('svg.main-svg'), box = svg && svg.getBoundingClientRect();
    return p.offsetWidth > 0 && box && box.width > 0 && box.height > 0
        && p.querySelector('.heatmaplayer image, .barlayer .point path');
  });
  const titles = drawn.map(p => (p.querySelector('.gtitle') || {}).textContent || '');
  return want.every(w => titles.some(t => t.includes(w))) ? titles : null;
}"""
# The tick labels (x then y) of every visible plot whose title contains `title`.
TICKS_JS = """
(title, sel = '.xtick text, .ytick text') => [...document.querySelectorAll('.js-plotly-plot')]
  .filter(p => p.offsetWidth > 0 && ((p.querySelector('.gtitle') || {}).textContent || '').includes(title))
  .flatMap(p => [...p.querySelectorAll(sel)].map(t => t.textContent))"""


# ----------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def app_url():
    proc, url, _ = start_app()
    try:
        yield url
    finally:
        stop(proc)


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


class Page:
    """A fresh page on the app, recording console errors, page errors and dialogs."""

    def __init__(self, browser, url):
        self.host = urlparse(url).hostname
        self.context = browser.new_context(viewport=VIEWPORT)
        self.page = self.context.new_page()
        self.errors, self.dialogs = [], []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        self.page.on("dialog", self._dialog)
        self.page.goto(url, wait_until="load")
        self.page.get_by_role("tab").first.wait_for(timeout=STEP_MS)

    def _console(self, msg):
        if msg.type != "error":
            return
        # Ignored, and only this: a resource that failed to load from ANOTHER host (a web font
        # or CDN file when the machine is offline). The app itself makes no such request in
        # Gradio 6.31 (checked: every request goes to the app's own host), so this never
        # fires today; an error from the app's own host or from script always counts.
        where = urlparse((msg.location or {}).get("url") or "").hostname
        if msg.text.startswith("Failed to load resource") and where and where != self.host:
            return
        self.errors.append(f"console: {msg.text} ({(msg.location or {}).get('url')})")

    def _dialog(self, dialog):
        self.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    def tab(self, name: str):
        """Click a top-level tab; return its panel (Gradio renders a tab's content on first show)."""
        tab = self.page.get_by_role("tab", name=name, exact=True)
        if tab.is_visible():
            tab.click()
        else:  # more tabs than fit in a row: Gradio moves the rest behind a "More tabs" (⋯) menu
            self.page.get_by_role("button", name="More tabs").first.click()
            self.page.locator(".overflow-dropdown button").filter(
                has_text=re.compile(f"^{re.escape(name)}$")).first.click()
        expect(tab).to_have_attribute("aria-selected", "true")
        # a nested tab's panel is inside its parent's, so the first visible panel is the top-level one
        return self.page.locator("[role=tabpanel]:visible").first

    def wait_for_plots(self, *titles: str, timeout=STEP_MS) -> list[str]:
        return self.page.wait_for_function(PLOTS_JS, arg=list(titles), timeout=timeout).json_value()

    def ticks(self, title: str, axis: str = "xy") -> list[str]:
        sel = ", ".join(f".{a}tick text" for a in axis)
        return self.page.evaluate(f"([title, sel]) => ({TICKS_JS})(title, sel)", [title, sel])

    def wait_for_ticks(self, title: str, needle: str, timeout=STEP_MS):
        """Until the tick labels of plot `title`, joined (WordPiece/SentencePiece marks and
        segment prefixes dropped), contain `needle`: the plot shows the new input."""
        js = f"([title, needle]) => ({TICKS_JS})(title).map(t => t.replace(/^[AB]·/, '').replace(/^##/, '')" \
             ".replace(/\u2581/g, '')).join('').toLowerCase().includes(needle)"
        self.page.wait_for_function(js, arg=[title, needle.lower()], timeout=timeout)

    def screenshot(self, name: str, anchor, tmp_path: Path):
        """Viewport PNG with `anchor` near the top, to tmp_path and assets/screenshots/<name>.png."""
        anchor.evaluate("el => { el.scrollIntoView({block: 'start'}); window.scrollBy(0, -24); }")
        self.page.mouse.move(0, 0)  # no hover: plotly's modebar and tooltips stay hidden
        self.page.wait_for_timeout(300)  # let the scroll settle before the capture
        out = tmp_path / f"{name}.png"
        self.page.screenshot(path=str(out), type="png")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(out, SCREENSHOTS / out.name)
        assert out.stat().st_size > 20_000, "the screenshot looks blank"

    def assert_clean(self):
        assert not self.errors, "browser console errors:\n" + "\n".join(self.errors)
        assert not self.dialogs, f"a dialog opened: {self.dialogs}"


@pytest.fixture
def ui(browser, app_url):
    p = Page(browser, app_url)
    try:
        yield p
    finally:
        p.context.close()


# ----------------------------------------------------------------------------- the tabs


def test_seq2seq_tab_translates_and_draws_the_alignment(ui, tmp_path):
    panel = ui.tab("seq2seq + attention")
    panel.get_by_role("radio", name=re.compile(r"^additive")).check()
    panel.get_by_label("English sentence").fill(COURSE)
    panel.get_by_role("button", name="Translate").click()

    out = panel.get_by_role("textbox", name="Translation")
    expect(out).not_to_have_value("", timeout=FIRST_CALL_MS)
    assert "étudiant" in out.input_value().lower()  # the tab's own promise: 'je suis étudiant'
    ui.wait_for_plots("seq2seq-additive: target × source alignment", "Step 1: attention", timeout=FIRST_CALL_MS)
    ticks = ui.ticks("alignment")
    assert {"▁I", "▁student.", "</s>"} <= set(ticks), ticks  # source tokens on the x axis, '</s>' as text
    expect(panel.get_by_text(re.compile(r"Step 1/\d+: the decoder read"))).to_be_visible()

    ui.screenshot("seq2seq", panel.get_by_role("textbox", name="Translation"), tmp_path)
    ui.assert_clean()


def test_transformer_tab_draws_every_attention(ui, tmp_path):
    panel = ui.tab("Transformer")
    panel.locator("table").first.get_by_text(ANIMAL, exact=True).click()  # an example row
    expect(panel.get_by_label("Sentence", exact=True)).to_have_value(ANIMAL)
    panel.get_by_role("button", name="Translate").click()

    out = panel.get_by_role("textbox", name="Translation")
    expect(out).not_to_have_value("", timeout=FIRST_CALL_MS)
    ui.wait_for_plots("Encoder self-attention: all layers", "Encoder self-attention: layer 1, head 1",
                      timeout=FIRST_CALL_MS)
    assert "▁animal" in ui.ticks("Encoder self-attention: layer 1")
    expect(panel.get_by_test_id("cell-0-1")).to_have_text(out.input_value())  # the n-best table, row 1

    # the nested tabs are rendered when first shown: their figures must arrive then
    ui.page.get_by_role("tab", name="Decoder masked self-attention").click()
    ui.wait_for_plots("Decoder masked self-attention: all layers", "Decoder masked self-attention: layer 1",
                      "Decoder masked scores")
    assert "<s>" in ui.ticks("Decoder masked self-attention: layer 1")
    ui.page.get_by_role("tab", name="Cross attention").click()
    ui.wait_for_plots("Cross attention (decoder → encoder): all layers", "Cross attention (decoder → encoder): layer 1")
    ticks = ui.ticks("Cross attention (decoder → encoder): layer 1")
    assert "▁animal" in ticks and "</s>" in ticks

    ui.screenshot("transformer", panel.get_by_text("Layer", exact=True).first, tmp_path)
    ui.assert_clean()


def test_bert_tab_fills_the_mask_and_predicts_the_next_sentence(ui, tmp_path):
    panel = ui.tab("BERT")
    panel.locator("table").first.get_by_text(NEXT, exact=True).first.click()  # example: mask + sentence B
    expect(panel.get_by_label("Sentence A")).to_have_value(MASKED)
    expect(panel.get_by_label("Sentence B (optional for fill-mask)")).to_have_value(NEXT)
    panel.get_by_role("button", name="Fill [MASK]").click()

    titles = ui.wait_for_plots("Fill-mask: top predictions", "Next-sentence prediction",
                               "BERT self-attention: all layers", "BERT self-attention: layer 1, head 1",
                               timeout=FIRST_CALL_MS)
    assert len(titles) >= 4
    nsp = panel.get_by_text(re.compile(r"P\(IsNext\) = [01]\.\d{4}, P\(NotNext\) = [01]\.\d{4}"))
    expect(nsp).to_be_visible()
    a, b = (float(x) for x in re.findall(r"[01]\.\d{4}", nsp.inner_text()))
    assert abs(a + b - 1) <= 2e-4
    k = int(panel.get_by_label("top-k").first.input_value())
    bars = ui.ticks("Fill-mask: top predictions", axis="y")
    assert len(bars) == k and all(bars), bars  # one bar per prediction, labelled with its token
    ticks = ui.ticks("BERT self-attention: layer 1, head 1")
    assert {"A·[CLS]", "A·[MASK]", "B·[SEP]"} <= set(ticks), ticks

    ui.screenshot("bert", panel.get_by_text("WordPiece tokens", exact=True).first, tmp_path)
    ui.assert_clean()


# ----------------------------------------------------------------------------- hostile input


def _nothing_injected(ui):
    assert ui.page.locator('img[src="x"]').count() == 0, "an <img> from the input reached the DOM"
    assert not ui.page.evaluate("() => [...document.scripts].some(s => s.textContent.includes('alert(1)'))")


def test_html_and_script_in_the_inputs_stay_text(ui):
    # Translation models: '<', '>' and '=' are not in their vocabularies, so they come back as
    # the literal token '<unk>', which is itself HTML-like text and must show as such.
    for tab, box, inner_tab, plot in [
            ("seq2seq + attention", "English sentence", None, "target × source alignment"),
            ("Transformer", "Sentence", "Cross attention", "Cross attention (decoder → encoder): layer 1")]:
        panel = ui.tab(tab)
        if inner_tab:
            ui.page.get_by_role("tab", name=inner_tab).click()
        for payload, needle in zip(XSS, ["onerror<unk>alert(1)", "alert(1)<unk>/script"]):
            panel.get_by_label(box, exact=True).fill(payload)
            panel.get_by_role("button", name="Translate").click()
            ui.wait_for_ticks(plot, needle, timeout=FIRST_CALL_MS)
            assert "<unk>" in ui.ticks(plot)
            _nothing_injected(ui)

    # BERT's WordPiece vocabulary has every character: the payload reads back whole.
    panel = ui.tab("BERT")
    for payload in XSS:
        panel.get_by_label("Sentence A").fill(payload + " [MASK]")
        panel.get_by_label("Sentence B (optional for fill-mask)").fill(payload)
        panel.get_by_role("button", name="Fill [MASK]").click()
        tokens = payload.replace(" ", "")  # the tick labels are WordPieces: no spaces
        ui.wait_for_ticks("BERT self-attention: layer 1", f"[CLS]{tokens}[MASK][SEP]{tokens}[SEP]",
                          timeout=FIRST_CALL_MS)
        _nothing_injected(ui)
    # and without a [MASK] the user gets the app's message, not a trace
    panel.get_by_label("Sentence A").fill(XSS[0])
    panel.get_by_role("button", name="Fill [MASK]").click()
    expect(ui.page.get_by_text("Put at least one [MASK] in the sentence").first).to_be_visible(timeout=STEP_MS)
    body = ui.page.locator("body").inner_text()
    assert "Traceback" not in body and 'File "' not in body
    _nothing_injected(ui)
    ui.page.wait_for_timeout(500)  # a late onerror handler would fire by now
    ui.assert_clean()
