"""Training, data and evaluation for the architectures of models/: the corpora and objectives (data,
lm_data, task_data), the model-agnostic Trainer (trainer), the training runs (train; fine-tuning in
finetune and finetune_cli; continued BERT pre-training in continue_bert; guided alignment in guide),
evaluation and baselines (evaluate, ngram, baselines), export and back-translation, and the launch
scripts that trained assets/ (train_all.sh, sweep.sh, launch.sh). The app imports the architectures from
models/ and, for a few shared pieces (masking, encodings, the alignment check), this package; nothing
in models/ but the fine-tuned model (models/lora.py, which reads the task names here) imports it.
"""
