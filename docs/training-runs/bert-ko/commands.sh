#!/usr/bin/env bash
# bert-ko and sentiment-ko, as run for the shipped checkpoints: on this project's 2-core CPU (no GPU time was left),
# while other work shared the machine, so the minutes below bought fewer steps than on a quiet one.
set -euo pipefail
DATA=${DATA:-../shared/data}

# 1. pre-training (65 minutes of wall clock, cosine schedule over that time): runs/bert-ko -> assets/bert-ko
python -m models.bert_ko --data-dir "$DATA" --out runs/bert-ko --d-model 192 --n-layers 4 --n-heads 4 \
  --max-len 64 --batch-size 64 --lr 1e-3 --warmup 300 --max-minutes 65 --eval-every 250 --threads 2
cp -r runs/bert-ko assets/bert-ko

# 2. NSMC sentiment, LoRA on bert-ko (shipped as assets/finetune/sentiment-ko) and the same model from scratch
python -m models.training.train finetune --task sentiment-ko --init assets/bert-ko --lora 16 --data-dir "$DATA" \
  --out runs/ft-sentiment-ko --max-minutes 14 --max-len 64 --batch-size 64 --threads 1
python -m models.training.train finetune --task sentiment-ko --init scratch --base assets/bert-ko --data-dir "$DATA" \
  --out runs/ft-sentiment-ko-scratch --max-minutes 14 --max-len 64 --batch-size 64 --threads 1 --no-save
cp -r runs/ft-sentiment-ko/checkpoint assets/finetune/sentiment-ko
cp runs/ft-sentiment-ko-scratch/metrics.json docs/training-runs/bert-ko/sentiment-ko-scratch.json

# 3. the report: python -m scripts.korean_bert_report  (docs/korean-bert.md)
