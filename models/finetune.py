"""Fine-tuning the shipped BERT: one small head per task type (Devlin et al. 2018, sec. 4 and figure 4).

    (a) sentence pair -> label   NLI            [CLS] A [SEP] B [SEP] -> pooled -> softmax over 3 labels
    (b) one sentence -> label    sentiment      [CLS] A [SEP]         -> pooled -> softmax over 2 labels
    (c) question + paragraph     QA (SQuAD)     a start vector S and an end vector E: P(start=i) = softmax_i(S.T_i)
                                                over the paragraph's tokens, the same for the end (sec. 4.2)
    (d) one sentence -> tags     POS, NER       a classifier on the first subword of each word (sec. 5.3)

"pooled" is the mean of the final hidden states over the real tokens (`pooling="mean"`, the issue's best
calibration setting) or the [CLS] state through BERT's pre-trained tanh pooler (`pooling="cls"`, the paper's).

Three ways to train the same architecture, so that what pre-training buys can be measured:
* `lora`: the pre-trained weights frozen and shared; low-rank adapters W + (alpha/r) B A on the four
  attention projections of every layer (Hu et al. 2021, "LoRA", eq. 3; B starts at zero, so training
  starts from the pre-trained function) and the head are trained. A task ships only those (a few MB).
* `full`: every weight trained (a task would ship a whole copy of BERT).
* `scratch`: the same architecture and tokenizer, random initialisation, full training.

Attention is returned as a `Trace` by models.bert (never stored on a module); LoRA changes the
projections' weights, not where attention is computed.

    python -m models.train finetune --task sentiment --init assets/bert --lora 16 --data-dir ../shared/data --out runs/ft-sst
    python -m models.train finetune --task nli --init assets/bert --full ...
    python -m models.train finetune --task pos --init scratch ...
    python -m models.train finetune --task qa --smoke --out /tmp/ft   # seconds on CPU, tests/fixtures/finetune
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import math
import platform
import random
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from safetensors.torch import save_file

from models import checkpoint, task_data
from models.bert import Bert, BertConfig
from models.checkpoint import CheckpointError
from models.trace import Trace

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "finetune"
ADAPTER_FILE = "adapter.safetensors"
LORA_TARGETS = ("q_proj", "k_proj", "v_proj", "out_proj")
MAX_ANSWER_TOKENS = 30  # longest answer span considered, in subword tokens (BERT's run_squad.py)


@dataclass(frozen=True)
class FinetuneConfig:
    arch = "finetune"
    task: str  # one of task_data.TASKS
    labels: tuple  # output classes (for qa: ("start", "end"))
    bert: BertConfig  # the encoder underneath (the shipped BERT's config)
    mode: str = "lora"  # "lora" | "full" | "scratch"
    lora_r: int = 0  # adapter rank (0: no adapters)
    lora_alpha: float = 16.0  # adapters scaled by alpha / r
    pooling: str = "mean"  # sequence tasks: "mean" over real tokens or "cls" through the pre-trained pooler
    head_dropout: float = 0.1  # dropout on the hidden states the head reads
    max_len: int = 128  # tokens per input (qa: per window)
    stride: int = 128  # qa: context tokens between window starts

    @property
    def kind(self) -> str:
        return task_data.KIND[self.task]

    def to_json(self) -> dict:
        d = dataclasses.asdict(self)
        d["labels"] = list(self.labels)
        return d

    @staticmethod
    def from_json(d: dict) -> "FinetuneConfig":
        d = dict(d)
        d["bert"] = BertConfig(**d["bert"])
        d["labels"] = tuple(d["labels"])
        return FinetuneConfig(**d)


@dataclass(frozen=True)
class TaskOutput:
    logits: torch.Tensor  # (B, n_labels) sequence; (B, T, n_labels) token; (B, T, 2) span: start, end
    loss: torch.Tensor | None  # cross entropy when labels are given
    hidden: torch.Tensor  # (B, T, d_model) the encoder's final hidden states
    trace: Trace | None = None  # enc_self (B, L, H, T, T) when need_weights


# ---------------------------------------------------------------------------------------- LoRA


class LoRALinear(nn.Linear):
    """y = W x + b + (alpha / r) B A x (Hu et al. 2021, eq. 3). W and b are the pre-trained tensors
    themselves (shared, frozen); A (r, in) starts random and B (out, r) at zero, so the layer starts
    as the pre-trained one. Its state keeps the name `weight`/`bias` of the layer it wraps."""

    def __init__(self, base: nn.Linear, r: int, alpha: float):
        nn.Module.__init__(self)
        self.in_features, self.out_features = base.in_features, base.out_features
        self.weight, self.bias = base.weight, base.bias
        self.lora_A = nn.Parameter(torch.empty(r, base.in_features))
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, r))
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))  # as the LoRA reference code (loralib)
        self.scale = alpha / r

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.linear(x, self.weight, self.bias) + (x @ self.lora_A.t() @ self.lora_B.t()) * self.scale

    def merged_weight(self) -> torch.Tensor:
        """W + (alpha / r) B A: the plain Linear weight that computes the same function."""
        return self.weight + self.scale * self.lora_B @ self.lora_A


def add_lora(bert: Bert, r: int, alpha: float) -> None:
    """Wrap every attention projection of every layer in a LoRALinear (in place)."""
    for layer in bert.layers:
        for name in LORA_TARGETS:
            setattr(layer.attn, name, LoRALinear(getattr(layer.attn, name), r, alpha))


def merged_bert_state(model: "TaskModel") -> dict[str, torch.Tensor]:
    """The encoder's state with adapters folded into the projections: a plain `Bert` state dict."""
    state = {k: v for k, v in model.bert.state_dict().items() if "lora_" not in k}
    for i, layer in enumerate(model.bert.layers):
        for name in LORA_TARGETS:
            m = getattr(layer.attn, name)
            if isinstance(m, LoRALinear):
                state[f"layers.{i}.attn.{name}.weight"] = m.merged_weight().detach()
    return state


# ---------------------------------------------------------------------------------------- the model


class TaskModel(nn.Module):
    """A BERT encoder and one task head. `bert` may be a shared pre-trained encoder: in lora mode its
    weights are frozen and only the adapters and the head train."""

    def __init__(self, config: FinetuneConfig, bert: Bert | None = None):
        super().__init__()
        self.config = config
        self.bert = bert if bert is not None else Bert(config.bert)
        if config.mode == "lora":
            for p in self.bert.parameters():
                p.requires_grad_(False)
            add_lora(self.bert, config.lora_r, config.lora_alpha)
        self.drop = nn.Dropout(config.head_dropout)
        self.head = nn.Linear(config.bert.d_model, len(config.labels))
        nn.init.normal_(self.head.weight, std=0.02)
        nn.init.zeros_(self.head.bias)

    def forward(self, input_ids: torch.Tensor, segment_ids: torch.Tensor | None = None,
                attention_mask: torch.Tensor | None = None, labels: torch.Tensor | None = None,
                start_positions: torch.Tensor | None = None, end_positions: torch.Tensor | None = None,
                span_mask: torch.Tensor | None = None, need_weights: bool = False) -> TaskOutput:
        """input_ids, segment_ids, attention_mask, span_mask: (B, T); labels: (B,) sequence, (B, T) token
        (-100 where a position does not count); start/end_positions: (B,). span_mask: where a qa answer
        may start or end (other positions get a -1e4 logit)."""
        if attention_mask is None:
            attention_mask = input_ids != self.config.bert.pad_id
        no_mlm = torch.zeros(input_ids.shape[0], 0, dtype=torch.long, device=input_ids.device)  # skip the MLM head
        out = self.bert(input_ids, segment_ids, attention_mask, need_weights=need_weights, mlm_positions=no_mlm)
        h = out.hidden  # (B, T, d_model)
        kind, loss = self.config.kind, None
        if kind == "sequence":
            if self.config.pooling == "cls":
                pooled = torch.tanh(self.bert.pooler(h[:, 0]))  # (B, d_model), as pre-trained for NSP
            else:
                m = attention_mask.to(h.dtype)[..., None]  # (B, T, 1)
                pooled = (h * m).sum(1) / m.sum(1).clamp(min=1)  # (B, d_model)
            logits = self.head(self.drop(pooled)).float()  # (B, n_labels)
            if labels is not None:
                loss = F.cross_entropy(logits, labels)
        elif kind == "token":
            logits = self.head(self.drop(h)).float()  # (B, T, n_labels)
            if labels is not None:
                loss = F.cross_entropy(logits.flatten(0, 1), labels.flatten(), ignore_index=-100)
        else:
            logits = self.head(self.drop(h)).float()  # (B, T, 2): start, end
            if span_mask is not None:
                logits = logits.masked_fill(~span_mask.bool()[..., None], -1e4)
            if start_positions is not None:
                loss = (F.cross_entropy(logits[..., 0], start_positions)
                        + F.cross_entropy(logits[..., 1], end_positions)) / 2
        return TaskOutput(logits, loss, h, out.trace)


def trainable_state(model: TaskModel) -> dict[str, torch.Tensor]:
    """What a lora task ships: the adapters and the head (everything else is the shared base)."""
    return {k: v.detach().cpu().contiguous() for k, v in model.state_dict().items()
            if "lora_" in k or k.startswith("head.")}


# ---------------------------------------------------------------------------------------- files


def save_task(folder: Path, model: TaskModel, metrics: dict, base: str = "bert") -> Path:
    """folder/config.json, metrics.json and adapter.safetensors (adapters + head, fp16). The base
    encoder is not copied: it is assets/<base>, shared by every task."""
    if model.config.mode != "lora":
        raise ValueError("only lora tasks are saved (a full or scratch task would be a whole copy of BERT)")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps({"arch": "finetune", "base": base,
                                                    "config": model.config.to_json()}, indent=2))
    (folder / "metrics.json").write_text(json.dumps(metrics, indent=2, ensure_ascii=False))
    save_file({k: v.half() for k, v in trainable_state(model).items()}, str(folder / ADAPTER_FILE),
              metadata={"format": "pt"})
    too_big = [p.name for p in folder.iterdir() if p.stat().st_size > checkpoint.MAX_FILE_BYTES]
    if too_big:
        raise CheckpointError(f"{folder}: files over {checkpoint.MAX_FILE_BYTES} bytes: {too_big}")
    return folder


def load_task(folder: Path, base: Bert) -> tuple[TaskModel, dict]:
    """A lora task on `base` (its tensors shared, not copied: five tasks cost one BERT of memory).
    Raises CheckpointError naming the file at fault."""
    folder = Path(folder)
    meta = checkpoint._read_json(folder / "config.json")
    try:
        config = FinetuneConfig.from_json(meta["config"])
    except (KeyError, TypeError, ValueError) as e:
        raise CheckpointError(f"{folder / 'config.json'} is not a valid task config: {e}") from None
    if config.bert != base.config:
        raise CheckpointError(f"{folder}: trained on a BERT whose config differs from the base's")
    metrics = checkpoint._read_json(folder / "metrics.json")
    path = folder / ADAPTER_FILE
    if not path.is_file():
        raise CheckpointError(f"{path} is missing")
    try:
        state = checkpoint.load_file(str(path))  # through checkpoint: tests/test_repo_layout.py watches it
    except Exception as e:  # safetensors raises several types on a corrupt file
        raise CheckpointError(f"{path} is corrupt: {e}") from None
    model = TaskModel(config, shared_encoder(base))
    want = set(trainable_state(model))
    if set(state) != want:
        raise CheckpointError(f"{path}: tensors do not match config.json (missing {sorted(want - set(state))[:3]}, "
                              f"unexpected {sorted(set(state) - want)[:3]})")
    model.load_state_dict({k: v.float() for k, v in state.items()}, strict=False)
    return model.eval(), metrics


def shared_encoder(base: Bert) -> Bert:
    """A Bert whose parameters ARE base's tensors (no copy), so that adapters can wrap its
    projections without touching base's own modules."""
    # NoRandomInit too: on the meta device nn.init's calls import torch._dynamo (1.7 s and 49 MiB, once)
    with torch.device("meta"), checkpoint.NoRandomInit():
        bert = Bert(base.config)
    # Read-only, so no grad: a base read under torch.inference_mode holds inference tensors, which refuse
    # requires_grad=True outside it (tests/models/test_finetune.py, "inference_mode")
    bert.requires_grad_(False)
    bert.load_state_dict(base.state_dict(), assign=True)
    bert.mlm.decoder.weight = bert.embeddings.tok.weight  # keep the tie the meta model had
    return bert.eval()


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


def tags_of(probs: np.ndarray, labels: tuple, fallback: str) -> list[str]:
    """argmax tag per word; a word without a prediction (NaN row) gets `fallback`."""
    return [fallback if np.isnan(r).any() else labels[int(r.argmax())] for r in probs]


def best_span(start_logits: np.ndarray, end_logits: np.ndarray, n_ctx: int, max_tokens: int = MAX_ANSWER_TOKENS):
    """(i, j, logit sum) maximising start_logits[i] + end_logits[j] with i <= j < i + max_tokens over
    the n_ctx context positions (Devlin et al. 2018, sec. 4.2)."""
    s, e = start_logits[:n_ctx], end_logits[:n_ctx]
    total = s[:, None] + e[None, :]  # (n_ctx, n_ctx)
    i, j = np.indices(total.shape)
    total = np.where((j >= i) & (j < i + max_tokens), total, -np.inf)
    k = int(total.argmax())
    return k // n_ctx, k % n_ctx, float(total.flat[k])


def whole_words(tok, window: dict, i: int, j: int) -> tuple[int, int]:
    """Context positions (i, j) widened to whole WordPiece words: a "##" piece is never an answer's edge
    ("Cristofor" + "##i" gives "Cristofori"), as BERT's SQuAD code answers in whole words."""
    ids = window["input_ids"][window["ctx_start"]:window["ctx_start"] + len(window["offsets"])]
    while i > 0 and tok.id_to_token(ids[i]).startswith("##"):
        i -= 1
    while j + 1 < len(ids) and tok.id_to_token(ids[j + 1]).startswith("##"):
        j += 1
    return i, j


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
    if task in ("sentiment", "nli"):
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


def parse(argv=None):
    ap = argparse.ArgumentParser(prog="python -m models.train finetune",
                                 description="Fine-tune the shipped BERT (or the same architecture from scratch) "
                                             "on one task.")
    ap.add_argument("--task", required=True, choices=task_data.TASKS)
    ap.add_argument("--init", default="assets/bert",
                    help="a BERT checkpoint folder to start from, or 'scratch' (same config and tokenizer as "
                         "--base, random weights)")
    ap.add_argument("--base", type=Path, default=ROOT / "assets" / "bert",
                    help="with --init scratch: the BERT whose config and tokenizer are used")
    how = ap.add_mutually_exclusive_group()
    how.add_argument("--lora", type=int, default=None, metavar="R", help="low-rank adapters of rank R (default 16)")
    how.add_argument("--full", action="store_true", help="train every weight")
    ap.add_argument("--lora-alpha", type=float, default=16.0)
    ap.add_argument("--data-dir", type=Path, default=None, help="the task folders (default ../shared/data; "
                                                                  "--smoke: tests/fixtures/finetune)")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--max-minutes", type=float, default=1e9, help="training time budget")
    ap.add_argument("--train-until", type=float, default=None,
                    help="unix time by which training stops, whatever --max-minutes says (a shared job's end)")
    ap.add_argument("--max-steps", type=int, default=100_000)
    ap.add_argument("--epochs", type=float, default=0, help="stop after this many passes over the training rows "
                                                             "(0: only the time and step budgets)")
    ap.add_argument("--eval-every", type=int, default=10**9, help="default: evaluate once, at the end")
    ap.add_argument("--lr", type=float, default=None, help="default 1e-3 lora, 1e-4 full, 3e-4 scratch")
    ap.add_argument("--warmup", type=int, default=100)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--max-len", type=int, default=None, help="tokens per input (default 128; qa 256 per window)")
    ap.add_argument("--stride", type=int, default=128, help="qa: context tokens between window starts")
    ap.add_argument("--pooling", choices=["mean", "cls"], default="mean")
    ap.add_argument("--dropout", type=float, default=0.1, help="head dropout")
    ap.add_argument("--valid-limit", type=int, default=0, help="evaluate on the first N validation examples (0: all)")
    ap.add_argument("--train-limit", type=int, default=0, help="train on the first N training examples (0: all; "
                                                                "for rehearsing a job on CPU)")
    ap.add_argument("--no-save", action="store_true", help="lora: write metrics only, no adapter file")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--split-seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=0, help="torch CPU threads (0: torch's default)")
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--commit", default="", help="git commit of the code")
    ap.add_argument("--smoke", action="store_true", help="tiny data, a few steps, seconds on CPU")
    args = ap.parse_args(argv)
    args.mode = "scratch" if args.init == "scratch" else "full" if args.full else "lora"
    if args.mode == "scratch" and args.lora is not None:
        ap.error("--lora adapts pre-trained weights; --init scratch trains every weight")
    args.lora_r = (args.lora or 16) if args.mode == "lora" else 0
    if args.lora_r < 0 or (args.mode == "lora" and args.lora_r == 0):
        ap.error("--lora R needs R >= 1")
    if args.lr is None:
        args.lr = {"lora": 1e-3, "full": 1e-4, "scratch": 3e-4}[args.mode]
    if args.max_len is None:
        args.max_len = 256 if args.task == "qa" else 128
    if args.data_dir is None:
        args.data_dir = FIXTURES if args.smoke else Path("../shared/data")
    if args.smoke:
        args.max_steps, args.batch_size = min(args.max_steps, 4), min(args.batch_size, 4)
        if args.task == "qa":
            args.max_len, args.stride = min(args.max_len, 96), min(args.stride, 32)
    return args


def encode_train(task: str, tok, train: list, config: FinetuneConfig) -> list[dict]:
    if task in ("sentiment", "nli"):
        return task_data.encode_sequences(tok, train)
    if task in ("pos", "ner"):
        return task_data.encode_tagging(tok, train, config.labels)
    return task_data.encode_qa(tok, train, config.max_len, config.stride)


def main(argv, Trainer, warmup_cosine):
    """`python -m models.train finetune ARGS`: models.train owns the one Trainer and its schedules and passes
    them in (so this module never imports models.train)."""
    t_start = time.time()
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parse(argv)
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    if args.threads:
        torch.set_num_threads(args.threads)
    device = args.device
    if device.startswith("cuda"):
        torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = True
        torch.backends.cuda.enable_cudnn_sdp(False)  # as models.train: no cuDNN plan per batch shape
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
        "command": "python -m models.train finetune " + " ".join(shlex.quote(a) for a in argv),
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
    from models.baselines import baseline  # numpy only; seconds
    metrics["baseline"] = baseline(args.task, split["train"], valid)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.mode == "lora" and not args.no_save:
        save_task(args.out / "checkpoint", model, metrics)
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
