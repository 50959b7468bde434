"""The shaded translation in a real browser (where the model is unsure): the first tab opens with its words shaded, each
with its probability on hover (title) and in text a screen reader reads but the eye does not see, a dotted
underline exactly where the probability is under 0.5, and the legend; the language switch turns the legend and
the titles Korean with the same numbers. Chromium through Playwright, as tests/e2e/test_browser.py."""
import re
from pathlib import Path

import pytest

from bench._server import start_app, stop
from explorer.figures import confidence as conf
from explorer import i18n
from test_browser import ARGS, CHROMIUM, FIRST_CALL_MS, MISSING, STEP_MS, Page, sync_playwright

ASSETS = Path(__file__).resolve().parents[2] / "assets"
pytestmark = [pytest.mark.browser, pytest.mark.skipif(bool(MISSING), reason=MISSING or "-"),
              pytest.mark.skipif(not (ASSETS / "seq2seq-dot" / "config.json").is_file(),
                                 reason="the first tab's model (assets/seq2seq-dot) is missing")]

# Each shaded word as drawn: its text (the hidden part left out), title, data-p, the browser's computed
# background and underline, and the size of the hidden text's box.
WORDS_JS = """
() => [...document.querySelectorAll('.ae-conf-word')].filter(w => w.offsetWidth > 0).map(w => {
  const hidden = w.querySelector('span'), box = hidden.getBoundingClientRect(), s = getComputedStyle(w);
  return {text: w.firstChild.textContent, title: w.title, p: +w.dataset.p, hidden: hidden.textContent,
          hiddenArea: box.width * box.height, background: s.backgroundColor, underline: s.textDecorationLine};
})"""


@pytest.fixture(scope="module")
def page():
    proc, url, _ = start_app(env={"ATTN_EXPLORER_WARM": "0"})
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
            p = Page(browser, url)
            try:
                yield p
            finally:
                browser.close()
    finally:
        stop(proc)


def test_first_tab_shades_each_word_with_its_probability(page):
    page.tab("seq2seq + attention")  # the page opens on it: its first screen, "I am a student."
    page.page.wait_for_selector(".ae-conf-word", timeout=FIRST_CALL_MS)
    words = page.page.evaluate(WORDS_JS)
    translation = page.page.get_by_role("textbox", name="Translation").first.input_value()
    assert translation and " ".join(w["text"] for w in words) == translation  # the plain text stays beside it
    for w in words:
        assert w["title"] == f"probability {w['p']:.3f}" and w["hidden"].strip() == f"({w['title']})"
        assert w["hiddenArea"] <= 1  # read out, not shown
        alpha = float(re.fullmatch(r"rgba\(230, 97, 0, ([\d.]+)\)", w["background"]).group(1))
        assert abs(alpha - conf.shade(w["p"])) < 0.01, w
        assert ("underline" in w["underline"]) == (w["p"] < conf.UNSURE), w
    legend = page.page.locator(".ae-conf-legend").locator("visible=true").first
    assert legend.inner_text() == i18n.t("conf.legend", "en", u=conf.UNSURE)

    page.page.get_by_role("radio", name="한국어").check()  # redrawn from the record: Korean, the same numbers
    ko = i18n.t("conf.legend", "ko", u=conf.UNSURE)
    page.page.wait_for_function("t => [...document.querySelectorAll('.ae-conf-legend')].some(l => l.innerText === t)",
                                arg=ko, timeout=STEP_MS)
    again = page.page.evaluate(WORDS_JS)
    assert [(w["text"], w["p"]) for w in again] == [(w["text"], w["p"]) for w in words]
    assert all(w["title"] == f"확률 {w['p']:.3f}" for w in again)
    assert page.page.locator(".ae-conf").locator("visible=true").first.get_attribute("lang") == "ko"
    page.assert_clean()
