#!/usr/bin/env bash
# Issue 34, second GPU session: LoRA fine-tuning of the five tasks on the shipped BERT for MINUTES each
# (the first session's runs had ~95 s, twelve to a GPU), evaluated every few hundred steps with the best
# evaluation kept (models.train's Trainer); POS and QA also at rank 64 (~4.8 MB, under the 9.5 MB ship limit).
#   DATA=... RUN_OUT=... MINUTES=7 FT_GPU=1 bash .gpu/jobs/ftlong.sh
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
: "${DATA:?}" "${RUN_OUT:?}"; mkdir -p "$RUN_OUT"
M=${MINUTES:-7}
END=$(python3 -c "import time; print(round(time.time() + $M * 60 - 25, 1))")
HARD=$(python3 -c "print(int($M * 60 + 45))")
COMMIT=${GIT_COMMIT:-unknown}
echo "start $(date -u +%T) minutes=$M commit=$COMMIT" > "$RUN_OUT/status.txt"
run() {  # run NAME EVAL_EVERY ARGS...
  local name=$1 every=$2; shift 2
  mkdir -p "$RUN_OUT/$name"
  ( CUDA_VISIBLE_DEVICES=${FT_GPU:-0} OMP_NUM_THREADS=1 RAYON_NUM_THREADS=2 timeout -k 5 "$HARD" python3 -m models.train finetune "$@" \
      --data-dir "$DATA" --out "$RUN_OUT/$name" --max-minutes "$M" --train-until "$END" --eval-every "$every" \
      --threads 1 --commit "$COMMIT" > "$RUN_OUT/$name/log.txt" 2>&1
    echo "$name exit $? at $(date -u +%T)" >> "$RUN_OUT/status.txt" ) &
}
for t in sentiment nli pos ner; do run "$t-lora" 400 --task "$t" --init assets/bert --lora 16; done
run qa-lora 700 --task qa --init assets/bert --lora 16
run pos-lora64 400 --task pos --init assets/bert --lora 64 --lora-alpha 64
run qa-lora64 700 --task qa --init assets/bert --lora 64 --lora-alpha 64
wait
echo "end $(date -u +%T)" >> "$RUN_OUT/status.txt"; cat "$RUN_OUT/status.txt"
