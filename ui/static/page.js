() => {
  // Runs once on page load (ui/theme.py fills the __NAMES__ in; app.py hands it to launch()).
  // Every plot narrower than figures.NARROW_PX (a phone held upright; STACKED_NARROW_PX for side-by-side panels, the
  // figure's meta.below) takes the narrow layout its figure carries in layout.meta (explorer.figures.responsive), and
  // gives it back when it widens (a phone turned sideways). Gradio 6.31 draws each new figure into a new element (and
  // were it to reuse one, the layout object would still be new): the mark of what was applied lives on that object,
  // so a new figure is fitted afresh.
  // Tables: a table's box gets ae-more-right / ae-more-left while columns are hidden on that side (CSS shades it),
  // looked at when it scrolls, when its box changes size (a tab shown) and when its rows change. A heatmap of square
  // cells (figures.heatmap: meta.colorbarBeside) gets its colour bar beside the map after each draw, not at the plot's
  // right edge, where it stood 700 px away from a short sentence's map on a wide screen.
  const fit = gd => {
    const layout = gd.layout, meta = layout && layout.meta, P = window.Plotly;
    if (!P || !meta || !meta.narrow || !meta.wide || !gd.offsetWidth) return;
    const want = gd.offsetWidth < (meta.below || __NARROW_PX__) ? 'narrow' : 'wide';
    if ((layout._aeFit || 'wide') === want) return;
    layout._aeFit = want;
    const u = meta[want];
    // autosize stays on: plotly's relayout of a height turns it off and pins the width it had, which left a plot
    // 702 px wide in a 324 px phone column, and 702 in 1,214 px when the window widened again
    P.update(gd, u.data, Object.assign({autosize: true, width: null}, u.layout), u.traces);
  };
  const beside = __COLORBAR_BESIDE_JS__;  // a heatmap of square cells: its colour bar beside the map (figures.COLORBAR_BESIDE_JS)
  // a screen reader met an unnamed SVG and bare tick labels: the plot is a figure named by its title, or by its
  // box's label where the figure has none (a title that is only the "▁" note is no name); a heatmap's numbers are
  // in the table after it (values, below), the others' in the tab's tables and CSV downloads. role=figure, not
  // img: an image's toolbar buttons would be hidden from it.
  const name = gd => {
    const t = gd.layout && gd.layout.title;
    const own = typeof t === 'string' ? t : t && t.yref !== 'container' && (t.text || '');
    const box = gd.closest('.block'), label = box && box.querySelector('[data-testid="block-label"]');
    // DOMParser: markup read as text only (an element's innerHTML would load an <img> it names)
    const text = own ? new DOMParser().parseFromString(String(own).replace(/<br\s*\/?>/gi, ' '), 'text/html')
      .body.textContent : (label ? label.textContent : '');
    const clean = text.replace(/\s+/g, ' ').trim();
    if (!clean) { gd.removeAttribute('role'); gd.removeAttribute('aria-label'); return; }
    gd.setAttribute('role', 'figure');
    gd.setAttribute('aria-label', clean);
  };
  // a heatmap's values as a table that only screen readers see, after its plot (figures.VALUE_TABLES_JS)
  const values = __VALUE_TABLES_JS__;
  const svg = __SVG_EXPORT_JS__;  // the camera button saves SVG (figures.SVG_EXPORT_JS)
  // Presenter mode (body.ae-presenter, ui/tabs/lessons.py): the lesson's figure takes the height left on the screen
  // above Previous / Next, and every font size it sets (titles, ticks, colour bars, numbers in cells) grows by
  // PRESENT_FONT, so a class reads it on a 1280 x 720 projector. A figure drawn taller than PRESENT_SQUEEZE times that
  // height (a worked example's six stacked matrices, BERT's three embeddings) keeps its own height and fonts: squeezed,
  // its stacked panels ran into each other; the page scrolls under Previous / Next, fixed at the screen's foot.
  // What the figure had is kept on its layout object (a new figure is a new object: fitted afresh) and given back when
  // presenter mode is turned off.
  const PRESENT_FONT = 1.2, PRESENT_SQUEEZE = 1.25, PRESENT_MIN_PX = 320;
  const fontSizes = (obj, path, out) => {  // {"title.font.size": 20, "xaxis.tickfont.size": 12, ...}
    for (const [k, v] of Object.entries(obj || {})) {
      if (k[0] === '_' || k === 'meta' || k === 'template' || !v || typeof v !== 'object') continue;
      const p = Array.isArray(obj) ? `${path}[${k}]` : path ? `${path}.${k}` : k;
      if (/font$/.test(k) && typeof v.size === 'number') out[`${p}.size`] = v.size;
      fontSizes(v, p, out);
    }
    return out;
  };
  const present = gd => {
    const layout = gd.layout, P = window.Plotly, block = gd.closest('.ae-lesson-figure');
    if (!P || !layout || !block || !gd.offsetWidth) return;
    const was = layout._aePresent, scaled = (sizes, k) => Object.fromEntries(
      Object.entries(sizes).map(([p, v]) => [p, k === 1 ? v : Math.round(v * k)]));
    const apply = (state, k, height) => {
      state.traces.forEach(([i, sizes]) => P.restyle(gd, scaled(sizes, k), [i]));
      P.relayout(gd, {autosize: true, width: null, height, ...scaled(state.fonts, k)});
    };
    if (!document.body.classList.contains('ae-presenter')) {
      if (was) { delete layout._aePresent; if (!was.tall) apply(was, 1, was.height); }
      return;
    }
    // from the plot's top on the page to Previous / Next at the screen's foot (style.css fixes them there), less its
    // box's edge and a gap; from the nav's height, never its place: were it under the figure, each fit would move it
    const box = gd.getBoundingClientRect(), nav = document.querySelector('.ae-lesson-nav');
    const foot = window.innerHeight - (nav ? nav.offsetHeight : 0);
    const edge = block.getBoundingClientRect().bottom - box.bottom;
    const height = Math.max(PRESENT_MIN_PX, Math.floor(foot - (box.top + window.scrollY) - edge - 8));
    if (was && (was.tall || Math.abs((layout.height || 0) - height) < 2)) return;
    if (was) { P.relayout(gd, {autosize: true, width: null, height}); return; }  // the window changed size
    const drawn = layout.height || (gd._fullLayout || {}).height || 0;
    const state = {height: layout.height || null, tall: drawn > height * PRESENT_SQUEEZE,
                   fonts: Object.assign({'font.size': 12}, fontSizes(layout, '', {})),  // plotly's default: 12
                   traces: (gd.data || []).map((t, i) => [i, fontSizes(t, '', {})])
                     .filter(([, sizes]) => Object.keys(sizes).length)};
    layout._aePresent = state;
    if (!state.tall) apply(state, PRESENT_FONT, height);
  };
  window.aePresent = () => all(present);  // the presenter switch (ui/tabs/lessons.py PRESENTER_JS)
  const hook = gd => {
    if (gd._aeHooked || typeof gd.on !== 'function') return;
    gd._aeHooked = true;
    gd.on('plotly_afterplot', () => { fit(gd); beside(gd); name(gd); values(gd); svg(gd); present(gd); });
    fit(gd);
    beside(gd);
    name(gd);
    values(gd);
    svg(gd);
    present(gd);
  };
  const all = f => document.querySelectorAll('.js-plotly-plot').forEach(f);
  const more = v => {
    const box = v.closest('.table-wrap');
    if (!box) return;
    box.classList.toggle('ae-more-right', v.scrollLeft + v.clientWidth < v.scrollWidth - 2);
    box.classList.toggle('ae-more-left', v.scrollLeft > 2);
  };
  const sized = new ResizeObserver(entries => entries.forEach(e => more(e.target)));
  const table = v => {
    if (!v._aeHooked) {
      v._aeHooked = true;
      v.addEventListener('scroll', () => more(v), {passive: true});
      sized.observe(v);
    }
    more(v);
  };
  // a download link read only its size ("23.8 KB ⇣"): its name is the file's, then the size
  const link = a => {
    const want = `${a.getAttribute('download')}, ${a.textContent.replace('⇣', '').replace(/\s+/g, ' ').trim()}`;
    if (a.getAttribute('download') && a.getAttribute('aria-label') !== want) a.setAttribute('aria-label', want);
  };
  const look = () => {
    all(hook);
    document.querySelectorAll('.virtual-table-viewport').forEach(table);
    document.querySelectorAll('.ae-downloads a[download]').forEach(link);
  };
  let queued = false;  // one look per frame, however many nodes a redraw adds
  new MutationObserver(() => {
    if (!queued) { queued = true; requestAnimationFrame(() => { queued = false; look(); }); }
  }).observe(document.body, {childList: true, subtree: true});
  window.addEventListener('resize', () => all(gd => { fit(gd); present(gd); }));
  look();
}
