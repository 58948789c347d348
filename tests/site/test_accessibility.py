"""Accessibility and reading comfort of the built website, checked by machine, in Chromium.

Run after the book is built (``make browser``, part of ``make test``). Every page of the site is
opened once and measured at 1280 px and 375 px, in light and dark mode (the theme's ``data-theme``,
as its switch sets it). Then:

* **axe-core**: no violation of the WCAG 2.0/2.1 A and AA rules (see ``VIEWS``). axe-core comes with
  axe-playwright-python (pinned in constraints.txt), so nothing is fetched at test time; its
  version, 4.12, still marks ``label-content-name-mismatch`` experimental (4.14 runs it with the
  WCAG 2.1 A rules), so that rule is switched on by name: the rule set is 4.14's.
* **keyboard**: from the top of a chapter every slider is at most 10 Tab presses away: Tab to the
  explorer's skip link (beside the theme's "Skip to main content"), Enter, Tab to the slider; the
  sliders of one player follow each other. Math stays out of the Tab order (only a formula that
  still scrolls at its smallest size takes a place in it, so that it can be scrolled).
* **375 px**: no page is wider than the screen, and every slider, its value and the figure stay
  inside their player.
* **print**: no code, output or figure is cut off (print media, a 700 px page).
* **without JavaScript** every player shows its default figure and readout.

The Tab counts (along the skip links, and walking through the page without them) are written to
``_build/accessibility.json``.
"""

import concurrent.futures
import json
import queue

import pytest

from _site import BROWSER_ARGS, CHROMIUM, PAGES, ROOT, SITE

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="Chromium not found: install Debian's chromium package "
                       "(apt-get install chromium) to run the browser tests"),
    pytest.mark.skipif(not (SITE / "intro.html").exists(), reason="no built site: run `make book` first"),
]

ALL_PAGES = sorted(
    p.relative_to(SITE).as_posix() for p in SITE.rglob("*.html")
    if "_static" not in p.parts and "http-equiv=\"Refresh\"" not in p.read_text(encoding="utf-8")
) if SITE.exists() else []
MAX_TABS = 10
AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    "rules": {"label-content-name-mismatch": {"enabled": True}},
    "resultTypes": ["violations"],
}
# Only the colour rules see a difference between light and dark mode (the page is the same), and axe
# takes 3 to 9 s a run on a chapter (tens of thousands of elements, most of them KaTeX's). So: every rule
# in light mode at 1280 px and in dark mode at 375 px, and the colour rules in dark mode at 1280 px
# on what the 375 px view hides (the sidebars, the header and the search field; the article itself
# is checked in dark mode at 375 px).
COLOUR_RULES = ["color-contrast", "link-in-text-block"]
COLOUR_OPTIONS = {"runOnly": {"type": "rule", "values": COLOUR_RULES}, "resultTypes": ["violations"]}
VIEWS = [("light", 1280, None, AXE_OPTIONS),
         ("dark", 1280, {"exclude": [["#main-content article.bd-article"]]}, COLOUR_OPTIONS),
         ("dark", 375, None, AXE_OPTIONS)]
REPORT = ROOT / "_build" / "accessibility.json"

_AXE_RUN = """async ([context, options]) => {
  const r = await axe.run(context || document, options);
  return {
    version: axe.version,
    ran: [...new Set([].concat(r.passes, r.violations, r.incomplete, r.inapplicable).map(x => x.id))],
    violations: r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.map(n => n.target.join(' ') + ' (' + n.failureSummary.replace(/\\s+/g, ' ').trim() + ')')})),
  };
}"""

# lincourse.js marks the page once it has fitted the wide formulas (KaTeX renders them at build time)
_SETTLED = """() => document.documentElement.hasAttribute('data-lincourse-math')"""

_NARROW = """() => {
  const problems = [], vw = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > vw + 1)
    problems.push(`the page is ${document.documentElement.scrollWidth}px wide in a ${vw}px window`);
  document.querySelectorAll('figure.lincourse-player').forEach((f, k) => {
    const box = f.getBoundingClientRect();
    if (box.right > vw + 0.5) problems.push(`player ${k} ends at ${box.right.toFixed(0)}px`);
    f.querySelectorAll('.lincourse-label, input[type=range], output, svg.lincourse-figure').forEach(e => {
      const r = e.getBoundingClientRect();
      if (r.width < 1 || r.left < box.left - 0.5 || r.right > box.right + 0.5)
        problems.push(`player ${k}: ${e.tagName.toLowerCase()} "${e.textContent.slice(0, 20)}" at ` +
                      `[${r.left.toFixed(0)}, ${r.right.toFixed(0)}] outside [${box.left.toFixed(0)}, ${box.right.toFixed(0)}]`);
    });
  });
  const scrolling = [...document.querySelectorAll('div.math > .katex-display')].filter(m => m.scrollWidth > m.clientWidth + 1);
  return {problems, scrolling_formulas: scrolling.length};
}"""

_PRINT = """() => {
  const problems = [], vw = document.documentElement.clientWidth;
  document.querySelectorAll('main pre, main div.math > .katex-display, main img, main svg.lincourse-figure').forEach(e => {
    const r = e.getBoundingClientRect();
    if (e.scrollWidth > e.clientWidth + 1 || r.right > vw + 1)
      problems.push(`${e.tagName.toLowerCase()} "${e.textContent.trim().slice(0, 40)}": ` +
                    `${e.scrollWidth}px of content in ${e.clientWidth}px, right edge ${r.right.toFixed(0)}px of ${vw}px`);
  });
  return problems;
}"""

_FOCUS = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  const player = e.closest('figure.lincourse-player');
  return {tag: e.tagName.toLowerCase(), type: e.type || '', href: e.getAttribute('href') || '',
          player: player ? [...document.querySelectorAll('figure.lincourse-player')].indexOf(player) : -1,
          slider: e.matches('input[type=range]') ? [...player.querySelectorAll('input[type=range]')].indexOf(e) : -1};
}"""

_TOP = """() => {  // a focus start point before everything on the page: where Tab starts on a fresh load
  const top = document.createElement('span');
  top.tabIndex = -1;
  document.body.prepend(top);
  window.scrollTo(0, 0);
  top.focus();
  top.remove();
}"""


def _settle(page):
    page.wait_for_function(_SETTLED, timeout=30000)
    page.wait_for_timeout(400)  # the theme's and lincourse.js's resize handlers are debounced (300 ms, 150 ms)


_SET_MODE = """async (mode) => {
  document.documentElement.dataset.mode = mode;
  document.documentElement.dataset.theme = mode;
  getComputedStyle(document.body).color;  // apply the new styles now, which starts the theme's colour transitions
  const transitions = document.getAnimations().filter(a => a instanceof CSSTransition);
  await Promise.all(transitions.map(a => a.finished.catch(() => null)));
}"""


def _set_mode(page, mode):
    """Switch the theme's mode and wait until its colour transitions end (axe would see mixed colours)."""
    page.evaluate(_SET_MODE, mode)


def _tabs(page):
    """Tab presses from the top of the page to each player's first slider, along its skip link, and walking."""
    players = page.locator("figure.lincourse-player").count()
    sliders = [page.locator("figure.lincourse-player").nth(k).locator("input[type=range]").count() for k in range(players)]
    via_skip, problems = [], []
    for k in range(players):
        page.evaluate(_TOP)
        presses, found = 0, None
        while presses < 3 * MAX_TABS:
            page.keyboard.press("Tab")
            presses += 1
            focus = page.evaluate(_FOCUS)
            if focus and focus["href"].startswith("#explorer-") and focus["href"][1:] == page.locator(
                    "figure.lincourse-player").nth(k).get_attribute("id"):
                page.keyboard.press("Enter")
            elif focus and focus["player"] == k and focus["slider"] == 0:
                found = presses
                break
        via_skip.append(found)
        if found is None or found > MAX_TABS:
            problems.append(f"player {k}: first slider not reached within {MAX_TABS} Tab presses along its skip link")
            continue
        for s in range(1, sliders[k]):  # the player's other sliders follow at once
            page.keyboard.press("Tab")
            focus = page.evaluate(_FOCUS)
            if not focus or (focus["player"], focus["slider"]) != (k, s):
                problems.append(f"player {k}: slider {s} does not follow slider {s - 1} (Tab went to {focus})")
    # walking from the top without the skip links: presses between one slider and the next
    page.evaluate(_TOP)
    walk, last, seen = [], 0, 0
    for presses in range(1, 400):
        page.keyboard.press("Tab")
        focus = page.evaluate(_FOCUS)
        if focus and focus["slider"] >= 0:
            walk.append(presses - last)
            last, seen = presses, seen + 1
            if seen == sum(sliders):
                break
    return {"via_skip_link": via_skip, "walking": walk, "problems": problems}


def _visit(browser, server, path):
    """Everything the tests below check, measured in one visit of the page (the site is slow to load)."""
    from axe_playwright_python.base import AXE_SCRIPT

    result = {"axe": {}, "narrow": {}}
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{server}/{path}", wait_until="networkidle")
    _settle(page)
    if path in PAGES:
        result["tabs"] = _tabs(page)
    page.evaluate(AXE_SCRIPT)
    for mode, width, context, options in VIEWS:
        if page.viewport_size["width"] != width:
            page.set_viewport_size({"width": width, "height": 900})
            _settle(page)
        _set_mode(page, mode)
        view = f"{mode} {width}px" + (" (page chrome, colour rules)" if context else "")
        result["axe"][view] = page.evaluate(_AXE_RUN, [context, options])
        if width < 500:
            result["narrow"][mode] = page.evaluate(_NARROW)
    page.set_viewport_size({"width": 700, "height": 900})
    page.emulate_media(media="print")
    _settle(page)
    result["print"] = page.evaluate(_PRINT)
    page.close()
    return result


@pytest.fixture(scope="module")
def measured(server):
    """Every page measured once, two at a time: two browsers in two threads (axe is CPU-bound)."""
    from playwright.sync_api import sync_playwright

    todo = queue.Queue()
    for path in sorted(ALL_PAGES, key=lambda p: -(SITE / p).stat().st_size):  # the longest first
        todo.put(path)
    results = {}

    def work():
        with sync_playwright() as p:  # one Playwright per thread
            b = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
            try:
                while True:
                    try:
                        path = todo.get_nowait()
                    except queue.Empty:
                        return
                    results[path] = _visit(b, server, path)
            finally:
                b.close()

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        for job in [pool.submit(work) for _ in range(2)]:
            job.result()
    REPORT.write_text(json.dumps({path: {
        "tabs": r.get("tabs"), "scrolling_formulas_375px": r["narrow"]["dark"]["scrolling_formulas"],
        "axe_violations": {view: len(v["violations"]) for view, v in r["axe"].items()}}
        for path, r in sorted(results.items())}, indent=1, ensure_ascii=False))
    return results


@pytest.mark.parametrize("path", ALL_PAGES)
def test_axe_finds_no_wcag_violation(measured, path):
    failures = []
    for view, result in measured[path]["axe"].items():
        # the rules asked for did run (4.12 would leave out the experimental one without being asked)
        expected = COLOUR_RULES if "colour rules" in view else COLOUR_RULES + ["label-content-name-mismatch",
                                                                             "scrollable-region-focusable"]
        assert set(expected) <= set(result["ran"]), (view, result["ran"])
        for v in result["violations"]:
            nodes = v["nodes"][:8] + ([f"... and {len(v['nodes']) - 8} more"] if len(v["nodes"]) > 8 else [])
            failures.append(f"[{view}] {v['id']} ({v['impact']}): {v['help']}\n      " + "\n      ".join(nodes))
    assert not failures, f"{path}: {len(failures)} axe-core violations\n  " + "\n  ".join(failures)


@pytest.mark.parametrize("path", PAGES)
def test_every_slider_within_ten_tab_presses(measured, path):
    tabs = measured[path]["tabs"]
    assert tabs["via_skip_link"], "no player on the page"
    assert not tabs["problems"], tabs


@pytest.mark.parametrize("path", ALL_PAGES)
def test_nothing_clipped_at_375px_nor_in_print(measured, path):
    result = measured[path]
    problems = [f"[375px {mode}] {p}" for mode, r in result["narrow"].items() for p in r["problems"]]
    problems += [f"[print] {p}" for p in result["print"]]
    assert not problems, f"{path}:\n  " + "\n  ".join(problems)


def test_players_show_their_default_figure_without_javascript(browser, server):  # noqa: F811
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    for path in PAGES:
        page.goto(f"{server}/{path}", wait_until="load")
        players = page.locator("figure.lincourse-player")
        assert players.count() >= 1, path
        for k in range(players.count()):
            player = players.nth(k)
            figure = player.locator("svg.lincourse-figure").bounding_box()
            assert figure and figure["width"] > 200 and figure["height"] > 150, (path, k, figure)
            assert player.locator(".lincourse-layer > *").count() > 0, (path, k, "the figure has no drawing")
            assert player.locator("pre.lincourse-readout").inner_text().strip(), (path, k, "no readout")
            assert all(v.strip() for v in player.locator("output").all_inner_texts()), (path, k, "no slider values")
            assert player.locator(".lincourse-nojs").is_visible(), (path, k, "no word that the sliders need JavaScript")
            assert player.locator("input[type=range]:not([disabled])").count() == 0, (path, k, "sliders that do nothing")
    context.close()
