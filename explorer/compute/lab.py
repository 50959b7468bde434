"""Analysis lab: the computations behind the explorer's deeper views, as plain records.

Numbers come from explorer.compute.inference (the one inference layer) wherever its records carry
them. Where a view needs something those records do not carry (encoder states, one
layer's queries and keys, the embedding table), the registry's shared modules are read
directly, read-only and under `torch.inference_mode()`, and a test pins the result to the
inference layer's own numbers. Records hold tokens and numpy arrays; explorer/figures/lab.py
draws them.

* `compare_score_functions`: one sentence through the five RNN encoder-decoders, i.e. the
  score functions of Luong et al. 2015 (dot, general, eq. 8), Vaswani et al. 2017 (scaled
  dot, eq. 1), Bahdanau et al. 2015 (additive, app. A.1.2) and Sutskever et al. 2014 (none).
* `length_table`: test BLEU by source length, the figure of Bahdanau et al. 2015 (fig. 2).
* `rollout`, `attention_rollout`: attention rollout, Abnar & Zuidema 2020, "Quantifying
  Attention Flow in Transformers", eq. 1 with the residual folded in as 0.5 A + 0.5 I.
* `positional`: sinusoidal positions, Vaswani et al. 2017 sec. 3.5, and what adding them
  does to a sentence's embeddings (sec. 3.4 scales the embeddings by sqrt(d_model)).
* `contextual_similarity`: one word's vector across contexts vs its static embedding
  (Ethayarajh 2019, "How Contextual are Contextualized Word Representations?").
* `query_key`: one head's q . k_j / sqrt(d_k) terms and softmax (Vaswani et al. 2017,
  eq. 1), the "neuron view" of bertviz (Vig 2019).
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import torch

from explorer.compute.inference import (ASSETS, Notice, Registry, UserError, bert_texts, check_int, clean_text,
                                encode_bert, encode_source, registry, translate)
from explorer import i18n
from explorer.figures.lab import bucket_start
from models.attention import scaled_dot_product
from models.tokenizers import special_ids
from models.transformer import sinusoidal_positions

SCORE_MODELS = ("seq2seq-dot", "seq2seq-scaled_dot", "seq2seq-general", "seq2seq-additive", "seq2seq-none")
MAX_SENTENCES = 8  # contexts compared at once in contextual_similarity
MAX_POSITIONS = 512  # positional(): largest table drawn (512 x 512 similarity)
MAX_D_MODEL = 2048


# ----------------------------------------------------------------------------- helpers


def _whole(value, what: str, lo: int, hi: int) -> int:
    """A whole number in [lo, hi], or a UserError that states the valid range."""
    if hi < lo:
        raise UserError(f"There is no {what.lower()} to choose from.", "nothing_to_choose", name=what)
    return check_int(value, what, lo, hi)


def _index(value, what: str, n: int) -> int:
    """A 0-based index into n items (layers, heads, tokens)."""
    return _whole(value, what, 0, n - 1)


def row_entropy(att) -> np.ndarray:
    """Entropy in nats of each attention row, over the last axis: -sum_k p log p (0 log 0 = 0).

    Works on any shape [..., k]: (T, S) cross attention gives (T,), [L, H, T, T] gives [L, H, T].
    A uniform row over k keys has entropy log(k); a one-hot row has 0.
    """
    p = np.asarray(att, dtype=np.float64)
    logp = np.log(np.where(p > 0, p, 1.0))  # log 1 = 0 stands in where p = 0
    return -(p * logp).sum(-1)


def cosine_matrix(a: np.ndarray, b: np.ndarray | None = None) -> np.ndarray:
    """Cosine similarity between the rows of a (N, d) and of b (M, d) (default: a): (N, M)."""
    a = np.asarray(a, dtype=np.float64)
    b = a if b is None else np.asarray(b, dtype=np.float64)
    na = a / np.maximum(np.linalg.norm(a, axis=-1, keepdims=True), 1e-12)
    nb = b / np.maximum(np.linalg.norm(b, axis=-1, keepdims=True), 1e-12)
    return na @ nb.T


def _source_encoding(ckpt, text: str):
    """A translation model's source exactly as inference.translate reads it: (the text it reads, the
    tokenizer's Encoding of that text (for offsets), the number of ids kept, src = ids + </s> as (1, S), the
    notices: special tokens typed in and dropped, a source cut)."""
    text, enc, ids, notices = encode_source(ckpt, text)
    src = torch.tensor([ids + [special_ids(ckpt.tokenizer)["eos"]]])  # (1, S)
    return text, enc, len(ids), src, notices


# ----------------------------------------------------------------------------- 1. score functions


@dataclass(frozen=True)
class ScoreFunctionResult:
    name: str  # checkpoint, e.g. "seq2seq-dot"
    score: str  # its score function: dot, scaled_dot, general, additive or none
    translation: str
    source_tokens: list[str]  # key axis of cross, ending in </s>
    target_tokens: list[str]  # query axis of cross: row t produced token t
    cross: np.ndarray | None  # (T, S) cross attention; None when the model has no attention
    entropy: np.ndarray | None  # (T,) nats per target row
    mean_entropy: float | None
    max_entropy: float  # log(S): the entropy of uniform attention over the source
    token_probs: list = field(default_factory=list)  # TranslationResult.token_probs: p(token t | source, tokens < t)


@dataclass(frozen=True)
class ScoreComparison:
    text: str
    results: list[ScoreFunctionResult]  # in SCORE_MODELS order, absent models left out
    notices: list[str]


def compare_score_functions(text: str, names=SCORE_MODELS, reg: Registry | None = None) -> ScoreComparison:
    """Translate `text` greedily with each RNN encoder-decoder and measure how peaked its
    cross attention is (row entropy): dot vs scaled dot vs general vs additive vs none."""
    reg = reg or registry()
    results, notices, per_model = [], [], {}  # per_model: a model's notice -> the models that gave it
    for name in names:
        if name not in reg.names("seq2seq"):
            why = reg.errors.get(name, "")
            notices.append(Notice(f"{name} is not available{': ' + why if why else ''}.",
                                  "unavailable_why" if why else "unavailable", name=name, why=why))
            continue
        r = translate(name, text, reg=reg)
        cross = None if r.trace.cross is None else r.trace.cross[0, 0]  # (T, S): one layer, one head
        ent = None if cross is None else row_entropy(cross)
        results.append(ScoreFunctionResult(
            name, reg.get(name).config.attention, r.translation, r.source_tokens, r.target_tokens, cross, ent,
            None if ent is None else float(ent.mean()), math.log(len(r.source_tokens)), r.token_probs))
        for n in r.notices:
            per_model.setdefault(n, (n, []))[1].append(name)
    # one line per notice, naming every model that gave it (the five share the tokenizer's notices)
    notices += [Notice(f"{', '.join(who)}: {n}", "of_model", name=", ".join(who), notice=n)
                for n, who in per_model.values()]
    if not results:
        why = " ".join(notices)
        raise UserError("None of the RNN encoder-decoders is available: " + why, "no_rnn_models", why=why)
    return ScoreComparison(clean_text(text)[0], results, notices)


# ----------------------------------------------------------------------------- 2. BLEU by length

FAMILIES = ("RNN, no attention", "RNN + attention", "Transformer")
LENGTH_COLUMNS = ["model", "family", "direction", "bucket", "n", "bleu"]


@dataclass(frozen=True)
class LengthTable:
    table: pd.DataFrame  # long table, columns LENGTH_COLUMNS, one row per (model, bucket)
    message: str  # what the table shows, or why it is empty (English; length_message words it per language)
    lacking: tuple[str, ...] = ()  # checkpoints without test.bleu_by_length
    broken: tuple[str, ...] = ()  # checkpoints whose metrics.json could not be read


def _family(arch: str | None, attention: str | None) -> str | None:
    if arch == "transformer":
        return "Transformer"
    if arch == "seq2seq":
        return "RNN, no attention" if attention == "none" else "RNN + attention"
    return None


def length_table(assets: Path | str = ASSETS) -> LengthTable:
    """BLEU by source-length bucket (test split) of every translation model under `assets`,
    read from metrics.json's test.bleu_by_length as written by `models.evaluate --write`.

    Only the JSON files are read (no model is loaded). Models without the key are listed in
    the message; an empty table comes with a message saying how to fill it.
    """
    rows, lacking, broken = [], [], []
    folders = sorted(p for p in Path(assets).iterdir() if p.is_dir()) if Path(assets).is_dir() else []
    for folder in folders:
        if not (folder / "metrics.json").exists() and not (folder / "config.json").exists():
            continue  # not a checkpoint at all (e.g. assets/screenshots), as inference.load_registry skips it
        try:
            metrics = json.loads((folder / "metrics.json").read_text(encoding="utf-8"))
            cfg_file = folder / "config.json"
            config = json.loads(cfg_file.read_text(encoding="utf-8")) if cfg_file.is_file() else {}
        except (OSError, ValueError):
            broken.append(folder.name)
            continue
        if not isinstance(metrics, dict):
            broken.append(folder.name)
            continue
        arch = metrics.get("arch") or config.get("arch")
        attention = (metrics.get("hyperparameters") or {}).get("attention") or (config.get("config") or {}).get("attention")
        family = _family(arch, attention)
        if family is None:  # BERT and anything else that does not translate
            continue
        direction = (metrics.get("data") or {}).get("direction", "")
        test = metrics.get("test")
        buckets = test.get("bleu_by_length") if isinstance(test, dict) else None
        if not isinstance(buckets, list) or not buckets:
            lacking.append(folder.name)
            continue
        for b in buckets:
            try:
                rows.append({"model": folder.name, "family": family, "direction": str(direction),
                             "bucket": str(b["bucket"]), "n": int(b["n"]), "bleu": float(b["bleu"])})
            except (KeyError, TypeError, ValueError):
                broken.append(folder.name)
    table = pd.DataFrame(rows, columns=LENGTH_COLUMNS)
    if not table.empty:
        table = (table.assign(_f=table.family.map(FAMILIES.index), _b=table.bucket.map(bucket_start))
                 .sort_values(["direction", "_f", "model", "_b"]).drop(columns=["_f", "_b"]).reset_index(drop=True))
        table["n"] = table["n"].astype(int)
    lacking, broken = tuple(sorted(set(lacking))), tuple(sorted(set(broken)))
    return LengthTable(table, length_message(table, lacking, broken), lacking, broken)


def length_message(table: pd.DataFrame, lacking=(), broken=(), lang: str = "en") -> str:
    """What a BLEU-by-length table shows, or why it is empty, in `lang`."""
    parts = [i18n.t("len.msg_empty", lang) if table.empty else i18n.t("len.msg_models", lang, n=table.model.nunique())]
    if lacking and not table.empty:
        parts.append(i18n.t("len.msg_lacking", lang, names=", ".join(lacking)))
    if broken:
        parts.append(i18n.t("len.msg_broken", lang, names=", ".join(broken)))
    return " ".join(parts)


# ----------------------------------------------------------------------------- 3. rollout


def rollout_layers(att, add_residual: bool = True) -> np.ndarray:
    """Cumulative attention rollout after each layer (Abnar & Zuidema 2020): [L, T, T].

    A_l = mean over heads of att[l]; with add_residual, A_l = 0.5 A_l + 0.5 I (the residual
    connection carries the token itself); rows re-normalised; R_l = A_l R_{l-1}, R_0 = I.
    Row i of R_l says how much of each input token flows into position i after layer l.
    """
    att = np.asarray(att, dtype=np.float64)
    if att.ndim != 4 or att.shape[-1] != att.shape[-2]:
        raise ValueError(f"rollout needs self-attention [layers, heads, T, T], got shape {att.shape}")
    L, _, T, _ = att.shape
    eye = np.eye(T)
    out, r = np.empty((L, T, T)), eye
    for layer in range(L):
        a = att[layer].mean(0)  # (T, T)
        if add_residual:
            a = 0.5 * a + 0.5 * eye
        s = a.sum(-1, keepdims=True)
        a = np.divide(a, s, out=np.zeros_like(a), where=s > 0)  # a padded (all-zero) row stays 0
        r = a @ r
        out[layer] = r
    return out


def rollout(att, add_residual: bool = True) -> np.ndarray:
    """Attention rollout through all layers, [T, T]: the last of `rollout_layers`."""
    return rollout_layers(att, add_residual)[-1]


@dataclass(frozen=True)
class RolloutResult:
    model: str
    tokens: list[str]
    attention: np.ndarray  # [L, H, T, T] raw self-attention
    head_mean: np.ndarray  # [L, T, T] mean over heads
    rollout: np.ndarray  # [L, T, T] cumulative rollout after each layer (residual added)
    entropy: np.ndarray  # [L, H, T] row entropy in nats
    notices: tuple[str, ...] = ()  # the input's (unknown tokens, a cut), as encode_bert / translate give them


def attention_rollout(text: str, name: str = "bert", reg: Registry | None = None) -> RolloutResult:
    """Rollout of BERT's self-attention, or of a Transformer translation model's encoder."""
    reg = reg or registry()
    ckpt = reg.get(name, ("bert", "transformer"))
    if ckpt.config.arch == "bert":
        r = encode_bert(text, name=name, reg=reg)
        tokens, att = r.tokens, r.trace.enc_self
    else:
        r = translate(name, text, reg=reg)
        tokens, att = r.source_tokens, r.trace.enc_self
    att = np.asarray(att, dtype=np.float64)
    return RolloutResult(name, list(tokens), att, att.mean(1), rollout_layers(att), row_entropy(att),
                         tuple(r.notices))


# ----------------------------------------------------------------------------- 4. positions


@dataclass(frozen=True)
class PositionalSentence:
    model: str
    tokens: list[str]  # the source tokens, as translate() makes them (ending in </s>)
    embedding: np.ndarray  # (T, d_model) token embedding * sqrt(d_model)
    pe: np.ndarray  # (T, d_model) the model's positional table, rows 0..T-1
    total: np.ndarray  # (T, d_model) embedding + pe: what the first encoder layer reads
    cos_before: np.ndarray  # (T, T) cosine between positions' embeddings
    cos_after: np.ndarray  # (T, T) cosine between positions after adding pe
    embedding_norm: np.ndarray  # (T,)
    pe_norm: np.ndarray  # (T,) sqrt(d_model / 2) for every position


@dataclass(frozen=True)
class PositionalResult:
    pe: np.ndarray  # (max_len, d_model) PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(...)
    similarity: np.ndarray  # (max_len, max_len) PE . PE^T: depends only on the offset between positions
    sentence: PositionalSentence | None


@torch.inference_mode()
def positional(max_len: int = 64, d_model: int = 128, text: str | None = None, name: str = "transformer-en-fr",
               reg: Registry | None = None) -> PositionalResult:
    """The sinusoidal table and its dot-product similarity; with `text`, what adding the
    table does to that sentence's token embeddings in translation model `name` (which
    uses its own d_model, not the one asked for the table)."""
    max_len = _whole(max_len, "Number of positions", 1, MAX_POSITIONS)
    d_model = _whole(d_model, "d_model", 2, MAX_D_MODEL)
    if d_model % 2:
        raise UserError(f"d_model must be even: dimensions come in sin/cos pairs (got {d_model}).", "odd_d_model",
                        value=d_model)
    pe = sinusoidal_positions(max_len, d_model).double().numpy()
    sentence = None
    if text is not None and str(text).strip():
        reg = reg or registry()
        ckpt = reg.get(name, "transformer")
        model, c = ckpt.model, ckpt.config
        _, _, _, src, _ = _source_encoding(ckpt, text)  # (the positional view shows no notices)
        emb = (model.src_emb(src)[0] * math.sqrt(c.d_model)).double()  # (T, d_model), sec. 3.4
        table = model.pe[: src.size(1)].double()  # (T, d_model)
        total = emb + table
        e, t, s = emb.numpy(), table.numpy(), total.numpy()
        sentence = PositionalSentence(name, [ckpt.tokenizer.id_to_token(i) for i in src[0].tolist()], e, t, s,
                                      cosine_matrix(e), cosine_matrix(s), np.linalg.norm(e, axis=-1),
                                      np.linalg.norm(t, axis=-1))
    return PositionalResult(pe, pe @ pe.T, sentence)


# ----------------------------------------------------------------------------- 5. contextual vectors

EXAMPLES = {  # word -> (model, contexts); 배 = belly / boat / pear, with the Korean BERT (one piece per syllable)
    "bank": ("bert", ["I sat on the bank of the river.", "I deposited money at the bank.",
                      "The bank raised interest rates."]),
    "stick": ("bert", ["Let's stick to the plan.", "He hit the ball with a stick."]),
    "배": ("bert-ko", ["배가 아파서 병원에 갔어요.", "배를 타고 섬에 갔어요.", "배를 깎아서 먹었어요."]),
}


@dataclass(frozen=True)
class ContextualResult:
    model: str
    source: str  # which vectors: "BERT last layer" or "Transformer encoder output"
    word: str
    sentences: list[str]
    tokens: list[list[str]]  # each sentence's tokens as the model sees them
    positions: list[list[int]]  # the word's token positions in each sentence
    vectors: np.ndarray  # (N, d_model) contextual vector, mean over the word's pieces
    static: np.ndarray  # (N, d_model) static input embedding, mean over the same pieces
    similarity: np.ndarray  # (N, N) cosine between the contexts
    static_similarity: np.ndarray  # (N, N) cosine between the static vectors (1 when the pieces agree)
    to_static: np.ndarray  # (N,) cosine of each contextual vector with its static embedding
    vocab_tokens: list[str]  # vocabulary entries that contain the word (up to 20)
    notices: list[str]


def _clip(s: str, n: int = 80) -> str:
    """User text as it may appear in a message: at most n characters."""
    return s if len(s) <= n else s[:n] + "…"


def _has_hangul(s: str) -> bool:
    return any("\uac00" <= ch <= "\ud7a3" for ch in s)


def _word_positions(word: str, text: str, offsets, n_tokens: int) -> tuple[list[int], list[str]]:
    """Token positions covering the first occurrence of `word` in `text` (case-insensitive).

    English words must stand alone ("bank" is not found in "banking"); a Korean word may
    carry attached particles/endings (배가, 배는), which is how Korean is written.
    """
    tail = "" if _has_hangul(word[-1]) else r"(?!\w)"
    found = list(re.finditer(r"(?<!\w)" + re.escape(word) + tail, text, flags=re.IGNORECASE))
    if not found:
        raise UserError(f"'{_clip(word)}' does not occur as a word in: {_clip(text)}", "word_not_found",
                        word=_clip(word), text=_clip(text))
    start, end = found[0].span()
    pos = [i for i, (s, e) in enumerate(offsets[:n_tokens]) if s < end and start < e and e > s]
    notices = [Notice(f"'{_clip(word)}' occurs {len(found)} times in '{_clip(text)}'; the first is used.", "first_of",
                      word=_clip(word), n=len(found), text=_clip(text))] if len(found) > 1 else []
    if not pos:
        raise UserError(f"'{_clip(word)}' in '{_clip(text)}' falls beyond the model's length limit.", "word_too_late",
                        word=_clip(word), text=_clip(text))
    return pos, notices


@torch.inference_mode()
def contextual_similarity(word: str, sentences=None, name: str | None = None,
                          reg: Registry | None = None) -> ContextualResult:
    """One word in several sentences: its contextual vector in each (averaged over its
    subword pieces), the cosine between contexts, and the cosine with its static embedding.

    BERT gives last-layer hidden states (encode_bert's `hidden`); a Transformer translation
    model gives its ENCODER outputs (model.encode(src)[0]). `sentences` may be a list or one
    string with a sentence per line; left out, EXAMPLES supplies them (and the model).
    """
    reg = reg or registry()
    word, notices = clean_text(word, "word")
    example = EXAMPLES.get(word.lower())
    if sentences is None or (isinstance(sentences, str) and not sentences.strip()) or (
            not isinstance(sentences, str) and not list(sentences)):
        if example is None:
            raise UserError(f"Give sentences that use '{word}', one per line.", "need_sentences", word=word)
        sentences = example[1]
    name = name or (example[0] if example else "bert")
    if isinstance(sentences, str):
        sentences = sentences.splitlines()
    sentences = [clean_text(s)[0] for s in sentences if isinstance(s, str) and s.strip()]
    if not sentences:
        raise UserError(f"Give sentences that use '{word}', one per line.", "need_sentences", word=word)
    if len(sentences) > MAX_SENTENCES:
        notices.append(Notice(f"Only the first {MAX_SENTENCES} sentences are compared.", "first_sentences",
                              n=MAX_SENTENCES))
        sentences = sentences[:MAX_SENTENCES]
    if len(sentences) == 1:  # its cosine with itself (1) says nothing; the static comparison still stands
        notices.append(Notice(f"One sentence: add another that uses '{word}' to compare its contexts.",
                              "one_sentence", word=word))
    ckpt = reg.get(name, ("bert", "transformer"))
    tok = ckpt.tokenizer
    vocab_tokens = sorted({t for t in tok.get_vocab() if word.lower() in t.lstrip("▁").removeprefix("##").lower()},
                          key=lambda t: (len(t), t))[:20]
    unk = special_ids(tok).get("unk")
    tokens, positions, vectors, static = [], [], [], []
    if ckpt.config.arch == "bert":
        source = "BERT last layer"
        for s in sentences:
            r = encode_bert(s, name=name, reg=reg)
            read = bert_texts(tok, special_ids(tok), s, None, [])[0]  # what encode_bert read: no typed [SEP]
            enc = tok.encode(read)  # encode_bert's own call, for the character offsets
            pos, more = _word_positions(word, read, enc.offsets, len(r.tokens) - 1)  # never the final [SEP]
            if [enc.tokens[i] for i in pos] != [r.tokens[i] for i in pos]:
                raise RuntimeError("contextual_similarity's tokenisation drifted from encode_bert's")
            if unk is not None and any(enc.ids[i] == unk for i in pos):
                raise UserError(f"'{word}' is unknown to {name}'s vocabulary ([UNK]).", "word_unknown", word=word,
                                name=name, unk="[UNK]")
            tokens.append(r.tokens), positions.append(pos)
            vectors.append(r.hidden[pos].mean(0)), static.append(r.static[pos].mean(0))
            notices += r.notices + more
    else:
        source = "Transformer encoder output"
        if not vocab_tokens:
            raise UserError(f"'{word}' is not (part of) any token in {name}'s vocabulary of "
                            f"{tok.get_vocab_size()} tokens, so it has no static embedding to compare with.",
                            "word_no_token", word=word, name=name, n=tok.get_vocab_size())
        model = ckpt.model
        for s in sentences:
            read, enc, n, src, typed = _source_encoding(ckpt, s)
            pos, more = _word_positions(word, read, enc.offsets, n)
            notices += typed
            if unk is not None and any(enc.ids[i] == unk for i in pos):
                raise UserError(f"'{word}' is unknown to {name}'s vocabulary (<unk>).", "word_unknown", word=word,
                                name=name, unk="<unk>")
            memory = model.encode(src)[0][0]  # (S, d_model)
            ids = src[0, pos]
            tokens.append([tok.id_to_token(i) for i in src[0].tolist()]), positions.append(pos)
            vectors.append(memory[pos].mean(0).double().numpy())
            static.append(model.src_emb(ids).mean(0).double().numpy())
            notices += more
    vectors, static = np.stack(vectors).astype(np.float64), np.stack(static).astype(np.float64)
    notices = list(dict.fromkeys(notices))  # one "[SEP] removed" for all the sentences that had one
    return ContextualResult(name, source, word, sentences, tokens, positions, vectors, static,
                            cosine_matrix(vectors), cosine_matrix(static), np.diag(cosine_matrix(vectors, static)),
                            vocab_tokens, notices)


# ----------------------------------------------------------------------------- 6. query / key


@dataclass(frozen=True)
class QueryKeyResult:
    tokens: list[str]
    layer: int
    head: int
    query_index: int
    d_k: int
    q: np.ndarray  # (d_k,) the query of token query_index in this head
    k: np.ndarray  # (T, d_k) one key per token
    products: np.ndarray  # (T, d_k) q * k_j / sqrt(d_k): row j sums to scores[j]
    scores: np.ndarray  # (T,) q . k_j / sqrt(d_k), the pre-softmax scores (-inf for a padded key)
    probs: np.ndarray  # (T,) softmax(scores)
    model_probs: np.ndarray  # (T,) the same row of encode_bert's trace, for comparison
    qk_norm: bool = False  # q and k are after the head's QK-LayerNorm (the model has one)
    notices: tuple[str, ...] = ()  # the input's, as encode_bert gives them (unknown tokens, a cut)


@torch.inference_mode()
def query_key(text: str, layer: int = 0, head: int = 0, query_index: int = 0, name: str = "bert",
              reg: Registry | None = None) -> QueryKeyResult:
    """How one head of one BERT layer turns a query and the keys into attention.

    BERT is run explicitly: embeddings, then layers 0..layer-1 (the model's own modules),
    then the chosen layer's input (LayerNorm'ed first when the model is pre-LN), its q/k
    projections split into heads (LayerNorm'ed too when the model has QK-LayerNorm),
    q . k_j / sqrt(d_k) and the softmax.
    """
    reg = reg or registry()
    ckpt = reg.get(name, "bert")
    model, c, tok = ckpt.model, ckpt.config, ckpt.tokenizer
    layer = _index(layer, "Layer", c.n_layers)
    head = _index(head, "Head", c.n_heads)
    r = encode_bert(text, name=name, reg=reg)  # the tokens and trace on screen
    T = len(r.tokens)
    query_index = _index(query_index, "Query index", T)
    ids = torch.tensor([[tok.token_to_id(t) for t in r.tokens]])  # (1, T)
    segs = torch.tensor([r.segments])  # (1, T)
    key_mask = (ids != c.pad_id)[:, None, None, :]  # (1, 1, 1, T), as Bert.forward builds it
    x, _ = model.embeddings(ids, segs)  # (1, T, d_model)
    for block in model.layers[:layer]:
        x, _ = block(x, key_mask, True)
    block = model.layers[layer]
    h = block.attn_norm(x) if block.pre_ln else x  # what the attention reads
    attn = block.attn
    d_k = attn.d_head
    q, k, v = attn.heads(h, h)  # (1, nh, T, d_k) each, after QK-LayerNorm if the model has it
    q, k, v = q[0, head], k[0, head], v[0, head]  # (T, d_k)
    # the one attention function, for this query alone: (1, T) scores and probabilities
    _, probs, scores = scaled_dot_product(q[query_index:query_index + 1], k, v, key_mask[0, 0])
    scores, probs = scores[0], probs[0]  # (T,)
    products = q[query_index] * k / math.sqrt(d_k)  # (T, d_k): the terms each score sums, before the sum
    return QueryKeyResult(list(r.tokens), layer, head, query_index, d_k, q[query_index].double().numpy(),
                          k.double().numpy(), products.double().numpy(), scores.double().numpy(),
                          probs.double().numpy(), np.asarray(r.trace.enc_self[layer, head, query_index], np.float64),
                          attn.q_norm is not None, tuple(r.notices))


# ----------------------------------------------------------------------------- command line


def main(argv=None):
    """python -m explorer.compute.lab length-figure [OUT_STEM]: the BLEU-by-length plot as PNG (needs
    kaleido and a Chromium) and its numbers as JSON, from the evaluated metrics.json files."""
    import argparse
    import os

    from explorer.figures.lab import length_figure
    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("what", choices=["length-figure"])
    ap.add_argument("out", nargs="?", default=str(ASSETS.parent / "docs" / "figures" / "bleu_by_length"),
                    help="path without extension (default: docs/figures/, which the app does not load)")
    args = ap.parse_args(argv)
    lt = length_table()
    Path(args.out + ".json").write_text(json.dumps({"message": lt.message, "rows": lt.table.to_dict("records")},
                                                   indent=1))
    os.environ.setdefault("BROWSER_PATH", "/usr/bin/chromium")
    length_figure(lt.table, lt.message).write_image(args.out + ".png", width=1100, height=500)
    print(f"wrote {args.out}.json and {args.out}.png")


if __name__ == "__main__":
    main()
