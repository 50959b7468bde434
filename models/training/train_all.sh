#!/usr/bin/env bash
# Trains every shipped model on a 4-GPU machine, then lists what each run saved.
# Usage: DATA=path/to/data bash models/training/train_all.sh   (ONLY="bert transformer-ko-en" trains just those)
# Each command below is also recorded verbatim in its checkpoint's metrics.json. The shipped
# checkpoints came from these recipes over several invocations (docs/training.md):
# the seq2seq models on 2x H200; transformer-ko-en on 1x H100 (four variants sharing it);
# transformer-en-fr on 4x H100 through models/training/sweep.sh, which trained variants side by side and kept the
# best on the validation split; bert on H200s (one GPU of two, then two, then four).
set -u
DATA=${DATA:-../shared/data}
# shellcheck source=models/training/launch.sh
source "$(dirname "$0")/launch.sh"
ONLY=${ONLY:-all}
run_fg() {  # run_fg NAME GPU ARGS...: train in the foreground (GPU: one index or a list), log to runs/NAME.log
  local name=$1 gpu=$2; shift 2
  [[ $ONLY == all || " $ONLY " == *" $name "* ]] || return 0
  train_on "$gpu" "$name" "$@"
}
run() { run_fg "$@" & }

# Transformer en->fr alone on a GPU: <= 10 minutes of training is part of its target.
run transformer-en-fr 0 transformer --direction en-fr --split-punct --cooldown 0.3 --dropout 0.2 \
    --max-tokens 24000 --lr-factor 1.2 --max-minutes 8.4 --eval-every 1000
# BERT with QK-LayerNorm in six stages, each continuing from the one before: one on one GPU (7.8 minutes,
# 128-token sequences), two data-parallel on GPUs 1 and 3 (7.8 and 7.4 minutes; 256-token sequences, the
# position table extended from the 128 learned ones, the short examples batched apart), then three on all four
# GPUs (every other run has ended by then) at the same 1,024 sequences a step: 16.5 minutes; 7 with twice the
# single-sentence weight at half the learning rate; 17 grown from 6 to 12 layers (--grow-layers: each layer
# repeated in place, the copies starting as identities). The last is re-stored as row-wise int8 (28 MB instead
# of 56 in fp16) into runs/bert. Shipped: runs bW, bX, bY, bZ, b2a, b2b (docs/training.md).
( run_fg bert-stage1 1 bert --qk-norm --max-len 128 --max-minutes 7.8 --eval-every 2000 --valid-n 2560
  run_fg bert-stage2 1,3 bert --init-from runs/bert-stage1/checkpoint --lr 1e-3 --warmup 500 --max-minutes 7.8 \
      --eval-every 1500 --valid-n 2560 --max-len 256 --extend-positions --short-len 64 --batch-size 512 --tatoeba-weight 8
  run_fg bert-stage3 1,3 bert --init-from runs/bert-stage2/checkpoint --lr 1e-3 --warmup 300 --cooldown 0.25 \
      --max-minutes 7.4 --eval-every 1500 --valid-n 2560 --max-len 256 --short-len 64 --batch-size 512 --tatoeba-weight 8
  run_fg bert-stage4 0,1,2,3 bert --init-from runs/bert-stage3/checkpoint --lr 1e-3 --warmup 300 --cooldown 0.3 \
      --max-minutes 16.5 --eval-every 2000 --valid-n 2560 --max-len 256 --short-len 64 --batch-size 256 --tatoeba-weight 8
  run_fg bert-stage5 0,1,2,3 bert --init-from runs/bert-stage4/checkpoint --lr 5e-4 --warmup 300 --cooldown 0.3 \
      --max-minutes 7 --eval-every 1500 --valid-n 2560 --max-len 256 --short-len 64 --batch-size 256 --tatoeba-weight 16
  run_fg bert-stage6 0,1,2,3 bert --init-from runs/bert-stage5/checkpoint --grow-layers 12 --lr 7e-4 --warmup 300 \
      --cooldown 0.3 --max-minutes 17 --eval-every 2000 --valid-n 2560 --max-len 256 --short-len 64 --batch-size 256 \
      --tatoeba-weight 12
  [[ $ONLY == all || " $ONLY " == *" bert "* ]] &&  # the run named "bert": the shipped folder
    python -m models.checkpoint runs/bert-stage6/checkpoint runs/bert/checkpoint --int8 > runs/bert.log 2>&1 ) &
# Korean -> English: 4.7k pairs of its own, so French -> English pairs train the same model beside them
# (--aux-pairs, ten per Korean pair each epoch, minus every pair whose English is held out of the Korean
# task), and Korean sources are respaced (--space-noise). Shipped run kG shared one H100 with three others.
run transformer-ko-en 2 transformer --direction ko-en --split-punct --valid-frac 0.05 --test-frac 0.08 \
    --eval-every 500 --max-minutes 8 --aux-pairs en-fr --dropout 0.2 --bpe-variants 16 --d-model 192 --n-heads 4 \
    --n-layers 3 --d-ff 768 --vocab 6000 --aux-ratio 10 --space-noise 0.1
# The four attention models learn with guided alignment toward the shipped Transformer's word alignment
# (models/training/guide.py; docs/models-that-teach.md): shipped runs gA-gD (6.5 min; additive 5.6 min alone on one
# GPU). The no-attention baseline is the first session's recipe, unguided.
run seq2seq-none 2 seq2seq --attention none --direction en-fr --max-minutes 6 --eval-every 1000
i=1
for att in dot scaled_dot general additive; do
  run seq2seq-$att $((2 + i % 2)) seq2seq --attention $att --direction en-fr --max-minutes 6.5 --eval-every 1000 \
      --guide-from assets/transformer-en-fr
  i=$((i + 1))
done
wait
for f in runs/*.log; do echo "== $f"; grep -E "parameters|saved|Error|error" "$f" | tail -4; done
