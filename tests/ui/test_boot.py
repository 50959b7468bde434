"""ui/boot.py: before Gradio is imported, `lean_gradio` stops it rewriting type stubs as component classes are
defined (a second of start-up) and keeps IPython out; Gradio still builds a page. In a fresh interpreter each,
with and without it, so that a Gradio whose stub writer moved makes this fail instead of the saving vanishing."""
import json
import os
import subprocess
import sys
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
