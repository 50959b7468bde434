"""Memory and time of loading one checkpoint: resident MiB after `import torch`, after
`models.checkpoint.load`, the peak in between and the seconds `load` took, each folder in a fresh process.

    python3 -m bench.load_memory [FOLDER ...]   (default: every checkpoint under assets/)

The peak above the loaded level is what loading costs on the way (file tensors, fp32 copies).
Prints figures; asserts nothing.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import json, resource, sys, time
def rss(): return int(open('/proc/self/statm').read().split()[1]) * 4096 / 2**20
import torch
from models import checkpoint
before = rss()
t0 = time.perf_counter()
c = checkpoint.load(sys.argv[1])
seconds = time.perf_counter() - t0
print(json.dumps({"before": before, "loaded": rss(), "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "seconds": seconds,
                  "parameters": sum(p.numel() for p in c.model.parameters()), "stored": c.stored}))
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="*", type=Path)
    args = ap.parse_args()
    folders = args.folders or sorted(p for p in (ROOT / "assets").iterdir() if (p / "config.json").is_file())
    print(f"{'checkpoint':28} {'params':>10} {'stored':>6} {'torch MiB':>9} {'loaded':>7} {'peak':>7} "
          f"{'peak-loaded':>11} {'load s':>6}")
    for folder in folders:
        out = subprocess.run([sys.executable, "-c", CHILD, str(folder)], cwd=ROOT, capture_output=True, text=True)
        if out.returncode:
            print(f"{folder.name:28} failed: {out.stderr.strip().splitlines()[-1]}")
            continue
        r = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"{folder.name:28} {r['parameters']:>10,} {r['stored']:>6} {r['before']:9.0f} {r['loaded']:7.0f} "
              f"{r['peak']:7.0f} {r['peak'] - r['loaded']:11.0f} {r['seconds']:6.2f}")


if __name__ == "__main__":
    main()
