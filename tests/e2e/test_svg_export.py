"""Every plot's camera button saves SVG: the page's script (ui/theme.PAGE_JS, which runs explorer.figures.SVG_EXPORT_JS
on every plot) on a page of plotly.js drawing the head grid as Gradio does (Plotly.react with {responsive: true}),
then a click on the camera: the download is an .svg file holding an <svg> picture. No app server: seconds."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import plotly
import pytest

from explorer import figures as fg
from test_browser import ARGS, CHROMIUM, MISSING, sync_playwright

pytestmark = [pytest.mark.browser, pytest.mark.skipif(bool(MISSING), reason=MISSING or "-")]
PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"


def test_the_camera_button_saves_the_head_grid_as_svg(tmp_path):
    from ui import theme
    att = np.random.default_rng(0).dirichlet(np.ones(4), size=(2, 2, 4))  # (L, H, T, T), rows sum to 1
    fig = fg.head_grid(att, ["a", "b", "c", "d"], ["a", "b", "c", "d"], "every head")
    page = tmp_path / "page.html"
    page.write_text(f"""<!doctype html><html><body><div id="plot"></div>
<script src="{PLOTLY_JS.as_uri()}"></script>
<script>
const fig = {fig.to_json()};
({theme.PAGE_JS})();
Plotly.react(document.getElementById('plot'), fig.data, fig.layout, {{responsive: true}});
</script></body></html>""", encoding="utf-8")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        try:
            p = browser.new_page(accept_downloads=True)
            p.goto(page.as_uri())
            camera = p.locator('.modebar-btn[data-title="Download plot as SVG"]')
            camera.wait_for(state="attached", timeout=10_000)
            with p.expect_download(timeout=20_000) as d:
                p.evaluate("document.querySelector('.modebar-btn[data-title=\"Download plot as SVG\"]').click()")
            download = d.value
            assert download.suggested_filename.endswith(".svg")
            text = Path(download.path()).read_text(encoding="utf-8")
            assert text.lstrip().startswith("<svg") and "every head" in text  # a vector picture, its title as text
            fmt = p.evaluate("document.getElementById('plot')._context.toImageButtonOptions.format")
            assert fmt == "svg" and json.loads(json.dumps(fmt)) == "svg"
        finally:
            browser.close()
