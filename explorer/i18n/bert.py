"""Strings of the BERT tab (ui/tabs/bert.py):
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
    "bert.intro": {
        "en": "WordPiece tokens with their segment (A/B), fill-mask for any number of [MASK]s, next-sentence "
              "prediction, and every head's self-attention (A/B marked on the axes).",
        "ko": "WordPiece 토큰과 세그먼트(A/B), 여러 개의 [MASK]를 채우는 마스크 언어 모델, 다음 문장 예측(NSP), "
              "그리고 모든 헤드의 셀프 어텐션(축에 A/B 표시)을 봅니다. 이 BERT는 영어로 학습했으므로 예시도 "
              "영어입니다.",
    },
    "bert.model": {"en": "BERT model", "ko": "BERT 모델"},
    "bert.a": {"en": "Sentence A", "ko": "문장 A"},
    "bert.b": {"en": "Sentence B (optional for fill-mask)", "ko": "문장 B ([MASK] 채우기에는 선택)"},
    "bert.k": {"en": "top-k", "ko": "상위 k개"},
    "bert.fill": {"en": "Fill [MASK]", "ko": "[MASK] 채우기"},
    "bert.nsp": {"en": "Is B the next sentence?", "ko": "B가 다음 문장일까?"},
    "bert.enc": {"en": "Tokens and attention (no [MASK] needed)", "ko": "토큰과 어텐션 보기 ([MASK] 없이도)"},
    "bert.tokens": {"en": "WordPiece tokens", "ko": "WordPiece 토큰"},
    "bert.masks": {"en": "Fill-mask predictions", "ko": "[MASK] 예측"},
    "bert.topk": {"en": "Top-k per [MASK]", "ko": "[MASK]별 상위 k개"},
    "bert.nspfig": {"en": "Next-sentence prediction", "ko": "다음 문장 예측"},
    "bert.files": {"en": "Downloads: record JSON, tables and selected matrix CSV, figures HTML",
                   "ko": "다운로드: 기록 JSON, 표와 선택한 행렬 CSV, 그림 HTML"},
    "bert.hub_intro": {
        "en": "**Bring your own BERT.** Load a BERT checkpoint from the Hugging Face Hub (at most {cap} MB). It "
              "is converted into this repo's BERT and added to the model choices above.",
        "ko": "**내 BERT 불러오기.** Hugging Face 허브의 BERT 체크포인트(최대 {cap} MB)를 불러와 이 저장소의 BERT로 "
              "변환하고, 위의 모델 목록에 추가합니다.",
    },
    "bert.hub_repo": {"en": "Hub repository id (e.g. prajjwal1/bert-tiny)", "ko": "허브 저장소 ID (예: prajjwal1/bert-tiny)"},
    "bert.hub_load": {"en": "Load from the Hub", "ko": "허브에서 불러오기"},
    "bert.hub_loaded": {"en": "Loaded **{name}**: {layers} layers × {heads} heads; choose it above.",
                        "ko": "불러오기 완료: **{name}** ({layers}개 레이어 × {heads}개 헤드). 위의 모델 목록에서 고르세요."},
}
