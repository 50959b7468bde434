"""What `python app.py` does before it imports Gradio: leave out two things a server never uses, which took a
third of its start-up CPU (docs/performance.md, start-up). Imports nothing of Gradio itself.

* Type stubs: as each component class is defined, Gradio 6.31 parses its module's source and rewrites the
  `.pyi` stub beside it (`gradio.component_meta.create_or_modify_pyi`), for editors: 1.0 s of the 2.1 s that
  `import gradio` took here (`python -c "import gradio"`, CPU time, 3 runs each).
* IPython: Gradio imports it for its notebook magic and asks it whether the page runs in Colab:
  0.2 s and 22 MB of resident memory.

Only app.py's main guard calls `lean_gradio`: tests, notebooks and `gradio app.py` import Gradio as it is.

It also calls `cap_malloc_arenas` before any thread starts: glibc gives each new thread a malloc arena of its
own (up to 8 per core) and keeps each arena's freed pages for reuse, so a server whose request threads come
and go holds tens of MiB more than it uses. Two arenas kept 40 plain API calls' growth at +25-43 MiB against
~100 MiB with glibc's default, at no measurable cost (`python bench/sessions.py --calls 40 --pages 0`,
docs/reliability.md); the same as `MALLOC_ARENA_MAX=2`, which a hosted Space cannot set before start.
"""
from __future__ import annotations

import ctypes
import importlib.abc
import importlib.util
import os
import sys

STUBS_MODULE = "gradio.component_meta"
M_ARENA_MAX = -8  # glibc's mallopt parameter (malloc.h)
ARENAS_ENV = "ATTN_EXPLORER_MALLOC_ARENAS"  # arenas the server may use; 0: glibc's default


def cap_malloc_arenas(n: int | None = None) -> bool:
    """Cap glibc's malloc arenas at n (default: $ATTN_EXPLORER_MALLOC_ARENAS, else 2) before threads start.
    True when the cap is set; False where there is nothing to do: n is 0, MALLOC_ARENA_MAX is already in the
    environment (glibc read it at start), or the C library is not glibc."""
    if n is None:
        value = os.environ.get(ARENAS_ENV, "2")
        if not value.strip().isdigit():
            raise SystemExit(f"{ARENAS_ENV}={value!r}: give a whole number of malloc arenas (0: glibc's default)")
        n = int(value)
    if n <= 0 or "MALLOC_ARENA_MAX" in os.environ:
        return False
    try:
        return ctypes.CDLL("libc.so.6").mallopt(M_ARENA_MAX, n) == 1
    except (OSError, AttributeError):  # macOS, musl: no such call
        return False


class _NoStubs(importlib.abc.MetaPathFinder):
    """Finds `gradio.component_meta` as usual and, once it has run, makes its stub writer a no-op (the
    metaclass looks the function up when each class is defined, so the replacement is what it calls)."""

    def find_spec(self, name, path=None, target=None):
        if name != STUBS_MODULE:
            return None
        sys.meta_path.remove(self)  # once, and out of the way of every other import
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            return spec
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            module.create_or_modify_pyi = lambda *args, **kwargs: None

        spec.loader.exec_module = exec_module
        return spec


def lean_gradio() -> None:
    """Call before the first `import gradio` (afterwards it changes nothing)."""
    sys.modules.setdefault("IPython", None)  # `import IPython` raises ImportError, which Gradio expects
    if STUBS_MODULE not in sys.modules and not any(isinstance(f, _NoStubs) for f in sys.meta_path):
        sys.meta_path.insert(0, _NoStubs())
