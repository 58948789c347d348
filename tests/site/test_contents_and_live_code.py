"""The page's contents mark the section being read, however the reader scrolls; Live Code says why it
cannot start (_static/lincourse.js and lincourse.css)."""

from urllib.parse import urlparse

import pytest

from _site import PAGES

CHAPTER = next((p for p in PAGES if "07_" in p), PAGES[0] if PAGES else None)

# Document positions of the titles of the sections the contents list, in the list's order.
_SECTIONS = """() => Array.from(document.querySelectorAll('#pst-page-toc-nav a[href^="#"]')).map(a => {
  const el = document.getElementById(decodeURIComponent(a.hash.slice(1)));
  const title = el && (el.querySelector('h1,h2,h3,h4,h5,h6') || el);
  return [a.getAttribute('href'), title ? title.getBoundingClientRect().top + window.scrollY : null];
})"""
_ACTIVE = "() => Array.from(document.querySelectorAll('#pst-page-toc-nav a.active')).map(a => a.getAttribute('href'))"


def _settle(page):
    """Wait until the page has stopped scrolling and the scripts have answered the last scroll."""
    last = None
    for _ in range(40):
        page.wait_for_timeout(50)
        y = page.evaluate("window.scrollY")
        if y == last:
            break
        last = y
    page.wait_for_timeout(150)


@pytest.mark.skipif(CHAPTER is None, reason="the site is not built")
def test_the_contents_mark_the_section_being_read_after_a_jump_and_when_scrolling_up(browser, server):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{server}/{CHAPTER}", wait_until="networkidle")
    page.wait_for_selector("#pst-page-toc-nav a")
    sections = [(href, top) for href, top in page.evaluate(_SECTIONS) if top is not None]
    assert len(sections) >= 6, sections
    height = page.evaluate("window.innerHeight")
    long_ones = [(k, href) for k, (href, top) in enumerate(sections[:-1]) if sections[k + 1][1] - top > 1.5 * height]
    assert len(long_ones) >= 3, "too few long sections to test on"
    wrong = []
    for k, href in long_ones:
        top, next_top = sections[k][1], sections[k + 1][1]
        # a jump into the middle of the section: its title is above the window, the next one below the band
        page.evaluate("y => window.scrollTo(0, y)", (top + next_top) / 2 - 0.3 * height)
        _settle(page)
        if page.evaluate(_ACTIVE) != [href]:
            wrong.append(("jump", href, page.evaluate(_ACTIVE)))
        # from the next section, scroll back up into this one's end: no title crosses the band
        page.evaluate("y => window.scrollTo(0, y)", next_top - 50)
        _settle(page)
        page.mouse.move(640, 400)
        page.mouse.wheel(0, -0.6 * height)
        _settle(page)
        if page.evaluate(_ACTIVE) != [href]:
            wrong.append(("up", href, page.evaluate(_ACTIVE)))
    assert not wrong, wrong
    page.close()


@pytest.mark.skipif(CHAPTER is None, reason="the site is not built")
def test_the_contents_mark_a_section_reached_by_scrolling_down(browser, server):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{server}/{CHAPTER}", wait_until="networkidle")
    page.wait_for_selector("#pst-page-toc-nav a")
    sections = [s for s in page.evaluate(_SECTIONS) if s[1] is not None]
    assert len(sections) >= 4, sections
    href, top = sections[3]
    page.evaluate("y => window.scrollTo(0, y)", top - 400)
    _settle(page)
    page.mouse.move(640, 400)
    page.mouse.wheel(0, 300)   # the title crosses into the top 30% of the window
    _settle(page)
    assert page.evaluate(_ACTIVE) == [href]
    page.close()


def _offline(page):
    page.route("**/*", lambda route: route.abort() if urlparse(route.request.url).hostname != "127.0.0.1"
               else route.continue_())


def _press_live_code(page):
    button = page.locator(".btn-launch-thebe").first   # "Live Code", in the launch menu
    assert button.count() == 1, "no Live Code button on the page"
    button.evaluate("b => b.click()")   # the menu is closed; a click starts it as the menu's would


@pytest.mark.skipif(CHAPTER is None, reason="the site is not built")
def test_offline_live_code_says_so_in_a_banner_that_moves_nothing(browser, server):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    _offline(page)
    page.goto(f"{server}/{CHAPTER}", wait_until="networkidle")
    title_top = page.evaluate("document.querySelector('article h1').getBoundingClientRect().top")
    _press_live_code(page)
    banner = page.locator("#lincourse-live-code-status")
    banner.wait_for(timeout=25000)
    text = banner.text_content()
    assert "Live Code could not start" in text and "its library could not be loaded" in text
    assert "sliders and answer boxes on this page work without it" in text
    assert banner.get_attribute("role") == "status"
    assert banner.evaluate("b => getComputedStyle(b).position") == "fixed"
    box = banner.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 900, box   # in the window
    assert page.evaluate("document.querySelector('article h1').getBoundingClientRect().top") == title_top
    assert not page.locator(".thebe-launch-button").first.is_visible()   # no spinning grey button left
    banner.get_by_role("button", name="Close").click()
    assert page.locator("#lincourse-live-code-status").count() == 0
    page.close()


_FAILING_THEBE = """
window.thebelab = {handlers: [], on: function (name, f) { this.handlers.push(f); },
  bootstrap: function () { var h = this.handlers; setTimeout(function () {
    h.forEach(function (f) { f({}, {status: "failed", message: "<b>Binder</b> could not be reached"}); }); }, 50); }};
"""


@pytest.mark.skipif(CHAPTER is None, reason="the site is not built")
def test_live_code_says_so_when_no_kernel_can_be_started(browser, server):
    """The library loads (here a stand-in that fails as Thebe does), but no kernel starts."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})

    def route(r):
        host = urlparse(r.request.url).hostname
        if host == "127.0.0.1":
            r.continue_()
        elif "thebe" in r.request.url:
            r.fulfill(status=200, content_type="application/javascript", body=_FAILING_THEBE)
        else:
            r.abort()

    page.route("**/*", route)
    page.goto(f"{server}/{CHAPTER}", wait_until="networkidle")
    _press_live_code(page)
    banner = page.locator("#lincourse-live-code-status")
    banner.wait_for(timeout=10000)
    assert "no kernel could be started" in banner.text_content()
    assert "Binder could not be reached" in banner.text_content() and "<b>" not in banner.text_content()
    page.close()
