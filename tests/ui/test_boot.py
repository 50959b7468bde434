"""ui/boot.py: before Gradio is imported, `lean_gradio` stops it rewriting type stubs as component classes are
defined (a second of start-up) and keeps IPython out; Gradio still builds a page. In a fresh interpreter each,
with and without it, so that a Gradio whose stub writer moved makes this fail instead of the saving vanishing."""
import json
import os
import subprocess
import sys

import pytest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import json, sys
sys.path.insert(0, sys.argv[1])
if sys.argv[2] == "lean":
    from ui.boot import lean_gradio
    lean_gradio()
import gradio as gr
sys.path.insert(0, sys.argv[3])
import my_component  # a component class defined in a module of its own, as ui/components.py defines some
with gr.Blocks() as demo:
    box = my_component.MyBox(value="hello")
print(json.dumps({"ipython": sys.modules.get("IPython") is not None, "value": box.value,
                  "blocks": len(demo.blocks)}))
"""


def run(tmp_path, mode):
    folder = tmp_path / mode
    folder.mkdir()
    (folder / "my_component.py").write_text("import gradio as gr\n\n\nclass MyBox(gr.Textbox):\n    pass\n")
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(ROOT), mode, str(folder)], capture_output=True,
                         text=True, timeout=300, env={**os.environ, "GRADIO_ANALYTICS_ENABLED": "False"})
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1]), (folder / "my_component.pyi").exists()


def test_lean_gradio_writes_no_stubs_imports_no_ipython_and_still_builds(tmp_path):
    lean, lean_stub = run(tmp_path, "lean")
    plain, plain_stub = run(tmp_path, "plain")
    assert plain_stub, "Gradio no longer writes a stub as a component class is defined: ui/boot.py is stale"
    assert not lean_stub
    assert not lean["ipython"]
    assert lean["value"] == plain["value"] == "hello" and lean["blocks"] == plain["blocks"] >= 1


ARENA_PROBE = r"""
import ctypes, os, sys, tempfile, threading
sys.path.insert(0, sys.argv[1])
from ui.boot import cap_malloc_arenas
print("capped" if cap_malloc_arenas(int(sys.argv[2])) else "not capped")
go = threading.Barrier(8)
def work():  # each thread mallocs at once (a new thread gets an arena of its own, up to glibc's cap)
    go.wait()
    keep = [bytearray(4096) for _ in range(200)]
    go.wait()
threads = [threading.Thread(target=work) for _ in range(8)]
[t.start() for t in threads]; [t.join() for t in threads]
libc = ctypes.CDLL("libc.so.6")
libc.fopen.restype = ctypes.c_void_p
fd, path = tempfile.mkstemp(); os.close(fd)
fp = libc.fopen(path.encode(), b"w")
libc.malloc_info(0, ctypes.c_void_p(fp)); libc.fclose(ctypes.c_void_p(fp))
print("arenas", open(path).read().count("<heap nr=")); os.remove(path)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc")
def test_cap_malloc_arenas_keeps_eight_threads_to_two_arenas():
    """malloc_info lists one <heap> per arena: with the cap, eight threads allocating at once share two; with
    n=0 (glibc's default: 8 per core) they get more, so the check can tell the cap from its absence."""
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"}

    def arenas(n):
        out = subprocess.run([sys.executable, "-c", ARENA_PROBE, str(ROOT), str(n)], capture_output=True, text=True,
                             env=env, check=True).stdout.split()
        return out[0], int(out[-1])

    assert arenas(2) == ("capped", 2)
    state, n = arenas(0)
    assert state == "not", state
    assert n > 2


def test_a_bad_arena_count_is_a_message_not_a_traceback(monkeypatch):
    from ui.boot import ARENAS_ENV, cap_malloc_arenas
    monkeypatch.setenv(ARENAS_ENV, "two")
    with pytest.raises(SystemExit, match="whole number of malloc arenas"):
        cap_malloc_arenas()
