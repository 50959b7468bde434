"""The model-agnostic trainer (minGPT's Trainer) and what every training run shares.

`Trainer` knows nothing about the architectures: it gets a model whose forward(**batch) returns an
object with `.loss`, a stream of batches, an LR schedule and an evaluation callback, and writes
`log.jsonl` (metrics per step) and `snapshots.json` (attention on fixed probe sentences) as it trains.
Beside it: the learning-rate schedules (Vaswani et al. 2017, eq. 3; warmup + cosine; a linear
cooldown), the data-parallel helpers (rank, one tokenizer for all processes, replicas checked
identical) and the wrappers that fix a model's training arguments so the Trainer stays model-agnostic
(`Bound`, R-Drop, BERT's split batches). models.training.train, .finetune and .continue_bert build
their runs on it; it imports none of them.
"""
from __future__ import annotations

import json
import math
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

import torch
import torch.distributed as dist
from tqdm import tqdm

from models import checkpoint
from models.trace import ModelOutput

def rank() -> int:
    """This process's place among data-parallel processes (0 when training alone)."""
    return dist.get_rank() if dist.is_initialized() else 0


@dataclass
class Trainer:
    model: torch.nn.Module
    optimizer: torch.optim.Optimizer
    lr_at: Callable[[int, float], float]  # (step, progress in [0, 1]) -> learning rate
    batches: Iterator[dict]
    evaluate: Callable[[torch.nn.Module], dict]  # -> metrics with a "score" to maximise
    out: Path
    device: str = "cpu"
    max_steps: int = 1000
    max_minutes: float = 1e9
    eval_every: int = 500
    amp: bool = False  # bf16 autocast on CUDA
    compile: bool = False  # run the training forward/backward through torch.compile (fewer kernel launches)
    grad_clip: float = 1.0
    average_last: int = 0  # average the last N evaluated checkpoints (Vaswani et al. 2017, sec. 6.1)
    snapshot: Callable[[torch.nn.Module], dict] | None = None
    snapshot_steps: tuple = (0, 25, 50, 100, 200, 400)  # plus every evaluation
    history: list = field(default_factory=list)

    def run(self) -> dict:
        """Train until max_steps or max_minutes. Under torchrun, self.model is the DistributedDataParallel
        wrapper; every process evaluates (identical weights: the others would wait anyway) and only
        rank 0 writes. The clock behind the time budget and the schedule is agreed among processes
        every `sync` steps, so all stop at the same step with the same learning rates."""
        inner = getattr(self.model, "module", self.model)  # what evaluate, snapshot and the state see
        distributed, lead = dist.is_initialized(), rank() == 0
        self.out.mkdir(parents=True, exist_ok=True)
        log = open(self.out / "log.jsonl" if lead else os.devnull, "w")
        snaps = []
        best, best_state, recent = None, None, []
        sync = max(1, min(50, self.max_steps // 10))  # steps between log lines (and clock agreements)
        t0, step, progress, clock = time.time(), 0, 0.0, 0.0
        # a fused AdamW can skip a non-finite step on the device (see below)
        fused = bool(self.optimizer.defaults.get("fused"))
        skipped = torch.zeros((), device=self.device)
        bar = tqdm(total=self.max_steps, desc=f"train {type(inner).__name__}", mininterval=2, disable=not lead)
        # one graph for all batch shapes (dynamic=True); evaluation and the saved state use the plain module
        forward = torch.compile(self.model, dynamic=True) if self.compile else self.model
        while step < self.max_steps and progress < 1.0:
            if self.snapshot and step in self.snapshot_steps:
                snaps.append({"step": step, **self.snapshot(inner)})
            self.model.train()
            lr = self.lr_at(step, progress)
            for g in self.optimizer.param_groups:
                g["lr"] = lr
            batch = {k: v.to(self.device, non_blocking=True) for k, v in next(self.batches).items()}
            with torch.autocast("cuda", dtype=torch.bfloat16, enabled=self.amp and self.device.startswith("cuda")):
                loss = forward(**batch).loss
            self.optimizer.zero_grad(set_to_none=True)
            if not fused and not distributed and not torch.isfinite(loss):  # skipped and logged, never applied
                log.write(json.dumps({"step": step, "skipped": "non-finite loss"}) + "\n")
                step += 1
                continue
            loss.backward()
            gnorm = torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.grad_clip)
            if fused:
                # Same skip without a host-device sync per step (which would leave the GPU idle while
                # Python prepares the next batch): the fused optimizer reads `found_inf` on the device
                # and leaves parameters, moments and step counts untouched where it is 1.
                self.optimizer.found_inf = (~torch.isfinite(gnorm)).float()
                skipped = skipped + self.optimizer.found_inf
                self.optimizer.step()
                del self.optimizer.found_inf
            elif distributed and not torch.isfinite(gnorm):  # averaged gradients: every process agrees
                log.write(json.dumps({"step": step, "skipped": "non-finite gradient"}) + "\n")
            else:
                self.optimizer.step()
            step += 1
            elapsed = time.time() - t0
            if distributed:  # one clock for all: the slowest process's, agreed every `sync` steps
                if step % sync == 0:
                    t = torch.tensor([elapsed], dtype=torch.float64, device=self.device)
                    dist.all_reduce(t, op=dist.ReduceOp.MAX)
                    clock = t.item()
                elapsed = clock
            progress = max(step / self.max_steps, elapsed / 60 / self.max_minutes)
            bar.update(1)
            if step % sync == 0 or step == 1:
                rec = {"step": step, "loss": round(loss.item(), 4), "lr": lr, "grad_norm": round(gnorm.item(), 3),
                       "seconds": round(elapsed, 1)}
                if fused and skipped.item():
                    rec["skipped_nonfinite_total"] = int(skipped.item())
                log.write(json.dumps(rec) + "\n")
                bar.set_postfix(loss=rec["loss"])
            if step % self.eval_every == 0 or step >= self.max_steps or progress >= 1.0:
                metrics = self.evaluate(inner)
                rec = {"step": step, "seconds": round(time.time() - t0, 1), "eval": metrics}
                log.write(json.dumps(rec) + "\n")
                log.flush()
                self.history.append(rec)
                if lead:
                    tqdm.write(json.dumps(rec))
                if self.snapshot:
                    snaps.append({"step": step, **self.snapshot(inner)})
                state = {k: v.detach().to("cpu", copy=True) for k, v in inner.state_dict().items()}
                if self.average_last:
                    recent = (recent + [state])[-self.average_last:]
                if best is None or metrics["score"] > best["score"]:
                    best, best_state = dict(metrics, step=step), state
        bar.close()
        wall = time.time() - t0
        if distributed:
            check_replicas(inner)
        if self.average_last and len(recent) > 1:
            avg = checkpoint.average_states(recent)
            inner.load_state_dict(avg)
            metrics = self.evaluate(inner)
            log.write(json.dumps({"step": step, "eval_averaged_last": len(recent), "eval": metrics}) + "\n")
            if lead:
                tqdm.write(f"average of last {len(recent)}: {metrics}")
            if metrics["score"] >= best["score"]:
                best, best_state = dict(metrics, step=step, averaged=len(recent)), avg
        inner.load_state_dict(best_state)
        log.close()
        if snaps and lead:
            (self.out / "snapshots.json").write_text(json.dumps(snaps))
        return {"steps": step, "wall_seconds": round(wall, 1), "best": best}


def agree_tokenizer(tok, device: str):
    """Under torchrun, every process takes rank 0's tokenizer. Training one twice on the same text
    need not give the same vocabulary (huggingface/tokenizers#1794: WordPiece merges whose counts
    tie are ordered by hash-map iteration), and processes feeding one model different token ids
    would train it on noise without any error. Sent as JSON bytes, no pickling."""
    if not dist.is_initialized():
        return tok
    from tokenizers import Tokenizer
    dev = device if device.startswith("cuda") else "cpu"
    raw = torch.frombuffer(bytearray(tok.to_str().encode()), dtype=torch.uint8).to(dev)
    n = torch.tensor([len(raw)], device=dev)
    dist.broadcast(n, src=0)
    buf = raw if rank() == 0 else torch.empty(int(n.item()), dtype=torch.uint8, device=dev)
    dist.broadcast(buf, src=0)
    return Tokenizer.from_str(bytes(buf.cpu().numpy()).decode())


def check_replicas(model: torch.nn.Module):
    """Data-parallel copies must stay bit-identical (same averaged gradients, same learning rates);
    a schedule that read each process's own clock would make them drift apart silently."""
    with torch.no_grad():
        flat = torch.cat([p.detach().double().flatten() for p in model.parameters()])
        stats = torch.stack([flat.sum(), flat.abs().sum(), (flat * torch.arange(len(flat), device=flat.device,
                                                                                  dtype=flat.dtype)).sum()])
    lo, hi = stats.clone(), stats.clone()
    dist.all_reduce(lo, op=dist.ReduceOp.MIN)
    dist.all_reduce(hi, op=dist.ReduceOp.MAX)
    if not torch.equal(lo, hi):
        raise RuntimeError(f"data-parallel replicas diverged: {lo.tolist()} vs {hi.tolist()}")


def noam(d_model: int, warmup: int, factor: float = 1.0):
    """lr = factor * d_model^-0.5 * min(step^-0.5, step * warmup^-1.5) (Vaswani et al. 2017, eq. 3)."""
    return lambda step, progress: factor * d_model ** -0.5 * min((step + 1) ** -0.5, (step + 1) * warmup ** -1.5)


def warmup_cosine(peak: float, warmup: int, floor: float = 0.05):
    """Linear warmup, then cosine decay over training progress (steps or minutes, whichever ends first)."""
    def lr(step, progress):
        if step < warmup:
            return peak * (step + 1) / warmup
        return peak * (floor + (1 - floor) * 0.5 * (1 + math.cos(math.pi * min(progress, 1.0))))
    return lr


def with_cooldown(lr_at, frac: float):
    """Scale a schedule linearly down to 0 over the last `frac` of training progress (0: unchanged).

    Runs here end on a time budget, where the inverse-square-root tail is still high; the cooldown
    anneals it (the "trapezoidal" / warmup-stable-decay schedule). Warmup is untouched."""
    if frac <= 0:
        return lr_at
    return lambda step, progress: lr_at(step, progress) * min(1.0, max(0.0, 1.0 - progress) / frac)


class Bound(torch.nn.Module):
    """The model with keyword arguments fixed for every training call (label smoothing, BERT's
    labelled-only MLM head), so the Trainer stays model-agnostic. The model is `.m`."""

    def __init__(self, m: torch.nn.Module, **kwargs):
        super().__init__()
        self.m, self.kwargs = m, kwargs

    def forward(self, **batch):
        return self.m(**batch, **self.kwargs)


class RDrop(Bound):
    """R-Drop (Liang et al. 2021): every sentence pair goes through the model twice, under two
    dropout masks (the batch concatenated with itself: one pass), and the loss adds alpha times the
    symmetric KL divergence between the two predicted distributions of each target token. Scaled as
    the paper's fairseq code: both cross-entropies and the KL summed over tokens, divided by the
    tokens of the doubled batch (so alpha=5 is the paper's translation setting)."""

    def __init__(self, m: torch.nn.Module, alpha: float, **kwargs):
        super().__init__(m, **kwargs)
        self.alpha = alpha

    def forward(self, src, tgt_in, tgt_out):
        out = self.m(torch.cat([src, src]), torch.cat([tgt_in, tgt_in]), torch.cat([tgt_out, tgt_out]), **self.kwargs)
        lp, lq = out.logits.float().log_softmax(-1).chunk(2)
        kl = 0.5 * (torch.nn.functional.kl_div(lq, lp, log_target=True, reduction="none").sum(-1)
                    + torch.nn.functional.kl_div(lp, lq, log_target=True, reduction="none").sum(-1))
        keep = tgt_out != self.m.config.pad_id
        return ModelOutput(out.logits, out.loss + self.alpha * kl[keep].sum() / (2 * keep.sum()))


class SplitBatch(Bound):
    """A BERT batch in two parts, each padded to its own longest row: full-length sentence pairs
    and the short examples (Tatoeba's single sentences are about a tenth of --max-len, and padded
    with the pairs they would cost a whole row each). The loss is the one of the batch in one
    piece: MLM cross entropy averaged over all masked tokens of both parts, NSP over all labelled
    pairs (a part without any, like the singles, adds nothing). `nsp_weight` scales the NSP term
    (1: the paper's plain sum); a batch in one piece (no short part) works too."""

    def __init__(self, m: torch.nn.Module, nsp_weight: float = 1.0, **kwargs):
        super().__init__(m, **kwargs)
        self.nsp_weight = nsp_weight

    def forward(self, **batch):
        parts = [{k: v for k, v in batch.items() if not k.startswith("short_")},
                 {k[len("short_"):]: v for k, v in batch.items() if k.startswith("short_")}]
        mlm_sum = mlm_n = nsp_sum = nsp_n = 0
        out = None
        for part in parts:
            if not part or part["input_ids"].numel() == 0:  # a shape: known on the host, no device sync
                continue
            out = self.m(part["input_ids"], part["segment_ids"], mlm_labels=part["mlm_labels"], **self.kwargs)
            n = (part["mlm_labels"] != -100).sum()
            mlm_sum = mlm_sum + torch.nan_to_num(out.loss) * n  # the part's mean (0/0 if none) times its count
            mlm_n = mlm_n + n
            nsp_sum = nsp_sum + torch.nn.functional.cross_entropy(out.nsp_logits.float(), part["nsp_labels"],
                                                                  reduction="sum")
            nsp_n = nsp_n + (part["nsp_labels"] != -100).sum()
        loss = mlm_sum / mlm_n.clamp(min=1) + self.nsp_weight * nsp_sum / nsp_n.clamp(min=1)
        return ModelOutput(out.mlm_logits, loss)


def forever(make_epoch):
    epoch = 0
    while True:
        yield from make_epoch(epoch)
        epoch += 1
