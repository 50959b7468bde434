#!/usr/bin/env bash
# Issue 32 item 2: continue the shipped BERT (assets/bert) with single-sentence A/B pairs mixed into its
# long segments, then store it int8 in $RUN_OUT/bert with before/after metrics ($RUN_OUT/before_after.json).
# Env: DATA (english-more, wikitext-2, tatoeba-eng-fra and bible-eng-spa: 4 of BERT's 7 corpora are in
# english-more; without bible-eng-spa it trains and evaluates on the other six and records it as missing),
# RUN_OUT (empty folder), MINUTES (training at most; default 2.5). Optional: BERT_INIT (default assets/bert).
# The whole job (data, both evaluations, training, save) keeps within (MINUTES + 1) min minus 30 s.
# Runs the copy of models/ in .gpu/jobs/bert_src (frozen when this job was tested on CPU), not the
# working tree's, which others edit while the job waits.
set -euo pipefail
START=$(date +%s.%N)
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
: "${DATA:?set DATA}" "${RUN_OUT:?set RUN_OUT}"
MINUTES=${MINUTES:-2.5}
DATA=$(cd "$DATA" && pwd); mkdir -p "$RUN_OUT"; RUN_OUT=$(cd "$RUN_OUT" && pwd)
INIT=${BERT_INIT:-$ROOT/assets/bert}  # the shipped checkpoint this job continues (int8, 28.6 MB)
if [ ! -f "$INIT/config.json" ]; then echo "bert job: no checkpoint at $INIT (set BERT_INIT)"; exit 2; fi
BUDGET=$(python3 -c "print(max(30.0, ($MINUTES + 1) * 60 - 30))")
# CPU fallback (the test of this very script): one batch per evaluation set, tiny training batches
if nvidia-smi -L >/dev/null 2>&1; then GPU=1; else GPU=0; fi
EVAL_BATCHES=${EVAL_BATCHES:-$([ $GPU = 1 ] && echo 40 || echo 1)}
VALID_BATCHES=${VALID_BATCHES:-$([ $GPU = 1 ] && echo 4 || echo 1)}
BATCH_SIZE=${BATCH_SIZE:-$([ $GPU = 1 ] && echo 128 || echo 4)}
export PYTHONUNBUFFERED=1 TOKENIZERS_PARALLELISM=${TOKENIZERS_PARALLELISM:-true}
export GIT_COMMIT=$(cat "$ROOT/.gpu/jobs/bert_src/COMMIT" 2>/dev/null || echo unknown)
echo "bert job: DATA=$DATA RUN_OUT=$RUN_OUT MINUTES=$MINUTES budget ${BUDGET}s eval batches $EVAL_BATCHES/$VALID_BATCHES batch $BATCH_SIZE code $GIT_COMMIT"
cd "$ROOT/.gpu/jobs/bert_src"; echo "lr ${BERT_LR:-2e-4} single ${SINGLE_PAIRS:-0.5} gpu ${CUDA_VISIBLE_DEVICES:-0}"
python3 -m models.continue_bert "$INIT" --data-dir "$DATA" --out "$RUN_OUT" \
  --minutes "$MINUTES" --budget-seconds "$BUDGET" --start "$START" \
  --single-pairs "${SINGLE_PAIRS:-0.5}" --lr "${BERT_LR:-2e-4}" --warmup 20 --cooldown 0.4 --batch-size "$BATCH_SIZE" --short-len 64 \
  --train-frac 0.25 --eval-batches "$EVAL_BATCHES" --valid-batches "$VALID_BATCHES"
ls -la "$RUN_OUT/bert"
du -sb "$RUN_OUT/bert"
echo "bert job done in $(python3 -c "import time; print(round(time.time() - $START))") s"
