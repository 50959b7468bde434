"""An interpolated Kneser-Ney trigram language model (Kneser & Ney 1995; the interpolated form of
Chen & Goodman 1999, "An Empirical Study of Smoothing Techniques for Language Modeling", eq. 17),
the baseline that GPT's held-out perplexity is read against, on the same tokens and the same split.

    P3(w | u v) = max(c(uvw) - D3, 0) / c(uv.) + D3 N1+(uv.) / c(uv.) * P2(w | v)
    P2(w | v)   = max(N1+(.vw) - D2, 0) / N1+(.v.) + D2 N1+(v.) / N1+(.v.) * P1(w)     (continuation counts)
    P1(w)       = max(N1+(.w) - D1, 0) / N1+(..) + D1 |{w: N1+(.w) > 0}| / N1+(..) * 1/V

with each order's discount D = n1 / (n1 + 2 n2) from its counts of counts (Ney et al. 1994). An
unseen context falls through to the next order whole. Counting is numpy over int64 keys
((u V + v) V + w), so ten million tokens take seconds.
"""
from __future__ import annotations

import numpy as np


def _discount(counts: np.ndarray) -> float:
    n1, n2 = int((counts == 1).sum()), int((counts == 2).sum())
    return n1 / (n1 + 2 * n2) if n1 + n2 else 0.5


def _lookup(keys: np.ndarray, values: np.ndarray, query: np.ndarray) -> np.ndarray:
    """values[i] where keys[i] == query (keys sorted and unique), else 0."""
    i = np.searchsorted(keys, query).clip(max=len(keys) - 1)
    return np.where(keys[i] == query, values[i], 0)


class KneserNeyTrigram:
    def __init__(self, stream: np.ndarray, vocab_size: int):
        """stream: token ids of the training text (int); trigrams are read across it as one sequence."""
        V = self.V = np.int64(vocab_size)
        s = np.asarray(stream, dtype=np.int64)
        tri = (s[:-2] * V + s[1:-1]) * V + s[2:]
        self.k3, self.c3 = np.unique(tri, return_counts=True)  # c(uvw)
        self.D3 = _discount(self.c3)
        uv = self.k3 // V
        self.k_uv, first = np.unique(uv, return_index=True)
        self.c_uv = np.add.reduceat(self.c3, first)  # c(uv.)
        self.n_uv = np.diff(np.append(first, len(uv)))  # N1+(uv.)
        vw = self.k3 % (V * V)
        self.k2, self.cc2 = np.unique(vw, return_counts=True)  # N1+(.vw): distinct u before vw
        self.D2 = _discount(self.cc2)
        v = self.k2 // V
        self.k_v, first = np.unique(v, return_index=True)
        self.cc_v = np.add.reduceat(self.cc2, first)  # N1+(.v.)
        self.n_v = np.diff(np.append(first, len(v)))  # N1+(v.)
        self.k1, self.cc1 = np.unique(self.k2 % V, return_counts=True)  # N1+(.w): distinct v before w
        self.D1 = _discount(self.cc1)
        self.cc1_total = self.cc1.sum()  # N1+(..)

    def prob(self, u: np.ndarray, v: np.ndarray, w: np.ndarray) -> np.ndarray:
        """P(w | u v) for arrays of ids (float64, every value > 0)."""
        V = self.V
        u, v, w = (np.asarray(a, dtype=np.int64) for a in (u, v, w))
        cc1 = _lookup(self.k1, self.cc1, w)
        p1 = (np.maximum(cc1 - self.D1, 0) + self.D1 * len(self.k1) / V) / self.cc1_total
        cc2 = _lookup(self.k2, self.cc2, v * V + w)
        cc_v, n_v = _lookup(self.k_v, self.cc_v, v), _lookup(self.k_v, self.n_v, v)
        safe = np.maximum(cc_v, 1)
        p2 = np.where(cc_v > 0, (np.maximum(cc2 - self.D2, 0) + self.D2 * n_v * p1) / safe, p1)
        c3 = _lookup(self.k3, self.c3, (u * V + v) * V + w)
        c_uv, n_uv = _lookup(self.k_uv, self.c_uv, u * V + v), _lookup(self.k_uv, self.n_uv, u * V + v)
        safe = np.maximum(c_uv, 1)
        return np.where(c_uv > 0, (np.maximum(c3 - self.D3, 0) + self.D3 * n_uv * p2) / safe, p2)
