"""Strings of BLEU by length (ui/tabs/length.py):
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
    "len.intro": {
        "en": "Test BLEU by source-sentence length, the figure of Bahdanau et al. 2015 (fig. 2): without "
              "attention, one fixed-size vector holds long sentences badly. Read from each model's metrics.json "
              "(no model is run).",
        "ko": "소스 문장 길이별 테스트 BLEU로, Bahdanau et al. 2015의 그림 2에 해당합니다. 어텐션이 없으면 고정 "
              "크기 벡터 하나에 긴 문장을 담기 어렵습니다. 각 모델의 metrics.json에서 읽어 오며 모델은 실행하지 "
              "않습니다.",
    },
    "len.refresh": {"en": "Reload", "ko": "다시 읽기"},
    "models.status_ok": {"en": "loaded", "ko": "불러옴"},
    "models.status_error": {"en": "not loaded", "ko": "불러오지 못함"},
    "metric.split_valid": {"en": "validation", "ko": "검증"},
    "metric.split_test": {"en": "test", "ko": "테스트"},
    "metric.valid_bleu_greedy": {"en": "BLEU (greedy)", "ko": "BLEU(그리디)"},
    "metric.valid_chrf_greedy": {"en": "chrF (greedy)", "ko": "chrF(그리디)"},
    "metric.bleu": {"en": "BLEU", "ko": "BLEU"},
    "metric.chrf": {"en": "chrF", "ko": "chrF"},
    "metric.fill_mask_top1_wiki": {"en": "fill-mask top-1 on Wikipedia", "ko": "위키백과 [MASK] 채우기 top-1"},
    "metric.fill_mask_top1_short": {"en": "fill-mask top-1 on short sentences", "ko": "짧은 문장 [MASK] 채우기 top-1"},
    "metric.nsp_acc": {"en": "NSP accuracy", "ko": "NSP 정확도"},
    "metric.valid_ppl_token": {"en": "perplexity per token", "ko": "토큰당 퍼플렉서티"},
    "metric.ppl_token": {"en": "perplexity per token", "ko": "토큰당 퍼플렉서티"},
    "metric.ppl_word": {"en": "per word", "ko": "단어당"},
    "metric.trigram_ppl_token": {"en": "Kneser-Ney trigram per token", "ko": "Kneser-Ney 트라이그램 토큰당"},
    "metric.trigram_ppl_word": {"en": "per word", "ko": "단어당"},
    "metric.mlm_top1_mixed": {"en": "MLM top-1 on sentence pairs (mixed corpora)",
                              "ko": "문장 쌍(여러 말뭉치 혼합)의 MLM top-1"},
    "len.family_0": {"en": "RNN, no attention", "ko": "RNN, 어텐션 없음"},
    "len.family_1": {"en": "RNN + attention", "ko": "RNN + 어텐션"},
    "len.family_2": {"en": "Transformer", "ko": "트랜스포머"},
    "len.msg_models": {"en": "Test BLEU by source length (words) for {n} model(s).",
                       "ko": "모델 {n}개의 소스 길이(단어 수)별 테스트 BLEU."},
    "len.msg_empty": {"en": "No translation model has test.bleu_by_length in its metrics.json yet (run "
                            "`python -m models.evaluate assets/<model> --write`).",
                      "ko": "metrics.json에 test.bleu_by_length가 있는 번역 모델이 아직 없습니다"
                            "(`python -m models.evaluate assets/<model> --write`를 실행하세요)."},
    "len.msg_lacking": {"en": "Not evaluated yet: {names}.", "ko": "아직 평가하지 않은 모델: {names}."},
    "len.msg_broken": {"en": "Unreadable metrics: {names}.", "ko": "읽을 수 없는 metrics: {names}."},
    "len.figure": {"en": "BLEU by source length", "ko": "소스 길이별 BLEU"},
    "len.table": {"en": "BLEU per length bucket (words)", "ko": "길이 구간(단어 수)별 BLEU"},
}
