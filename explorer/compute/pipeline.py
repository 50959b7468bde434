"""Fine-tuned BERT tasks as records and as a `pipeline(...)` in the spirit of the lecture's code slide:

    >>> from explorer import pipeline
    >>> pipeline.pipeline("sentiment-analysis")(["I love this product! It's amazing and works perfectly."])
    [{'label': 'POSITIVE', 'score': 0.97...}]

Tasks (Devlin et al. 2018, figure 4): "sentiment-analysis" (b), "nli" (a), "pos" and "ner" (d),
"question-answering" (c). Each is the shipped BERT (assets/bert, shared, loaded once) with the task's
low-rank adapters and head from assets/finetune/<task>/ (models/lora.py). The record functions
(`classify`, `tag`, `answer`) also return the fine-tuned model's attention and, on request, the
pre-trained model's on the same tokens: the Fine-tuning tab, the CLI and the tests read the same records.
Errors a user can cause raise explorer.compute.inference.UserError.
"""
from __future__ import annotations

import sys
import threading
import types
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from explorer.compute.inference import ASSETS, Notice, Registry, UserError, _shown, clean_text, registry
from models.checkpoint import CheckpointError, read_json
from models.lora import TaskModel, best_span, load_task, tags_of, whole_words
from models.trace import Trace
from models.training import task_data

FINETUNE = ASSETS / "finetune"
ALIASES = {"sentiment-analysis": "sentiment", "sentiment": "sentiment", "nli": "nli", "pos": "pos", "ner": "ner",
           "question-answering": "qa", "qa": "qa", "sentiment-ko": "sentiment-ko"}
PIPELINE_TASKS = ("sentiment-analysis", "nli", "pos", "ner", "question-answering", "sentiment-ko")
IN_KOREAN = {"sentiment": "sentiment-ko"}  # pipeline(task, lang="ko"): the task's Korean model (on bert-ko)
SENTENCE_TASKS = ("sentiment", "nli", "sentiment-ko")
MAX_CONTEXT_CHARS = 5000  # a paragraph read in windows; SQuAD's longest is ~3,700 characters
FALLBACK_TAG = {"pos": "X", "ner": "O"}  # a word without tokens (a control character alone) or past the length


def task_name(task: str) -> str:
    """The repo's task name for a pipeline name or alias, or a UserError listing the known ones."""
    if not isinstance(task, str) or task.strip().lower() not in ALIASES:
        known = ", ".join(PIPELINE_TASKS)
        raise UserError(f"Unknown task '{_shown(task)}'. Available: {known}.", "unknown_task", name=_shown(task),
                        known=known)
    return ALIASES[task.strip().lower()]


# ----------------------------------------------------------------------------- loading

_LOCK = threading.Lock()
_TASKS: dict[tuple, tuple] = {}  # (base id, folder) -> (task model, metrics, the base it wraps)


def load(task: str, reg: Registry | None = None, folder: Path | None = None):
    """(task model, its metrics, the base checkpoint): assets/finetune/<task> on the registry's BERT,
    loaded once per process and shared read-only (the base's tensors are not copied)."""
    task = task_name(task)
    folder = Path(folder or FINETUNE) / task
    if not folder.is_dir():
        raise UserError(f"The {task} model is not installed ({folder} is missing).", "task_missing", task=task)
    base = (reg or registry()).get(base_name(folder), "bert")
    key = (id(base.model), str(folder))
    with _LOCK:
        if key not in _TASKS or _TASKS[key][2] is not base.model:  # an id can be reused once a model is freed
            try:
                _TASKS[key] = (*load_task(folder, base.model), base.model)
            except CheckpointError as e:
                raise UserError(f"The {task} model could not be loaded: {e}", "not_loaded", name=task,
                                error=str(e)) from None
    model, metrics, _ = _TASKS[key]
    return model, metrics, base


def chosen_probs(probs, labels, tags) -> list[float | None]:
    """Each word's probability of the tag it got (None: a word the model did not read, its row NaN). Not the row's
    maximum: NER's valid-sequence decoding can choose a tag that is not the word's argmax. The per-word scores and
    the result's mean score are both this."""
    return [None if np.isnan(r).any() else float(r[labels.index(t)]) for r, t in zip(probs, tags)]


_BASES: dict[str, str] = {}  # task folder -> the base it names (read once: every classify / tag / answer asks)


def base_name(folder: Path) -> str:
    """The pre-trained model a task folder adapts (its config.json's "base": bert, bert-ko), read with
    models.checkpoint.read_json. A folder it cannot read gives "bert" and is not remembered: load_task then names
    what is wrong, and the folder once mended is read again."""
    key = str(folder)
    if key not in _BASES:
        try:
            _BASES[key] = str(read_json(Path(folder) / "config.json").get("base") or "bert")
        except CheckpointError:
            return "bert"
    return _BASES[key]


def _tokenizer(base, cache={}):  # noqa: B006 - one truncating copy per base tokenizer, shared read-only
    key = id(base.tokenizer)
    if key not in cache:
        cache[key] = task_data.task_tokenizer(base.tokenizer, base.config.max_len)
    return cache[key]


# ----------------------------------------------------------------------------- records


@dataclass(frozen=True)
class TaskResult:
    """One input's prediction with what the Fine-tuning tab draws. Arrays are numpy."""
    task: str
    tokens: list[str]  # WordPiece tokens the model read, with [CLS]/[SEP]
    segments: list[int]
    trace: Trace  # fine-tuned model: enc_self [L, H, T, T]
    base_trace: Trace | None  # pre-trained BERT on the same tokens (with_base=True)
    labels: tuple  # the head's classes
    probs: np.ndarray  # sequence: (labels,); tags: (words, labels); qa: (2, T) start and end over every token
    label: str | None = None  # sequence tasks
    words: list[str] | None = None  # tagging: the words as given
    tags: list[str] | None = None
    word_index: list[int | None] | None = None  # tagging: each word's first-subword position
    answer: str | None = None  # qa
    start: int | None = None  # qa: character offsets in the context
    end: int | None = None
    token_span: tuple[int, int] | None = None  # qa: first and last answer token (positions in tokens)
    score: float = 0.0  # the label's probability; qa: P(start) * P(end); tagging: mean of the tags' probabilities
    notices: list[str] = ()

    def tag_scores(self) -> list[float | None]:
        """Tagging: each word's probability of the tag it got, rounded (None: a word the model did not read)."""
        return [None if q is None else round(q, 6) for q in chosen_probs(self.probs, self.labels, self.tags)]

    def to_json(self, attention: bool = False) -> dict:
        if self.label is not None:
            out = {"label": self.label, "score": self.score,
                   "probabilities": {k: round(float(p), 6) for k, p in zip(self.labels, self.probs)}}
        elif self.tags is not None:
            out = {"words": self.words, "tags": self.tags,
                   "scores": self.tag_scores()}
        else:
            out = {"answer": self.answer, "start": self.start, "end": self.end, "score": self.score,
                   "start_probabilities": [round(float(p), 6) for p in self.probs[0]],
                   "end_probabilities": [round(float(p), 6) for p in self.probs[1]]}
        out.update(task=self.task, tokens=self.tokens, notices=list(self.notices))
        if attention:
            out["attention"] = {"finetuned": self.trace.to_json()["enc_self"],
                                "pretrained": self.base_trace.to_json()["enc_self"] if self.base_trace else None}
        return out


@torch.inference_mode()
def _forward(model: TaskModel, base, ids: list[int], segs: list[int], span: list[bool] | None, with_base: bool):
    x, s = torch.tensor([ids]), torch.tensor([segs])
    out = model(x, s, span_mask=None if span is None else torch.tensor([span]), need_weights=True)
    tokens = [base.tokenizer.id_to_token(i) for i in ids]
    base_trace = None
    if with_base:
        no_mlm = torch.zeros(1, 0, dtype=torch.long)
        base_trace = base.model(x, s, need_weights=True, mlm_positions=no_mlm).trace.example(0, tokens)
    return out, tokens, out.trace.example(0, tokens), base_trace


def _cut_notice(n_tokens: int, limit: int) -> list[str]:
    if n_tokens < limit:
        return []
    return [Notice(f"Input cut to BERT's {limit} tokens.", "ft_cut", limit=limit)]


def classify(task: str, text: str, text_b: str | None = None, reg: Registry | None = None,
             with_base: bool = False, folder: Path | None = None) -> TaskResult:
    """Sentiment of one sentence, or the NLI label of (premise, hypothesis)."""
    task = task_name(task)
    if task not in SENTENCE_TASKS:
        raise UserError(f"'{task}' is not a sentence classification task ({', '.join(SENTENCE_TASKS)}).",
                        "wrong_task", task=task, wanted=", ".join(SENTENCE_TASKS))
    model, _, base = load(task, reg, folder)
    _check_length(text, "premise" if task == "nli" else "sentence")
    a, notices = clean_text(text, "premise" if task == "nli" else "sentence")
    b = None
    if task == "nli":
        _check_length(text_b, "hypothesis")
        b, more = clean_text(text_b, "hypothesis")
        notices += more
    enc = _tokenizer(base).encode(a, b) if b is not None else _tokenizer(base).encode(a)
    notices += _cut_notice(len(enc.ids), base.config.max_len)
    out, tokens, trace, base_trace = _forward(model, base, enc.ids, enc.type_ids, None, with_base)
    probs = torch.softmax(out.logits[0].float(), -1).numpy()
    k = int(probs.argmax())
    return TaskResult(task, tokens, list(enc.type_ids), trace, base_trace, model.config.labels, probs,
                      label=model.config.labels[k], score=round(float(probs[k]), 6), notices=notices)


def tag(task: str, text: str, reg: Registry | None = None, with_base: bool = False,
        folder: Path | None = None) -> TaskResult:
    """UPOS or IOB2 entity tags, one per word (NER's: the most probable valid IOB2 sequence, models.lora.tags_of);
    words are the text split on spaces, as given."""
    task = task_name(task)
    if task not in ("pos", "ner"):
        raise UserError(f"'{task}' is not a tagging task (pos, ner).", "wrong_task", task=task, wanted="pos, ner")
    model, _, base = load(task, reg, folder)
    _check_length(text, "sentence")
    text, notices = clean_text(text)
    words = [w for w in text.split(" ") if w]
    enc, first = task_data.encode_words(_tokenizer(base), words)
    notices += _cut_notice(len(enc.ids), base.config.max_len)
    out, tokens, trace, base_trace = _forward(model, base, enc.ids, enc.type_ids, None, with_base)
    p = torch.softmax(out.logits[0].float(), -1).numpy()  # (T, labels)
    probs = np.full((len(words), p.shape[-1]), np.nan)
    for w, pos in enumerate(first):
        if pos is not None:
            probs[w] = p[pos]
    tags = tags_of(probs, model.config.labels, FALLBACK_TAG[task])
    got = [q for q in chosen_probs(probs, model.config.labels, tags) if q is not None]
    if len(got) < len(words):
        notices.append(Notice(f"{len(words) - len(got)} word(s) have no tokens the model read; tagged "
                              f"{FALLBACK_TAG[task]}.", "untagged", n=len(words) - len(got), tag=FALLBACK_TAG[task]))
    return TaskResult(task, tokens, list(enc.type_ids), trace, base_trace, model.config.labels, probs, words=words,
                      tags=tags, word_index=first, score=round(float(np.mean(got)) if got else 0.0, 6),
                      notices=notices)


def answer(question: str, context: str, reg: Registry | None = None, with_base: bool = False,
           folder: Path | None = None) -> TaskResult:
    """The answer span in `context` (SQuAD-style extractive QA). A long context is read in windows of
    the model's length; the span with the highest start + end logit wins, and the record shows that
    window's tokens with P(start) and P(end) over every token of it ([CLS] and the question get 0)."""
    model, _, base = load("qa", reg, folder)
    if context is None or not str(context).strip():
        raise UserError("Please give a paragraph to find the answer in: the context is empty.", "no_context")
    _check_length(question, "question")
    _check_length(context, "paragraph", MAX_CONTEXT_CHARS)
    q, notices = clean_text(question, "question")
    c = " ".join(str(context).split())  # offsets refer to this text (spaces collapsed)
    c, more = clean_text(c, "paragraph") if len(c) <= 2000 else (c, [])
    notices += more
    if len(q) > len(c):
        raise UserError("The question is longer than the paragraph: give the paragraph that holds the answer "
                        "as the context.", "question_longer")
    tok, cfg = _tokenizer(base), model.config
    windows = task_data.qa_windows(tok, q, c, cfg.max_len, cfg.stride)
    best = None
    with torch.inference_mode():
        for w in windows:
            n_ctx, c0 = len(w["offsets"]), w["ctx_start"]
            if n_ctx == 0:
                continue
            span = [False] * len(w["input_ids"])
            for i in range(n_ctx):
                span[c0 + i] = True
            lg = model(torch.tensor([w["input_ids"]]), torch.tensor([w["segment_ids"]]),
                       span_mask=torch.tensor([span])).logits[0].float().numpy()  # (T, 2)
            i, j, total = best_span(lg[c0:c0 + n_ctx, 0], lg[c0:c0 + n_ctx, 1], n_ctx)
            if best is None or total > best[0]:
                best = (total, w, span, i, j)
    if best is None:
        raise UserError("The paragraph has no words the model can read.", "no_context")
    _, w, span, i, j = best
    out, tokens, trace, base_trace = _forward(model, base, w["input_ids"], w["segment_ids"], span, with_base)
    lg = out.logits[0].float()  # (T, 2), -1e4 off the context
    probs = torch.softmax(lg.masked_fill(~torch.tensor(span)[:, None], float("-inf")), 0).T.numpy()  # (2, T)
    c0 = w["ctx_start"]
    wi, wj = whole_words(tok, w, i, j)
    cs, ce = w["offsets"][wi][0], w["offsets"][wj][1]
    if len(windows) > 1:
        notices.append(Notice(f"The paragraph was read in {len(windows)} overlapping windows; shown: the one "
                              "holding the answer.", "qa_windows", n=len(windows)))
    return TaskResult("qa", tokens, list(w["segment_ids"]), trace, base_trace, model.config.labels, probs,
                      answer=c[cs:ce], start=int(cs), end=int(ce), token_span=(c0 + wi, c0 + wj),
                      score=round(float(probs[0, c0 + i] * probs[1, c0 + j]), 6), notices=notices)


def _check_length(text, what: str, limit: int = 2000) -> None:
    """Inputs past `limit` characters are refused (clean_text would cut them; a cut question or paragraph
    would answer something else)."""
    if isinstance(text, str) and len(text.strip()) > limit:
        raise UserError(f"The {what} is {len(text.strip()):,} characters long; the limit is {limit:,}.",
                        "too_long", what=what, n=f"{len(text.strip()):,}", limit=f"{limit:,}")


def run(task: str, text: str, text_b: str | None = None, reg: Registry | None = None, with_base: bool = False,
        folder: Path | None = None) -> TaskResult:
    """One input of any task, to the function that reads it: a sentence (sentiment, sentiment-ko: `classify`;
    pos, ner: `tag`), a premise and hypothesis (nli: `classify`), a question and its paragraph (qa: `answer`). The
    one place that knows which task is which kind (the tab and `Pipeline` call it)."""
    task = task_name(task)
    if task == "qa":
        return answer(text, text_b, reg, with_base, folder)
    if task in ("pos", "ner"):
        return tag(task, text, reg, with_base, folder)
    return classify(task, text, text_b if task == "nli" else None, reg, with_base, folder)


# ----------------------------------------------------------------------------- pipeline


class Pipeline:
    """`pipeline(task)(inputs)`: a list of plain dicts, one per input, like transformers' pipelines.
    sentiment-analysis: texts -> {"label", "score"}; nli: (premise, hypothesis) pairs or
    {"premise", "hypothesis"} dicts -> {"label", "score"}; pos / ner: texts -> {"words", "tags", "scores"};
    question-answering: {"question", "context"} dicts -> {"answer", "start", "end", "score"}."""

    def __init__(self, task: str, reg: Registry | None = None, lang: str = "en"):
        self.task = task_name(task)
        if lang == "ko":
            self.task = IN_KOREAN.get(self.task, self.task)
        self.reg = reg
        load(self.task, reg)  # fail now, not on the first input

    def one(self, x) -> dict:
        if self.task == "nli":
            x = (x["premise"], x["hypothesis"]) if isinstance(x, dict) else x
        elif self.task == "qa":
            x = (x["question"], x["context"]) if isinstance(x, dict) else x
        r = run(self.task, *(x if isinstance(x, tuple) else (x,)), reg=self.reg)
        if r.label is not None:
            return {"label": r.label, "score": r.score}
        if r.tags is not None:
            return {k: v for k, v in r.to_json().items() if k in ("words", "tags", "scores")}
        return {"answer": r.answer, "start": r.start, "end": r.end, "score": r.score}

    def __call__(self, inputs):
        single = isinstance(inputs, (str, dict)) or (self.task in ("nli", "qa") and isinstance(inputs, tuple))
        out = [self.one(x) for x in ([inputs] if single else inputs)]
        return out


def pipeline(task: str, reg: Registry | None = None, lang: str = "en") -> Pipeline:
    """explorer.compute.pipeline.pipeline("sentiment-analysis" | "nli" | "pos" | "ner" | "question-answering");
    lang="ko": the task's Korean model where there is one (sentiment-analysis on bert-ko)."""
    return Pipeline(task, reg, lang)


class _CallableModule(types.ModuleType):
    """`explorer.compute.pipeline("sentiment-analysis")` reads like the lecture's `pipeline(...)`: the module itself
    is callable (a ModuleType subclass as __class__, which Python allows for modules), and
    `from explorer.compute.pipeline import pipeline` works as well."""

    def __call__(self, task: str, reg: Registry | None = None, lang: str = "en") -> Pipeline:
        return pipeline(task, reg, lang)


sys.modules[__name__].__class__ = _CallableModule

