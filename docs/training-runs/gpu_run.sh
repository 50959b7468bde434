#!/usr/bin/env bash
# The session's one GPU run: every job in .gpu/jobs/*.sh side by side on one GPU, then pack by a deadline.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1 TOKENIZERS_PARALLELISM=false
D=${DATA_ROOT:-/tmp/gpudata}; mkdir -p $D && tar xzf ${DATA_TGZ:-.gpu/data.tgz} -C $D
if [ -z "${NO_WHEELS:-}" ] && ls .whl/*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site
fi
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null
python3 -c "import torch,sys; print('torch', torch.__version__, 'cuda', torch.cuda.is_available(), sys.version.split()[0])"
export DATA=$D MINUTES=${MINUTES:-2.2}
R=${RUNS:-/tmp/runout}; mkdir -p $R
PIDS=()
for j in ${JOBS:-gpt finetune}; do
  mkdir -p $R/$j
  ( RUN_OUT=$R/$j timeout -k 3 ${JOB_TIMEOUT:-195} bash .gpu/jobs/$j.sh > $R/$j/job.log 2>&1; echo "rc=$? after $(( $(date +%s) - T0 )) s" >> $R/$j/job.log ) &
  PIDS+=($!)
done
DL=${PACK_AT:-200}
while [ $(( $(date +%s) - T0 )) -lt $DL ]; do
  alive=0; for p in "${PIDS[@]}"; do kill -0 $p 2>/dev/null && alive=1; done
  [ $alive = 0 ] && break; sleep 2
done
echo "packing at $(( $(date +%s) - T0 )) s"
for j in $(ls $R); do echo "== $j"; tail -n 25 $R/$j/job.log; done
cd $R
for j in *; do tar czf /tmp/$j.tgz $j; s=$(stat -c %s /tmp/$j.tgz)
  if [ $s -gt 15000000 ]; then split -b 15000000 -d /tmp/$j.tgz $OUT/$j.tgz.part; else cp /tmp/$j.tgz $OUT/; fi; done
ls -la $OUT; echo "total $(( $(date +%s) - T0 )) s"
