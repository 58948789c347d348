"""The built website in a real browser: math typeset, players move with the keyboard, offline.

Run after the book is built (``make browser``, part of ``make test``). Serves ``_build/html`` on
127.0.0.1 and drives Debian's headless Chromium with Playwright. For every chapter page, in one visit, it checks
that the math is rendered in the page (KaTeX, when the book is built), that every kernel-free player's slider, moved with the keyboard,
changes its figure (tests/site/test_players.py checks the players in depth), that every exercise has an
answer box that checks an answer without a kernel, that the console shows
no error and no warning, that every request succeeds (the favicon included) and that no request
leaves 127.0.0.1.
Screenshots (light and dark theme) go to ``_build/screenshots/``. Without Chromium the tests skip
with a message saying how to install it.
"""

from pathlib import Path
from urllib.parse import urlparse

import pytest

from _site import CHROMIUM, PAGES, ROOT, SITE

SHOTS = ROOT / "_build" / "screenshots"

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="Chromium not found: install Debian's chromium package "
                       "(apt-get install chromium) to run the browser tests"),
    pytest.mark.skipif(not (SITE / "intro.html").exists(), reason="no built site: run `make book` first"),
]


def _open(browser, url, requests, errors):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.on("request", lambda r: requests.append(r.url))
    # errors and warnings alike (MathJax reports a bad option, e.g. "Invalid option", as a warning)
    page.on("console", lambda m: errors.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("response", lambda r: errors.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)
    page.goto(url, wait_until="networkidle")
    return page


def test_there_are_chapter_pages():
    assert len(PAGES) >= 5, PAGES


def _answer_boxes_work(page, path):
    """Each chapter's exercises are answered and checked in the page, without a kernel."""
    boxes = page.locator(".lincourse-answer[data-kind]")
    assert boxes.count() >= 4, f"{path}: {boxes.count()} answer boxes"
    page.wait_for_function("() => [...document.querySelectorAll('.lincourse-answer[data-kind]')]"
                           ".every(b => b.classList.contains('lincourse-answer-ready'))", timeout=10000)
    short = page.locator(".lincourse-answer[data-kind='number'], .lincourse-answer[data-kind='count']").first
    if short.count():
        short.scroll_into_view_if_needed()
        short.locator("input").fill("not a number")
        short.get_by_role("button", name="Check").click()
        result = short.locator(".lincourse-answer-result")
        page.wait_for_function("r => r.textContent.length > 0", arg=result.element_handle(), timeout=5000)
        assert result.text_content().startswith("Check the form:"), result.text_content()


@pytest.mark.parametrize("path", PAGES)
def test_chapter_page(browser, server, path):
    requests, errors = [], []
    page = _open(browser, f"{server}/{path}", requests, errors)
    assert page.locator("span.math .katex, div.math .katex-display").count() > 0, "no math rendered in the page"
    assert page.locator("span.math:not(:has(.katex))").count() == 0, "a formula left as TeX"
    assert page.evaluate("() => document.querySelector('link[rel=icon]').href").split("?")[0].endswith("favicon.svg")
    players = page.locator("figure.lincourse-player")
    assert players.count() >= 1, "no kernel-free player on the page"
    for k in range(players.count()):
        player = players.nth(k)
        player.scroll_into_view_if_needed()
        figure = player.locator("svg.lincourse-figure")
        layer = player.locator(".lincourse-layer")
        assert figure.get_attribute("aria-label"), "the figure has no text alternative"
        assert player.locator("pre").text_content(), "no readout before any move (it must not need JavaScript)"
        sliders = player.locator("input[type=range]")
        assert sliders.count() >= 1
        for s in range(sliders.count()):
            slider = sliders.nth(s)
            assert slider.get_attribute("aria-label") and slider.get_attribute("aria-valuetext")
            before = layer.inner_html()
            slider.focus()
            at_end = slider.evaluate("e => e.value === e.max")
            page.keyboard.press("ArrowLeft" if at_end else "ArrowRight")
            page.wait_for_function("e => e.hasAttribute('data-frame') && !e.classList.contains('lincourse-loading')",
                                   arg=player.element_handle(), timeout=10000)
            after = layer.inner_html()
            assert after != before, f"player {k}, slider {s} ({slider.get_attribute('aria-label')}) did not change the figure"
    _answer_boxes_work(page, path)   # in the same visit: a chapter page is slow to load
    SHOTS.mkdir(parents=True, exist_ok=True)
    name = Path(path).stem
    first = players.first
    first.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"{name}-light.png"), full_page=False)
    # the theme's own switch, as a reader's choice is stored: localStorage's "mode". On load,
    # pydata-sphinx-theme's inline script draws the last theme it stored ("theme": light here), and only its
    # deferred script (setTheme) derives the theme from "mode" and stores it. A reload waited for with
    # "networkidle" may return before that script has run (Playwright's idle timer starts at the commit, and
    # cached files make no request): the test read "light" under load. So it waits for what only setTheme
    # does, the theme stored as dark, and then for the page drawn dark.
    page.evaluate("() => localStorage.setItem('mode', 'dark')")
    assert page.evaluate("() => localStorage.getItem('theme')") == "light"
    page.reload(wait_until="load")
    page.wait_for_function("() => localStorage.getItem('theme') === 'dark'"
                           " && document.documentElement.dataset.theme === 'dark'", timeout=10000)
    page.locator("figure.lincourse-player").first.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"{name}-dark.png"), full_page=False)
    foreign = sorted({urlparse(u).netloc for u in requests if urlparse(u).scheme in ("http", "https")
                      and urlparse(u).hostname != "127.0.0.1"})
    assert not foreign, f"requests to other hosts: {foreign}"
    assert not errors, f"console errors: {errors}"
    page.close()


def test_landing_page_explains_sliders_binder_and_downloads(browser, server):
    requests, errors = [], []
    page = _open(browser, f"{server}/intro.html", requests, errors)
    text = page.text_content("main")   # folded boxes included: the buttons are explained in one
    for words in ("slider", "Binder", "download"):
        assert words.lower() in text.lower(), words
    assert not errors
    page.close()


def test_live_code_says_what_went_wrong_when_it_cannot_reach_a_server(browser, server):
    """Offline, the Live Code button's library cannot load: the page says so, and what works instead."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.route("**/*", lambda route: route.abort() if urlparse(route.request.url).hostname != "127.0.0.1"
               else route.continue_())
    page.goto(f"{server}/{PAGES[0]}", wait_until="networkidle")
    button = page.locator(".btn-launch-thebe").first   # "Live Code", in the launch menu
    assert button.count() == 1, "no Live Code button on the page"
    button.evaluate("b => b.click()")   # the menu is closed; a click starts it as the menu's would
    status = page.locator("#lincourse-live-code-status")
    status.wait_for(timeout=25000)
    assert "Live Code could not start" in status.text_content()
    assert "its library could not be loaded" in status.text_content()
    assert status.get_attribute("role") == "status"
    assert not page.locator(".thebe-launch-button").first.is_visible()   # the spinning button is put away
    page.close()


def test_the_landing_page_offers_the_student_notebooks_as_a_zip(browser, server):
    """The download link works and the zip holds every chapter, without solutions."""
    import io
    import zipfile
    from urllib.request import urlopen

    page = browser.new_page()
    page.goto(f"{server}/intro.html", wait_until="load")
    href = page.locator("a[href$='lincourse-student-notebooks.zip']").first.get_attribute("href")
    page.close()
    data = urlopen(f"{server}/{href}").read()
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    chapters = sorted(p.name for p in (ROOT / "chapters").glob("*.ipynb"))
    assert sorted(n.split("/")[-1] for n in names if n.endswith(".ipynb")) == chapters
    text = b"".join(zipfile.ZipFile(io.BytesIO(data)).read(n) for n in names)
    assert b"solution-start" not in text and b"exercise-declaration" not in text


def test_a_solution_title_opens_the_solution_not_the_exercise(browser, server):
    """The exercise's name in a folded solution's title is a link; a click on it opens the solution."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors = []
    page.on("console", lambda message: errors.append(message.text) if "Couldn't find button" in message.text else None)
    page.goto(f"{server}/{PAGES[0]}", wait_until="networkidle")
    solution = page.locator(".solution.dropdown").first
    assert "toggle-hidden" in solution.get_attribute("class")
    url = page.url
    solution.locator(".admonition-title a").first.click()
    page.wait_for_timeout(300)
    assert page.url == url, "the click jumped to the exercise"
    assert "toggle-hidden" not in solution.get_attribute("class"), "the solution did not open"
    solution.locator(".admonition-title a").first.click()
    page.wait_for_timeout(300)
    assert "toggle-hidden" in solution.get_attribute("class"), "a second click did not close it"
    assert not errors, errors
    page.close()


def test_search_shows_passages_with_typeset_formulas(browser, server):
    """A search result quotes the page's text, not its navigation, with its formulas typeset, not TeX."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{server}/search.html?q=offset", wait_until="networkidle")
    passages = page.locator("#search-results p.context")
    passages.first.wait_for(timeout=10000)
    page.wait_for_function("() => document.querySelectorAll('#search-results li').length > 0 && "
                           "[...document.querySelectorAll('#search-results li')].every(li => li.querySelector('p.context'))",
                           timeout=10000)
    page.wait_for_timeout(1000)   # KaTeX renders each passage as it arrives
    texts = [passages.nth(i).text_content() for i in range(passages.count())]
    assert len(texts) >= 5
    assert not any("\\(" in t or "\\)" in t for t in texts), [t for t in texts if "\\(" in t or "\\)" in t]
    assert not any("Learning objectives The learning problem" in " ".join(t.split()) for t in texts)
    assert page.locator("#search-results p.context .katex").count() > 0
    page.close()


def test_a_small_figure_opens_at_full_size_on_a_phone(browser, server):
    """At 375 px a figure drawn at under 70% of its width opens at full size, and closes with Escape."""
    page = browser.new_page(viewport={"width": 375, "height": 800})
    page.goto(f"{server}/{next(p for p in PAGES if '05_' in p)}", wait_until="load")
    page.wait_for_timeout(400)
    zoomable = page.locator(".lincourse-zoomable")
    assert zoomable.count() >= 1, "no figure is offered at full size on a phone"
    figure = zoomable.first
    figure.scroll_into_view_if_needed()
    natural = figure.evaluate("e => e.tagName === 'IMG' ? e.naturalWidth : parseFloat(e.getAttribute('width'))")
    assert figure.get_attribute("tabindex") == "0"   # reachable with the keyboard too
    figure.focus()
    page.keyboard.press("Enter")
    dialog = page.locator("dialog.lincourse-zoom[open]")
    dialog.wait_for(timeout=5000)
    shown = dialog.locator(".lincourse-zoom-frame > *").evaluate("e => e.getBoundingClientRect().width")
    assert shown >= natural - 1, (shown, natural)
    page.keyboard.press("Escape")
    page.wait_for_timeout(200)
    assert page.locator("dialog.lincourse-zoom[open]").count() == 0
    page.set_viewport_size({"width": 1366, "height": 900})
    page.wait_for_timeout(500)
    assert page.locator("svg.lincourse-figure.lincourse-zoomable").count() == 0, "players are not shrunk on a desktop"
    page.close()
