# Sourced by sweep.sh and train_all.sh: the environment of a training run, and how one starts.
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=2 TOKENIZERS_PARALLELISM=true
# the commit each metrics.json records (models.training.train --commit's default); a copy without .git (a GPU machine's)
# needs GIT_COMMIT set by hand, or its runs record none (tV-tZ did)
GIT_COMMIT=${GIT_COMMIT:-$(git rev-parse HEAD 2>/dev/null || true)}
export GIT_COMMIT
[[ -n $GIT_COMMIT ]] || echo "note: no git commit known (set GIT_COMMIT): metrics.json will record none" >&2
mkdir -p runs
nvidia-smi -L || true

# train_on GPU NAME ARGS...: `python -m models.training.train ARGS` on one GPU ("0"), or one data-parallel run
# over a list of them ("1,2,3", through torchrun), into runs/NAME with its output in runs/NAME.log.
# Reads DATA (the corpora folder).
train_on() {
  local gpu=$1 name=$2
  shift 2
  local launch=(python -m models.training.train)
  if [[ $gpu == *,* ]]; then
    launch=(torchrun --standalone --nproc_per_node "$(tr ',' '\n' <<<"$gpu" | wc -l)" -m models.training.train)
  fi
  CUDA_VISIBLE_DEVICES=$gpu "${launch[@]}" "$@" --data-dir "$DATA" --out "runs/$name" --fp16-weights \
    > "runs/$name.log" 2>&1
}
