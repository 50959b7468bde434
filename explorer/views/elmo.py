"""The "ELMo: mixing layers" tab's composition: ELMo_k = gamma sum_j s_j h_k,j (Peters et al. 2018, eq. 1) on this
repo's encoders (explorer.compute.elmo), the weights and the cosine between two senses, in the page's language."""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from explorer.compute import elmo
from explorer.figures import inside as fi
from explorer import i18n
from explorer.compute.inference import UserError
from explorer.compute.lab import EXAMPLES  # noqa: F401 (the tab's default sentences: word -> (model, sentences))
KOREAN_EXAMPLE = "배"  # the Korean interface's first screen: belly, boat and pear, in EXAMPLES' model (bert-ko)
from explorer.views import Downloads, notices_md, to_download

LAYER_COLUMNS = ["layer", "weight s_j", "cosine 1·2"]


@dataclass(frozen=True)
class ElmoView:
    summary: str
    figure: go.Figure
    vectors: go.Figure  # the word's vector at every layer in sentence 1, and ELMo_k
    table: pd.DataFrame
    files: Downloads
    record: elmo.ElmoResult


def parse_weights(text) -> list[float] | None:
    """'1, 1, 2' (commas, spaces or semicolons) -> [1.0, 1.0, 2.0]; blank -> None (uniform)."""
    if text is None or (isinstance(text, str) and not text.strip()):
        return None
    if not isinstance(text, str):
        return list(text)
    try:
        return [float(x) for x in re.split(r"[,;\s]+", text.strip()) if x]
    except ValueError:
        raise UserError("Layer weights must be numbers.", "weights_not_numbers") from None


def elmo_view(word: str, sentences: str = "", weights: str = "", gamma=1.0, normalize: bool = True,
              model: str | None = None, lang: str = "en") -> ElmoView:
    r = elmo.elmo(word, sentences or None, parse_weights(weights), gamma, normalize, model or None)
    return elmo_redraw(r, lang)


def elmo_redraw(r: elmo.ElmoResult, lang: str = "en") -> ElmoView:
    """The view of a mix already computed, in `lang` (the language switch: no model call)."""
    t = lambda key_, **f: i18n.t(key_, lang, **f)  # noqa: E731
    names = [t("el.embeddings")] + [t("el.layer", j=j) for j in range(1, len(r.layer_names))]
    per_layer = r.layer_similarity[:, 0, 1]
    mix = float(r.similarity[0, 1])
    fig = fi.elmo_layers(names, r.s, per_layer, mix,
                         [t("el.s"), t("el.cos_layer"), t("el.cos_mix"), t("el.figure", word=r.word, model=r.model)])
    h = elmo.elmo_mix(r.layers[0][:, None, :], np.ones(1), 1.0, r.normalized)  # (L + 1, d) as mixed
    vectors = fi.vector_rows(list(h) + [r.mixed[0]], names + ["ELMo = γ Σ_j s_j h_j"],
                             t("el.vectors", word=r.word, sentence=r.sentences[0][:60]), t("il.dimension"),
                             t("il.norm"))
    lo, hi = int(np.argmin(per_layer)), int(np.argmax(per_layer))
    summary = t("el.summary", mix=mix, lo=float(per_layer[lo]), lo_layer=names[lo], hi=float(per_layer[hi]),
                hi_layer=names[hi])
    table = pd.DataFrame({"layer": names, "weight s_j": r.s, "cosine 1·2": per_layer})
    files = to_download(f"{r.model}-elmo", r, {"layers": table}, {"elmo": fig, "vectors": vectors}, lang)
    return ElmoView(notices_md(r.notices, [summary], lang), fig, vectors, i18n.localized(table, lang), files, r)
