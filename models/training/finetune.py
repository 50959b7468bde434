"""Fine-tuning the shipped BERT on one task (models/lora.py's TaskModel): prediction over a dataset,
the validation metrics, and a training run on the one Trainer (models/training/trainer.py).

    python -m models.training.train finetune --task sentiment --init assets/bert --lora 16 --data-dir ../shared/data --out runs/ft-sst
    python -m models.training.train finetune --task nli --init assets/bert --full ...
    python -m models.training.train finetune --task pos --init scratch ...
    python -m models.training.train finetune --task qa --smoke --out /tmp/ft   # seconds on CPU, tests/fixtures/finetune

The command line (its flags and defaults) is models/training/finetune_cli.py; `run` takes what it parsed.
"""
from __future__ import annotations

import json
import math
import platform
import random
import shlex
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from models import checkpoint
from models.bert import Bert
from models.lora import FinetuneConfig, TaskModel, best_span, save_task, tags_of, trainable_state, whole_words
from models.training import task_data
from models.training.trainer import Trainer, warmup_cosine


def state_bytes(state: dict[str, torch.Tensor], dtype: str) -> int:
    """Bytes of tensors as stored: "fp32", "fp16", or "int8" (models.checkpoint's per-row int8 for big matrices)."""
    if dtype == "int8":
        state = checkpoint._quantize(state)
        return sum(v.numel() * v.element_size() for v in state.values())
    size = 4 if dtype == "fp32" else 2
    return sum(v.numel() * (size if v.is_floating_point() else v.element_size()) for v in state.values())


# ---------------------------------------------------------------------------------------- prediction


def _run(model: TaskModel, rows: list[dict], batch_size: int, device: str, need_weights: bool = False):
    """Forward over encoded rows in batches; yields (rows of the batch, TaskOutput) under inference mode."""
    model.eval()
    with torch.inference_mode():
        for i in range(0, len(rows), batch_size):
            part = rows[i:i + batch_size]
            batch = task_data.collate([{k: r[k] for k in ("input_ids", "segment_ids", "span_mask") if k in r}
                                       for r in part])
            batch = {k: v.to(device) for k, v in batch.items()}
            with torch.autocast("cuda", dtype=torch.bfloat16, enabled=device.startswith("cuda")):
                yield part, model(**batch, need_weights=need_weights)


def predict_sequences(model: TaskModel, tok, texts: list, batch_size: int = 64, device: str = "cpu") -> np.ndarray:
    """(N, n_labels) probabilities for sentences (str) or pairs ((premise, hypothesis))."""
    rows = task_data.encode_sequences(tok, [(t, None) for t in texts])
    out = [F.softmax(o.logits.float(), -1).cpu().numpy() for _, o in _run(model, rows, batch_size, device)]
    return np.concatenate(out) if out else np.zeros((0, len(model.config.labels)))


def predict_tags(model: TaskModel, tok, sentences: list[list[str]], batch_size: int = 64,
                 device: str = "cpu") -> list[np.ndarray]:
    """Per sentence, (words, n_labels) probabilities read at each word's first subword; a word
    without tokens (emptied by the normaliser or cut by truncation) gets a row of NaN."""
    encs = [task_data.encode_words(tok, words) for words in sentences]
    rows = [{"input_ids": e.ids, "segment_ids": e.type_ids} for e, _ in encs]
    probs = []
    for part, o in _run(model, rows, batch_size, device):
        p = F.softmax(o.logits.float(), -1).cpu().numpy()  # (B, T, n_labels)
        probs.extend(p[j] for j in range(len(part)))
    out = []
    for (_, first), p in zip(encs, probs):
        rows_ = np.full((len(first), p.shape[-1]), np.nan)
        for w, pos in enumerate(first):
            if pos is not None:
                rows_[w] = p[pos]
        out.append(rows_)
    return out


def predict_answers(model: TaskModel, tok, items: list[tuple[str, str]], batch_size: int = 64,
                    device: str = "cpu", keep_windows: bool = False) -> list[dict]:
    """For each (question, context): {"answer", "start", "end" (char offsets in the context), "score"
    (P(start) * P(end), each a softmax over the window's context tokens), "window"}. Long contexts are
    read in windows (config.max_len, config.stride); the span with the highest start+end logit wins."""
    cfg = model.config
    windows, owner = [], []
    for n, (q, c) in enumerate(items):
        for w in task_data.qa_windows(tok, q, c, cfg.max_len, cfg.stride):
            mask = [False] * len(w["input_ids"])
            for i in range(len(w["offsets"])):
                mask[w["ctx_start"] + i] = True
            windows.append({**w, "span_mask": mask})
            owner.append(n)
    best: list[dict | None] = [None] * len(items)
    k = 0
    for part, o in _run(model, windows, batch_size, device):
        lg = o.logits.float().cpu().numpy()  # (B, T, 2)
        for j, w in enumerate(part):
            n, k = owner[k], k + 1
            c0, n_ctx = w["ctx_start"], len(w["offsets"])
            if n_ctx == 0:
                continue
            s_log, e_log = lg[j, c0:c0 + n_ctx, 0], lg[j, c0:c0 + n_ctx, 1]
            i, jj, total = best_span(s_log, e_log, n_ctx)
            p_s = np.exp(s_log - s_log.max()) / np.exp(s_log - s_log.max()).sum()
            p_e = np.exp(e_log - e_log.max()) / np.exp(e_log - e_log.max()).sum()
            if best[n] is None or total > best[n]["logit"]:
                wi, wj = whole_words(tok, w, i, jj)
                cs, ce = w["offsets"][wi][0], w["offsets"][wj][1]
                rec = {"answer": items[n][1][cs:ce], "start": int(cs), "end": int(ce),
                       "score": float(p_s[i] * p_e[jj]), "logit": total, "window": w["token_start"]}
                if keep_windows:
                    rec.update(p_start=p_s, p_end=p_e, window_row=w, token_span=(i, jj))
                best[n] = rec
    return [b or {"answer": "", "start": 0, "end": 0, "score": 0.0, "logit": -math.inf, "window": 0} for b in best]


# ---------------------------------------------------------------------------------------- evaluation


def evaluate_task(model: TaskModel, tok, task: str, examples: list, device: str = "cpu", batch_size: int = 64) -> dict:
    """Validation metrics; "score" is the one the issue's targets use (accuracy, UPOS accuracy,
    entity F1, SQuAD F1)."""
    labels = model.config.labels
    if task_data.KIND[task] == "sequence":
        probs = predict_sequences(model, tok, [x for x, _ in examples], batch_size, device)
        acc = task_data.accuracy(probs.argmax(-1).tolist(), [y for _, y in examples])
        return {"score": acc, "accuracy": acc, "n": len(examples)}
    if task in ("pos", "ner"):
        fallback = "O" if task == "ner" else "X"
        probs = predict_tags(model, tok, [w for w, _ in examples], batch_size, device)
        pred = [tags_of(p, labels, fallback) for p in probs]
        gold = [t for _, t in examples]
        acc = task_data.tag_accuracy(pred, gold)
        if task == "pos":
            return {"score": acc, "accuracy": acc, "n_sentences": len(examples)}
        f = task_data.entity_f1(pred, gold)
        return {"score": f["f1"], "entity_f1": f["f1"], "precision": f["precision"], "recall": f["recall"],
                "token_accuracy": acc, "n_gold_entities": f["n_gold_entities"], "n_sentences": len(examples)}
    preds = predict_answers(model, tok, [(x["question"], x["context"]) for x in examples], batch_size, device)
    s = task_data.squad_scores([p["answer"] for p in preds], [x["answers"] for x in examples])
    return {"score": s["f1"], **s, "n": len(examples)}


# ---------------------------------------------------------------------------------------- training


def encode_train(task: str, tok, train: list, config: FinetuneConfig) -> list[dict]:
    if task_data.KIND[task] == "sequence":
        return task_data.encode_sequences(tok, train)
    if task in ("pos", "ner"):
        return task_data.encode_tagging(tok, train, config.labels)
    return task_data.encode_qa(tok, train, config.max_len, config.stride)


def run(args, argv: list[str], t_start: float) -> dict:
    """One fine-tuning run of `args` (finetune_cli.parse's), `argv` its command line, `t_start` when the
    command started: trains, evaluates, writes OUT/metrics.json (and OUT/checkpoint for a lora task)."""
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    if args.threads:
        torch.set_num_threads(args.threads)
    device = args.device
    if device.startswith("cuda"):
        torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = True
        torch.backends.cuda.enable_cudnn_sdp(False)  # as models.training.train: no cuDNN plan per batch shape
    base_dir = args.base if args.mode == "scratch" else Path(args.init)
    base = checkpoint.load(base_dir)
    tok = task_data.task_tokenizer(base.tokenizer, args.max_len)
    config = FinetuneConfig(task=args.task, labels=task_data.LABELS[args.task], bert=base.config, mode=args.mode,
                            lora_r=args.lora_r, lora_alpha=args.lora_alpha, pooling=args.pooling,
                            head_dropout=args.dropout, max_len=args.max_len, stride=args.stride)
    bert = Bert(base.config) if args.mode == "scratch" else base.model
    model = TaskModel(config, bert).to(device)

    split = task_data.read_task(args.task, args.data_dir, args.split_seed)
    valid = split["valid"][:args.valid_limit or None]
    split["train"] = split["train"][:args.train_limit or None]
    train_rows = encode_train(args.task, tok, split["train"], config)
    if args.epochs:
        args.max_steps = min(args.max_steps, max(1, math.ceil(args.epochs * len(train_rows) / args.batch_size)))
    rng = random.Random(args.seed)
    batches = task_data.batches(train_rows, args.batch_size, rng, base.config.pad_id)
    n_trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    print(f"finetune {args.task} ({args.mode}{f' r={args.lora_r}' if args.lora_r else ''}): "
          f"{n_trainable / 1e6:.3f}M trainable of {sum(p.numel() for p in model.parameters()) / 1e6:.2f}M, "
          f"{len(split['train'])} training examples ({len(train_rows)} rows), {len(valid)} validation, {device}",
          flush=True)

    def evaluate(m):
        if args.mode == "lora":  # evaluate the weights as stored (fp16 adapters and head)
            with torch.no_grad():
                for p in m.parameters():
                    if p.requires_grad:
                        p.copy_(p.half().float())
        return evaluate_task(m, tok, args.task, valid, device)

    params = [(n, p) for n, p in model.named_parameters() if p.requires_grad]
    opt = torch.optim.AdamW([{"params": [p for n, p in params if p.dim() >= 2], "weight_decay": 0.01},
                             {"params": [p for n, p in params if p.dim() < 2], "weight_decay": 0.0}],
                            lr=args.lr, fused=device.startswith("cuda"))
    max_minutes = args.max_minutes
    if args.train_until is not None:
        max_minutes = max(0.05, min(max_minutes, (args.train_until - time.time()) / 60))
    trainer = Trainer(model, opt, warmup_cosine(args.lr, args.warmup), batches, evaluate, args.out, device,
                      args.max_steps, max_minutes, args.eval_every, amp=True)
    result = trainer.run()
    model.cpu().float()

    metrics = {
        "name": f"finetune-{args.task}-{args.mode}", "task": args.task, "mode": args.mode,
        "command": "python -m models.training.train finetune " + " ".join(shlex.quote(a) for a in argv),
        "git_commit": args.commit, "seed": args.seed, "smoke": args.smoke,
        "hyperparameters": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
        "init": str(args.init), "base_metrics_command": base.metrics.get("command"),
        "data": task_data.data_meta(args.task, args.data_dir, split, args.split_seed),
        "parameters_trainable": n_trainable, "parameters_total": sum(p.numel() for p in model.parameters()),
        "steps": result["steps"], "train_rows": len(train_rows),
        "epochs": round(result["steps"] * args.batch_size / max(1, len(train_rows)), 2),
        "wall_seconds": result["wall_seconds"], "total_seconds": round(time.time() - t_start, 1),
        "device": torch.cuda.get_device_name(0) if device.startswith("cuda") else platform.processor() or "cpu",
        "torch": torch.__version__, "valid": result["best"],
        "ship_bytes": ship_bytes(model),
    }
    from models.training.baselines import baseline  # numpy only; seconds
    metrics["baseline"] = baseline(args.task, split["train"], valid)
    if split.get("test"):  # a task whose test half is here (sentiment-ko: our own split of NSMC's training file)
        test = split["test"][:args.valid_limit or None]
        metrics["test"] = {**evaluate_task(model.to(device), tok, args.task, test, device), "n": len(test)}
        metrics["baseline_test"] = baseline(args.task, split["train"], test)
        model.cpu()
    args.out.mkdir(parents=True, exist_ok=True)
    if args.mode == "lora" and not args.no_save:
        save_task(args.out / "checkpoint", model, metrics, base=Path(args.init).name)  # assets/<base> at load
    (args.out / "metrics.json").write_text(json.dumps(metrics, indent=2, ensure_ascii=False))
    print(f"saved {args.out}: valid {json.dumps(result['best'])}; baseline {json.dumps(metrics['baseline'])}",
          flush=True)
    return metrics


def ship_bytes(model: TaskModel) -> dict:
    """What shipping this task costs: lora, the adapters + head as stored (fp16); full or scratch, a
    whole encoder + head as the base is stored (int8 per-row) and in fp16."""
    if model.config.mode == "lora":
        return {"adapters_and_head_fp16": state_bytes(trainable_state(model), "fp16")}
    state = {k: v for k, v in model.state_dict().items() if not k.startswith("bert.mlm.decoder.weight")}
    return {"whole_model_int8": state_bytes(state, "int8"), "whole_model_fp16": state_bytes(state, "fp16")}
