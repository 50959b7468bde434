"""How long the browser's main thread is blocked drawing a long input's result, after the server has
answered: the page freezes then (no scrolling, no spinner; Gradio removes its progress bar when the data
arrives, before plotly draws). Seconds of long tasks (> 50 ms) from the click until the page has been
quiet for 3 s, on a desktop window and an upright phone.

    python3 -m bench.browser_draw [--runs 2] [--url URL] [--words 300]

Needs Chromium (/usr/bin/chromium) and Playwright. A run opens a fresh page, so its first plot also
pays for loading plotly.js (~0.8 s here). The views: the BERT tab's "Tokens and attention only" and the
rollout view, on a paragraph that fills BERT's 256 tokens.
"""
from __future__ import annotations

import argparse
import statistics
import time

from bench._server import start_app, stop

# Written for this benchmark; repeated to the word count asked for.
SENTENCE = "the cat sat on the mat and the dog slept by the door"
DEVICES = {"desktop 1366x768": dict(viewport={"width": 1366, "height": 768}),
           "phone 390x844": dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                 device_scale_factor=3)}
VIEWS = {"BERT tokens and attention": (["BERT"], "Sentence A", "Tokens and attention only"),
         "rollout": (["Inside attention", "Rollout & entropy"], "Sentence", "Show rollout")}
WATCH = ("window.__lt = []; new PerformanceObserver(l => l.getEntries().forEach(e => "
         "window.__lt.push([e.startTime, e.duration]))).observe({type: 'longtask'});")
# a phone shows most tabs in an overflow menu: click the tab's own button, wherever it is
TAB = """n => { const bs = [...document.querySelectorAll('button')].filter(b => b.textContent.trim() === n
  && !b.closest('.visually-hidden'));
  (bs.find(b => b.getAttribute('role') === 'tab') || bs.find(b => b.closest('.overflow-dropdown'))).click(); }"""


def blocked_seconds(browser, url: str, device: dict, view: tuple, text: str, quiet_s: float = 3.0,
                    wait_s: float = 60.0) -> float:
    tabs, box, button = view
    context = browser.new_context(**device)
    try:
        page = context.new_page()
        page.goto(url, wait_until="load", timeout=120_000)
        page.get_by_role("tab").first.wait_for(timeout=60_000)
        for name in tabs:
            page.evaluate(TAB, name)
            page.wait_for_timeout(500)
        page.get_by_label(box, exact=True).fill(text)
        page.evaluate(WATCH)
        run = page.get_by_role("button", name=button)
        run.scroll_into_view_if_needed()
        t0 = page.evaluate("performance.now()")
        run.click()
        start = time.monotonic()
        while time.monotonic() - start < wait_s:  # until a long task of drawing (> 300 ms), then quiet_s without one
            page.wait_for_timeout(500)
            now, tasks = page.evaluate("[performance.now(), window.__lt]")
            tasks = [(a, d) for a, d in tasks if a >= t0]
            if any(d > 300 for _, d in tasks) and now - max(a + d for a, d in tasks) > quiet_s * 1000:
                break
        # from the first long task of the drawing on (the server's answer comes before it); where none took 300 ms
        # within wait_s, every long task since the click
        first = min((a for a, d in tasks if d > 300), default=t0 + 50)
        return sum(d for a, d in tasks if a >= first - 50) / 1000
    finally:
        context.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--words", type=int, default=300)
    ap.add_argument("--url", help="an app that is already running (default: start one)")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    base = SENTENCE.split()
    text = " ".join(base[i % len(base)] for i in range(args.words))
    proc, url = (None, args.url) if args.url else start_app()[:2]
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"], headless=True)
            print(f"main thread blocked after the click, s ({args.runs} runs each, {args.words} words)")
            print(f"{'view':28s} {'device':18s} {'median':>7s} {'max':>6s}")
            for vname, view in VIEWS.items():
                for dname, device in DEVICES.items():
                    s = [blocked_seconds(browser, url, device, view, text) for _ in range(args.runs)]
                    print(f"{vname:28s} {dname:18s} {statistics.median(s):7.2f} {max(s):6.2f}", flush=True)
            browser.close()
    finally:
        if proc:
            stop(proc)


if __name__ == "__main__":
    main()
