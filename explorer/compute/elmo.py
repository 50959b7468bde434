"""ELMo's weighted sum of layers, on this repo's encoders: a word's vector from every layer and their mix.

Peters et al. 2018, "Deep contextualized word representations", eq. 1:
    ELMo_k = gamma * sum_j s_j h_k,j
where h_k,j is token k's vector from layer j (j = 0: the input embedding), s = softmax-normalised weights and
gamma a scale, both learned per task in the paper and set by the teacher here (uniform by default). The paper
notes that LayerNorm of each layer before weighting helped in some cases (sec. 3.2); `normalize` does that (mean 0,
variance 1 per vector, no gain), and matters here because a pre-LN encoder's residual stream grows with depth,
so without it the deepest layers dominate any mix.

The layers are this repo's: BERT's embeddings output and its 12 layers' outputs (the last after the final
LayerNorm, i.e. the vectors the app's contextual view shows), or a Transformer translation model's encoder. How the
cosine between two senses of a word (bank: river / money; 배: boat / pear / belly) changes with the mix shows
which layers separate the senses (Ethayarajh 2019: upper layers are the most context-specific). A cosine does not
depend on gamma; gamma only scales the vector a downstream model would read.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch

from explorer.compute.inference import Registry, UserError, _bert_ids, _pieces, bert_texts, clean_text, registry
from explorer.compute.inside import bert_states, transformer_states
from explorer.compute.lab import EXAMPLES, MAX_SENTENCES, _source_encoding, _word_positions, cosine_matrix
from models.tokenizers import special_ids


@dataclass(frozen=True)
class ElmoResult:
    model: str
    word: str
    sentences: list[str]
    tokens: list[list[str]]
    positions: list[list[int]]  # the word's pieces in each sentence
    layer_names: list[str]  # "embeddings", "layer 1", ... (j = 0 .. L)
    layers: np.ndarray  # (N, L + 1, d_model) h_k,j: the word's vector (mean over its pieces) at every layer
    s: np.ndarray  # (L + 1,) the weights as used: non-negative, summing to 1
    gamma: float
    normalized: bool  # each h_k,j LayerNorm'ed (no gain) before the sum
    mixed: np.ndarray  # (N, d_model) ELMo_k = gamma * sum_j s_j h_k,j
    similarity: np.ndarray  # (N, N) cosine between the sentences' ELMo_k
    layer_similarity: np.ndarray  # (L + 1, N, N) the same for each layer alone (s one-hot)
    notices: list[str]


def mix_weights(weights, n: int) -> np.ndarray:
    """The s_j as used: the teacher's non-negative weights scaled to sum to 1 (None: uniform 1 / n)."""
    if weights is None:
        return np.full(n, 1.0 / n)
    try:
        w = np.asarray([float(x) for x in weights], dtype=np.float64)
    except (TypeError, ValueError):
        raise UserError("Layer weights must be numbers.", "weights_not_numbers") from None
    if w.shape != (n,):
        raise UserError(f"Give one weight per layer: {n} (embeddings and {n - 1} layers), got {w.size}.",
                        "weights_count", n=n, layers=n - 1, got=int(w.size))
    if not np.isfinite(w).all() or (w < 0).any() or w.sum() <= 0:
        raise UserError("Layer weights must be non-negative and not all zero.", "weights_range")
    return w / w.sum()


def _standardize(x: np.ndarray) -> np.ndarray:
    mu = x.mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(((x - mu) ** 2).mean(-1, keepdims=True) + 1e-12)


def elmo_mix(layers: np.ndarray, s: np.ndarray, gamma: float = 1.0, normalize: bool = True) -> np.ndarray:
    """gamma * sum_j s_j h_j over axis -2 of layers (..., L + 1, d)."""
    h = _standardize(layers) if normalize else layers
    return gamma * np.einsum("j,...jd->...d", s, h)


@torch.inference_mode()
def _layer_vectors(ckpt, word: str, sentence: str):
    """(tokens, positions, (L + 1, d) the word's vector at every layer, notices) for one sentence."""
    model, c, tok = ckpt.model, ckpt.config, ckpt.tokenizer
    if c.arch == "bert":
        read = bert_texts(tok, special_ids(tok), sentence, None, [])[0]
        enc = tok.encode(read)  # for the character offsets
        ids, _, _ = _bert_ids(ckpt, read, None, [])  # what encode_bert reads (cut to max_len)
        pos, notices = _word_positions(word, read, enc.offsets, len(ids) - 1)
        xs = bert_states(model, torch.tensor([ids]), torch.zeros(1, len(ids), dtype=torch.long))
        if model.final_norm is not None:
            xs[-1] = model.final_norm(xs[-1])  # the model's output vectors
        tokens = _pieces(tok, ids)
    else:
        read, enc, n, src, notices = _source_encoding(ckpt, sentence)
        pos, more = _word_positions(word, read, enc.offsets, n)
        notices = list(notices) + more
        xs, memory, _ = transformer_states(model, src)
        xs[-1] = memory  # the encoder's output (after its final LayerNorm in a pre-LN model)
        tokens = _pieces(tok, src[0].tolist())
    vecs = np.stack([x[0, pos].double().mean(0).numpy() for x in xs])  # (L + 1, d)
    return tokens, pos, vecs, notices


@dataclass(frozen=True)
class WordVector:
    model: str
    word: str
    sentence: str
    tokens: list[str]  # the sentence as the model reads it
    positions: list[int]  # the word's pieces
    layer: int  # 0 = the embeddings' output, n_layers = the model's output vectors
    n_layers: int
    vector: np.ndarray  # (d_model,) the word's vector at `layer`, the mean over its pieces
    notices: list[str]

    def to_json(self) -> dict:
        return {"model": self.model, "word": self.word, "sentence": self.sentence, "tokens": self.tokens,
                "positions": self.positions, "layer": self.layer, "n_layers": self.n_layers,
                "vector": [round(float(x), 6) for x in self.vector], "notices": list(self.notices)}


@torch.inference_mode()
def word_vector(word: str, sentence: str, name: str = "bert", layer: int | None = None,
                reg: Registry | None = None) -> WordVector:
    """`word`'s contextual vector in `sentence` at `layer` (default the last: the vectors the contextual view
    compares), its pieces averaged. A Korean word is found inside its eojeol (배 in 배가), and with a
    syllable-level model only its own pieces count, not the particle's."""
    reg = reg or registry()
    word, notices = clean_text(word, "word")
    sentence, more = clean_text(sentence)
    ckpt = reg.get(name, ("bert", "transformer"))
    tokens, pos, vecs, found = _layer_vectors(ckpt, word, sentence)
    n = len(vecs) - 1
    layer = n if layer is None else layer
    if isinstance(layer, bool) or not isinstance(layer, int) or not 0 <= layer <= n:
        raise UserError(f"layer must be a whole number from 0 (the embeddings) to {n}.", "layer_range", n=n)
    return WordVector(name, word, sentence, tokens, pos, layer, n, vecs[layer].astype(np.float32),
                      notices + more + list(found))


def elmo(word: str = "bank", sentences=None, weights=None, gamma: float = 1.0, normalize: bool = True,
         name: str | None = None, reg: Registry | None = None) -> ElmoResult:
    """ELMo_k for `word` in each of `sentences` (a list or one string, a sentence per line; left out, the
    examples of the contextual view: bank with BERT, 배 with bert-ko)."""
    reg = reg or registry()
    word, notices = clean_text(word, "word")
    example = EXAMPLES.get(word.lower())
    if sentences is None or (isinstance(sentences, str) and not sentences.strip()):
        if example is None:
            raise UserError(f"Give sentences that use '{word}', one per line.", "need_sentences", word=word)
        sentences = example[1]
    if isinstance(sentences, str):
        sentences = sentences.splitlines()
    sentences = [clean_text(s)[0] for s in sentences if isinstance(s, str) and s.strip()][:MAX_SENTENCES]
    if len(sentences) < 2:
        raise UserError(f"Give at least two sentences that use '{word}', to compare its senses.", "two_sentences",
                        word=word)
    name = name or (example[0] if example else "bert")
    ckpt = reg.get(name, ("bert", "transformer"))
    try:
        gamma = float(gamma)
    except (TypeError, ValueError):
        gamma = math.nan
    if not math.isfinite(gamma) or gamma <= 0:
        raise UserError("gamma must be a positive number.", "gamma_range")
    tokens, positions, layers = [], [], []
    for s in sentences:
        t, p, v, more = _layer_vectors(ckpt, word, s)
        tokens.append(t), positions.append(p), layers.append(v)
        notices += [n for n in more if n not in notices]
    layers = np.stack(layers)  # (N, L + 1, d)
    n_layers = layers.shape[1]
    s = mix_weights(weights, n_layers)
    mixed = elmo_mix(layers, s, gamma, normalize)
    h = _standardize(layers) if normalize else layers
    per_layer = np.stack([cosine_matrix(h[:, j]) for j in range(n_layers)])
    names = ["embeddings"] + [f"layer {j}" for j in range(1, n_layers)]
    return ElmoResult(name, word, sentences, tokens, positions, names, layers, s, gamma, bool(normalize), mixed,
                      cosine_matrix(mixed), per_layer, notices)
