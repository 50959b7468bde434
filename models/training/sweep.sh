#!/usr/bin/env bash
# Train several variants at once, one per GPU, then pack the best run of each architecture
# (highest validation score in its metrics.json) for the trip back from the GPU machine.
#
#   DATA=.data OUT=packed bash models/training/sweep.sh "NAME GPU ARGS..." ["NAME GPU ARGS..." ...]
#   e.g. bash models/training/sweep.sh "tA 0 transformer --direction en-fr" "bA 1,2,3 bert --max-len 128"
# GPU is one index, or a comma list for one data-parallel run over those GPUs (torchrun).
#
# Each run writes runs/NAME/ (log.jsonl, checkpoint/ with the exact command in metrics.json).
# OUT receives logs.tar.gz (every run's log and metrics) and BEST-ARCH.tar split into 15 MB parts
# (join with `cat OUT/best-bert.tar.part* | tar x`).
set -u
DATA=${DATA:-../shared/data}
OUT=${OUT:-runs/packed}
# shellcheck source=models/training/launch.sh
source "$(dirname "$0")/launch.sh"
mkdir -p "$OUT"
names=()
for spec in "$@"; do
  read -r name gpu args <<<"$spec"
  names+=("$name")
  # shellcheck disable=SC2086  # ARGS is a word list on purpose
  train_on "$gpu" "$name" $args &
done
wait
python - "$OUT" "${names[@]}" <<'EOF'
import json, sys, tarfile
from pathlib import Path
out, names = Path(sys.argv[1]), sys.argv[2:]
best = {}
for n in names:
    m = Path("runs", n, "checkpoint", "metrics.json")
    if not m.exists():
        print(f"{n}: no checkpoint (see runs/{n}.log)")
        continue
    r = json.loads(m.read_text())
    print(f"{n}: {r['arch']} steps {r['steps']} {r['wall_seconds']} s valid {json.dumps(r['valid'])}")
    if r["arch"] not in best or r["valid"]["score"] > best[r["arch"]][1]:
        best[r["arch"]] = (n, r["valid"]["score"])
with tarfile.open(out / "logs.tar.gz", "w:gz") as t:
    for n in names:
        for p in (Path("runs", f"{n}.log"), Path("runs", n, "log.jsonl"), Path("runs", n, "checkpoint", "metrics.json")):
            if p.exists():
                t.add(p)
for arch, (n, score) in best.items():
    print(f"best {arch}: {n} ({score})")
    with tarfile.open(out / f"best-{arch}.tar", "w") as t:
        t.add(Path("runs", n), arcname=n)
EOF
cd "$OUT" && for f in best-*.tar; do split -b 15m -d "$f" "$f.part" && rm "$f"; done; ls -la
