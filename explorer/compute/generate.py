"""Text generation with the GPT (models/gpt.py): a prompt in, a plain record out, step by step.

`generate_stream` is a generator: it yields a `GenerationResult` after every new token (without
attention), so the app can stream the steps and stop as soon as the visitor leaves (closing the
generator ends the loop; nothing runs on), and finally the complete record with the attention of
the final sequence. `generate` runs it to the end; the CLI and the tests call that.

Each step records the token chosen, its probability under the model (softmax of the logits,
temperature 1), its probability in the distribution it was drawn from (after temperature, top-k
and top-p: models.gpt.next_token_distribution), and the most likely alternatives with both.
The attention (`dec_self` [L, H, T, T], post-softmax) and the masked scores (`dec_self_scores`,
-inf above the diagonal) come from one pass over the final sequence: the key/value cache used while
generating computes the same numbers (tests/models/test_gpt.py), one row at a time.

The GPT reads the shipped BERT's WordPiece tokens, lower-cased; a prompt is read after [CLS] (the
start of a text in training) and generation stops at [SEP] (the end of one).
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Iterator

import torch

from explorer.compute.inference import (MAX_TOP_K, Notice, Registry, UserError, _pieces, _shown, check_int, clean_text,
                                drop_typed_specials, registry, unknown_notice)
from models.gpt import next_token_distribution
from models.tokenizers import special_ids
from models.trace import Trace

MAX_NEW_TOKENS = 100  # a hard cap on any one generation (and the context may leave less room)
MAX_TEMPERATURE = 5.0
MAX_SAMPLING_TOP_K = 1000  # the sampling cut-off; 0 = no cut
MAX_SEED = 2**31 - 1
DEFAULT_MODEL = "gpt"
# The sampling defaults of the tab, the CLI, the API and Python: the model's own distribution, uncut. Of greedy and
# eleven temperature / top-k / top-p settings, its continuations of held-out prompts come closest to the human
# continuations' perplexity under the model, repeating no more than they do (Holtzman et al. 2020;
# bench/gpt_defaults.py, docs/gpt.md "Sampling defaults").
DEFAULT_TEMPERATURE, DEFAULT_TOP_K, DEFAULT_TOP_P = 1.0, 0, 1.0


@dataclass(frozen=True)
class Alternative:
    token: str
    probability: float  # under the model (temperature 1)
    sampled_probability: float  # in the distribution the step drew from (0 where top-k / top-p cut it)


@dataclass(frozen=True)
class Step:
    position: int  # index of the new token in the record's `tokens`
    token: str
    token_id: int
    probability: float  # p(token | everything before it) under the model
    sampled_probability: float  # its probability in the distribution it was drawn from (1 for greedy's argmax)
    top: list[Alternative]  # the most likely next tokens, most likely first
    entropy: float  # of the model's next-token distribution, in nats


@dataclass(frozen=True)
class GenerationResult:
    model: str
    prompt: str  # as read (cleaned, cut)
    text: str  # prompt + continuation, decoded (lower-cased WordPiece: what the model reads)
    continuation: str
    tokens: list[str]  # [CLS] + prompt tokens + generated tokens: the axes of the attention
    prompt_tokens: int  # how many of `tokens` are [CLS] + prompt
    steps: list[Step]
    settings: dict  # greedy, temperature, top_k, top_p, seed, max_new_tokens (as used)
    stopped: str  # "end_of_text" ([SEP]), "max_new_tokens", "context" (the model's max_len) or "" (still running)
    trace: Trace | None  # dec_self, dec_self_scores [L, H, T, T] of the final sequence (None while streaming)
    notices: list[str] = field(default_factory=list)

    @property
    def done(self) -> bool:
        return bool(self.stopped)

    def to_json(self, attention: bool = True) -> dict:
        out = {"model": self.model, "prompt": self.prompt, "text": self.text, "continuation": self.continuation,
               "tokens": self.tokens, "prompt_tokens": self.prompt_tokens,
               "steps": [asdict(s) for s in self.steps], "settings": self.settings, "stopped": self.stopped,
               "notices": list(self.notices)}
        if attention:
            t = self.trace.to_json() if self.trace is not None else {}
            out["attention"] = {k: t.get(k) for k in ("dec_self", "dec_self_scores")}
        return out


def _number(value, name: str) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError, OverflowError):
        raise UserError(f"{name} must be a number.", "gpt_number", name=name) from None
    if not math.isfinite(v):
        raise UserError(f"{name} must be a number.", "gpt_number", name=name)
    return v


MIN_TEMPERATURE, MIN_TOP_P = 1e-3, 1e-6  # below these, sampling is the argmax anyway (check_settings)


def check_settings(temperature=DEFAULT_TEMPERATURE, top_k=DEFAULT_TOP_K, top_p=DEFAULT_TOP_P, seed=0, greedy=False,
                   max_new_tokens=30, alternatives=10) -> dict:
    """The sampling settings, checked; a UserError that says what is allowed otherwise."""
    greedy = bool(greedy)
    max_new_tokens = check_int(max_new_tokens, "Max new tokens", 1, MAX_NEW_TOKENS)
    alternatives = check_int(alternatives, "top-k", 1, MAX_TOP_K)
    seed = check_int(seed, "Seed", 0, MAX_SEED)
    if greedy:  # the argmax every step: no draw, so no temperature, cut or seed matters
        return {"greedy": True, "temperature": None, "top_k": None, "top_p": None, "seed": seed,
                "max_new_tokens": max_new_tokens, "alternatives": alternatives}
    temperature = _number(temperature, "Temperature")
    if not 0 < temperature <= MAX_TEMPERATURE:
        raise UserError(f"Temperature must be above 0 and at most {MAX_TEMPERATURE:g} (got {_shown(temperature)}); "
                        "for the most likely token at every step choose greedy.", "gpt_temperature",
                        hi=f"{MAX_TEMPERATURE:g}", value=_shown(temperature))
    top_k = check_int(top_k, "Sampling top-k", 0, MAX_SAMPLING_TOP_K)
    top_p = _number(top_p, "Top-p")
    if not 0 < top_p <= 1:
        raise UserError(f"Top-p must be above 0 and at most 1 (got {_shown(top_p)}).", "gpt_top_p",
                        value=_shown(top_p))
    # A temperature or top-p just above 0 (1e-320) is the argmax already: floored where float32 still divides
    # and sums it (1e-320 itself overflows logits / T to inf and the softmax to NaN). The draw is the same.
    temperature, top_p = max(temperature, MIN_TEMPERATURE), max(top_p, MIN_TOP_P)
    return {"greedy": False, "temperature": temperature, "top_k": top_k, "top_p": top_p, "seed": seed,
            "max_new_tokens": max_new_tokens, "alternatives": alternatives}


def encode_prompt(ckpt, prompt: str) -> tuple[str, list[int], list[Notice]]:
    """(the prompt as read, [CLS] + its token ids, notices). The prompt keeps at most half the context, its end
    (what the continuation follows), so that at least half is left for new tokens."""
    text, notices = clean_text(prompt, "prompt")
    tok = ckpt.tokenizer
    sp = special_ids(tok)
    text, more = drop_typed_specials(text, [tok.id_to_token(i) for i in sp.values()], "prompt")
    notices += more
    ids = tok.encode(text, add_special_tokens=False).ids
    if not ids:
        raise UserError("The prompt has no tokens the model can read.", "gpt_no_tokens")
    keep = ckpt.config.max_len // 2 - 1
    if len(ids) > keep:
        notices.append(Notice(f"Prompt cut to its last {keep} tokens ({len(ids) - keep} dropped): the model reads "
                              f"{ckpt.config.max_len} tokens in all, and half is kept for the new ones.",
                              "gpt_prompt_cut", keep=keep, dropped=len(ids) - keep, context=ckpt.config.max_len))
        ids = ids[-keep:]
        text = tok.decode(ids)
    notices += unknown_notice(ids, sp.get("unk"), "[UNK]", "en")
    return text, [sp["cls"]] + ids, notices


def _decode(tok, ids: list[int]) -> str:
    return tok.decode(ids, skip_special_tokens=True)


@torch.inference_mode()
def generate_stream(prompt: str, max_new_tokens=30, temperature=DEFAULT_TEMPERATURE, top_k=DEFAULT_TOP_K,
                    top_p=DEFAULT_TOP_P, seed=0, greedy=False, alternatives=10, name: str = DEFAULT_MODEL,
                    reg: Registry | None = None, use_cache: bool = True,
                    stop_at_end: bool = True) -> Iterator[GenerationResult]:
    """Yields the record after each new token (trace None, stopped ""), then the finished record with its
    attention. use_cache=False recomputes the whole prefix every step, stop_at_end=False reads on past
    [SEP] (bench/generate.py times exactly max_new_tokens both ways)."""
    ckpt = (reg or registry()).get(name, "gpt")
    s = check_settings(temperature, top_k, top_p, seed, greedy, max_new_tokens, alternatives)
    text, ids, notices = encode_prompt(ckpt, prompt)
    tok, model = ckpt.tokenizer, ckpt.model
    sep = special_ids(tok)["sep"]
    room = ckpt.config.max_len - len(ids)
    n_new = min(s["max_new_tokens"], room)
    if n_new < s["max_new_tokens"]:
        notices.append(Notice(f"At most {n_new} new tokens fit after this prompt (the model reads "
                              f"{ckpt.config.max_len} tokens).", "gpt_room", n=n_new, context=ckpt.config.max_len))
    g = torch.Generator().manual_seed(s["seed"])
    n_prompt = len(ids)
    steps: list[Step] = []

    def record(stopped: str, trace=None) -> GenerationResult:
        new = ids[n_prompt:]
        return GenerationResult(name, text, _decode(tok, ids[1:]), _decode(tok, new), _pieces(tok, ids), n_prompt,
                                list(steps), s, stopped, trace, list(notices))

    logits, cache = model.step(torch.tensor([ids]))
    stopped = "context" if n_new < 1 else ""
    for _ in range(n_new):
        p = torch.softmax(logits[0].float(), -1)  # (V,) the model's own distribution
        if s["greedy"]:
            nxt = int(p.argmax())
            drawn = torch.zeros_like(p)
            drawn[nxt] = 1.0
        else:
            drawn = next_token_distribution(logits[0], s["temperature"], s["top_k"], s["top_p"])
            nxt = int(torch.multinomial(drawn, 1, generator=g))
        top_p_, top_i = p.topk(s["alternatives"])
        steps.append(Step(len(ids), _pieces(tok, [nxt])[0], nxt, round(float(p[nxt]), 6), round(float(drawn[nxt]), 6),
                          [Alternative(_pieces(tok, [j])[0], round(float(q), 6), round(float(drawn[j]), 6))
                           for q, j in zip(top_p_.tolist(), top_i.tolist())],
                          round(float(-(p * p.clamp_min(1e-30).log()).sum()), 4)))
        ids.append(nxt)
        if nxt == sep and stop_at_end:
            stopped = "end_of_text"
            break
        if len(steps) == n_new:
            stopped = "max_new_tokens" if n_new == s["max_new_tokens"] else "context"
            break
        yield record("")
        if use_cache:
            logits, cache = model.step(torch.tensor([[nxt]]), cache)
        else:
            logits = model(torch.tensor([ids])).logits[:, -1]
    trace = model(torch.tensor([ids]), need_weights=True).trace
    tokens = _pieces(tok, ids)
    yield record(stopped, trace.example(0, (), tokens))


def generate(prompt: str, max_new_tokens=30, temperature=DEFAULT_TEMPERATURE, top_k=DEFAULT_TOP_K,
             top_p=DEFAULT_TOP_P, seed=0, greedy=False, alternatives=10, name: str = DEFAULT_MODEL,
             reg: Registry | None = None) -> GenerationResult:
    """The finished record of `generate_stream`."""
    out = None
    for out in generate_stream(prompt, max_new_tokens, temperature, top_k, top_p, seed, greedy, alternatives,
                               name, reg):
        pass
    return out


# ----------------------------------------------------------------------------- BERT and GPT on the same tokens


@dataclass(frozen=True)
class SideBySide:
    """One text through BERT (reads both ways) and the GPT (reads left to right), on the same WordPiece tokens."""
    tokens: list[str]  # [CLS] text [SEP]: both models' input
    bert: Trace  # enc_self [L, H, T, T]: every token may attend to every token
    gpt: Trace  # dec_self, dec_self_scores [L, H, T, T]: token i may attend to tokens 0..i
    bert_model: str
    gpt_model: str
    notices: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        b, g = self.bert.to_json(), self.gpt.to_json()
        return {"tokens": self.tokens, "bert_model": self.bert_model, "gpt_model": self.gpt_model,
                "attention": {"bert_enc_self": b["enc_self"], "gpt_dec_self": g["dec_self"],
                              "gpt_dec_self_scores": g["dec_self_scores"]}, "notices": list(self.notices)}


@torch.inference_mode()
def side_by_side(text: str, bert: str = "bert", gpt: str = DEFAULT_MODEL, reg: Registry | None = None) -> SideBySide:
    """BERT's self-attention and the GPT's causal self-attention over the same tokens, [CLS] text [SEP] (what BERT
    reads; the GPT was trained on texts framed the same way). A text longer than the GPT's context is cut to it."""
    from explorer.compute.inference import encode_bert
    reg = reg or registry()
    g = reg.get(gpt, "gpt")
    b = encode_bert(text, name=bert, reg=reg)
    tok = g.tokenizer
    ids = [tok.token_to_id(t) for t in b.tokens]
    notices = list(b.notices)
    if None in ids:  # a BERT with another vocabulary (one brought from the Hub)
        raise UserError(f"Model '{bert}' reads other tokens than '{gpt}': choose the shipped BERT.", "gpt_vocab",
                        bert=bert, gpt=gpt)
    if len(ids) > g.config.max_len:
        keep = g.config.max_len - 2
        notices.append(Notice(f"Text cut to its first {keep} tokens, the GPT's context.", "gpt_side_cut", keep=keep))
        b = encode_bert(tok.decode(ids[1:1 + keep]), name=bert, reg=reg)
        ids = [tok.token_to_id(t) for t in b.tokens][: g.config.max_len]
    trace = g.model(torch.tensor([ids]), need_weights=True).trace
    tokens = _pieces(tok, ids)
    return SideBySide(tokens, Trace(enc_self=b.trace.enc_self[..., : len(tokens), : len(tokens)]),
                      trace.example(0, (), tokens), bert, gpt, notices)
