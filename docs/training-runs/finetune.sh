#!/usr/bin/env bash
# Issue 34's fine-tuning runs, all at once on one shared GPU (models/finetune.py through models.train):
# per task (sentiment, nli, pos, ner, qa) LoRA r=16 on the shipped BERT and the same architecture from
# scratch, plus full fine-tuning for sentiment and nli (at most 3 epochs, the issue's best calibration
# setting: lr 1e-4, mean-pooled): 12 processes, each training until MINUTES after
# this script started (less 20 s), then evaluating on its validation split and saving. Only LoRA runs save
# weights (adapters + head, fp16, ~1.2 MB); full and scratch runs write metrics only.
#
#   DATA=/path/to/shared/data RUN_OUT=/path/to/empty MINUTES=2.5 bash .gpu/jobs/finetune.sh
#   CPU rehearsal: DATA=/work/shared/data RUN_OUT=/tmp/ftjob MINUTES=0.2 FT_EXTRA="--valid-limit 8 --train-limit 64 --batch-size 4" bash .gpu/jobs/finetune.sh
#
# Data folders read from DATA: sentiment-rt-polarity, nli-snli, pos-ud-english-ewt, ner-uner-english-ewt, qa-squad-v1.1.
# Every run is killed at MINUTES*60 + 50 s at the latest, so the script ends within MINUTES + 1 minute.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1  # the repo root
: "${DATA:?set DATA to a copy of ../shared/data}" "${RUN_OUT:?set RUN_OUT to an empty folder}"
MINUTES=${MINUTES:-2.5}
EXTRA=${FT_EXTRA:-}
mkdir -p "$RUN_OUT"
END=$(python3 -c "import time; print(round(time.time() + $MINUTES * 60 - 20, 1))")  # training stops here
HARD=$(python3 -c "print(int($MINUTES * 60 + 50))")  # seconds: no run outlives this
COMMIT=$(git rev-parse HEAD 2>/dev/null || echo unknown)
echo "start $(date -u +%FT%TZ) minutes=$MINUTES train_until=$END hard_limit_s=$HARD commit=$COMMIT" > "$RUN_OUT/status.txt"
python3 -c "import torch; print('cuda', torch.cuda.is_available(), torch.cuda.get_device_name(0) if torch.cuda.is_available() else '')" >> "$RUN_OUT/status.txt" 2>&1 &  # beside the runs, not before them

run() {  # run NAME ARGS...: one fine-tuning run into RUN_OUT/NAME, its output in RUN_OUT/NAME/log.txt
  local name=$1; shift
  mkdir -p "$RUN_OUT/$name"
  # OMP threads 1: 12 runs share 16 cores with two other jobs
  OMP_NUM_THREADS=1 RAYON_NUM_THREADS=2 timeout -k 5 "$HARD" python3 -m models.train finetune "$@" --data-dir "$DATA" \
    --out "$RUN_OUT/$name" --max-minutes "$MINUTES" --train-until "$END" --threads 1 --commit "$COMMIT" \
    $EXTRA > "$RUN_OUT/$name/log.txt" 2>&1
  echo "$name exit $? at $(date -u +%T)" >> "$RUN_OUT/status.txt"
}

for task in sentiment nli pos ner qa; do
  run "$task-lora" --task "$task" --init assets/bert --lora 16 &
  run "$task-scratch" --task "$task" --init scratch &
done
run sentiment-full --task sentiment --init assets/bert --full --epochs 3 &
run nli-full --task nli --init assets/bert --full --epochs 3 &
wait
echo "end $(date -u +%FT%TZ)" >> "$RUN_OUT/status.txt"
du -sh "$RUN_OUT" >> "$RUN_OUT/status.txt"
cat "$RUN_OUT/status.txt"
