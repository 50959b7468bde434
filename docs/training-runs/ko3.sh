#!/usr/bin/env bash
# Korean from more data, first call: en-ko on every Korean-English pair here (shipped as transformer-en-ko if it
# reads well) and, with it, ~100k back-translated Korean sources for ko-en (bt.tsv, read by the second call);
# beside them on the same GPU, ko-en on the human pairs alone (what the new data does without back-translation),
# a wider en-fr, and seq2seq dot / none with split punctuation.
#   DATA=/path/to/shared/data RUN_OUT=/path/to/empty MINUTES=8 bash docs/training-runs/ko3.sh   (SMOKE=1: CPU, seconds)
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
: "${DATA:?}" "${RUN_OUT:?}"; mkdir -p "$RUN_OUT"
M=${MINUTES:-8}
COMMIT=${GIT_COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}
DEV=$([ -n "${SMOKE:-}" ] && echo cpu || echo cuda)
log() { echo "$* at $(date -u +%T)" >> "$RUN_OUT/status.txt"; }
train() {  # train NAME ARCH MINUTES ARGS...
  local name=$1 arch=$2 m=$3; shift 3
  mkdir -p "$RUN_OUT/$name"
  OMP_NUM_THREADS=2 python3 -m models.train "$arch" "$@" --max-minutes "$m" ${SMOKE:+--smoke} --data-dir "$DATA" \
    --out "$RUN_OUT/$name" --commit "$COMMIT" --fp16-weights > "$RUN_OUT/$name/train.log" 2>&1
  log "$name train exit $?"
}
evaluate() {  # evaluate NAME ARGS...
  local name=$1; shift
  timeout -k 3 ${EVAL_S:-120} python3 -m models.evaluate "$RUN_OUT/$name/checkpoint" --data-dir "$DATA" --device $DEV \
    "$@" > "$RUN_OUT/$name/eval.log" 2>&1
  log "$name eval exit $?"
}
KO="--split-punct --valid-frac 0.05 --test-frac 0.08 --eval-every 500 --dropout 0.2 --byte-fallback
    --extra-pairs ntrex pud jhe park-news pawsx korsts --extra-max-words 30 --main-repeat 3"
BIG="--d-model 256 --n-heads 4 --n-layers 4 --d-ff 1024 --vocab 8000"
( train kR transformer $(echo "$M - 3.2" | bc) --direction en-ko $KO $BIG
  timeout -k 3 150 python3 -m models.backtranslate "$RUN_OUT/kR/checkpoint" --data-dir "$DATA" --out "$RUN_OUT/bt.tsv" \
    --max-words 15 --top-k 10 --seed 0 --device $DEV ${SMOKE:+--limit 50} > "$RUN_OUT/bt.log" 2>&1
  log "backtranslate exit $?"
  evaluate kR --beam 4 --alpha 0.6 ) &
( train kS transformer $M --direction ko-en $KO $BIG --space-noise 0.1 --bpe-variants 8; evaluate kS --beam 4 --alpha 0.6 ) &
( train fA transformer $M --direction en-fr --split-punct --cooldown 0.3 --dropout 0.2 --max-tokens 24000 --lr-factor 1.2 \
    --d-model 384 --n-heads 8 --n-layers 4 --d-ff 1536 --eval-every 1000; evaluate fA --beam 4 --alpha 1.0 ) &
for a in dot none; do
  G=$([ $a = none ] || echo "--guide-from assets/transformer-en-fr")
  ( train s-$a seq2seq $M --direction en-fr --attention $a --split-punct --eval-every 1000 $G
    evaluate s-$a --beam 4 --alpha 1.0 ) &
done
wait
log end
cat "$RUN_OUT/status.txt"
