"""What `python app.py` does before it imports Gradio: leave out two things a server never uses, which took a
third of its start-up CPU (docs/performance.md, start-up). Imports nothing of Gradio itself.

* Type stubs: as each component class is defined, Gradio 6.31 parses its module's source and rewrites the
  `.pyi` stub beside it (`gradio.component_meta.create_or_modify_pyi`), for editors: 1.0 s of the 2.1 s that
  `import gradio` took here (`python -c "import gradio"`, CPU time, 3 runs each).
* IPython: Gradio imports it for its notebook magic and asks it whether the page runs in Colab:
  0.2 s and 22 MB of resident memory.

Only app.py's main guard calls `lean_gradio`: tests, notebooks and `gradio app.py` import Gradio as it is.
"""
from __future__ import annotations

import importlib.abc
import importlib.util
import sys

STUBS_MODULE = "gradio.component_meta"


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
