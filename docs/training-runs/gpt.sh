#!/usr/bin/env bash
# Issue 35: train the GPT (models/gpt.py, 8.9 M parameters, the shipped BERT's WordPiece tokens) on English text
# for about MINUTES, read its held-out test perplexity beside a Kneser-Ney trigram on the same tokens, and store
# the checkpoint (fp16, two shards < 9.5 MB) with its logs in $RUN_OUT/gpt.
# Env: DATA (english-more, wikitext-2, tatoeba-eng-fra), RUN_OUT (empty folder), MINUTES (about 2.5).
# Training ends MINUTES - 0.5 min after the python process starts (data preparation counted: --budget-from-start);
# the test evaluation, save and three samples then take well under a minute, so the job ends near MINUTES.
# Runs the copy of models/ in .gpu/jobs/gpt_src (frozen when this job was tested on CPU), not the working
# tree's, which others edit while the job waits. Falls back to CPU (a smaller evaluation) when there is no GPU.
set -euo pipefail
START=$(date +%s.%N)
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
: "${DATA:?set DATA}" "${RUN_OUT:?set RUN_OUT}"
MINUTES=${MINUTES:-2.5}
DATA=$(cd "$DATA" && pwd); mkdir -p "$RUN_OUT"; RUN_OUT=$(cd "$RUN_OUT" && pwd)
SRC="$ROOT/.gpu/jobs/gpt_src"
TRAIN_MINUTES=$(python3 -c "print(max(0.1, $MINUTES - 0.5))")
export PYTHONUNBUFFERED=1 TOKENIZERS_PARALLELISM=${TOKENIZERS_PARALLELISM_GPT:-true}
export GIT_COMMIT=$(cat "$SRC/COMMIT" 2>/dev/null || echo unknown)
if python3 -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)"; then
  DEVICE=cuda; EXTRA=()
else  # CPU: the same run with a small evaluation, to test this script end to end
  DEVICE=cpu; EXTRA=(--valid-n 4 --test-windows 8 --eval-every 50)
fi
CMD=(python3 -m models.train gpt --data-dir "$DATA" --out "$RUN_OUT/run" --device "$DEVICE"
     --max-minutes "$TRAIN_MINUTES" --budget-from-start --fp16-weights --seed 0
     --batch-size 128 --lr 2e-3 --warmup 300 --cooldown 0.2 --dropout 0.05 --eval-every 500 ${EXTRA[@]+"${EXTRA[@]}"})
echo "gpt job: DATA=$DATA RUN_OUT=$RUN_OUT MINUTES=$MINUTES train ${TRAIN_MINUTES} min device $DEVICE code $GIT_COMMIT"
echo "${CMD[*]}"
cd "$SRC"
"${CMD[@]}" 2>&1 | tr '\r' '\n' | grep -v '^train Bound: ' > "$RUN_OUT/train_stdout.log" || { echo "training failed:"; tail -40 "$RUN_OUT/train_stdout.log"; exit 1; }
tail -5 "$RUN_OUT/train_stdout.log"
# the checkpoint folder is $RUN_OUT/gpt, with the training log beside the weights (as assets/bert has it)
rm -rf "$RUN_OUT/gpt"; mv "$RUN_OUT/run/checkpoint" "$RUN_OUT/gpt"
mv "$RUN_OUT/run/log.jsonl" "$RUN_OUT/gpt/train_log.jsonl"; mv "$RUN_OUT/train_stdout.log" "$RUN_OUT/gpt/train_stdout.log"
rmdir "$RUN_OUT/run" 2>/dev/null || true
# the job's own command and total time in metrics.json, and three samples that also prove the saved files load
JOB_SCRIPT="$ROOT/.gpu/jobs/gpt.sh" python3 - "$RUN_OUT/gpt" "$START" "$MINUTES" "$DATA" <<'PY'
import hashlib, json, os, sys, time
from pathlib import Path
import torch
from models.checkpoint import load
from models.gpt import next_token_distribution
folder, start, minutes, data_dir = Path(sys.argv[1]), float(sys.argv[2]), sys.argv[3], sys.argv[4]
ck = load(folder)
tok, model, sep = ck.tokenizer, ck.model, ck.tokenizer.token_to_id("[SEP]")
samples = []
for seed, prompt in enumerate(["The students opened their", "The president said that", "I am a"]):
    ids = [tok.token_to_id("[CLS]")] + tok.encode(prompt, add_special_tokens=False).ids
    g = torch.Generator().manual_seed(seed)
    with torch.inference_mode():
        logits, cache = model.step(torch.tensor([ids]))
        out = []
        for _ in range(30):
            nxt = int(torch.multinomial(next_token_distribution(logits[0], 0.7), 1, generator=g))
            if nxt == sep:
                break
            out.append(nxt)
            logits, cache = model.step(torch.tensor([[nxt]]), cache)
    samples.append({"prompt": prompt, "temperature": 0.7, "seed": seed, "text": tok.decode(ids[1:] + out)})
m = json.loads((folder / "metrics.json").read_text())
sh = Path(os.environ["JOB_SCRIPT"])
m["job"] = {"command": f"DATA={data_dir} RUN_OUT={folder.parent} MINUTES={minutes} bash .gpu/jobs/gpt.sh",
            "script_sha256": hashlib.sha256(sh.read_bytes()).hexdigest(),
            "total_seconds": round(time.time() - start, 1), "samples_t0.7": samples}
(folder / "metrics.json").write_text(json.dumps(m, indent=2, ensure_ascii=False))
print(json.dumps({"valid": m["valid"], "test_gpt": m["test"]["gpt"], "test_trigram_kn": m["test"]["trigram_kn"]}))
for s in samples:
    print(s["text"])
PY
ls -la "$RUN_OUT/gpt"
du -sb "$RUN_OUT/gpt"
echo "gpt job done in $(python3 -c "import time; print(round(time.time() - $START))") s"
