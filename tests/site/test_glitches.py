"""Small things a student meets on every page, on the built site in headless Chromium.

One search field on a desktop page; the search page's magnifier beside the query, not over it; a
search result's passage taken from the page's text, not from the theme's block for paper ("Contents");
on every chapter page, at 375 and 1280 px, no code block nor printed output wider than its column
(long lines wrap), and every display formula either fits or shows that it scrolls
(its fading edge, an arrow at that edge that goes at the end, a place in the Tab order, its number
on a line of its own), and a table that scrolls has the same cues; the landing page's course map
within the column at 375 px (a card per chapter, each cell after its column's title) and at 1280 px;
sliders whose touch target is at least 44 px tall at 375 px; the "Back to top" button in a corner,
not over the middle of the text; in dark mode an answer box without the theme's light card around
it; /favicon.ico served; on a phone, the banner saying Live Code could not start in a few lines at
the bottom of the screen.
"""

from urllib.parse import urlparse

import pytest

from _site import CHROMIUM, PAGES, SITE

pytestmark = pytest.mark.skipif(CHROMIUM is None or not (SITE / "chapters").exists(),
                                reason="needs Chromium and the built site (_build/html)")

CHAPTER = "/chapters/02_signed_distance.html"
PLAYERS = "/chapters/07_logistic_model.html"


@pytest.fixture
def page(browser):
    contexts = []

    def open_(server, path, width=1280, height=900, scheme="light"):
        context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme)
        contexts.append(context)
        p = context.new_page()
        p.goto(server + path)
        p.wait_for_load_state("load")
        return p

    yield open_
    for context in contexts:
        context.close()


def test_one_search_field_on_a_desktop_page(page, server):
    p = page(server, CHAPTER)
    shown = p.evaluate("() => [...document.querySelectorAll('.search-button-field')]"
                       ".filter(e => e.getBoundingClientRect().width > 0).length")
    assert shown == 1


def test_the_search_magnifier_is_beside_the_query(page, server):
    p = page(server, "/search.html?q=margin")
    gap = p.evaluate("""() => { const input = document.querySelector('form.bd-search input[type=search]');
        const icon = input.parentElement.querySelector('i, svg');
        return input.getBoundingClientRect().left + parseFloat(getComputedStyle(input).paddingLeft)
               - icon.getBoundingClientRect().right; }""")
    assert gap >= 2


def test_a_search_passage_is_text_of_the_page_not_its_printed_contents(page, server):
    """The theme puts a block for paper (the title again and a "Contents" heading) in every page; the
    passage under chapter 2's result for "margin" was "...Signed distance and margins Contents..."."""
    p = page(server, "/search.html?q=margin")
    p.wait_for_function("() => /found \\d+ page/.test(document.querySelector('#search-results').textContent)",
                        timeout=20000)
    p.wait_for_function("() => [...document.querySelectorAll('#search-results li')]"
                        ".every(li => li.querySelector('p.context'))", timeout=20000)
    passages = p.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#search-results li')].map(li =>
        [li.querySelector('a').getAttribute('href').split('?')[0], li.querySelector('p.context').textContent]))""")
    chapter2 = next(text for href, text in passages.items() if "02_signed_distance" in href)
    assert "Contents" not in chapter2, chapter2
    assert "A linear classifier reports" in chapter2, chapter2   # the page's first paragraph, after its title
    assert not [href for href, text in passages.items() if "Contents" in text], passages


# every display formula of the page, as the reader sees it: whether it is shown (not in a folded solution),
# whether it scrolls, and the cues it then has
_FORMULAS = """() => [...document.querySelectorAll('div.math > .katex-display')].map(box => {
  const math = box.parentElement, eqno = math.querySelector(':scope > .eqno');
  const arrow = getComputedStyle(math, '::after'), style = getComputedStyle(box);
  const b = box.getBoundingClientRect(), a = math.getBoundingClientRect();
  const at = {left: a.right - parseFloat(arrow.right) - parseFloat(arrow.width),
              top: a.top + parseFloat(arrow.top) - parseFloat(arrow.height) / 2};
  return {
    text: box.textContent.slice(0, 50), number: eqno ? eqno.textContent.replace('#', '') : '',
    shown: b.width > 0 && b.height > 0, scrolls: box.scrollWidth > box.clientWidth + 1,
    focusable: box.tabIndex === 0, fades: (style.webkitMaskImage || style.maskImage || 'none') !== 'none',
    arrow: arrow.content !== 'none' && arrow.display !== 'none',
    arrow_inside: at.left >= b.left - 1 && at.left + parseFloat(arrow.width) <= b.right + 1
                  && at.top >= b.top - 8 && at.top + parseFloat(arrow.height) <= b.bottom + 8,
    number_apart: eqno ? eqno.getBoundingClientRect().bottom <= b.top + 1 : true,
  };
})"""


@pytest.mark.parametrize("path", PAGES)
def test_no_formula_or_code_wider_than_its_column_without_a_visible_cue(page, server, path):
    p = page(server, "/" + path, width=375, height=812)   # one visit, a phone then a desktop window
    p.wait_for_function("() => document.documentElement.hasAttribute('data-lincourse-math')")
    p.evaluate("() => document.fonts.ready")
    for width, height in ((375, 812), (1280, 900)):
        if p.viewport_size["width"] != width:
            p.set_viewport_size({"width": width, "height": height})
            p.wait_for_timeout(200)   # the theme's and lincourse.js's resize handlers are debounced (300 ms, 150 ms)
        p.wait_for_timeout(300)   # the fit after the fonts, and the resize handlers' delay
        cut = p.evaluate("() => [...document.querySelectorAll('main div.highlight pre, main div.cell_output pre')]"
                         ".filter(pre => pre.scrollWidth > pre.clientWidth + 1).map(pre => pre.textContent.slice(0, 40))")
        assert not cut, f"{path} at {width} px: code or output wider than its column: {cut}"
        formulas = p.evaluate(_FORMULAS)
        assert formulas, f"{path}: no display formula"
        for f in (f for f in formulas if f["shown"] and f["scrolls"]):
            where = f"{path} at {width} px, {f['number'] or 'formula'} {f['text']!r}"
            assert f["focusable"] and f["fades"], f"{where}: scrolls without its fading edge or Tab stop"
            assert f["arrow"] and f["arrow_inside"], f"{where}: scrolls without the arrow at its right edge"
            assert f["number_apart"], f"{where}: scrolls beside its number instead of using the whole line"
        # scrolled to its end, a formula shows no arrow nor fading edge
        ends = p.evaluate("""() => [...document.querySelectorAll('div.math > .katex-display.lincourse-scrolls')]
            .filter(box => box.getBoundingClientRect().width > 0).map(box => {
              box.scrollLeft = box.scrollWidth; box.dispatchEvent(new Event('scroll'));
              return getComputedStyle(box.parentElement, '::after').content === 'none'
                     && !box.classList.contains('lincourse-more'); })""")
        assert all(ends), f"{path} at {width} px: a formula scrolled to its end still shows that there is more"
        p.evaluate("""() => document.querySelectorAll('div.math > .katex-display').forEach(box => {
            box.scrollLeft = 0; box.dispatchEvent(new Event('scroll')); })""")   # back to the start for the next width
        # a table that scrolls (three chapters' tables at 375 px): the same fading edge and arrow
        tables = p.evaluate("""() => [...document.querySelectorAll('main .pst-scrollable-table-container')]
            .filter(box => box.scrollWidth > box.clientWidth + 1 && box.checkVisibility({visibilityProperty: true}))
            .map(box => ({text: box.textContent.trim().slice(0, 40), focusable: box.tabIndex === 0,
                          fades: (getComputedStyle(box).webkitMaskImage || 'none') !== 'none',
                          arrow: getComputedStyle(box.parentElement, '::after').content !== 'none'}))""")
        for t in tables:
            assert t["focusable"] and t["fades"] and t["arrow"], f"{path} at {width} px: a table scrolls without a cue: {t}"


@pytest.mark.parametrize("width", [375, 1280])
def test_the_course_map_fits_the_screen(page, server, width):
    p = page(server, "/intro.html", width=width, height=812)
    p.wait_for_selector(".course-map td.lincourse-done")
    p.wait_for_timeout(300)
    box = p.evaluate("() => { const b = document.querySelector('.course-map .pst-scrollable-table-container');"
                     " return [b.scrollWidth, b.clientWidth]; }")
    assert box[0] <= box[1] + 1, f"the course map is {box[0]} px wide in a {box[1]} px column"
    if width == 375:   # one card per chapter, each cell after its column's title
        labels = p.evaluate("""() => [...document.querySelectorAll('.course-map tbody tr')].map(row =>
            [...row.children].slice(2).map(td => getComputedStyle(td, '::before').content))""")
        assert len(labels) == 10
        for row in labels:
            assert len(row) == 5 and all(c not in ("none", "normal", "") for c in row), row
            assert "Done" in row[-1] and "Core" in " ".join(row), row


def test_sliders_are_44px_touch_targets_on_a_phone(page, server):
    p = page(server, PLAYERS, width=375, height=812)
    p.wait_for_selector("figure.lincourse-live")
    heights = p.evaluate("() => [...document.querySelectorAll('figure.lincourse-player input[type=range]')]"
                         ".map(s => s.getBoundingClientRect().height)")
    assert heights and min(heights) >= 44
    slider = p.locator("figure.lincourse-live input[type=range]").first
    slider.scroll_into_view_if_needed()
    box = slider.bounding_box()
    before = slider.input_value()
    p.mouse.click(box["x"] + box["width"] * 0.95, box["y"] + box["height"] / 2 + 14)   # 14 px below the track
    assert slider.input_value() != before


def test_back_to_top_sits_in_a_corner(page, server):
    p = page(server, CHAPTER, width=375, height=812)
    p.mouse.wheel(0, 3000)
    p.wait_for_timeout(400)
    p.mouse.wheel(0, -300)   # the theme shows the button while scrolling up
    button = p.locator("#pst-back-to-top")
    button.wait_for(state="visible")
    box = button.bounding_box()
    assert box["x"] + box["width"] >= 375 - 24 and box["width"] <= 60


def test_an_answer_box_has_no_light_card_in_dark_mode(page, server):
    p = page(server, CHAPTER, scheme="dark")
    p.wait_for_function("() => document.documentElement.dataset.theme === 'dark'")
    background = p.evaluate("() => getComputedStyle(document.querySelector('.lincourse-answer')"
                            ".closest('div.output.text_html')).backgroundColor")
    assert background in ("rgba(0, 0, 0, 0)", "transparent")


def test_favicon_ico_is_served(page, server):
    p = page(server, CHAPTER)
    response = p.request.get(server + "/favicon.ico")
    assert response.ok and response.body()[:4] == b"\x00\x00\x01\x00"


def test_the_live_code_banner_is_compact_on_a_phone(browser, server):
    """Offline, Live Code fails at once and says so in a banner fixed at the bottom of the window: on a
    375 x 812 phone it took 343 px (42% of the screen); it now spans the bottom edge in a few lines,
    says what failed and what works instead, and its Close button is a 44 px target the keyboard reaches."""
    context = browser.new_context(viewport={"width": 375, "height": 812})
    p = context.new_page()
    p.route("**/*", lambda r: r.abort() if urlparse(r.request.url).hostname != "127.0.0.1" else r.continue_())
    p.goto(server + CHAPTER, wait_until="networkidle")
    p.locator(".btn-launch-thebe").first.evaluate("b => b.click()")   # "Live Code", in the launch menu
    banner = p.locator("#lincourse-live-code-status")
    banner.wait_for(timeout=25000)
    box = banner.bounding_box()
    assert box["height"] <= 0.2 * 812, f"the banner is {box['height']:.0f} px tall on a 812 px screen"
    assert box["y"] + box["height"] <= 812 + 0.5 and box["x"] >= 0 and box["x"] + box["width"] <= 375 + 0.5
    shown = banner.inner_text()
    assert "Live Code could not start: its library could not be loaded." in shown
    assert "work without it" in shown and "JupyterLab, Binder or Colab" in shown
    assert banner.evaluate("b => parseFloat(getComputedStyle(b).fontSize)") >= 13   # still readable
    close = banner.get_by_role("button", name="Close")
    size = close.bounding_box()
    assert size["width"] >= 44 and size["height"] >= 44
    close.focus()
    p.keyboard.press("Enter")
    assert p.locator("#lincourse-live-code-status").count() == 0
    context.close()
