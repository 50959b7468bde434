#!/usr/bin/env bash
# Korean from more data and back-translation, in one GPU call (ko3.sh's call lost its checkpoints: $OUT keeps
# only a few files, so this one packs its runs into tar parts), chained:
#   kR  en-ko on every Korean-English pair here (byte-fallback BPE, Tatoeba x3 in the mix) -> transformer-en-ko
#   bt  kR samples Korean sources (top-10) for Tatoeba's English sentences -> bt.tsv (held-out English dropped)
#   kT  ko-en on the human pairs plus bt.tsv, tagged <bt>                    -> transformer-ko-en
# and beside them on the same GPU the five seq2seq models with split punctuation (s-*), guided as before.
#   DATA=/path/to/shared/data RUN_OUT=/path/to/empty bash docs/training-runs/ko4.sh   (SMOKE=1: CPU, seconds)
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
: "${DATA:?}" "${RUN_OUT:?}"; mkdir -p "$RUN_OUT"
EN_KO_M=${EN_KO_M:-2.8}; KO_EN_M=${KO_EN_M:-3.6}; S2S_M=${S2S_M:-7}
COMMIT=${GIT_COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}
DEV=$([ -n "${SMOKE:-}" ] && echo cpu || echo cuda)
export PYTHONUNBUFFERED=1 TOKENIZERS_PARALLELISM=false
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
  timeout -k 3 ${EVAL_S:-60} python3 -m models.evaluate "$RUN_OUT/$name/checkpoint" --data-dir "$DATA" --device $DEV \
    "$@" > "$RUN_OUT/$name/eval.log" 2>&1
  log "$name eval exit $?"
}
KO="--split-punct --valid-frac 0.05 --test-frac 0.08 --eval-every 500 --dropout 0.2 --byte-fallback
    --extra-pairs ntrex pud jhe park-news pawsx korsts --extra-max-words 30 --main-repeat 3
    --d-model 256 --n-heads 4 --n-layers 4 --d-ff 1024 --vocab 8000"
( train kR transformer $EN_KO_M --direction en-ko $KO
  timeout -k 3 90 python3 -m models.backtranslate "$RUN_OUT/kR/checkpoint" --data-dir "$DATA" --out "$RUN_OUT/bt.tsv" \
    --max-words 15 --top-k 10 --seed 0 --batch-size 1024 --device $DEV ${SMOKE:+--limit 50} > "$RUN_OUT/bt.log" 2>&1
  log "backtranslate exit $?"
  evaluate kR --beam 4 --alpha 0.6 &
  train kT transformer $KO_EN_M --direction ko-en $KO --synthetic-pairs "$RUN_OUT/bt.tsv" --space-noise 0.1 --bpe-variants 2
  evaluate kT --beam 4 --alpha 0.6; wait ) &
for a in dot none scaled_dot general additive; do
  G=$([ $a = none ] || echo "--guide-from assets/transformer-en-fr")
  ( train s-$a seq2seq $S2S_M --direction en-fr --attention $a --split-punct --eval-every 1000 $G
    evaluate s-$a --beam 4 --alpha 1.0 ) &
done
wait
log end
cat "$RUN_OUT/status.txt"
