"""The app's Gradio code (app.py composes it): one module per tab in `ui/tabs/` (layout, events,
language redraw), the shared components (`ui/components.py`: the error wrapper, tables, sliders,
input checks, the language switch's helpers), the theme (`ui/theme.py`), the page's CSS and JS
(`ui/static/`), and the public API endpoints (`ui/api.py`).

Everything a tab shows is composed without gradio in `explorer/views/<tab>.py`; a module here only
lays it out and wires it. Start at `ui/tabs/__init__.py` to add a tab.
"""
