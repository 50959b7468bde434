"""The page's look: Gradio's default theme with darker shades where its text failed WCAG AA contrast, and
the CSS and JS of ui/static/ with the figure module's constants filled in (app.py hands all three to launch()).

Darker shades: on a projector's washed-out colours white on the orange run buttons was 3.6:1 (now 5.2:1), the
selected tab's orange text 2.8:1 (5.2:1), white on the red Stop button 3.8:1 (6.5:1), grey helper text (slider
ends, footer) 2.6:1 (4.8:1). In dark mode (Gradio follows the system's) the buttons take the same darker fills;
the selected tab's text is set in style.css (the theme's accent has one value for both modes, and orange 700 is
3.7:1 on the dark page).
"""
from __future__ import annotations

import json
from pathlib import Path

import gradio as gr

from explorer import figures as fg
from explorer import i18n

STATIC = Path(__file__).parent / "static"

THEME = gr.themes.Default().set(
    button_primary_background_fill="*primary_700", button_primary_background_fill_hover="*primary_800",
    button_primary_background_fill_dark="*primary_700", button_primary_background_fill_hover_dark="*primary_800",
    button_cancel_background_fill="#b91c1c", button_cancel_background_fill_hover="#991b1b",
    button_cancel_background_fill_dark="#b91c1c", button_cancel_background_fill_hover_dark="#991b1b",
    body_text_color_subdued="*neutral_500")
SELECTED_TAB = ("#c2410c", "#f97316")  # light, dark: 5.2:1 on white, 6.8:1 on the dark page

# A plot updated while its tab is hidden (the language switch, a slider of another sub-tab) is laid out at
# plotly's fallback width of 700 px, squeezed and overlapping, and stays so until the window resizes: showing a
# tab sends the window a resize, which lays every visible plot out at its width.
RELAYOUT_JS = "() => { requestAnimationFrame(() => window.dispatchEvent(new Event('resize'))); }"
# The page's language follows the switch (<html lang>): screen readers read Korean as Korean, browsers pick a
# Hangul font and line-breaking rules by it, and style.css keys on it.
PAGE_LANG_JS = "(code) => { document.documentElement.lang = (%s).includes(code) ? code : 'en'; }" % json.dumps(i18n.LANGS)


def _filled(name: str, values: dict) -> str:
    text = (STATIC / name).read_text(encoding="utf-8")
    for key, value in values.items():
        text = text.replace(key, str(value))
    return text


CSS = _filled("style.css", {"__SELECTED_TAB_LIGHT__": SELECTED_TAB[0], "__SELECTED_TAB_DARK__": SELECTED_TAB[1],
                            "/* __VALUE_TABLES_CSS__ */": fg.VALUE_TABLES_CSS,
                            "__WARNING_HEAD_KO__": i18n.t("app.warning_head", "ko")})
PAGE_JS = _filled("page.js", {"__NARROW_PX__": fg.NARROW_PX, "__COLORBAR_BESIDE_JS__": fg.COLORBAR_BESIDE_JS,
                              "__VALUE_TABLES_JS__": fg.VALUE_TABLES_JS, "__SVG_EXPORT_JS__": fg.SVG_EXPORT_JS})
