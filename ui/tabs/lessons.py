"""Lessons: the five decks as a path through the app (explorer/lessons.py), each slide drawn with the app's
own view on the deck's example (explorer/views/lessons.py: lesson_view), with Previous / Next, a link per
step (`?lesson=transformer-4`, read by `from_url` when the page loads) and a presenter mode for a projector
(`?presenter=1` opens in it): large type, the intro and the selectors tucked away, the figure filling the rest of
a 1280 x 720 screen with its text enlarged (ui/static/style.css and page.js's `present`)."""
from __future__ import annotations

import gradio as gr

from explorer import i18n
from explorer.views import lessons as views
from ui.components import friendly

TITLE = "tab.lessons"
# the page's class switches the CSS; page.js's aePresent refits the plot on screen (its height, its fonts)
PRESENTER_JS = ("(on) => { document.body.classList.toggle('ae-presenter', !!on); "
                "if (window.aePresent) window.aePresent(); return []; }")


class Tab:
    def __init__(self, page):
        L = page.L
        # the ae-lesson-* classes: what presenter mode hides, compacts or enlarges (ui/static/style.css)
        L(gr.Markdown, "lesson.intro", elem_classes="ae-lesson-intro")
        with gr.Row(elem_classes="ae-lesson-controls"):
            self.deck = L(gr.Dropdown, "lesson.deck", choices=views.deck_choices(), value=views.DECKS[0].id,
                          scale=2, elem_classes="ae-lesson-deck")
            self.presenter = L(gr.Checkbox, "lesson.presenter", value=False, scale=1,
                               elem_classes="ae-lesson-presenter")
        self.step = L(gr.Radio, "lesson.step", choices=views.step_choices(views.DECKS[0].id),
                      value=views.FIRST, elem_classes="ae-lesson-step")
        self.title = gr.Markdown(elem_classes="ae-lesson-title")
        self.text = gr.Markdown(elem_classes="ae-lesson-text")
        self.figure = L(gr.Plot, "lesson.figure", elem_classes="ae-lesson-figure")
        with gr.Row(elem_classes="ae-lesson-nav"):
            self.previous = L(gr.Button, "lesson.previous", size="lg")
            self.next = L(gr.Button, "lesson.next", variant="primary", size="lg")
        self.link = gr.Markdown(elem_classes="ae-lesson-link")
        # the step on screen (an id: the lesson data is the record) and its neighbours; None until the first screen
        # or a link's step is drawn, so that neither a first screen nor a language redraw lands over a link's step
        self.current = gr.State(None)
        self.neighbours = gr.State(None)
        out = [self.deck, self.step, self.title, self.text, self.figure, self.link, self.current,
               self.neighbours]
        self.outputs = out
        run = dict(concurrency_id="models", api_visibility="private")
        self.step.input(self.go, [self.step, page.lang], out, **run)
        self.deck.input(self.go_deck, [self.deck, page.lang], out, **run)
        self.previous.click(self.go_previous, [self.neighbours, page.lang], out, **run)
        self.next.click(self.go_next, [self.neighbours, page.lang], out, **run)
        self.presenter.change(None, self.presenter, None, js=PRESENTER_JS, api_visibility="private")
        page.on_language(self.relabel, [self.current, page.lang], out, concurrency_id="models")
        page.first_screen(self.go, [self.step, page.lang], out, link="lesson")  # ?lesson=: from_url draws it

    @friendly
    def go(self, step_id, lang="en"):
        v = views.lesson_view(step_id, lang)
        return {self.deck: gr.update(choices=views.deck_choices(lang), value=v.deck),
                self.step: gr.update(choices=views.step_choices(v.deck, lang), value=v.step),
                self.title: v.title, self.text: v.text,
                self.figure: v.figure,
                self.link: i18n.t("lesson.link", lang, link=v.link),
                self.current: v.step, self.neighbours: (v.previous, v.next)}

    @friendly
    def relabel(self, step_id, lang="en"):
        """The step on screen in `lang`; nothing drawn yet (a link's step still on its way): nothing changes."""
        return gr.skip() if step_id is None else self.go(step_id, lang)

    @friendly
    def go_deck(self, deck_id, lang="en"):
        deck = next((d for d in views.DECKS if d.id == deck_id), views.DECKS[0])
        return self.go(deck.steps[0].id, lang)

    @friendly
    def go_previous(self, neighbours, lang="en"):
        prev = (neighbours or views.neighbours(views.FIRST))[0]  # None: the first screen is not drawn yet
        return self.go(prev, lang) if prev else gr.skip()

    @friendly
    def go_next(self, neighbours, lang="en"):
        nxt = (neighbours or views.neighbours(views.FIRST))[1]
        return self.go(nxt, lang) if nxt else gr.skip()

    @friendly
    def from_url(self, request: gr.Request, lang="en"):
        """A link's ?lesson=<step> opens the page at that step, drawn; ?presenter=1 in presenter mode. Without
        either the page keeps its first screen."""
        params = request.query_params if request is not None else {}
        step_id, presenter = (params.get("lesson") or "").strip(), params.get("presenter") in ("1", "true", "on")
        if step_id not in views.STEPS and not presenter:
            return gr.skip()
        url_lang = (params.get("lang") or "").strip().lower().split("-")[0]
        shown = self.go(step_id or views.FIRST, url_lang if url_lang in i18n.LANGS else lang)
        return {**shown, self.presenter: True} if presenter else shown
