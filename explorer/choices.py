"""Next-word choices at every decoding step, and "what if": a translation the user types, teacher-forced.

A translation model's decoder ends each step with a softmax over the vocabulary, p(y_t | y_<t, x)
(Sutskever et al. 2014 eq. 1; Bahdanau et al. 2015 eq. 2; Vaswani et al. 2017 sec. 3.4). The
app's translation shows the word that won; this module shows its rivals: the top-k tokens with
their probabilities at every step, beside that step's row of encoder-decoder attention, with the
chosen token's probability and rank.

With `target`, the decoder is fed the user's own translation instead of its own output (teacher
forcing, Williams & Zipser 1989): each typed token's probability under the model, the words the
model would rather have put there, and the attention the typed translation gets, e.g. the
textbook's "Je suis étudiant." for "I am a student."

Every number is read from one teacher-forced forward pass of the model (the same pass that gives the
app's attention), so it equals decoding's own step by step (tests/explorer/test_choices.py checks it
against beam search's per-token log-probabilities).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch

from explorer.inference import (MAX_BEAM, MAX_TOP_K, Notice, Prediction, Registry, UserError, _pieces, check_int,
                                clean_text, drop_typed_specials, encode_source, registry, source_limit, translate,
                                unknown_notice)
from models.checkpoint import Checkpoint
from models.tokenizers import special_ids
from models.trace import Trace

TRANSLATION_ARCHS = ("transformer", "seq2seq")


Choice = Prediction  # one of the model's top-k at a step: the token and its probability, as fill-mask's


@dataclass(frozen=True)
class StepChoices:
    step: int  # t = 0, 1, ...: the decoder read decoder_input_tokens[t] and put out `token`
    token: str  # the token the translation has at this step (the decoder's own, or the typed one)
    probability: float | None  # p(token | the tokens before it, source); None where decoding was cut off
    rank: int | None  # 1 = the model's first choice
    top: list[Choice]  # the model's top-k at this step, most probable first


@dataclass(frozen=True)
class ChoicesResult:
    model: str
    arch: str  # transformer or seq2seq
    forced: bool  # True: target_tokens are the user's; False: the model's own translation
    source_tokens: list[str]  # encoder tokens, ending in </s> (key axis of cross)
    decoder_input_tokens: list[str]  # <s> y1 .. yn: what the decoder read at each step
    target_tokens: list[str]  # y1 .. yn </s>: what each step put out (query axis of cross)
    translation: str  # the model's translation, or the typed target as read
    steps: list[StepChoices]
    logprob: float | None  # sum of log p over the steps (None when a step was cut off)
    perplexity: float | None  # exp(-logprob / steps)
    trace: Trace  # the teacher-forced pass's attention, numpy [L, H, q, k]
    notices: list[str]

    def attention_rows(self, layer: int = -1) -> np.ndarray:
        """(T, S) the cross attention each step gave the source: the layer's mean over heads (an RNN's one map)."""
        if self.trace.cross is None:
            return np.zeros((len(self.target_tokens), len(self.source_tokens)))
        return np.asarray(self.trace.cross[layer], dtype=np.float64).mean(0)

    def to_json(self) -> dict:
        t = self.trace.to_json()
        return {"model": self.model, "arch": self.arch, "forced": self.forced, "source_tokens": self.source_tokens,
                "decoder_input_tokens": self.decoder_input_tokens, "target_tokens": self.target_tokens,
                "translation": self.translation,
                "steps": [{"step": s.step, "token": s.token, "probability": s.probability, "rank": s.rank,
                           "top": [c.__dict__ for c in s.top]} for s in self.steps],
                "logprob": self.logprob, "perplexity": self.perplexity,
                "attention": {k: t[k] for k in ("cross", "enc_self", "dec_self", "dec_self_scores")},
                "notices": self.notices}


def encode_target(ckpt: Checkpoint, text: str) -> tuple[str, list[int], list[Notice]]:
    """A typed translation as the decoder reads it: (the text cleaned, its ids without <s> and </s>, notices).
    The translation models share one tokenizer between source and target (models/tokenizers.py)."""
    text, notices = clean_text(text, "target")
    tok = ckpt.tokenizer
    text, more = drop_typed_specials(text, [tok.id_to_token(i) for i in special_ids(tok).values()], "target")
    notices += more
    ids = tok.encode(text, add_special_tokens=False).ids
    limit = source_limit(ckpt)
    if len(ids) > limit:
        notices.append(Notice(f"Target cut to {limit} subword tokens ({len(ids) - limit} dropped).", "target_cut",
                              limit=limit, dropped=len(ids) - limit))
        ids = ids[:limit]
    if not ids:
        raise UserError("The target has no tokens the model knows.", "no_target_tokens")
    return text, ids, notices + unknown_notice(ids, special_ids(tok).get("unk"), "<unk>")


def decoder_inputs(ckpt: Checkpoint, name: str, text: str, target: str | None = None, beam: int = 1,
                   chosen: int = 0, reg: Registry | None = None):
    """What a teacher-forced pass reads: (src (1, S) ending in </s>, tgt_in (1, T) = <s> y1 .. yn, the translation
    as shown, whether it ended in </s>, notices). y is the typed `target` when one is given, else the model's own
    translation (greedy, or the beam's hypothesis `chosen`), as explorer.inference.translate makes it."""
    tok, sp = ckpt.tokenizer, special_ids(ckpt.tokenizer)
    if target is not None and str(target).strip():
        _, _, ids, notices = encode_source(ckpt, text)
        shown, out_ids, more = encode_target(ckpt, target)
        notices += more
        finished = True
    else:
        beam = check_int(beam, "Beam size", 1, MAX_BEAM)
        r = translate(name, text, beam=beam, chosen=chosen, reg=reg)
        ids = [tok.token_to_id(p) for p in r.source_tokens[:-1]]
        out_ids = [tok.token_to_id(p) for p in r.decoder_input_tokens[1:]]
        shown, notices, finished = r.translation, list(r.notices), r.target_tokens[-1] == "</s>"
    return torch.tensor([ids + [sp["eos"]]]), torch.tensor([[sp["bos"]] + out_ids]), shown, finished, notices


def step_choices(log_probs: torch.Tensor, out_ids: list[int | None], tok, top_k: int) -> list[StepChoices]:
    """log_probs (T, V) of one teacher-forced pass, out_ids[t] the token put out at step t (None: cut off)."""
    steps = []
    top_lp, top_ids = log_probs.topk(top_k, dim=-1)  # (T, k)
    for t, y in enumerate(out_ids):
        top = [Choice(p, round(math.exp(lp), 6)) for p, lp in
               zip(_pieces(tok, top_ids[t].tolist()), top_lp[t].tolist())]
        if y is None:
            steps.append(StepChoices(t, "…", None, None, top))
            continue
        lp = log_probs[t, y]
        rank = int((log_probs[t] > lp).sum()) + 1
        steps.append(StepChoices(t, _pieces(tok, [y])[0], round(math.exp(float(lp)), 6), rank, top))
    return steps


@torch.inference_mode()
def next_word_choices(name: str, text: str, target: str | None = None, top_k: int = 5, beam: int = 1,
                      chosen: int = 0, reg: Registry | None = None) -> ChoicesResult:
    """The top-k next tokens at every step of `name`'s translation of `text` (greedy, or the beam's
    hypothesis `chosen`), or, with `target`, of that typed translation under teacher forcing."""
    reg = reg or registry()
    ckpt = reg.get(name, TRANSLATION_ARCHS)
    top_k = check_int(top_k, "top-k", 1, MAX_TOP_K)
    tok, model, sp = ckpt.tokenizer, ckpt.model, special_ids(ckpt.tokenizer)
    forced = target is not None and bool(str(target).strip())
    src, tgt_in, shown, finished, notices = decoder_inputs(ckpt, name, text, target, beam, chosen, reg)
    out_ids = tgt_in[0, 1:].tolist()
    out = model(src, tgt_in, need_weights=True)
    log_probs = torch.log_softmax(out.logits[0].double(), dim=-1)  # (T, V)
    produced = out_ids + ([sp["eos"]] if finished else [None])  # step t puts out y_{t+1}; the last one </s>
    steps = step_choices(log_probs, produced, tok, min(top_k, log_probs.size(-1)))
    logprob = float(sum(log_probs[t, y] for t, y in enumerate(produced) if y is not None)) if finished else None
    src_tokens, dec_in = _pieces(tok, src[0].tolist()), _pieces(tok, tgt_in[0].tolist())
    return ChoicesResult(name, ckpt.config.arch, forced, src_tokens, dec_in, [s.token for s in steps], shown, steps,
                         None if logprob is None else round(logprob, 6),
                         None if logprob is None else round(math.exp(-logprob / len(steps)), 6),
                         out.trace.example(0, src_tokens, dec_in), notices)
