"""The skip links on the built site, in headless Chromium.

The bar of skip links (the theme's "Skip to main content" and a "Skip to the explorer: ..." per
player, added by the players' script) is hidden until one of its links has the keyboard's focus.
The theme hid it by moving it just above the window; a screenshot of a part of the page taller than
the window drew it in the middle of that part. Here: such a screenshot shows no bar; the first Tab
shows the bar at the top of the window, whole, at 1280 px and at 375 px; Enter on an explorer's link
moves the focus to that explorer and the bar goes away again. And the landing page links its "Start
here" and every chapter of the course map to the built chapter pages.

(The menus, hamburger and contents icon at 375 px and the hamburger on a desktop, are tested in
test_memory.py.)
"""

import io

import pytest

from _site import CHROMIUM, SITE

pytestmark = pytest.mark.skipif(CHROMIUM is None or not (SITE / "chapters").exists(),
                                reason="needs Chromium and the built site (_build/html)")

PLAYERS = "/chapters/07_logistic_model.html"
MARK = (1, 2, 3)   # the bar is painted in this colour for the test, which no page uses


def _open(browser, server, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(server + PLAYERS)
    page.wait_for_load_state("load")
    page.wait_for_selector("figure.lincourse-live")
    # only the colour changes: where the bar is, and whether it is drawn, are the site's own styles
    page.add_style_tag(content="#pst-skip-link { background-color: rgb(%d, %d, %d) !important; }" % MARK)
    return context, page


def _bar_rows(png):
    """The number of rows of a screenshot that are mostly the bar's colour."""
    import numpy as np
    from PIL import Image

    pixels = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
    marked = (pixels == MARK).all(axis=2)
    return int((marked.mean(axis=1) > 0.5).sum())


def _skip_links(page):
    return page.evaluate("""() => [...document.querySelectorAll('#pst-skip-link a')].map(a => {
        const r = a.getBoundingClientRect();
        return {text: a.textContent, top: r.top, bottom: r.bottom, left: r.left, right: r.right};
    })""")


@pytest.mark.parametrize("width, height", [(1280, 600), (375, 812)])
def test_the_skip_links_are_hidden_until_focused_then_shown_at_the_top(browser, server, width, height):
    context, page = _open(browser, server, width, height)
    links = _skip_links(page)
    assert links[0]["text"] == "Skip to main content"
    assert any(link["text"].startswith("Skip to the explorer: ") for link in links), links

    # a part of the page taller than the window, well down the page: no bar drawn in it
    tall = page.evaluate(f"""() => [...document.querySelectorAll('main section')].findIndex(
        s => s.getBoundingClientRect().top > 1500 && s.getBoundingClientRect().height > {height} + 200)""")
    assert tall >= 0, "no section taller than the window"
    section = page.locator("main section").nth(tall)
    section.scroll_into_view_if_needed()
    assert _bar_rows(section.screenshot()) == 0, "the skip links are drawn in a screenshot of a tall section"
    assert _bar_rows(page.screenshot()) == 0, "the skip links are drawn in the window"

    # the first Tab: the bar slides in at the top of the window, every link whole inside the window
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.textContent") == "Skip to main content"
    page.wait_for_function("() => document.getElementById('pst-skip-link').getBoundingClientRect().top === 0")
    bar = page.evaluate("() => document.getElementById('pst-skip-link').getBoundingClientRect().toJSON()")
    assert bar["bottom"] < height / 2, f"the bar covers {bar['bottom']:.0f} px of a {height} px window"
    for link in _skip_links(page):
        assert 0 <= link["left"] and link["right"] <= width and 0 <= link["top"] and link["bottom"] <= bar["bottom"], link
    shown = _bar_rows(page.screenshot(clip={"x": 0, "y": 0, "width": width, "height": bar["bottom"]}))
    assert shown >= 0.5 * bar["bottom"], "the focused bar is not drawn at the top of the window"

    # Tab to the first explorer's link, Enter: the focus is on that explorer, and the bar is gone
    page.keyboard.press("Tab")
    target = page.evaluate("() => document.activeElement.getAttribute('href')")
    assert target.startswith("#"), target
    page.keyboard.press("Enter")
    page.wait_for_function("id => document.activeElement && document.activeElement.id === id", arg=target[1:])
    page.wait_for_timeout(300)   # the theme's 150 ms slide
    assert _bar_rows(page.screenshot()) == 0, "the bar stays after the focus has left it"
    context.close()


def test_the_landing_page_links_its_start_and_every_chapter(browser, server):
    context = browser.new_context(viewport={"width": 375, "height": 812})
    page = context.new_page()
    page.goto(server + "/intro.html")
    start = page.locator("main p", has_text="Start here").locator("a").first
    assert start.get_attribute("href") == "chapters/01_hyperplanes.html"
    rows = page.locator(".course-map tbody tr")
    assert rows.count() == len(sorted((SITE / "chapters").glob("*.html")))
    for k in range(rows.count()):
        link = rows.nth(k).locator("a").first
        href = link.get_attribute("href")
        assert href.startswith("chapters/") and href.endswith(".html"), href
        response = page.request.get(f"{server}/{href}")
        assert response.ok, href
        assert link.text_content().strip() in response.text(), f"{href} is not the chapter its row names"
    start.click()
    page.wait_for_url("**/chapters/01_hyperplanes.html")
    assert "Hyperplanes and linear classifiers" in page.locator("main h1").first.text_content()
    context.close()


def _chapter_list(page):
    return page.evaluate("""() => { const list = document.querySelector('div.bd-sidebar-primary');
        const link = [...list.querySelectorAll('.bd-docs-nav a.current, .bd-docs-nav li.active > a')].pop();
        const l = list.getBoundingClientRect(), a = link.getBoundingClientRect();
        return {scrolled: list.scrollTop, inside: a.top >= l.top && a.bottom <= l.bottom,
                fits_unscrolled: a.bottom - l.top + list.scrollTop <= list.clientHeight}; }""")


@pytest.mark.parametrize("height", [800, 600])
def test_the_chapter_list_shows_the_current_chapter_and_scrolls_only_when_needed(browser, server, height):
    """At 1280 x 800 the theme scrolled the list whenever the current chapter was in the window's lower
    half, which cut the course's title at its top although nothing needed scrolling; from one page to the
    next it kept the list's place, where the current chapter could be out of view."""
    chapters = sorted(p.name for p in (SITE / "chapters").glob("*.html"))
    context = browser.new_context(viewport={"width": 1280, "height": height})
    for name in chapters:   # a first visit: a new tab
        page = context.new_page()
        page.goto(f"{server}/chapters/{name}")
        page.wait_for_load_state("load")
        state = _chapter_list(page)
        assert state["inside"], f"{name}: the current chapter is not whole in the chapter list"
        if state["fits_unscrolled"]:
            assert state["scrolled"] == 0, f"{name}: the chapter list is scrolled though nothing needs it"
        page.close()
    page = context.new_page()   # one chapter after the other in one tab: the list's place is kept
    for name in (chapters[0], chapters[-1], chapters[0], chapters[len(chapters) // 2]):
        page.goto(f"{server}/chapters/{name}")
        page.wait_for_load_state("load")
        assert _chapter_list(page)["inside"], f"{name}, reached from another chapter: the current chapter is hidden"
    context.close()
