#!/usr/bin/env bash
# Issue 32 item 1, third GPU call: seq2seq-additive with guided alignment alone on one GPU (its run in the
# shared call did not finish before packing).  DATA=... RUN_OUT=... MINUTES=5.5 bash .gpu/jobs/additive.sh
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
: "${DATA:?}" "${RUN_OUT:?}"; mkdir -p "$RUN_OUT/seq2seq-additive"
python3 -m models.train seq2seq --direction en-fr --eval-every 1000 --max-minutes "${MINUTES:-5.5}" \
  --guide-from assets/transformer-en-fr --attention additive --data-dir "$DATA" --out "$RUN_OUT/seq2seq-additive" \
  --commit "${GIT_COMMIT:-unknown}" --fp16-weights > "$RUN_OUT/seq2seq-additive/train.log" 2>&1
echo "additive exit $? at $(date -u +%T)"
