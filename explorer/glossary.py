"""The course decks' words: each term in Korean and English, and the interface strings (explorer.i18n keys)
that show it, as data.

The five Korean lecture decks this app teaches from name things in one way; the interface follows them, so a
student can move between a slide and a tab without a second vocabulary. Each `Term` says where the app shows it
(its i18n keys: the Korean string holds `ko`, the English one `en`), and `AVOID` lists the variants no
interface string may use (the decks never do). tests/explorer/test_glossary.py holds every string of explorer/i18n/ to both,
and README.md to AVOID; docs/glossary.md is written from here:

    python -m explorer.glossary            # rewrites docs/glossary.md
    python -m explorer.glossary --check    # exit 1 when docs/glossary.md is not what this module writes

Luong's steps follow deck 000 (Attention Score, Attention Distribution, Attention Value, Prediction Vector, in
that order), whose a_t is the context vector (the paper's c_t) and alpha_t the weights.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "glossary.md"


@dataclass(frozen=True)
class Term:
    ko: str  # the decks' Korean term, as every Korean string that names it spells it
    en: str  # the English term (matched case-insensitively: a label may start a sentence)
    keys: tuple[str, ...]  # explorer.i18n keys whose strings show the term, in both languages
    source: str = "the decks"  # which deck or slide gives the term
    note: str = ""  # what the term stands for in the app, where a formula helps


TERMS: tuple[Term, ...] = (
    # Luong's four steps, deck 000
    Term("어텐션 스코어", "Attention Score", ("lu.panel_scores", "lu.intro"), "deck 000, step 1",
         "e_t = score(h_t, h_i)"),
    Term("어텐션 분포", "Attention Distribution", ("lu.panel_weights", "lu.intro"), "deck 000, step 2",
         "alpha_t = softmax(e_t)"),
    Term("어텐션 값", "Attention Value", ("lu.row_context", "lu.intro", "s2s.step_context"), "deck 000, step 3",
         "a_t = sum_i alpha_t,i h_i"),
    Term("예측 벡터", "Prediction Vector", ("lu.row_attentional", "lu.intro"), "deck 000, step 4",
         "h~_t = tanh(W_c [a_t; h_t]), then softmax(W_s h~_t)"),
    Term("컨텍스트 벡터", "context vector", ("lu.row_context", "lu.intro", "s2s.step_context"), "deck 000",
         "a_t, the Attention Value"),
    Term("정렬", "alignment", ("s2s.align", "s2s.align_title", "sf.figure", "live.align"), "deck 000",
         "the target × source attention map"),
    # the Transformer deck
    Term("셀프 어텐션", "self-attention", ("tab.enc", "tr.title_enc", "il.short_self"), "Transformer deck"),
    Term("멀티 헤드 어텐션", "Multi-Head Attention", ("il.kind_self", "il.intro", "tr.intro"), "Transformer deck"),
    Term("마스크드 멀티 헤드 어텐션", "Masked Multi-Head Attention", ("il.kind_masked_self", "tr.intro"),
         "Transformer deck"),
    Term("마스크드 셀프 어텐션", "masked self-attention", ("tab.dec", "tr.title_dec", "il.short_masked_self",
                                                 "gpt.title"), "Transformer deck"),
    Term("인코더-디코더 어텐션", "Encoder-Decoder Attention", ("tab.cross", "tr.title_cross", "il.kind_cross",
                                                     "il.short_cross", "ch.intro", "tr.intro"),
         "Transformer deck"),
    Term("어텐션 스코어 행렬", "Attention Score Matrix", ("tr.scores_title", "gpt.scores", "gpt.scores_title"),
         "Transformer deck", "QKᵀ/√d_k before the softmax, −∞ where the mask hides a key"),
    Term("포지션 와이즈 FFN", "Position-wise FFN", ("il.intro", "il.plot_ffn", "il.fig_ffn", "il.row_ffn_out"),
         "Transformer deck", "W1 → activation → W2, the same at every position"),
    Term("포지셔널 인코딩", "Positional Encoding", ("tab.positional", "bi.intro", "bi.sinusoid"),
         "Transformer deck"),
    Term("쿼리", "Query", ("il.intro", "tab.qk"), "Transformer deck", "Q"),
    Term("키", "Key", ("il.intro", "tab.qk"), "Transformer deck", "K"),
    Term("값", "Value", ("il.intro",), "Transformer deck", "V"),
    # the fine-tuning (BERT) deck
    Term("감정 분석", "Sentiment analysis", ("ft.task_sentiment",), "BERT deck"),
    Term("자연어 추론", "NLI", ("ft.task_nli",), "BERT deck", "natural language inference"),
    Term("전제", "premise", ("ft.text", "ft.explain_nli", "what.premise"), "BERT deck"),
    Term("가설", "hypothesis", ("ft.text_b", "ft.explain_nli", "what.hypothesis", "err.no_hypothesis"),
         "BERT deck", "the NLI hypothesis"),
    Term("함의", "entailment", ("label.entailment", "ft.explain_nli"), "BERT deck", "an NLI label"),
    Term("중립", "neutral", ("label.neutral", "ft.explain_nli"), "BERT deck", "an NLI label"),
    Term("모순", "contradiction", ("label.contradiction", "ft.explain_nli"), "BERT deck", "an NLI label"),
)

# Variants no interface string may use, in either language (matched exactly, case included), and the word to use.
AVOID: dict[str, str] = {
    "감성 분석": "감정 분석",
    "검증 문장": "가설",
    "마스크된": "마스크드",
    "마스크됨": "마스크드",
    "마스크되어": "마스크드",
    "얼라인먼트": "정렬",
    "교차 어텐션": "인코더-디코더 어텐션",
    "Cross attention": "Encoder-Decoder Attention",
    "Cross-attention": "Encoder-Decoder Attention",
    "Masked scores": "Attention Score Matrix (masked)",
    "masked scores": "Attention Score Matrix (masked)",
}


def markdown() -> str:
    """docs/glossary.md: one table row per term, then the variants to avoid."""
    lines = ["# Glossary: the decks' words", "",
             "Generated by `python -m explorer.glossary` from `explorer/glossary.py`; "
             "`tests/explorer/test_glossary.py` checks that every interface string in `explorer/i18n/` follows it.",
             "", "| 한국어 | English | what | from | shown in (i18n keys) |", "| --- | --- | --- | --- | --- |"]
    for term in TERMS:
        keys = ", ".join(f"`{k}`" for k in term.keys)
        lines.append(f"| {term.ko} | {term.en} | {term.note} | {term.source} | {keys} |")
    lines += ["", "## Not used", "", "No interface string says these; the glossary's word instead:", "",
              "| avoid | use |", "| --- | --- |"]
    lines += [f"| {bad} | {good} |" for bad, good in AVOID.items()]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when docs/glossary.md is out of date")
    args = ap.parse_args(argv)
    text = markdown()
    if args.check:
        same = DOC.is_file() and DOC.read_text(encoding="utf-8") == text
        print("docs/glossary.md is up to date" if same else "docs/glossary.md is out of date: "
              "run python -m explorer.glossary")
        return 0 if same else 1
    DOC.write_text(text, encoding="utf-8")
    print(f"wrote {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
