#!/usr/bin/env bash
# The session's last GPU call (ko4.sh's 2.5-minute en-ko read 4.9 BLEU, too weak to back-translate with):
# the shipped kG recipe (French -> English aux pairs at ratio 10) plus every human Korean-English pair here
# and byte-fallback BPE, ko-en (kV) and en-ko (kW, no aux: there is no second corpus into Korean). Two runs
# share one H200 (guided seq2seq spends ~2.5 minutes reading its teacher first: it would not fit this call).
#   DATA=/path/to/shared/data RUN_OUT=/path/to/empty M=5.5 bash docs/training-runs/ko5.sh   (SMOKE=1: CPU, seconds)
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
: "${DATA:?}" "${RUN_OUT:?}"; mkdir -p "$RUN_OUT"
M=${M:-5.5}
COMMIT=${GIT_COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}
DEV=$([ -n "${SMOKE:-}" ] && echo cpu || echo cuda)
export PYTHONUNBUFFERED=1 TOKENIZERS_PARALLELISM=false
log() { echo "$* at $(date -u +%T)" >> "$RUN_OUT/status.txt"; }
run() {  # run NAME ARCH EVAL_ARGS -- TRAIN_ARGS...
  local name=$1 arch=$2 ev=$3; shift 3
  mkdir -p "$RUN_OUT/$name"
  OMP_NUM_THREADS=4 python3 -m models.train "$arch" "$@" --max-minutes "$M" ${SMOKE:+--smoke} --data-dir "$DATA" \
    --out "$RUN_OUT/$name" --commit "$COMMIT" --fp16-weights > "$RUN_OUT/$name/train.log" 2>&1
  log "$name train exit $?"
  timeout -k 3 ${EVAL_S:-45} python3 -m models.evaluate "$RUN_OUT/$name/checkpoint" --data-dir "$DATA" --device $DEV \
    $ev > "$RUN_OUT/$name/eval.log" 2>&1
  log "$name eval exit $?"
}
KG="--split-punct --valid-frac 0.05 --test-frac 0.08 --eval-every 500 --dropout 0.2 --d-model 192 --n-heads 4
    --n-layers 3 --d-ff 768 --vocab 6000 --byte-fallback --extra-pairs ntrex pud jhe park-news pawsx korsts
    --extra-max-words 30 --main-repeat 3"
run kV transformer "--beam 4 --alpha 0.6" --direction ko-en $KG --aux-pairs en-fr --aux-ratio 3 --space-noise 0.1 --bpe-variants 4 &
run kW transformer "--beam 4 --alpha 0.6" --direction en-ko $KG &
wait
log end
cat "$RUN_OUT/status.txt"
