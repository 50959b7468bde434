"""The one inference layer: models in, plain records out.

The Gradio app, the CLI (`python -m explorer`) and the tests all call these functions, so
every number on screen, in the API and in a test comes from the same place. Models are
loaded once, put in eval mode and shared read-only; every call runs under
`torch.inference_mode()` and mutates nothing shared, so concurrent users cannot race.

Errors a user can cause (empty input, no [MASK], unknown model, ...) raise `UserError`
with a message meant for the screen; nothing else is expected to escape.
"""
from __future__ import annotations

import logging
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch
from tokenizers import Encoding

from models.checkpoint import Checkpoint, CheckpointError, LazyCheckpoint, load
from models.decoding import beam_search
from models.tokenizers import special_ids
from models.trace import Trace

ASSETS = Path(__file__).resolve().parents[2] / "assets"
MAX_CHARS = 2000  # characters kept from any input before tokenising
MAX_TRANSLATION_TOKENS = 64  # source subwords kept for translation (the models were trained on <= 64)
MAX_BEAM = 8
CHECKPOINT_FILES = ("config.json", "tokenizer.json", "metrics.json", "model.safetensors.index.json")
MAX_TOP_K = 100
API_DECIMALS = 4  # attention values in the public API's JSON (the records keep float32; bench/payload.py)


class UserError(ValueError):
    """Something about the input the user can fix; the message is shown as is. `key` and `fields`
    (optional) name the same message in explorer.i18n ("err.<key>"), for the Korean interface."""

    def __init__(self, message: str, key: str | None = None, **fields):
        super().__init__(message)
        self.key, self.fields = key, fields


class Notice(str):
    """A notice shown beside a result ("Source cut to 126 subword tokens"). It is its English text,
    so records and the API keep plain strings; `key` and `fields` name the same text in
    explorer.i18n ("note.<key>"), for the Korean interface."""

    def __new__(cls, message: str, key: str | None = None, **fields):
        self = super().__new__(cls, message)
        self.key, self.fields = key, fields
        return self


# ----------------------------------------------------------------------------- loading


@dataclass
class Registry:
    """Every checkpoint under assets/, loaded once; broken ones are kept as error messages."""
    models: dict[str, Checkpoint] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)

    def get(self, name: str, kind: str | None = None, weights: bool = True) -> Checkpoint:
        """The checkpoint `name` (of architecture `kind`), or a UserError to show. `weights=False`: its
        config and tokenizer are enough (a lazy checkpoint's weights are not read for them)."""
        if name in self.errors:
            raise UserError(f"Model '{name}' could not be loaded: {self.errors[name]}", "not_loaded", name=name,
                            error=self.errors[name])
        if name not in self.models:
            known = ", ".join(sorted(self.names(kind))) or "none"
            raise UserError(f"Unknown model '{_shown(name)}'. Available: {known}.", "unknown_model",
                            name=_shown(name), known=known)
        ckpt = self.models[name]
        if kind and ckpt.config.arch not in (kind if isinstance(kind, tuple) else (kind,)):
            wanted = " or ".join(kind) if isinstance(kind, tuple) else kind
            raise UserError(f"Model '{name}' is a {ckpt.config.arch} model, not a {wanted} model.", "wrong_arch",
                            name=name, arch=ckpt.config.arch, wanted=wanted)
        if weights and isinstance(ckpt, LazyCheckpoint) and not ckpt.loaded:
            try:
                ckpt.model  # its weights, read now (once): values the header check at start could not see
            except CheckpointError as e:
                error = relative_to_assets(str(e), ckpt.path.parent)
                # new dicts, not edits: other threads may be iterating these
                self.errors = {**self.errors, name: error}  # first: a request in between reads "not loaded"
                self.models = {k: v for k, v in self.models.items() if k != name}
                raise UserError(f"Model '{name}' could not be loaded: {error}", "not_loaded", name=name,
                                error=error) from None
        return ckpt

    def names(self, kind=None) -> list[str]:
        kinds = kind if isinstance(kind, tuple) else (kind,)
        return sorted(n for n, c in self.models.items() if kind is None or c.config.arch in kinds)

    def describe(self) -> list[dict]:
        out = []
        for name, c in sorted(self.models.items()):
            m = c.metrics
            out.append({"name": name, "arch": c.config.arch, "qk_norm": bool(getattr(c.config, "qk_norm", False)),
                        "parameters": m.get("parameters"), "device": m.get("device"),
                        "wall_seconds": m.get("wall_seconds"),  # this run (a continued one's last stage)
                        "total_wall_seconds": m.get("total_wall_seconds", m.get("wall_seconds")),  # every stage
                        "storage": c.stored, "valid": m.get("valid"), "test": m.get("test"), "status": "ok"})
        out += [{"name": n, "status": "error", "error": e} for n, e in sorted(self.errors.items())]
        return out


def load_registry(assets: Path = ASSETS, names=None, lazy: bool = False) -> Registry:
    """Load every checkpoint folder under `assets`, or only those whose folder name is in
    `names` (the CLI loads just the model it runs). `lazy`: each model's weights are read at its first
    `get` (models.checkpoint.LazyCheckpoint; the files are checked now, from their headers)."""
    reg = Registry()
    for folder in sorted(Path(assets).iterdir()) if Path(assets).is_dir() else []:
        if not folder.is_dir() or folder.name.startswith((".", "_")):
            continue
        if not any((folder / f).exists() for f in CHECKPOINT_FILES) and not any(folder.glob("*.safetensors")):
            continue  # not a checkpoint at all (e.g. assets/screenshots)
        if names is not None and folder.name not in names:
            continue
        try:
            reg.models[folder.name] = LazyCheckpoint(folder) if lazy else load(folder)
        except Exception as e:  # noqa: BLE001 -- one broken folder must not stop the app from starting
            if not isinstance(e, CheckpointError):
                logging.getLogger(__name__).exception("loading %s", folder.name)
            reg.errors[folder.name] = relative_to_assets(str(e), assets)
    return reg


def relative_to_assets(message: str, assets: Path = ASSETS) -> str:
    """A load error as a visitor may read it: paths under `assets` named from there ("bert/config.json"),
    never as the server's absolute path."""
    for root in {str(Path(assets)), str(Path(assets).resolve())}:
        message = message.replace(root.rstrip("/") + "/", "").replace(root, "assets")
    return message


_REGISTRY: Registry | None = None


def registry() -> Registry:
    """The process-wide registry (read on first use, then read-only). Each model's weights are read when it
    is first used: a server nobody has visited holds none of them (docs/performance.md, start-up)."""
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = load_registry(lazy=True)
    return _REGISTRY


# ----------------------------------------------------------------------------- input hygiene

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# Invisible format characters (Unicode category Cf: zero-width space and joiners, BOM, bidi marks, soft
# hyphen, tags): dropped, so that a lone zero-width space is an empty input rather than an <unk> to translate.
_INVISIBLE = re.compile("[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff"
                        "\ufff9-\ufffb\U000e0000-\U000e007f]")


def _shown(value, limit: int = 60) -> str:
    """A user-supplied value as it may appear in an error message: lone surrogates replaced
    (they cannot be encoded to UTF-8 for a page, a terminal or JSON) and clipped."""
    s = str(value).encode("utf-8", "replace").decode("utf-8")
    return s if len(s) <= limit else s[:limit] + "…"


def clean_text(text, what: str = "sentence") -> tuple[str, list[str]]:
    """(text fit for a tokenizer, notices). The length is capped at MAX_CHARS first, before any other
    work (a 100 MB text had cost 11 s and 2 GB here); then control characters and NUL are
    dropped, lone surrogates replaced, invisible characters dropped and spaces collapsed."""
    if text is None:
        text = ""
    if not isinstance(text, str):
        raise UserError(f"The {what} must be text.", "not_text", what=what)
    notices = []
    text = text.strip()  # only so that the count of dropped characters leaves out the input's outer spaces
    dropped = max(0, len(text) - MAX_CHARS)
    text = text[:MAX_CHARS]
    text = text.encode("utf-8", "replace").decode("utf-8")  # lone surrogates -> '?'
    text = _CONTROL.sub(" ", _INVISIBLE.sub("", unicodedata.normalize("NFC", text))).strip()
    text = re.sub(r"\s+", " ", text)
    if len(text) > MAX_CHARS:  # NFC writes a few characters as two
        dropped, text = dropped + len(text) - MAX_CHARS, text[:MAX_CHARS]
    if not text:
        raise UserError(f"Please type a {what}: the input is empty.", "empty", what=what)
    if dropped:
        notices.append(Notice(f"{what[0].upper() + what[1:]} cut to its first {MAX_CHARS} characters "
                              f"({dropped} dropped).", "text_cut", what=what, chars=MAX_CHARS, dropped=dropped))
    return text, notices


def check_int(value, name: str, lo: int, hi: int) -> int:
    """A whole number in [lo, hi] (a whole float or a numeric string too), or a UserError that states the range."""
    try:
        v = int(value)
    except (TypeError, ValueError, OverflowError):  # OverflowError: int(float('inf'))
        raise UserError(f"{name} must be a whole number between {lo} and {hi}.", "whole", name=name, lo=lo,
                        hi=hi) from None
    if not lo <= v <= hi or v != value and not isinstance(value, str):
        raise UserError(f"{name} must be between {lo} and {hi} (got {_shown(value)}).", "range", name=name, lo=lo,
                        hi=hi, value=_shown(value))
    return v


def drop_typed_specials(text: str, specials, what: str = "sentence") -> tuple[str, list[str]]:
    """(text without the special tokens typed into it, notices). The model adds its own ([CLS] and [SEP],
    </s>); a typed one would be read as the real thing, e.g. a [SEP] that splits nothing into segments."""
    specials = [t for t in specials if t]
    if not specials:  # an empty alternation would match everywhere
        return text, []
    pattern = re.compile("|".join(re.escape(t) for t in specials), re.IGNORECASE)
    found = sorted({m.group(0) for m in pattern.finditer(text)})
    if not found:
        return text, []
    text = re.sub(r"\s+", " ", pattern.sub(" ", text)).strip()
    if not text:
        raise UserError(f"Please type a {what}: the input is empty.", "empty", what=what)
    shown = ", ".join(found)
    return text, [Notice(f"Left out {shown}: the model adds its own special tokens, and typed ones would be read as "
                         "real ones.", "specials_dropped", tokens=shown)]


def unknown_notice(ids: list[int], unk: int | None, token: str, reading: str = "") -> list[str]:
    """A notice when some of the model's input tokens are its unknown token (emoji, another script)."""
    n = sum(i == unk for i in ids) if unk is not None else 0
    if not n:
        return []
    more = f" Is it in a language this model reads ({reading})?" if reading and 2 * n >= len(ids) else ""
    return [Notice(f"Unknown to this model (read as {token}): {n} of {len(ids)} input tokens.{more}",
                   "unknown_tokens_lang" if more else "unknown_tokens", n=n, total=len(ids), token=token,
                   reading=reading)]


def script_notice(text: str, direction: str) -> list[Notice]:
    """A notice when a Korean -> X model gets a sentence without one Hangul letter: it answers
    anything with confident nonsense ("I am a student." -> "I have a friend of mine.")."""
    if direction.startswith("ko") and not re.search(r"[\uac00-\ud7a3\u3131-\u318e]", text):
        return [Notice(f"This model reads Korean ({direction}), and the sentence has no Korean letters: "
                       "its translation will not mean much. Choose a model for the sentence's language.",
                       "not_korean", direction=direction)]
    return []


# Words of one language and not the other (no "a", "on", "son", "des", "comment"...), and French elisions (j', c',
# qu'...): a sentence with two or more distinct French ones and no English one, or three times as many, is taken for
# French. English with a French phrase ("Je ne sais quoi, as they say.", "La La Land") keeps its English words.
FRENCH_WORDS = frozenset("je tu il elle nous vous ils elles suis es est sommes êtes sont le la les une un du et ne pas "
                         "qui dans avec pour sur au aux cette ces mon ma mes ton ta tes sa ses leur leurs très été "
                         "était avez avons ai sais peux veux fait aussi mais ou où ça oui non merci bonjour à".split())
ENGLISH_WORDS = frozenset("i you he she it we they am is are was were the an and not to of in at on by from with for "
                          "as or but if so this that these those my your our their its his her him me us them do does "
                          "did have has be been will would can what where who how when why there here".split())
_ELISION = re.compile(r"\b(?:qu|[cjlmnst])['’](?=[^\W\d_])", re.IGNORECASE)


def french_notice(text: str, direction: str) -> list[Notice]:
    """A notice when an English -> X model gets what looks like French (the course's "je suis étudiant" typed into
    the English box): it translates it into confident nonsense ("Je suis étudiant." -> "Les amusants.")."""
    if not direction.startswith("en"):
        return []
    lower = text.lower()
    words = set(re.findall(r"[^\W\d_]+", lower))
    fr = len(words & FRENCH_WORDS) + len({m.group()[:-1] for m in _ELISION.finditer(lower)})
    en = len(words & ENGLISH_WORDS)
    if (fr >= 2 and en == 0) or (fr >= 3 and fr >= 3 * en):
        return [Notice(f"This model reads English ({direction}), and the sentence looks French: its translation will "
                       "not mean much. Type an English sentence.", "looks_french", direction=direction)]
    return []


# ----------------------------------------------------------------------------- translation


@dataclass(frozen=True)
class Hypothesis:
    text: str
    tokens: list[str]
    logprob: float  # sum of token log-probabilities
    score: float  # what beam search ranks by (length-normalised)
    token_logprobs: list[float]


@dataclass(frozen=True)
class TranslationResult:
    model: str
    source_tokens: list[str]  # the encoder's tokens, ending in </s>
    target_tokens: list[str]  # the generated tokens y1..yn </s>: row t of cross attention produced token t
    decoder_input_tokens: list[str]  # <s> y1..yn: the decoder's input at each step (axes of dec_self)
    translation: str
    trace: Trace  # numpy arrays [L, H, q, k]
    hypotheses: list[Hypothesis]  # beam search's n-best, best first (one entry for greedy)
    chosen: int  # which hypothesis the trace shows
    notices: list[str]
    length_penalty: float = 0.0  # the alpha of the scores (the model's own, chosen on its validation split)
    # p(target token t | source, tokens before t) under the model, one per target_tokens entry (None where
    # the length limit cut the step's output, "…"): how sure the model is of each word (explorer/figures/confidence.py)
    token_probs: list = field(default_factory=list)

    def to_json(self, decimals: int = 6, heads: bool = True) -> dict:
        """The record as JSON; `decimals` and `heads` as in models.trace.Trace.to_json (the API: 4 decimals)."""
        t = self.trace.to_json(decimals, heads)
        return {"model": self.model, "source_tokens": self.source_tokens, "target_tokens": self.target_tokens,
                "decoder_input_tokens": self.decoder_input_tokens, "translation": self.translation,
                "token_probs": [None if p is None else round(p, decimals) for p in self.token_probs],
                "attention": {k: t[k] for k in ("cross", "enc_self", "dec_self", "dec_self_scores")},
                "hypotheses": [h.__dict__ for h in self.hypotheses], "chosen": self.chosen,
                "length_penalty": self.length_penalty, "notices": self.notices}


def token_probabilities(logits: torch.Tensor, token_ids: list[int]) -> list[float]:
    """softmax(logits[t])[token_ids[t]] for each step t: logits (T, V) of a teacher-forced pass whose row t
    predicts token t. The probability of each token given the source and the tokens before it; beam search's
    length penalty ranks whole hypotheses and changes none of these."""
    probs = torch.softmax(logits.double(), dim=-1)  # (T, V)
    return probs[torch.arange(len(token_ids)), torch.tensor(token_ids, dtype=torch.long)].tolist()


def _pieces(tok, ids) -> list[str]:
    # a Hub BERT may have more embedding rows than vocabulary entries: name those by id
    return [tok.id_to_token(i) or f"[id {i}]" for i in ids]


def source_limit(ckpt: Checkpoint) -> int:
    """The most source tokens a translation reads (its output gets one more, for </s>): the app's cap, or the
    model's max_len less two where that is smaller."""
    return min(MAX_TRANSLATION_TOKENS, getattr(ckpt.config, "max_len", 10**6) - 2)


def encode_source(ckpt: Checkpoint, text: str) -> tuple[str, Encoding, list[int], list[Notice]]:
    """A translation model's source as `translate` reads it: (the text cleaned and without typed special tokens,
    the tokenizer's Encoding of that text (for character offsets), the ids kept (the model adds </s>), notices)."""
    text, notices = clean_text(text)
    tok = ckpt.tokenizer
    text, more = drop_typed_specials(text, [tok.id_to_token(i) for i in special_ids(tok).values()])
    notices += more
    enc = tok.encode(text, add_special_tokens=False)
    ids = enc.ids
    limit = source_limit(ckpt)
    if len(ids) > limit:
        notices.append(Notice(f"Source cut to {limit} subword tokens ({len(ids) - limit} dropped).", "source_cut",
                              limit=limit, dropped=len(ids) - limit))
        ids = ids[:limit]
    if not ids:
        raise UserError("The sentence has no translatable tokens.", "no_tokens")
    return text, enc, ids, notices


@torch.inference_mode()
def translate(name: str, text: str, beam: int = 1, chosen: int = 0, reg: Registry | None = None) -> TranslationResult:
    """Translate `text` with model `name`; beam=1 is greedy. `chosen` picks which of the
    beam's hypotheses the attention trace is computed for."""
    reg = reg or registry()
    ckpt = reg.get(name, ("transformer", "seq2seq"))
    beam = check_int(beam, "Beam size", 1, MAX_BEAM)
    chosen = check_int(chosen, "Hypothesis", 0, beam - 1)
    text, _, ids, notices = encode_source(ckpt, text)
    tok, model, sp = ckpt.tokenizer, ckpt.model, special_ids(ckpt.tokenizer)
    direction = ckpt.metrics.get("data", {}).get("direction", "")
    notices += (unknown_notice(ids, sp.get("unk"), "<unk>", direction) + script_notice(text, direction)
                + french_notice(text, direction))
    src = torch.tensor([ids + [sp["eos"]]])
    max_out = min(source_limit(ckpt) + 1, 2 * src.size(1) + 10)
    # The model's own alpha at every beam size: at beam 1 it only scales the one hypothesis's score (greedy
    # keeps a single beam, which ends at its first </s>), so the score column means the same at every size.
    alpha = ckpt.length_penalty
    hyps = beam_search(model, src, sp["bos"], sp["eos"], max_out, beam_size=beam, alpha=alpha)[0]
    hypotheses = [Hypothesis(tok.decode(list(h.tokens)), _pieces(tok, h.tokens), round(h.logprob, 4),
                             round(h.score, 4), [round(x, 4) for x in h.steps]) for h in hyps]
    chosen = min(chosen, len(hyps) - 1)
    out_ids = list(hyps[chosen].tokens)
    tgt_in = torch.tensor([[sp["bos"]] + out_ids])
    out = model(src, tgt_in, need_weights=True)
    trace = out.trace
    src_tokens = _pieces(tok, src[0].tolist())
    dec_in = _pieces(tok, tgt_in[0].tolist())
    produced = _pieces(tok, out_ids) + (["</s>"] if hyps[chosen].finished else [])
    produced = (produced + ["…"] * len(dec_in))[: len(dec_in)]  # unfinished: the last step's output was cut
    produced_ids = out_ids + ([sp["eos"]] if hyps[chosen].finished else [])
    probs = token_probabilities(out.logits[0, : len(produced_ids)], produced_ids)
    probs += [None] * (len(dec_in) - len(probs))
    if not hyps[chosen].finished:
        notices.append(Notice("The translation hit the length limit before </s>.", "no_eos"))
    return TranslationResult(name, src_tokens, produced, dec_in, hypotheses[chosen].text,
                             trace.example(0, src_tokens, dec_in), hypotheses, chosen, notices, alpha,
                             token_probs=probs)


# ----------------------------------------------------------------------------- BERT

_MASK_ANY_CASE = re.compile(r"\[\s*mask\s*\]", re.IGNORECASE)


@dataclass(frozen=True)
class Prediction:
    token: str
    probability: float


@dataclass(frozen=True)
class MaskResult:
    index: int  # position in tokens
    predictions: list[Prediction]


@dataclass(frozen=True)
class BertResult:
    tokens: list[str]  # WordPiece tokens with [CLS]/[SEP]
    segments: list[int]  # 0 = sentence A, 1 = sentence B
    trace: Trace  # enc_self [L, H, T, T]
    masks: list[MaskResult]
    is_next: float | None  # P(IsNext) when a sentence B was given
    not_next: float | None
    hidden: np.ndarray  # (T, d_model) last-layer contextual vectors
    static: np.ndarray  # (T, d_model) input token embeddings
    notices: list[str]

    def to_json(self, decimals: int = 6, heads: bool = True) -> dict:
        """The record as JSON; `decimals` and `heads` as in models.trace.Trace.to_json (the API: 4 decimals)."""
        return {"tokens": self.tokens, "segments": self.segments,
                "masks": [{"index": m.index, "predictions": [p.__dict__ for p in m.predictions]} for m in self.masks],
                "is_next": self.is_next, "not_next": self.not_next,
                "attention": {"enc_self": self.trace.to_json(decimals, heads)["enc_self"]}, "notices": self.notices}


def _hangul(ch: str) -> bool:
    return "\uac00" <= ch <= "\ud7a3"


def glued_ids(tok, enc, a: str, b: str | None = None) -> list[int]:
    """enc.ids (the encoding of a, or of the pair a, b), where a Korean syllable typed right after [MASK]
    (`[MASK]가`) reads as the rest of the masked word (`##가`), as the syllable-level bert-ko saw it in
    pre-training, not as the start of a new word; a tokenizer without such pieces, or a space after [MASK],
    keeps enc.ids as they are."""
    ids, mask = list(enc.ids), tok.token_to_id("[MASK]")
    for i in range(1, len(ids)):
        seq = enc.sequence_ids[i]
        if ids[i - 1] != mask or seq is None or enc.sequence_ids[i - 1] != seq:
            continue
        (s0, e0), (s1, e1) = enc.offsets[i - 1], enc.offsets[i]
        ch = (a if seq == 0 else b or "")[s1:s1 + 1]
        cont = tok.token_to_id("##" + ch) if _hangul(ch) and e0 == s1 and e1 == s1 + 1 else None
        if cont is not None:
            ids[i] = cont
    return ids


def _encode_bert(ckpt: Checkpoint, a: str, b: str | None, notices: list[str]):
    tok, max_len = ckpt.tokenizer, ckpt.config.max_len
    enc = tok.encode(a, b) if b is not None else tok.encode(a)
    ids, segs = glued_ids(tok, enc, a, b), list(enc.type_ids)
    if len(ids) > max_len:
        # keep [CLS] A [SEP] (B [SEP]) shape: crop the longer side, as BERT's truncate_seq_pair does
        ea = glued_ids(tok, tok.encode(a, add_special_tokens=False), a)
        eb = glued_ids(tok, tok.encode(b, add_special_tokens=False), b) if b else None
        room = max_len - (3 if eb is not None else 2)
        dropped = len(ids) - max_len
        while len(ea) + (len(eb) if eb else 0) > room:
            (ea if eb is None or len(ea) >= len(eb) else eb).pop()
        sp = special_ids(tok)
        ids = [sp["cls"]] + ea + [sp["sep"]] + ((eb + [sp["sep"]]) if eb is not None else [])
        segs = [0] * (len(ea) + 2) + ([1] * (len(eb) + 1) if eb is not None else [])
        notices.append(Notice(f"Input cut to BERT's {max_len} tokens ({dropped} dropped).", "bert_cut",
                              limit=max_len, dropped=dropped))
    return ids, segs


def bert_texts(tok, sp: dict, a: str, b: str | None, notices: list[str]) -> tuple[str, str | None]:
    """Sentences A and B without typed [CLS]/[SEP]/[PAD]/[UNK] ([MASK] stays: it is the question)."""
    typed = [tok.id_to_token(i) for k, i in sp.items() if k != "mask"]
    a, more = drop_typed_specials(a, typed, "first sentence" if b is not None else "sentence")
    notices += more
    if b is not None:
        b, more = drop_typed_specials(b, typed, "second sentence")
        notices += [n for n in more if n not in notices]
    return a, b


def _bert_ids(ckpt: Checkpoint, a: str, b: str | None, notices: list[str]) -> tuple[list[int], list[int], dict]:
    """The ids and segments BERT reads for cleaned sentences A and B (typed specials dropped, cut to its
    length), its special ids, and the notices about them; no model runs."""
    sp = special_ids(ckpt.tokenizer)
    a, b = bert_texts(ckpt.tokenizer, sp, a, b, notices)
    ids, segs = _encode_bert(ckpt, a, b, notices)
    # a BERT trained here read English corpora (metrics.json's data); one brought from the Hub may read any language
    reading = (ckpt.metrics.get("language", "en") if (ckpt.metrics or {}).get("arch") == "bert" and "data" in ckpt.metrics
               else "")
    notices += unknown_notice([i for i in ids if i not in (sp.get("cls"), sp.get("sep"))], sp.get("unk"), "[UNK]",
                              reading)
    return ids, segs, sp


@torch.inference_mode()
def _run_bert(ckpt: Checkpoint, a: str, b: str | None, top_k: int, notices: list[str]) -> BertResult:
    tok = ckpt.tokenizer
    ids, segs, sp = _bert_ids(ckpt, a, b, notices)
    mask_id = sp["mask"]
    at = [i for i, t in enumerate(ids) if t == mask_id]  # the MLM head runs at the [MASK]s alone
    out = ckpt.model(torch.tensor([ids]), torch.tensor([segs]), need_weights=True,
                     mlm_positions=torch.tensor([at], dtype=torch.long))
    tokens = _pieces(tok, ids)
    probs = torch.softmax(out.mlm_logits[0].float(), dim=-1)  # (masks, V)
    masks = []
    for i, row in zip(at, probs):
        p, idx = row.topk(top_k)
        masks.append(MaskResult(i, [Prediction(_pieces(tok, [j])[0], round(float(q), 6))
                                    for q, j in zip(p.tolist(), idx.tolist())]))
    is_next = not_next = None
    if b is not None:
        nsp = torch.softmax(out.nsp_logits[0].float(), dim=-1)  # index 0 = IsNext (HF convention)
        is_next, not_next = round(float(nsp[0]), 6), round(float(nsp[1]), 6)
    return BertResult(tokens, segs, out.trace.example(0, tokens), masks, is_next, not_next,
                      out.hidden[0].float().numpy(), out.embeddings[0].float().numpy(), notices)


def has_mask(*texts) -> bool:
    """Whether any of `texts` holds a [MASK], in any case, as fill_mask reads them."""
    return any(isinstance(t, str) and _MASK_ANY_CASE.search(t) for t in texts)


def _bert_inputs(text: str, text_b: str | None) -> tuple[str, str | None, list[str]]:
    """BERT's sentences, cleaned: A, B where one is given (a blank B is none), and the notices."""
    a, notices = clean_text(text)
    b = None
    if text_b is not None and str(text_b).strip():
        b, more = clean_text(text_b, "second sentence")
        notices += more
    return a, b, notices


def masked_texts(text: str, text_b: str | None = None) -> tuple[str, str | None, list[str]]:
    """fill_mask's sentences, cleaned, with every [MASK] in upper case, and notices; a UserError when there is
    no text or no [MASK] to predict. No model runs (the app checks an input with it before running one)."""
    raw = (text, text_b)
    text, b, notices = _bert_inputs(text, text_b)
    text = _MASK_ANY_CASE.sub("[MASK]", text)
    b = None if b is None else _MASK_ANY_CASE.sub("[MASK]", b)
    if "[MASK]" not in text and (b is None or "[MASK]" not in b):
        if has_mask(*raw):  # it was cut off
            raise UserError(f"Every [MASK] lies beyond the first {MAX_CHARS} characters, which is all "
                            "that is read; put one earlier.", "mask_cut_off", chars=MAX_CHARS)
        raise UserError("Put at least one [MASK] in the sentence, e.g. 'I am a [MASK].'", "no_mask")
    return text, b, notices


def fill_mask(text: str, top_k: int = 5, text_b: str | None = None, name: str = "bert",
              reg: Registry | None = None) -> BertResult:
    """Top-k predictions for every [MASK] (any letter case: '[mask]' counts too)."""
    reg = reg or registry()
    ckpt = reg.get(name, "bert")
    top_k = check_int(top_k, "top-k", 1, MAX_TOP_K)
    text, b, notices = masked_texts(text, text_b)
    res = _run_bert(ckpt, text, b, top_k, notices)
    if not res.masks:
        raise UserError("Every [MASK] fell beyond BERT's length limit; put one earlier in the text.", "mask_too_late")
    return res


def nsp(text_a: str, text_b: str, name: str = "bert", reg: Registry | None = None, top_k: int = 5) -> BertResult:
    """Next-sentence prediction: P(IsNext) and P(NotNext) for sentence B after sentence A (and the
    top-k predictions of any [MASK] in them, from the same pass)."""
    reg = reg or registry()
    ckpt = reg.get(name, "bert")
    top_k = check_int(top_k, "top-k", 1, MAX_TOP_K)
    a, notices = clean_text(text_a, "first sentence")
    b, more = clean_text(text_b, "second sentence")
    return _run_bert(ckpt, a, b, top_k, notices + more)


def encode_bert(text: str, text_b: str | None = None, name: str = "bert", reg: Registry | None = None,
                top_k: int = 5) -> BertResult:
    """BERT's tokens, attention and vectors for any text (no [MASK] needed; any there get top-k predictions)."""
    top_k = check_int(top_k, "top-k", 1, MAX_TOP_K)
    a, b, notices = _bert_inputs(text, text_b)
    return _run_bert((reg or registry()).get(name, "bert"), a, b, top_k, notices)


def bert_tokens(text: str, text_b: str | None = None, name: str = "bert", reg: Registry | None = None) -> list[str]:
    """The tokens encode_bert would show for the same text, from the tokenizer alone (no model run)."""
    ckpt = (reg or registry()).get(name, "bert", weights=False)
    a, b, notices = _bert_inputs(text, text_b)
    return _pieces(ckpt.tokenizer, _bert_ids(ckpt, a, b, notices)[0])
