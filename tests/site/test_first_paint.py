"""Formulas at first paint, and a page that does not move.

The formulas are rendered when the book is built (KaTeX), so a page's math is in its HTML: it is
complete when the KaTeX fonts it uses have arrived. For every page of the site this test reads
Chromium's navigation and resource timings and its layout-shift entries, and asks for

* the formulas typeset in the HTML (KaTeX's markup, before any script runs) and their fonts received
  (when they arrive is measured by `make bench`, not asserted here: timings flake under load);
* a cumulative layout shift (CLS) of at most 0.05 while the page loads and its fonts arrive;
* no script that typesets math (no MathJax), and KaTeX's stylesheet from the site itself.

The measured numbers are written to ``_build/first_paint.json``.
"""

import json

import pytest

from _site import PAGES, ROOT, SITE

CLS_LIMIT = 0.05
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
    page.goto(f"{server}/{path}", wait_until="load")
    m = page.evaluate(_MEASURE)
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
