#!/usr/bin/env bash
# Trains every shipped model at once on a 2-GPU machine (what produced assets/), then packs
# the runs. Usage: DATA=path/to/data OUT=folder bash models/train_all.sh
# Each command below is also recorded verbatim in its checkpoint's metrics.json.
set -u
DATA=${DATA:-../shared/data}
OUT=${OUT:-runs/packed}
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=2 TOKENIZERS_PARALLELISM=true
mkdir -p runs "$OUT"
nvidia-smi -L || true
ONLY=${ONLY:-all}  # e.g. ONLY="bert transformer-ko-en" trains just those
run() {  # run NAME GPU ARGS...
  local name=$1 gpu=$2; shift 2
  [[ $ONLY == all || " $ONLY " == *" $name "* ]] || return 0
  CUDA_VISIBLE_DEVICES=$gpu python -m models.train "$@" --data-dir "$DATA" --out "runs/$name" --fp16-weights \
    > "runs/$name.log" 2>&1 &
}
run transformer-en-fr 0 transformer --direction en-fr --max-minutes 7.2 --eval-every 1000
run transformer-ko-en 1 transformer --direction ko-en --d-model 192 --n-heads 4 --n-layers 2 --d-ff 768 \
    --vocab 4000 --dropout 0.3 --max-tokens 4000 --warmup 1000 --lr-factor 0.7 --max-minutes 3 --eval-every 250 --valid-frac 0.05 --test-frac 0.08
run bert 1 bert --max-minutes 7.2 --eval-every 2000
i=0
for att in none dot scaled_dot general additive; do
  run seq2seq-$att $((i % 2)) seq2seq --attention $att --direction en-fr --max-minutes 6 --eval-every 1000
  i=$((i + 1))
done
wait
for f in runs/*.log; do echo "== $f"; grep -E "parameters|saved|Error|error" "$f" | tail -4; done
