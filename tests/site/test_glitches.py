"""Small things a student meets on every page, on the built site in headless Chromium.

One search field on a desktop page; the search page's magnifier beside the query, not over it; no
code cell cut at the right at 375 px (long lines wrap); sliders whose touch target is at least 44 px
tall at 375 px; the "Back to top" button in a corner, not over the middle of the text; in dark mode
an answer box without the theme's light card around it; /favicon.ico served.
"""

import pytest

from _site import CHROMIUM, SITE

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


def test_no_code_cell_is_cut_at_375px(page, server):
    for path in (CHAPTER, PLAYERS):
        p = page(server, path, width=375, height=812)
        cut = p.evaluate("() => [...document.querySelectorAll('div.cell_input div.highlight pre')]"
                         ".filter(pre => pre.scrollWidth > pre.clientWidth + 1).length")
        assert cut == 0, f"{path}: {cut} code blocks wider than the column"


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
