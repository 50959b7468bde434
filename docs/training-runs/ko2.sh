#!/usr/bin/env bash
# Issue 32 item 3, third session, second call: kO's bidirectional training and kL's short extras together,
# one run alone on each GPU, seeds 0 and 1 (kP, kQ). Read on CPU afterwards (NO_EVAL=1 skips the GPU reading).
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
    [ -n "${NO_EVAL:-}" ] && exit 0
    timeout -k 3 ${EVAL_S:-100} python3 -m models.evaluate "$RUN_OUT/$name/checkpoint" --data-dir "$DATA" \
      --device $DEV --beam 4 --alpha 0.6 > "$RUN_OUT/$name/eval.log" 2>&1
    echo "$name eval exit $? at $(date -u +%T)" >> "$RUN_OUT/status.txt" ) &
}
KG="--direction ko-en --split-punct --valid-frac 0.05 --test-frac 0.08 --eval-every 500 --max-minutes $M
    --aux-pairs en-fr --dropout 0.2 --bpe-variants 16 --d-model 192 --n-heads 4 --n-layers 3 --d-ff 768 --vocab 6000
    --aux-ratio 10 --space-noise 0.1"
X="--bidir-frac 0.33 --extra-pairs ntrex pud --extra-max-words 12 --extra-repeat 1"
run kP 0 $KG $X
run kQ 1 $KG $X --seed 1
wait
echo "end $(date -u +%T)" >> "$RUN_OUT/status.txt"; cat "$RUN_OUT/status.txt"
