"""Strings of BERT's inputs and the 80/10/10 rule (ui/tabs/bert_inputs.py):
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
    # BERT's inputs and the 80/10/10 rule (explorer/compute/bert_inputs.py)
    "bi.intro": {
        "en": "BERT's input, as the paper's figure 2 draws it: token + segment + position embeddings, summed, then "
              "LayerNorm. BERT learns its position embeddings; the Transformer's Positional Encoding is a fixed "
              "sinusoidal table. The cosine similarity between positions shows what each table encodes.",
        "ko": "논문 그림 2처럼 BERT의 입력을 봅니다: 토큰 + 세그먼트 + 위치 임베딩을 더한 뒤 LayerNorm. BERT는 위치 "
              "임베딩을 학습하고, 트랜스포머의 포지셔널 인코딩 (Positional Encoding)은 고정된 사인/코사인 표입니다. "
              "위치 사이의 코사인 유사도로 두 표가 무엇을 담는지 봅니다.",
    },
    "bi.text_b": {"en": "Sentence B (optional)", "ko": "문장 B (선택)"},
    "bi.positions": {"en": "Positions in the tables", "ko": "표에 그릴 위치 수"},
    "bi.run": {"en": "Show the input", "ko": "입력 보기"},
    "bi.fig_sum": {"en": "Input = token + segment + position embeddings → LayerNorm",
                   "ko": "입력 = 토큰 + 세그먼트 + 위치 임베딩 → LayerNorm"},
    "bi.tok": {"en": "token embedding", "ko": "토큰 임베딩"},
    "bi.seg": {"en": "segment embedding", "ko": "세그먼트 임베딩"},
    "bi.pos": {"en": "position embedding (learned)", "ko": "위치 임베딩 (학습됨)"},
    "bi.sum": {"en": "sum", "ko": "합"},
    "bi.norm": {"en": "LayerNorm(sum): the first layer's input", "ko": "LayerNorm(합): 첫 레이어의 입력"},
    "bi.fig_pos": {"en": "Cosine similarity between positions", "ko": "위치 사이의 코사인 유사도"},
    "bi.learned": {"en": "BERT: learned position embeddings", "ko": "BERT: 학습된 위치 임베딩"},
    "bi.sinusoid": {"en": "Transformer: sinusoidal Positional Encoding", "ko": "트랜스포머: 사인/코사인 포지셔널 인코딩"},
    "bi.position": {"en": "position", "ko": "위치"},
    "bi.sizes": {"en": "Sizes: {rows}.", "ko": "크기: {rows}."},
    "bi.size_row": {"en": "{name} L = {layers}, H = {d_model}, A = {heads}, {params} parameters",
                    "ko": "{name} L = {layers}, H = {d_model}, A = {heads}, 파라미터 {params}개"},
    "bi.mask_intro": {
        "en": "Masked LM's 80/10/10 rule, applied to your sentence with the training code's own function: 15% of the "
              "tokens are chosen; of those 80% become [MASK], 10% a random token, 10% stay as they are. The model "
              "must predict every chosen token. Change the seed for another draw.",
        "ko": "마스크드 LM의 80/10/10 규칙을 학습 코드의 함수 그대로 입력한 문장에 적용합니다: 토큰의 15%를 고르고, 그중 "
              "80%는 [MASK], 10%는 무작위 토큰, 10%는 그대로 둡니다. 모델은 고른 토큰을 모두 맞혀야 합니다. 시드를 "
              "바꾸면 다시 뽑습니다.",
    },
    "bi.seed": {"en": "Seed", "ko": "시드"},
    "bi.prob": {"en": "Share of tokens chosen", "ko": "고르는 토큰 비율"},
    "bi.mask_run": {"en": "Mask and predict", "ko": "마스킹하고 예측하기"},
    "bi.action_mask": {"en": "→ [MASK] (80%)", "ko": "→ [MASK] (80%)"},
    "bi.action_random": {"en": "→ random token (10%)", "ko": "→ 무작위 토큰 (10%)"},
    "bi.action_keep": {"en": "kept as is (10%)", "ko": "그대로 (10%)"},
    "bi.none_chosen": {"en": "No token was chosen in this draw: try another seed or a larger share.",
                       "ko": "이번에는 고른 토큰이 없습니다. 다른 시드나 더 큰 비율을 써 보세요."},
    "bi.mask_summary": {"en": "The model reads: {inputs}", "ko": "모델이 읽는 입력: {inputs}"},
}
