"""A reader's first visit of a page: formulas at first paint, a page that does not move, a light load.

The formulas are rendered when the book is built (KaTeX), so a page's math is in its HTML: it is
complete when the KaTeX fonts it uses have arrived. In one fresh visit of every page of the site
(a chapter page is slow to load) this test reads Chromium's navigation and resource timings and its
layout-shift entries, and asks for

* the formulas typeset in the HTML (KaTeX's markup, before any script runs) and their fonts received
  (when they arrive is measured by `make bench`, not asserted here: timings flake under load);
* a cumulative layout shift (CLS) of at most 0.05 while the page loads and its fonts arrive;
* no script that typesets math (no MathJax), and KaTeX's stylesheet from the site itself;
* on a chapter page, a first load (everything Chromium fetches: page, theme, math, players) of at
  most 3 MB; and every player, once near the screen, has fetched the frames one step away on every
  slider, so that a first step shows at once.

The measured numbers are written to ``_build/first_paint.json``.
"""

import json

import pytest

from _site import PAGES, ROOT, SITE
from test_players import _STATE, _STEP, _config

CLS_LIMIT = 0.05
FIRST_LOAD_LIMIT = 3_000_000
REPORT = ROOT / "_build" / "first_paint.json"

_OBSERVE = """
window.__shifts = [];
new PerformanceObserver(list => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shifts.push(e.value);
}).observe({type: 'layout-shift', buffered: true});
"""

_MEASURE = """async () => {
  await document.fonts.ready;
  await new Promise(r => setTimeout(r, 300));   // a shift after the fonts would show here
  const nav = performance.getEntriesByType('navigation')[0];
  const fonts = performance.getEntriesByType('resource').filter(r => /katex\\/fonts\\//.test(r.name));
  return {
    dcl: nav.domContentLoadedEventEnd,
    fonts: fonts.length,
    math_done: Math.max(nav.domContentLoadedEventEnd, ...fonts.map(r => r.responseEnd)),
    cls: window.__shifts.reduce((a, b) => a + b, 0),
    formulas: document.querySelectorAll('.katex').length,
    mathjax: !!window.MathJax || !!document.querySelector('script[src*="mathjax"]'),
    katex_css: [...document.querySelectorAll('link[rel=stylesheet]')].map(l => l.href).filter(h => /katex/.test(h)),
  };
}"""

_results = {}


@pytest.mark.parametrize("path", ["intro.html"] + PAGES)
def test_formulas_at_first_paint_and_no_layout_shift(browser, server, path):
    if not (SITE / path).exists():
        pytest.skip("no website: run `make book`")
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    context.add_init_script(_OBSERVE)
    page = context.new_page()
    sizes = {}

    def finished(request):
        try:
            sizes[request.url] = len(request.response().body())
        except Exception:  # a request without a body (redirect, data: URL)
            sizes.setdefault(request.url, 0)

    page.on("requestfinished", finished)
    page.goto(f"{server}/{path}", wait_until="load")
    m = page.evaluate(_MEASURE)
    if path in PAGES:
        page.wait_for_load_state("networkidle", timeout=90000)  # the players' first frames, the fonts
        total = sum(sizes.values())
        heaviest = sorted(sizes.items(), key=lambda kv: -kv[1])[:5]
        m["first_load_bytes"] = total
        _first_step_needs_no_fetch(page, path)
    context.close()
    _results[path] = m
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(json.dumps(_results, indent=1, sort_keys=True), encoding="utf-8")
    assert not m["mathjax"], "a page loads MathJax: its math is rendered when the book is built"
    assert m["katex_css"] and all(h.startswith(server) for h in m["katex_css"]), m["katex_css"]
    if path != "intro.html":
        assert m["formulas"] > 10 and m["fonts"] >= 1, m
    # first paint has the content: every formula the page shows is in the HTML as served, none added by a script
    served = (SITE / path).read_text(encoding="utf-8").count('class="katex"')
    assert m["formulas"] == served, f"{path}: {served} formulas in the HTML, {m['formulas']} in the page"
    assert m["cls"] <= CLS_LIMIT, f"{path}: cumulative layout shift {m['cls']:.3f}"
    if path in PAGES:
        assert total <= FIRST_LOAD_LIMIT, f"{path}: first load {total / 1e6:.2f} MB; heaviest {heaviest}"


def _first_step_needs_no_fetch(page, path):
    """A player near the screen has fetched the chunks one step away on every slider: the first step shows at once."""
    players = page.locator("figure.lincourse-player")
    for n in range(players.count()):
        player = players.nth(n)
        player.scroll_into_view_if_needed()  # near the screen: no click, no focus
        cfg = _config(player)
        start = [int(v) for v in player.evaluate("r => [...r.querySelectorAll('input[type=range]')].map(i => i.value)")]
        steps = []  # (slider, position, frame index) of every one-step move
        for k, size in enumerate(cfg["sizes"]):
            for i in (start[k] - 1, start[k] + 1):
                if 0 <= i < size:
                    frame = 0
                    for j, s in enumerate(cfg["sizes"]):
                        frame = frame * s + (i if j == k else start[j])
                    steps.append((k, i, frame))
        chunks = sorted({frame // cfg["chunk"] for _, _, frame in steps})
        page.wait_for_function("([key, chunks]) => chunks.every(n => window.lincoursePlayers[key].chunks[n])",
                               arg=[cfg["key"], chunks], timeout=15000)
        for k, i, frame in steps:
            player.evaluate(_STEP, [k, i])
            state = player.evaluate(_STATE)
            assert not state["loading"] and state["frame"] == str(frame), (path, n, k, i, state["status"])
            player.evaluate(_STEP, [k, start[k]])

