"""The Models tab's composition: one row per shipped checkpoint (loaded or not), its architecture, size,
training cost and held-out metrics in words, from the registry's describe()."""
from __future__ import annotations

import pandas as pd

from explorer import i18n


METRIC_NAMES = ("valid_bleu_greedy", "valid_chrf_greedy", "bleu", "chrf", "fill_mask_top1_wiki",
                "fill_mask_top1_short", "nsp_acc", "mlm_top1_mixed", "valid_ppl_token", "ppl_token", "ppl_word",
                "trigram_ppl_token", "trigram_ppl_word")  # shown in this order, named by i18n


def metrics_summary(d: dict, lang: str = "en") -> str:
    """'validation: BLEU (greedy) 50.6, chrF (greedy) 66.47 · test: BLEU 48.32, ...': the held-out metrics
    of a describe() row in words (training diagnostics such as head_top_weight_max are left out)."""
    parts = []
    for split in ("valid", "test"):
        m = d.get(split) or {}
        kv = [f"{i18n.t('metric.' + k, lang)} {m[k]}" for k in METRIC_NAMES if isinstance(m.get(k), (int, float))]
        if kv:
            parts.append(f"{i18n.t('metric.split_' + split, lang)}: " + ", ".join(kv))
    return " · ".join(parts)


def models_table(reg, lang: str = "en") -> pd.DataFrame:
    """The Models tab: one row per checkpoint (loaded or not), its headers in `lang`."""
    rows = []
    for d in reg.describe():
        arch = d.get("arch", "") + (" + QK-LayerNorm" if d.get("qk_norm") else "")
        n = d.get("parameters")
        rows.append({"model": d["name"], "status": i18n.t(f"models.status_{d['status']}", lang),
                     "architecture": arch, "parameters": f"{n / 1e6:.1f} M" if isinstance(n, int) else "",
                     "trained on (last stage)": d.get("device") or "",
                     "train seconds (all stages)": d.get("total_wall_seconds"), "weights on disk": d.get("storage"),
                     "metrics / error": d.get("error") or metrics_summary(d, lang)})
    return i18n.localized(pd.DataFrame(rows), lang)
