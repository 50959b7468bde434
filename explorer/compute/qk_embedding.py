"""Queries and keys of many sentences in one plane, after AttentionViz (Yeh et al. 2023, "AttentionViz: A Global
View of Transformer Attention", section 4.1): one head's query and key vectors of a few thousand held-out tokens,
projected by one PCA fitted to both, with a typed sentence's own queries and keys projected into the same plane.

Before the PCA the keys are translated so that their mean is the queries' mean, and both are scaled so that their
mean norms are equal (AttentionViz's "key translation" and "norm scaling"). Neither changes the head's attention:
q · (k + c) = q · k + q · c adds the same number to every score of one query, which the softmax ignores, and
(s q) · (k / s) = q · k. Without them the queries and the keys of a head lie in two separate clouds, and nearness
in the plane says nothing about which keys a query picks.

The many-sentence part is precomputed (`scripts/qk_embedding.py` writes assets/qk_embedding/<model>.qk, safetensors,
and .json, one basis and one set of points per layer and head); the app only loads it and projects the typed
sentence with the stored basis (`Basis.project`), so a view is a model run on one sentence plus a matrix product.
The vectors are the ones the head scores: `MultiHeadAttention.heads` of the layer's input (LayerNorm'ed first in a
pre-LN model), after QK-LayerNorm where the model has it, as explorer.compute.lab.query_key reads them.
"""
from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from explorer.compute.inference import ASSETS, Registry, bert_tokens, registry
from explorer.compute.syntax import conllu_rows

FOLDER = ASSETS / "qk_embedding"
SPECIAL = "special"  # the part-of-speech tag of [CLS] and [SEP], which are no treebank word


def asset_paths(model: str, folder: Path = FOLDER) -> tuple[Path, Path]:
    """The tensors (safetensors format) and the metadata (JSON) of `model`'s embedding. The tensors' file is named
    .qk, not .safetensors: the registry takes a folder of assets/ holding *.safetensors for a checkpoint."""
    return folder / f"{model}.qk", folder / f"{model}.json"


# ----------------------------------------------------------------------------- the projection


@dataclass(frozen=True)
class Basis:
    """One head's plane: keys moved by `key_shift` and divided by `scale`, queries multiplied by `scale`, then
    centred on `mean` and projected on the two rows of `components`."""
    mean: np.ndarray  # (d_k,) the mean of the normalised queries and keys together
    components: np.ndarray  # (2, d_k) the first two principal directions, unit rows
    key_shift: np.ndarray  # (d_k,) mean(q) - mean(k): added to every key
    scale: float  # sqrt(mean |k + shift| / mean |q|): queries times it, keys divided by it

    def project(self, q: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(n, 2) plane coordinates of queries `q` (n, d_k) and keys `k` (m, d_k) -> (m, 2)."""
        qn = np.asarray(q, np.float64) * self.scale
        kn = (np.asarray(k, np.float64) + self.key_shift) / self.scale
        return (qn - self.mean) @ self.components.T, (kn - self.mean) @ self.components.T


def fit_basis(q: np.ndarray, k: np.ndarray) -> tuple[Basis, np.ndarray]:
    """The basis of queries `q` (n, d_k) and keys `k` (n, d_k) of one head, and the share of the normalised
    vectors' variance along each of its two directions. PCA by SVD of the centred data; each direction's sign is
    fixed (its largest component positive) so that the same data always gives the same picture."""
    q, k = np.asarray(q, np.float64), np.asarray(k, np.float64)
    shift = q.mean(0) - k.mean(0)
    scale = float(np.sqrt(np.linalg.norm(k + shift, axis=1).mean() / np.linalg.norm(q, axis=1).mean()))
    both = np.concatenate([q * scale, (k + shift) / scale])  # (2n, d_k)
    mean = both.mean(0)
    _, s, vt = np.linalg.svd(both - mean, full_matrices=False)
    comps = vt[:2] * np.sign(vt[:2][np.arange(2), np.abs(vt[:2]).argmax(1)])[:, None]
    explained = s[:2] ** 2 / (s ** 2).sum()
    return Basis(mean, comps, shift, scale), explained


# ----------------------------------------------------------------------------- the model's queries and keys


def layers_qk(ckpt, ids, segments, layers=None) -> dict:
    """{layer: (q, k)} of a BERT checkpoint's heads for a batch of token ids (B, T) (torch tensors; 0-based layers,
    all by default), each (B, n_heads, T, d_k) as numpy: the model's own modules, layer by layer, as
    explorer.compute.lab.query_key walks them (tests/explorer/test_qk_embedding.py pins the two together)."""
    import torch
    model, c = ckpt.model, ckpt.config
    want = set(range(c.n_layers) if layers is None else layers)
    key_mask = (ids != c.pad_id)[:, None, None, :]  # (B, 1, 1, T), as Bert.forward builds it
    out = {}
    with torch.inference_mode():
        x, _ = model.embeddings(ids, segments)  # (B, T, d_model)
        for i, block in enumerate(model.layers[:max(want) + 1]):
            if i in want:
                h = block.attn_norm(x) if block.pre_ln else x  # what the attention reads
                q, k, _ = block.attn.heads(h, h)  # (B, nh, T, d_k), after QK-LayerNorm if the model has it
                out[i] = (q.double().numpy(), k.double().numpy())
            x, _ = block(x, key_mask, False)
    return out


@dataclass(frozen=True)
class TypedProjection:
    """The typed sentence's queries and keys in one head's plane."""
    model: str
    layer: int  # 0-based
    head: int  # 0-based
    tokens: list[str]
    q_xy: np.ndarray  # (T, 2)
    k_xy: np.ndarray  # (T, 2)


def sentence_qk(text: str, layer: int, head: int, model: str = "bert", reg: Registry | None = None):
    """(tokens, q (T, d_k), k (T, d_k)) of one head of one layer (0-based) for a typed sentence: the tokens
    encode_bert shows (the tokenizer alone), segment A up to the first [SEP] and B after it, as BERT reads them."""
    import torch
    reg = reg or registry()
    ckpt = reg.get(model, "bert")
    tokens = bert_tokens(text, name=model, reg=reg)
    first_sep = tokens.index("[SEP]") if "[SEP]" in tokens else len(tokens)
    ids = torch.tensor([[ckpt.tokenizer.token_to_id(t) for t in tokens]])  # (1, T)
    segments = torch.tensor([[0 if i <= first_sep else 1 for i in range(len(tokens))]])  # (1, T)
    q, k = layers_qk(ckpt, ids, segments, [layer])[layer]
    return tokens, q[0, head], k[0, head]


def project_sentence(text: str, layer: int, head: int, model: str = "bert", reg: Registry | None = None,
                     embedding: "Embedding | None" = None) -> TypedProjection | None:
    """The typed sentence in the plane of `model`'s precomputed embedding (0-based layer and head), or None when
    the model has none (a custom BERT)."""
    e = embedding or load(model)
    if e is None:
        return None
    tokens, q, k = sentence_qk(text, layer, head, model, reg)
    q_xy, k_xy = e.basis(layer, head).project(q, k)
    return TypedProjection(model, layer, head, tokens, q_xy, k_xy)


# ----------------------------------------------------------------------------- the precomputed embedding


@dataclass(frozen=True)
class Embedding:
    """assets/qk_embedding/<model>.*: every head's plane and points for the same held-out tokens."""
    model: str
    coords: np.ndarray  # (L, H, 2, N, 2) float16: [.., 0] the N queries, [.., 1] the N keys, in the plane
    mean: np.ndarray  # (L, H, d_k)
    components: np.ndarray  # (L, H, 2, d_k)
    key_shift: np.ndarray  # (L, H, d_k)
    scale: np.ndarray  # (L, H)
    explained: np.ndarray  # (L, H, 2) share of variance along each direction
    position: np.ndarray  # (N,) the token's position in its sentence ([CLS] = 0)
    sentence: np.ndarray  # (N,) which sentence
    tag: np.ndarray  # (N,) index into `tags`
    tokens: list[str]  # (N,)
    tags: list[str]  # the part-of-speech names (UD UPOS, and SPECIAL)
    meta: dict  # the command, the data file and its hash, the counts

    def basis(self, layer: int, head: int) -> Basis:
        return Basis(self.mean[layer, head].astype(np.float64), self.components[layer, head].astype(np.float64),
                     self.key_shift[layer, head].astype(np.float64), float(self.scale[layer, head]))

    @property
    def shape(self) -> tuple[int, int]:
        return self.coords.shape[0], self.coords.shape[1]


def load(model: str, folder: Path = FOLDER) -> Embedding | None:
    """`model`'s embedding, read once (a few MB); None when there is none for this model."""
    tensors, meta = asset_paths(model, folder)
    if not (tensors.is_file() and meta.is_file()):
        return None
    return _load(str(tensors), str(meta))


@functools.lru_cache(maxsize=4)
def _load(tensors: str, meta: str) -> Embedding:
    from safetensors.numpy import load_file
    t = load_file(tensors)
    m = json.loads(Path(meta).read_text(encoding="utf-8"))
    return Embedding(m["model"], t["coords"], t["mean"], t["components"], t["key_shift"], t["scale"],
                     t["explained"], t["position"].astype(np.int64), t["sentence"].astype(np.int64),
                     t["tag"].astype(np.int64), m["tokens"], m["tags"], m)


# ----------------------------------------------------------------------------- making the asset


def read_upos(path) -> list[tuple[list[str], list[str]]]:
    """(words, UPOS tags) of every sentence of a CoNLL-U file, its syntactic words as explorer.compute.syntax reads
    them (`conllu_rows`)."""
    return [([c[1] for c in rows], [c[3] for c in rows]) for rows in conllu_rows(path)]


def pick(sentences: list, tokens: int, min_words: int = 5, max_words: int = 40) -> list[int]:
    """Indices of sentences spread evenly over the file (min_words..max_words words) whose pieces reach about
    `tokens` in all, assuming ~1.3 pieces a word plus [CLS] and [SEP]; deterministic."""
    ok = [i for i, (w, _) in enumerate(sentences) if min_words <= len(w) <= max_words]
    mean = np.mean([len(sentences[i][0]) * 1.3 + 2 for i in ok])
    n = min(len(ok), int(np.ceil(tokens / mean)))
    return [ok[int(j)] for j in np.linspace(0, len(ok) - 1, n).round().astype(int)]


def build(sentences: list, model: str = "bert", reg: Registry | None = None, batch: int = 32) -> tuple[dict, dict]:
    """The tensors and metadata of `model`'s embedding over `sentences` ((words, tags) pairs): every piece of every
    sentence as one query and one key of every head; a piece has its word's tag, [CLS] and [SEP] have SPECIAL."""
    import torch
    reg = reg or registry()
    ckpt = reg.get(model, "bert")
    tok, c = ckpt.tokenizer, ckpt.config
    rows = []  # (ids, tags, tokens) per sentence
    for words, tags in sentences:
        enc = tok.encode(words, is_pretokenized=True)
        if len(enc.ids) > c.max_len:
            continue
        rows.append((list(enc.ids), [SPECIAL if w is None else tags[w] for w in enc.word_ids], list(enc.tokens)))
    L, H = c.n_layers, c.n_heads
    qs, ks = [[] for _ in range(L)], [[] for _ in range(L)]  # per layer: (H, n, d_k) blocks
    for b in range(0, len(rows), batch):
        chunk = rows[b:b + batch]
        T = max(len(r[0]) for r in chunk)
        ids = torch.tensor([r[0] + [c.pad_id] * (T - len(r[0])) for r in chunk])  # (B, T)
        out = layers_qk(ckpt, ids, torch.zeros_like(ids))
        for l, (q, k) in out.items():  # (B, nh, T, d_k)
            for i, r in enumerate(chunk):
                qs[l].append(q[i, :, :len(r[0])])
                ks[l].append(k[i, :, :len(r[0])])
    names = sorted({t for r in rows for t in r[1]} - {SPECIAL}) + [SPECIAL]
    N = sum(len(r[0]) for r in rows)
    d = c.d_model // H
    coords = np.zeros((L, H, 2, N, 2), np.float16)
    mean, comps = np.zeros((L, H, d), np.float32), np.zeros((L, H, 2, d), np.float32)
    shift, scale, explained = np.zeros((L, H, d), np.float32), np.zeros((L, H), np.float32), np.zeros((L, H, 2), np.float32)
    for l in range(L):
        q_all, k_all = np.concatenate(qs[l], axis=1), np.concatenate(ks[l], axis=1)  # (H, N, d_k)
        for h in range(H):
            basis, ex = fit_basis(q_all[h], k_all[h])
            mean[l, h], comps[l, h], shift[l, h], scale[l, h], explained[l, h] = (
                basis.mean, basis.components, basis.key_shift, basis.scale, ex)
            q_xy, k_xy = basis.project(q_all[h], k_all[h])
            coords[l, h, 0], coords[l, h, 1] = q_xy, k_xy
    tensors = {"coords": coords, "mean": mean, "components": comps, "key_shift": shift, "scale": scale,
               "explained": explained,
               "position": np.concatenate([np.arange(len(r[0])) for r in rows]).astype(np.int16),
               "sentence": np.concatenate([np.full(len(r[0]), i) for i, r in enumerate(rows)]).astype(np.int16),
               "tag": np.array([names.index(t) for r in rows for t in r[1]], np.uint8)}
    meta = {"model": model, "layers": L, "heads": H, "d_k": d, "sentences": len(rows), "points": N,
            "tags": names, "tokens": [t for r in rows for t in r[2]]}
    return tensors, meta
