"""Live heap or allocator's cache? The app's memory over plain-HTTP /fill_mask calls, measured inside its process.

    python3 -m bench.heap                   # 120 calls on bench/sessions.py's 253-word paragraph, a line every 40
    python3 -m bench.heap --calls 200 --short

A server's resident memory (what bench/sessions.py reads) mixes what Python still holds with what glibc's malloc
keeps of freed memory for later (arenas and the top of the heap). This serves app.py's `demo` in this process and,
every `--every` calls and after `gc.collect()`, prints malloc's bytes in use (`mallinfo2`: uordblks + hblkhd),
the freed bytes it keeps (fordblks), the resident memory, and the resident memory after `malloc_trim(0)` (which
hands the kept bytes back). A leak grows the first column with the calls; the cache plateaus and goes with a
trim. The client (urllib) runs in the same process: its buffers are freed between calls. glibc only. Prints
figures; asserts nothing.
"""
from __future__ import annotations

import argparse
import ctypes
import gc
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                                "fsmblks", "uordblks", "fordblks", "keepcost")]


def main(argv=None) -> None:
    import psutil

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--calls", type=int, default=120, help="plain-HTTP /fill_mask calls after two warm-ups")
    ap.add_argument("--every", type=int, default=40, help="calls between two readings")
    ap.add_argument("--short", action="store_true", help="a 9-word sentence instead of the 253-word paragraph")
    args = ap.parse_args(argv)
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallinfo2.restype = _Mallinfo2
    except (OSError, AttributeError):
        sys.exit("needs glibc >= 2.33 (mallinfo2)")
    os.chdir(ROOT)
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    import orjson

    import app
    from bench._server import free_port
    from bench.latency import http_call
    from bench.sessions import MASKED, SHORT, load, words
    from ui.limits import launch_kwargs

    text = SHORT if args.short else MASKED
    port = free_port()
    app.demo.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True,
                    **launch_kwargs())
    url = f"http://127.0.0.1:{port}/"
    me = psutil.Process()

    def reading():
        gc.collect()
        m = libc.mallinfo2()
        rss = me.memory_info().rss / 2**20
        libc.malloc_trim(0)
        return (m.uordblks + m.hblkhd) / 2**20, m.fordblks / 2**20, rss, me.memory_info().rss / 2**20

    try:
        for _ in range(2):
            http_call(url, "/fill_mask", (text, 5))
        time.sleep(1.0)
        used0, *_ = start = reading()
        print(f"{words(text)} words, each call its own session; orjson {orjson.__version__}; load {load()}")
        print(f"{'calls':>6}{'in use MiB':>12}{'grown':>9}{'a call':>8}{'kept free':>11}{'resident':>10}"
              f"{'trimmed':>9}")
        print(f"{0:6d}{start[0]:12.1f}{0:+9.1f}{'':>8}{start[1]:11.1f}{start[2]:10.0f}{start[3]:9.0f}")
        for i in range(1, args.calls + 1):
            http_call(url, "/fill_mask", (text, 5))
            if i % args.every == 0 or i == args.calls:
                used, kept, rss, trimmed = reading()
                print(f"{i:6d}{used:12.1f}{used - used0:+9.1f}{(used - used0) / i:8.3f}{kept:11.1f}{rss:10.0f}"
                      f"{trimmed:9.0f}", flush=True)
        print(f"load {load()}")
    finally:
        app.demo.close()


if __name__ == "__main__":
    main()
