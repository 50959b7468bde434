#!/usr/bin/env bash
# Issue 32 items 1 and 3, one 4-GPU call: the four seq2seq attention models retrained with guided alignment
# (teacher: the shipped transformer-en-fr; models/guide.py), two per GPU, and Korean with the NTREX-128 and
# UD Korean-PUD pairs added to training: transformer ko-en (the shipped kG recipe + extras) and en-ko.
# Each run trains MINUTES, then is read on its test split (beam/alpha as the shipped models) on the GPU.
#   DATA=/path/to/shared/data RUN_OUT=/path/to/empty MINUTES=7 bash .gpu/jobs/translate.sh
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
: "${DATA:?}" "${RUN_OUT:?}"; mkdir -p "$RUN_OUT"
M=${MINUTES:-7}; KM=${KO_MINUTES:-$M}
COMMIT=${GIT_COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}
NG=$(nvidia-smi -L 2>/dev/null | wc -l); [ "$NG" -lt 1 ] && NG=1
gpu() { echo $(( $1 % NG )); }
run() {  # run NAME GPU BEAM ALPHA ARGS...
  local name=$1 g=$2 beam=$3 alpha=$4; shift 4
  mkdir -p "$RUN_OUT/$name"
  ( export CUDA_VISIBLE_DEVICES=$(gpu $g) OMP_NUM_THREADS=2
    python3 -m models.train "$@" --data-dir "$DATA" --out "$RUN_OUT/$name" --commit "$COMMIT" --fp16-weights \
      > "$RUN_OUT/$name/train.log" 2>&1
    echo "$name train exit $? at $(date -u +%T)" >> "$RUN_OUT/status.txt"
    timeout -k 3 ${EVAL_S:-100} python3 -m models.evaluate "$RUN_OUT/$name/checkpoint" --data-dir "$DATA" --device cuda \
      --beam "$beam" --alpha "$alpha" > "$RUN_OUT/$name/eval.log" 2>&1
    echo "$name eval exit $? at $(date -u +%T)" >> "$RUN_OUT/status.txt" ) &
}
echo "start $(date -u +%T) gpus=$NG minutes=$M commit=$COMMIT" > "$RUN_OUT/status.txt"
T=assets/transformer-en-fr
S2S="seq2seq --direction en-fr --eval-every 1000 --max-minutes $M --guide-from $T"
run seq2seq-dot 0 8 1.0 $S2S --attention dot
run seq2seq-general 0 4 1.0 $S2S --attention general
run seq2seq-scaled_dot ${SD_GPU:-1} 8 1.0 $S2S --attention scaled_dot
run seq2seq-additive 1 8 1.0 $S2S --attention additive
[ -n "${NO_KO:-}" ] && { wait; echo "end $(date -u +%T)" >> "$RUN_OUT/status.txt"; cat "$RUN_OUT/status.txt"; exit 0; }
KO="transformer --split-punct --valid-frac 0.05 --test-frac 0.08 --eval-every 500 --max-minutes $KM --dropout 0.2
    --d-model 192 --n-heads 4 --n-layers 3 --d-ff 768 --vocab 6000 --extra-pairs ntrex pud --extra-repeat 2"
run transformer-ko-en 2 4 0.6 $KO --direction ko-en --aux-pairs en-fr --aux-ratio 10 --bpe-variants 16 --space-noise 0.1
run transformer-en-ko 3 4 0.6 $KO --direction en-ko
wait
echo "end $(date -u +%T)" >> "$RUN_OUT/status.txt"; cat "$RUN_OUT/status.txt"
