"""Strings of the lesson path (ui/tabs/lessons.py; the steps' own texts are explorer/lessons.py's):
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
    # the lesson path (ui/tabs/lessons.py; the steps' own texts are explorer/lessons.py's)
    "tab.lessons": {"en": "Lessons", "ko": "강의"},
    "lesson.intro": {"en": "**The course, slide by slide.** Choose a deck, then walk its slides with *Next*: each "
                              "step draws the slide's example with the app's own model. The link under the figure "
                              "opens the app at that step, for a slide or a student.",
                     "ko": "**강의를 슬라이드 순서대로.** 강의 자료를 고르고 *다음*으로 슬라이드를 따라가세요. 단계마다 "
                           "슬라이드의 예시를 앱의 모델로 그립니다. 그림 아래 링크는 앱을 그 단계로 엽니다 "
                           "(슬라이드나 학생에게 붙여 주세요)."},
    "lesson.deck": {"en": "Deck", "ko": "강의 자료"},
    "lesson.step": {"en": "Slide", "ko": "슬라이드"},
    "lesson.previous": {"en": "◀ Previous", "ko": "◀ 이전"},
    "lesson.next": {"en": "Next ▶", "ko": "다음 ▶"},
    "lesson.figure": {"en": "The slide's example", "ko": "슬라이드의 예시"},
    "lesson.presenter": {"en": "Presenter mode (large type for a projector)", "ko": "발표자 모드 (프로젝터용 큰 글씨)"},
    "lesson.explore": {"en": "Explore further in the tab “{tab}”.", "ko": "“{tab}” 탭에서 더 살펴보세요."},
    "lesson.link": {"en": "Link to this step: `{link}` (add it to the app's address)",
                    "ko": "이 단계의 링크: `{link}` (앱 주소 뒤에 붙이세요)"},
}
