"""Strings of the tabs' and groups' labels:
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
    "tab.seq2seq": {"en": "seq2seq + attention", "ko": "seq2seq + 어텐션"},
    "tab.scores": {"en": "Score functions", "ko": "점수(유사도) 함수 비교"},
    "tab.transformer": {"en": "Transformer", "ko": "트랜스포머"},
    "tab.beam": {"en": "Beam search", "ko": "빔 서치"},
    "tab.bert": {"en": "BERT", "ko": "BERT"},
    "tab.inside": {"en": "Inside attention", "ko": "어텐션 들여다보기"},
    "tab.rollout": {"en": "Rollout & entropy", "ko": "롤아웃과 엔트로피"},
    "tab.qk": {"en": "Query · key", "ko": "쿼리 · 키"},
    "tab.contextual": {"en": "Contextual vs static", "ko": "문맥 임베딩 vs 정적 임베딩"},
    "tab.positional": {"en": "Positional encoding", "ko": "포지셔널 인코딩"},
    "tab.training": {"en": "Training", "ko": "학습 과정"},
    "tab.snapshots": {"en": "Attention over training", "ko": "학습에 따른 어텐션 변화"},
    "tab.live": {"en": "Train it yourself, live", "ko": "직접 학습시키기 (실시간)"},
    "tab.length": {"en": "BLEU by length", "ko": "문장 길이별 BLEU"},
    "tab.models": {"en": "Models", "ko": "모델 목록"},
    "tab.enc": {"en": "Encoder self-attention", "ko": "인코더 셀프 어텐션"},
    "tab.dec": {"en": "Decoder masked self-attention", "ko": "디코더 마스크드 셀프 어텐션"},
    "tab.cross": {"en": "Encoder-Decoder Attention", "ko": "인코더-디코더 어텐션"},
}
