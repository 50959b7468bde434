"""Start-up reads no model weights (docs/performance.md, start-up): building the app opens every checkpoint
under assets/ (config, tokenizer, metrics, the weight files' headers) and reads a model's weights only when
it is first used. A tab that ran a model while the page is built would bring back seconds and ~300 MiB at
start; this fails then, naming the checkpoint and what read it."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import json, traceback
from models import checkpoint
read = {}
real = checkpoint._fill
def fill(folder, model):
    read[folder.name] = ''.join(traceback.format_stack(limit=8))
    return real(folder, model)
checkpoint._fill = fill
import app
from explorer.compute import inference as inf
reg = inf.registry()
print(json.dumps({"read": read, "opened": sorted(reg.models), "errors": sorted(reg.errors)}))
"""


@pytest.mark.skipif(not (ROOT / "assets" / "bert").is_dir(), reason="no shipped checkpoints")
def test_building_the_app_reads_no_weights():
    env = {**os.environ, "GRADIO_ANALYTICS_ENABLED": "False", "OMP_NUM_THREADS": "1"}
    env.pop("ATTN_EXPLORER_BERT_DIR", None)
    out = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["read"] == {}, "\n".join(f"{name} read by:\n{stack}" for name, stack in result["read"].items())
    assert "bert" in result["opened"] and not result["errors"]
