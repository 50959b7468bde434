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

Whole words (`words`): the tokenizer cuts words into pieces ("▁L", "'", "an", "im", "al"), so the list of
next pieces is full of fragments. A word starts at a piece with "▁", at punctuation, after punctuation and
after a French elision (l', d', qu' ...: "qu'" + "il", so the choice between "il" and "elle" is a word of its
own); any other piece continues the word before it (`starts_word`). At the step where a word starts, its
rivals are the most probable pieces that may start a word there, each continued by the model's own greedy
choice until the next piece starts a word; a word's probability is the product of its pieces' conditional
probabilities along that continuation. The translation's (or the typed target's) own words are its pieces,
teacher-forced: a typed target is read in the model's own tokenization, and each word's probability is the
product of its pieces'. The number of a word's pieces (`MAX_WORD_PIECES`) is bounded.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import torch

from explorer.compute.inference import (MAX_BEAM, MAX_TOP_K, Notice, Prediction, Registry, UserError, _pieces, check_int,
                                clean_text, drop_typed_specials, encode_source, registry, source_limit, translate,
                                unknown_notice)
from models.checkpoint import Checkpoint
from models.tokenizers import special_ids
from models.trace import Trace

TRANSLATION_ARCHS = ("transformer", "seq2seq")


Choice = Prediction  # one of the model's top-k at a step: the token and its probability, as fill-mask's
MAX_WORD_PIECES = 8  # a rival word is continued for at most this many pieces after its first
APOSTROPHES = ("'", "’")
ELISIONS = frozenset({"c", "d", "j", "l", "m", "n", "s", "t", "qu", "jusqu", "lorsqu", "puisqu", "quoiqu"})


@dataclass(frozen=True)
class StepChoices:
    step: int  # t = 0, 1, ...: the decoder read decoder_input_tokens[t] and put out `token`
    token: str  # the token the translation has at this step (the decoder's own, or the typed one)
    probability: float | None  # p(token | the tokens before it, source); None where decoding was cut off
    rank: int | None  # 1 = the model's first choice
    top: list[Choice]  # the model's top-k at this step, most probable first


@dataclass(frozen=True)
class WordChoices:
    step: int  # the step that put out the word's first piece
    word: str  # the pieces joined, without the word-start mark
    pieces: list[str]  # the translation's pieces of this word
    probability: float | None  # the product of its pieces' probabilities; None where decoding was cut off
    rank: int | None  # among `top` by probability, the word itself counted (1 = first); None: below them all
    top: list[Choice]  # the k most probable word-initial pieces, each continued greedily, by probability


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
    words: list[WordChoices] = field(default_factory=list)  # the steps grouped into whole words (module doc)

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
                "words": [{"step": w.step, "word": w.word, "pieces": w.pieces, "probability": w.probability,
                           "rank": w.rank, "top": [c.__dict__ for c in w.top]} for w in self.words],
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
    translation (greedy, or the beam's hypothesis `chosen`), as explorer.compute.inference.translate makes it."""
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


def word_text(pieces: list[str]) -> str:
    """The word that pieces spell, without the word-start mark ("▁" alone stays as it is)."""
    joined = "".join(pieces)
    return joined.replace("▁", "") or joined


def starts_word(piece: str, word: str, specials=frozenset()) -> bool:
    """Whether `piece` starts a new word after the word so far (its text, "" at the start; see the module doc)."""
    if not word or piece in specials or word in specials or piece.startswith("▁"):
        return True
    if piece in APOSTROPHES:  # an apostrophe ends the word it follows: "L'", "didn'"
        return False
    if not any(ch.isalnum() for ch in piece) or not any(ch.isalnum() for ch in word):
        return True  # punctuation is a word of its own
    return word[-1] in APOSTROPHES and word[:-1].lower() in ELISIONS  # "qu'" + "il"


def _tile(tree, k: int):
    """A batch-of-one decoder memory or state (nested tuples, batch first) repeated k times."""
    if tree is None or isinstance(tree, torch.Tensor):
        return None if tree is None else tree.expand(k, *tree.shape[1:])
    return tuple(_tile(x, k) for x in tree)


def _greedy_words(model, memory, state, prefix: list[int], first: list[int], tok, specials,
                  limit: int) -> list[tuple[list[int], float]]:
    """Each first piece in `first` after the decoder input `prefix` (<s> y1 .. y_t; `state` is the decoder's after
    reading it, `memory` the encoder's), continued by the model's own greedy choice, one `step` at a time as
    decoding runs it, while the next piece continues the word: [(the word's ids, log p of the pieces after the
    first)]. A finished row rides along in the batch, unread."""
    k = len(first)
    words, lps = [[c] for c in first], [0.0] * k
    open_ = [tok.id_to_token(c) not in specials for c in first]
    memory, state = _tile(memory, k), _tile(state, k)
    ys = torch.tensor([prefix + [c] for c in first])  # (k, t + 2)
    for _ in range(MAX_WORD_PIECES):
        if not any(open_) or ys.size(1) >= limit:
            break
        logits, state, _ = model.step(memory, ys, state)
        lp = torch.log_softmax(logits.double(), -1)  # (k, V)
        best = lp.argmax(-1)
        for i, b in enumerate(best.tolist()):
            if open_[i] and starts_word(tok.id_to_token(b), word_text(_pieces(tok, words[i])), specials):
                open_[i] = False
            elif open_[i]:
                words[i].append(b)
                lps[i] += float(lp[i, b])
        ys = torch.cat([ys, best[:, None]], dim=1)
    return list(zip(words, lps))


def word_choices(model, src: torch.Tensor, tgt_in: torch.Tensor, log_probs: torch.Tensor, produced: list,
                 tok, top_k: int, limit: int) -> list[WordChoices]:
    """The steps of one teacher-forced pass grouped into whole words, each with its k most probable rival words
    (module doc). src (1, S), tgt_in (1, T) = <s> y1 .., log_probs (T, V); produced[t] the id put out at step t
    (None: cut off); limit: the longest decoder input the model takes."""
    specials = frozenset(tok.id_to_token(i) for i in special_ids(tok).values())
    pieces = [None if y is None else tok.id_to_token(y) for y in produced]
    groups: list[list[int]] = []  # the steps of each word
    for t, piece in enumerate(pieces):
        if groups and piece is not None and pieces[t - 1] is not None and not starts_word(
                piece, word_text([pieces[i] for i in groups[-1]]), specials):
            groups[-1].append(t)
        else:
            groups.append([t])
    out, dec_in = [], tgt_in[0].tolist()
    memory, state, states = model.start(src), None, []
    for t in range(len(produced)):  # the decoder's state after reading dec_in[: t + 1], as decoding has it
        _, state, _ = model.step(memory, tgt_in[:, : t + 1], state)
        states.append(state)
    for w, steps in enumerate(groups):
        a = steps[0]
        prev = word_text([pieces[i] or "" for i in groups[w - 1]]) if w else ""
        first = []  # the most probable pieces that may start a word here: twice k, as rivals may merge
        for i in torch.argsort(log_probs[a], descending=True)[: 50 * top_k].tolist():
            if starts_word(tok.id_to_token(i), prev, specials):
                first.append(i)
                if len(first) == 2 * top_k:
                    break
        best: dict[str, float] = {}
        for c, (ids, rest) in zip(first, _greedy_words(model, memory, states[a], dec_in[: a + 1], first, tok,
                                                                specials, limit)):
            text, lp = word_text(_pieces(tok, ids)), float(log_probs[a, c]) + rest
            best[text] = max(lp, best.get(text, -math.inf))  # two paths to one word: the likelier
        top = [Choice(text, round(math.exp(lp), 6)) for text, lp in
               sorted(best.items(), key=lambda kv: -kv[1])[:top_k]]
        mine = [pieces[t] for t in steps]
        if any(piece is None for piece in mine):
            out.append(WordChoices(a, "…", ["…"], None, None, top))
            continue
        word, p = word_text(mine), round(math.exp(float(sum(log_probs[t, produced[t]] for t in steps))), 6)
        above = sum(1 for c in top if c.token != word and c.probability > p)
        listed = any(c.token == word for c in top)
        out.append(WordChoices(a, word, mine, p, None if not listed and above == len(top) else above + 1, top))
    return out


@torch.inference_mode()
def next_word_choices(name: str, text: str, target: str | None = None, top_k: int = 5, beam: int = 1,
                      chosen: int = 0, reg: Registry | None = None, words: bool = True) -> ChoicesResult:
    """The top-k next tokens at every step of `name`'s translation of `text` (greedy, or the beam's
    hypothesis `chosen`), or, with `target`, of that typed translation under teacher forcing; with `words`,
    also grouped into whole words with their top-k rival words (module doc)."""
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
                         out.trace.example(0, src_tokens, dec_in), notices,
                         word_choices(model, src, tgt_in, log_probs, produced, tok, top_k,
                                      getattr(ckpt.config, "max_len", 10**6)) if words else [])
