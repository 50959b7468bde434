"""models.train needs sacrebleu only where it scores BLEU: a BERT run trains and saves on a machine
without it, and models.train / models.evaluate import without it (sacrebleu is imported inside the
functions that score)."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_NO_SACREBLEU = "import sys; sys.modules['sacrebleu'] = None\n"  # any `import sacrebleu` now raises ImportError


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", _NO_SACREBLEU + code], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, env={"OMP_NUM_THREADS": "1", "PATH": "/usr/bin:/bin"})


def test_bert_trains_without_sacrebleu(tmp_path):
    out = tmp_path / "b"
    r = _run("from models.training import evaluate, train\n"
             f"train.main(['bert', '--smoke', '--out', {str(out)!r}, '--device', 'cpu', '--max-steps', '2'])\n")
    assert r.returncode == 0, r.stderr[-2000:]
    metrics = json.loads((out / "checkpoint" / "metrics.json").read_text())
    assert 0 <= metrics["valid"]["fill_mask_top1_wiki"] <= 1


def test_bleu_without_sacrebleu_says_so():
    r = _run("from models.training.evaluate import bleu_chrf\nbleu_chrf(['a'], ['a'])\n")
    assert r.returncode != 0 and "sacrebleu" in r.stderr
