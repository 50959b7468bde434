#!/usr/bin/env bash
# Issue 32 item 3, third session: four Korean->English runs beside the shipped kG recipe, two per GPU:
# kL extras (NTREX + PUD) of at most 12 English words once per epoch, kM at most 18 words once, kN kG's
# recipe with another seed (how far test BLEU moves by seed alone), kO kG + bidirectional training for
# the first third (--bidir-frac 0.33; it lifted en-fr tU over tD). Each trains MINUTES, then is read on
# its test split on the GPU (beam 4, alpha 0.6, as the shipped model).
#   DATA=/path/to/shared/data RUN_OUT=/path/to/empty MINUTES=7.5 bash .gpu/jobs/ko.sh   (SMOKE=1: CPU, seconds)
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
: "${DATA:?}" "${RUN_OUT:?}"; mkdir -p "$RUN_OUT"
M=${MINUTES:-7.5}
COMMIT=${GIT_COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}
NG=$(nvidia-smi -L 2>/dev/null | wc -l); [ "$NG" -lt 1 ] && NG=1
DEV=$([ -n "${SMOKE:-}" ] && echo cpu || echo cuda)
run() {  # run NAME GPU ARGS...
  local name=$1 g=$2; shift 2
  mkdir -p "$RUN_OUT/$name"
  ( export CUDA_VISIBLE_DEVICES=$(( g % NG )) OMP_NUM_THREADS=2
    python3 -m models.train transformer "$@" ${SMOKE:+--smoke} --data-dir "$DATA" --out "$RUN_OUT/$name" \
      --commit "$COMMIT" --fp16-weights > "$RUN_OUT/$name/train.log" 2>&1
    echo "$name train exit $? at $(date -u +%T)" >> "$RUN_OUT/status.txt"
    timeout -k 3 ${EVAL_S:-100} python3 -m models.evaluate "$RUN_OUT/$name/checkpoint" --data-dir "$DATA" \
      --device $DEV --beam 4 --alpha 0.6 > "$RUN_OUT/$name/eval.log" 2>&1
    echo "$name eval exit $? at $(date -u +%T)" >> "$RUN_OUT/status.txt" ) &
}
KG="--direction ko-en --split-punct --valid-frac 0.05 --test-frac 0.08 --eval-every 500 --max-minutes $M
    --aux-pairs en-fr --dropout 0.2 --bpe-variants 16 --d-model 192 --n-heads 4 --n-layers 3 --d-ff 768 --vocab 6000
    --aux-ratio 10 --space-noise 0.1"
run kL 0 $KG --extra-pairs ntrex pud --extra-max-words 12 --extra-repeat 1
run kM 0 $KG --extra-pairs ntrex pud --extra-max-words 18 --extra-repeat 1
run kN 1 $KG --seed 1
run kO 1 $KG --bidir-frac 0.33
wait
echo "end $(date -u +%T)" >> "$RUN_OUT/status.txt"; cat "$RUN_OUT/status.txt"
