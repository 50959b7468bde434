"""Strings of the page around the tabs: the title, the intro, Gradio's warning toast:
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
    "app.warning_head": {  # the head of Gradio's warning toast, which reads "Warning" whatever its title= (style.css)
        "en": "Warning",
        "ko": "경고",
    },
    "app.intro": {
        "en": "# Attention Explorer\nSee what the attention models trained in this repo look at. Hover over any "
              "cell for its exact value; to zoom, pick the magnifier in a plot's toolbar (double-click to zoom "
              "out); SVG, a vector picture: its camera icon. On a phone a swipe over a plot scrolls the page: pick the magnifier "
              "first to zoom, or to read a cell by tapping it.",
        "ko": "# 어텐션 탐색기\n이 저장소에서 학습한 어텐션 모델들이 무엇을 보는지 살펴봅니다. 칸 위에 마우스를 올리면 "
              "정확한 값이 보입니다. 확대하려면 그림 툴바의 돋보기를 고르세요(더블클릭하면 원래대로). SVG(벡터 그림)로 "
              "저장하려면 툴바의 카메라 아이콘을 누르세요. 휴대폰에서는 그림 위를 밀면 페이지가 스크롤됩니다. 확대하거나 칸을 "
              "눌러 값을 보려면 먼저 돋보기를 고르세요.",
    },
}
