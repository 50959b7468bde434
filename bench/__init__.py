"""Benchmarks that print figures and assert nothing; run each as a module from the repo root:

    python3 -m bench.latency --runs 20
    python3 -m bench.startup --runs 3

Each either calls the gradio-free layers (explorer.compute.inference, explorer.views, models) in-process, or
starts `python app.py` as a process on a free port (bench/_server.py) and measures it over HTTP, speaking
the page's protocol where it needs a page (bench/_page.py). What each one measures, and its figures:
docs/performance.md and docs/reliability.md.
"""
