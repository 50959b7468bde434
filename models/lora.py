"""A fine-tuned BERT: one small head per task type (Devlin et al. 2018, sec. 4 and figure 4), LoRA adapters,
their files, and reading the heads' outputs as tags and answer spans.

    (a) sentence pair -> label   NLI            [CLS] A [SEP] B [SEP] -> pooled -> softmax over 3 labels
    (b) one sentence -> label    sentiment      [CLS] A [SEP]         -> pooled -> softmax over 2 labels
    (c) question + paragraph     QA (SQuAD)     a start vector S and an end vector E: P(start=i) = softmax_i(S.T_i)
                                                over the paragraph's tokens, the same for the end (sec. 4.2)
    (d) one sentence -> tags     POS, NER       a classifier on the first subword of each word (sec. 5.3)
                                                (NER: the most probable valid IOB2 sequence, `bio_viterbi`)

"pooled" is the mean of the final hidden states over the real tokens (`pooling="mean"`, the best
calibration setting measured) or the [CLS] state through BERT's pre-trained tanh pooler (`pooling="cls"`,
the paper's).

Three ways to train the same architecture, so that what pre-training buys can be measured:
* `lora`: the pre-trained weights frozen and shared; low-rank adapters W + (alpha/r) B A on the four
  attention projections of every layer (Hu et al. 2021, "LoRA", eq. 3; B starts at zero, so training
  starts from the pre-trained function) and the head are trained. A task ships only those (a few MB).
* `full`: every weight trained (a task would ship a whole copy of BERT).
* `scratch`: the same architecture and tokenizer, random initialisation, full training.

Attention is returned as a `Trace` by models.bert (never stored on a module); LoRA changes the
projections' weights, not where attention is computed. The app loads the shipped tasks through this
module (explorer/compute/pipeline.py); training, prediction over datasets and evaluation are in
models/training/finetune.py, the command line in models/training/finetune_cli.py. The task names and
their kinds come from the datasets' module (models/training/task_data.py).
"""
from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from safetensors.torch import save_file

from models import checkpoint
from models.bert import Bert, BertConfig
from models.checkpoint import CheckpointError
from models.trace import Trace
from models.training import task_data

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
    meta = checkpoint.read_json(folder / "config.json")
    try:
        config = FinetuneConfig.from_json(meta["config"])
    except (KeyError, TypeError, ValueError) as e:
        raise CheckpointError(f"{folder / 'config.json'} is not a valid task config: {e}") from None
    if config.bert != base.config:
        raise CheckpointError(f"{folder}: trained on a BERT whose config differs from the base's")
    metrics = checkpoint.read_json(folder / "metrics.json")
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


# ---------------------------------------------------------------------------------------- reading the heads


def tags_of(probs: np.ndarray, labels: tuple, fallback: str, constrained: bool = True) -> list[str]:
    """One tag per word from (words, labels) probabilities; a word without a prediction (NaN row) gets
    `fallback`. IOB2 labels (NER) are decoded as the most probable valid sequence (`bio_viterbi`), any
    other label set (POS) by argmax per word; `constrained=False` gives the per-word argmax for IOB2 too
    (bench/ner_gap.py measures both). The app, the CLI, the API and evaluation all decode here."""
    probs = np.asarray(probs, dtype=np.float64)
    missing = np.isnan(probs).any(-1)  # (words,)
    if not (constrained and is_iob2(labels)):
        return [fallback if m else labels[int(r.argmax())] for r, m in zip(probs, missing)]
    # floored: log 0 would make every path through that word -inf alike; a NaN row is all floor ...
    logp = np.log(np.maximum(np.nan_to_num(probs, nan=0.0), np.finfo(np.float64).tiny))
    logp[missing, labels.index(fallback)] = 0.0  # ... but `fallback`, as unconstrained
    return [labels[k] for k in bio_viterbi(logp, labels)]


def is_iob2(labels: tuple) -> bool:
    return any(str(x).startswith(("B-", "I-")) for x in labels)


def bio_viterbi(log_probs: np.ndarray, labels: tuple) -> list[int]:
    """The label indices of the most probable valid IOB2 sequence: Viterbi over per-word log-probabilities
    (words, labels) with the transitions IOB2 forbids at -inf and the others at 0, so a path's score is the
    sum of its words' log-probabilities (a first-order CRF's decoding, Lafferty et al. 2001, with the
    emissions from the softmax and hand-set transitions). I-X may only follow B-X or I-X, and may not start
    the sentence; O and B-X may go anywhere. With finite log_probs a valid path always wins (all-O is one).
    tests/models/test_finetune.py checks it against a brute-force search over every valid sequence."""
    log_probs = np.asarray(log_probs, dtype=np.float64)  # (n words, k labels)
    n, k = log_probs.shape
    if n == 0:
        return []
    kind = [(str(x)[:2], str(x)[2:]) for x in labels]  # ("B-", "PER"), ("O", "")
    inside = np.array([p == "I-" for p, _ in kind])
    allowed = np.array([[not inside[j] or (kind[i][0] in ("B-", "I-") and kind[i][1] == kind[j][1])
                         for j in range(k)] for i in range(k)])  # (prev, next)
    trans = np.where(allowed, 0.0, -np.inf)
    score = np.where(inside, -np.inf, log_probs[0])  # (k,) best path ending in each label
    back = np.zeros((n, k), dtype=int)
    for t in range(1, n):
        cand = score[:, None] + trans  # (prev k, next k)
        back[t] = cand.argmax(0)
        score = cand.max(0) + log_probs[t]
    path = [int(score.argmax())]
    for t in range(n - 1, 0, -1):
        path.append(int(back[t, path[-1]]))
    return path[::-1]


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
