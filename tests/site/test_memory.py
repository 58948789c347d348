"""The student's memory on the built site (``_static/lincourse-progress.js``, ``answer.js``, ``player.js``).

In headless Chromium, on the built site served from 127.0.0.1: an answer, its verdict and a written
answer survive a reload and a Next then Back; a slider's position survives a reload; the chapter's
progress line counts a right answer and its points; the sidebar ticks the chapter; the landing
page's course map gets a "Done" column; progress exported to a file and imported into a fresh
browser comes back; "Reset this chapter" forgets. Also the navigation: the hamburger and the
contents icon open the chapter list and the page's contents at 375 px, and the hamburger hides the
chapter list on a desktop.
"""

import json
import re

import pytest

from _site import CHROMIUM, SITE

pytestmark = pytest.mark.skipif(CHROMIUM is None or not (SITE / "chapters").exists(),
                                reason="needs Chromium and the built site (_build/html)")

CHAPTER = "/chapters/02_signed_distance.html"
PLAYER_CHAPTER = "/chapters/07_logistic_model.html"


def _open(browser, server, path, **kwargs):
    context = kwargs.pop("context", None) or browser.new_context(**kwargs)
    page = context.new_page()
    page.goto(server + path)
    page.wait_for_selector(".lincourse-answer-ready, figure.lincourse-live", state="attached")
    return context, page


def _choice_box(page):
    """The first multiple-choice box of the page: (its locator, its record)."""
    box = page.locator(".lincourse-answer[data-kind='choice']").first
    record = json.loads(box.locator("script.lincourse-answer-record").text_content())
    return box, record


def _answer_right(box, record):
    """Try the options of a choice in turn until the box says Correct; returns the right option."""
    result = box.locator(".lincourse-answer-result")
    for option in record["options"]:
        before = int(result.get_attribute("data-count") or 0)
        box.locator(f"input[type=radio][value='{option}']").check()
        box.locator("button").first.click()
        box.page.wait_for_function("([el, n]) => Number(el.dataset.count || 0) > n", arg=[result.element_handle(), before])
        if result.get_attribute("data-verdict") == "right":
            return option
    raise AssertionError(f"no option of {record['key']} is right")


def _chosen(box):
    return box.locator("input[type=radio]:checked").get_attribute("value") if box.locator(
        "input[type=radio]:checked").count() else ""


def _result(box):
    result = box.locator(".lincourse-answer-result")
    result.wait_for()
    return result


def test_an_answer_and_its_verdict_survive_a_reload(browser, server):
    context, page = _open(browser, server, CHAPTER)
    box, record = _choice_box(page)
    right = _answer_right(box, record)
    page.reload()
    page.wait_for_selector(".lincourse-answer-ready")
    box, _ = _choice_box(page)
    assert _chosen(box) == right
    page.wait_for_function("el => el.textContent.startsWith('Correct')",
                           arg=box.locator(".lincourse-answer-result").element_handle())
    assert box.locator(".lincourse-answer-result").get_attribute("data-verdict") == "right"
    context.close()


def test_a_written_answer_survives_next_then_back(browser, server):
    context, page = _open(browser, server, CHAPTER)
    box = page.locator(".lincourse-answer[data-kind='proof'], .lincourse-answer[data-kind='explanation']").first
    box.locator("textarea").fill("The distance is the projection of x - x0 on the unit normal.")
    page.locator(".prev-next-area a.right-next").click()
    page.wait_for_load_state("load")
    assert not page.url.endswith(CHAPTER)
    page.go_back()
    page.wait_for_selector(".lincourse-answer-ready")
    box = page.locator(".lincourse-answer[data-kind='proof'], .lincourse-answer[data-kind='explanation']").first
    assert box.locator("textarea").input_value().startswith("The distance is the projection")
    context.close()


def test_a_slider_position_survives_a_reload(browser, server):
    context, page = _open(browser, server, PLAYER_CHAPTER)
    slider = page.locator("figure.lincourse-live input[type=range]").first
    start = slider.input_value()
    first = page.locator("figure.lincourse-live").first.get_attribute("data-frame")
    slider.focus()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    moved = slider.input_value()
    assert moved != start
    # the moved position's chunk may still be on its way: read the frame once the player shows it
    page.wait_for_function("() => !document.querySelector('figure.lincourse-live').classList.contains('lincourse-loading')",
                           timeout=90000)   # a hang limit
    frame = page.locator("figure.lincourse-live").first.get_attribute("data-frame")
    assert frame != first
    page.reload()
    page.wait_for_selector("figure.lincourse-live")
    slider = page.locator("figure.lincourse-live input[type=range]").first
    assert slider.input_value() == moved
    page.wait_for_function("f => document.querySelector('figure.lincourse-live').getAttribute('data-frame') === f",
                           arg=frame, timeout=90000)   # a hang limit: the frame's chunk loads after the reload
    context.close()


def _counts(text):
    match = re.search(r"(\d+) of (\d+) concept checks?, (\d+) of (\d+) exercises?, ([\d.]+) of ([\d.]+) points", text)
    assert match, text
    return [float(g) for g in match.groups()]


def test_progress_line_sidebar_tick_and_reset(browser, server):
    context, page = _open(browser, server, CHAPTER)
    line = page.locator("#lincourse-progress")
    before = _counts(line.text_content())
    assert before[0] == 0 and before[1] >= 1 and before[4] == 0
    assert "nothing is sent or graded" in line.text_content()
    box, record = _choice_box(page)
    _answer_right(box, record)
    page.wait_for_function("() => /^Your progress on this device: 1 of/.test("
                           "document.querySelector('#lincourse-progress').textContent)")
    after = _counts(line.text_content())
    assert after[0] == 1 and after[4] == record["points"]
    tick = page.locator(".bd-docs-nav li.toctree-l1.current > a .lincourse-tick")
    assert tick.count() == 1 and tick.get_attribute("aria-label").startswith("1 of ")
    page.goto(server + "/chapters/03_training_error.html")   # the chapter's tick, seen from another one
    tick = page.locator(".bd-docs-nav li.toctree-l1 > a[href='02_signed_distance.html'] .lincourse-tick")
    assert tick.count() == 1 and tick.get_attribute("aria-label").startswith("1 of ")
    page.go_back()
    page.wait_for_selector(".lincourse-answer-ready")
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator("#lincourse-progress button", has_text="Reset this chapter").click()
    page.wait_for_load_state("load")
    page.wait_for_selector(".lincourse-answer-ready")
    box, _ = _choice_box(page)
    assert _chosen(box) == ""
    assert _counts(page.locator("#lincourse-progress").text_content())[0] == 0
    context.close()


def _with_course_map(route):
    """The landing page with its chapter table inside <div class="course-map">, if the page has none."""
    response = route.fetch()
    body = response.text()
    if 'class="course-map' not in body:
        body = re.sub(r"(<table\b.*?</table>)", r'<div class="course-map">\1</div>', body, count=1, flags=re.S)
        # the rows of the fixture link to their chapters, as the course map's do
        for n, page in enumerate(sorted(p.name for p in (SITE / "chapters").glob("*.html")), start=1):
            body = re.sub(rf"(<tr[^>]*>\s*<td[^>]*>(?:<p>)?){n}((?:</p>)?</td>)", rf'\1<a href="chapters/{page}">{n}</a>\2',
                          body, count=1)
    route.fulfill(response=response, body=body)


def test_course_map_export_and_import(browser, server, tmp_path):
    context, page = _open(browser, server, CHAPTER)
    box, record = _choice_box(page)
    right = _answer_right(box, record)
    page.route("**/intro.html", _with_course_map)
    page.goto(server + "/intro.html")
    done = page.locator(".course-map td.lincourse-done")
    assert done.count() == 10
    assert done.nth(1).text_content().startswith("1 of ")
    assert done.nth(0).text_content().startswith("0 of ")
    with page.expect_download() as info:
        page.locator(".course-map button", has_text="Export my progress").click()
    exported = tmp_path / "progress.json"
    info.value.save_as(exported)
    data = json.loads(exported.read_text())
    assert data["items"][f"answer:{record['key']}"]["checked"] == right
    context.close()

    fresh = browser.new_context()
    page = fresh.new_page()
    page.route("**/intro.html", _with_course_map)
    page.goto(server + "/intro.html")
    assert page.locator(".course-map td.lincourse-done").nth(1).text_content().startswith("0 of ")
    page.locator(".course-map input[type=file]").set_input_files(str(exported))
    page.wait_for_function("() => /^Imported/.test(document.querySelector('.lincourse-course-status').textContent)")
    assert page.locator(".course-map td.lincourse-done").nth(1).text_content().startswith("1 of ")
    page.goto(server + CHAPTER)
    page.wait_for_selector(".lincourse-answer-ready")
    box, _ = _choice_box(page)
    assert _chosen(box) == right
    fresh.close()


@pytest.mark.parametrize("which, dialog", [("primary", "pst-primary-sidebar-modal"),
                                           ("secondary", "pst-secondary-sidebar-modal")])
def test_phone_menus_open(browser, server, which, dialog):
    context, page = _open(browser, server, PLAYER_CHAPTER, viewport={"width": 375, "height": 812})
    page.wait_for_load_state("load")
    toggles = page.locator(f"button.{which}-toggle")
    visible = [toggles.nth(i) for i in range(toggles.count()) if toggles.nth(i).is_visible()]
    assert visible, f"no visible {which} toggle at 375 px"
    visible[0].click()
    page.wait_for_function(f"() => document.getElementById('{dialog}').open")
    links = page.locator(f"#{dialog} a")
    assert links.count() >= (10 if which == "primary" else 3)
    assert links.first.is_visible()
    context.close()


def test_desktop_hamburger_hides_and_shows_the_chapter_list(browser, server):
    context, page = _open(browser, server, PLAYER_CHAPTER, viewport={"width": 1280, "height": 800})
    page.wait_for_load_state("load")
    sidebar = page.locator(".bd-sidebar-primary")
    hamburger = page.locator("button.primary-toggle:visible").first
    width = sidebar.bounding_box()["x"] + sidebar.bounding_box()["width"]
    assert width > 100
    hamburger.click()
    page.wait_for_function("() => document.querySelector('.bd-sidebar-primary').getBoundingClientRect().right <= 1")
    hamburger.click()
    page.wait_for_function("() => document.querySelector('.bd-sidebar-primary').getBoundingClientRect().right > 100")
    context.close()


def test_a_multiple_choice_is_radio_buttons_usable_by_keyboard(browser, server):
    context, page = _open(browser, server, CHAPTER)
    box, record = _choice_box(page)
    radios = box.locator("input[type=radio]")
    assert [radios.nth(i).get_attribute("value") for i in range(radios.count())] == record["options"]
    assert box.locator("input[type=text]").count() == 0
    assert box.locator("fieldset legend").inner_text().startswith("Your answer: one of")
    radios.first.focus()
    page.keyboard.press("Space")
    page.keyboard.press("ArrowDown")
    assert _chosen(box) == record["options"][1]
    page.keyboard.press("Enter")
    page.wait_for_function("el => el.dataset.count", arg=box.locator(".lincourse-answer-result").element_handle())
    assert box.locator(".lincourse-answer-result").get_attribute("data-verdict") in ("right", "wrong")
    height = min(box.locator("label.lincourse-answer-option").nth(i).bounding_box()["height"] for i in range(radios.count()))
    assert height >= 44
    context.close()
