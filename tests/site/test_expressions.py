"""Answers typed as arithmetic read the same in the page and in Python.

``tests/expression_cases.json`` is one table of typed answers (exact forms such as ``1/(2*sqrt(2))``,
``2^-1.5``, ``-log(0.02)``, lists, and malformed ones). ``answer.js`` reads each in headless
Chromium, ``_canonical.read_numbers`` in Python: the numbers must agree to the last bit or both
must refuse with the same words. Then answer boxes of the built site's kind, declared here, take
the exact forms of the issue's examples as right in the page and in the notebook's ``check``, and
"0.35" for 0.354 asks for 3 significant digits in both.
"""

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from _site import CHROMIUM
from lincourse.exercises import _canonical as C
from lincourse.exercises import _declare as D
from lincourse.exercises import ANSWER_CSS, ANSWER_JS, answer_box, declare
from lincourse.exercises._check import verdict

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium")

CASES = json.loads((Path(__file__).parents[1] / "expression_cases.json").read_text())["cases"]
EXACT = ["1/(2*sqrt(2))", "sqrt(2)/4", "2**-1.5", "2^-1.5", "2 ** -1.5", "0.354", "0.3536"]


def _python(text):
    try:
        return {"numbers": C.read_numbers(text)[0]}
    except C.FormError as exc:
        return {"error": str(exc)}


@pytest.fixture(scope="module")
def records():
    saved = dict(D._DECLARED)
    D._DECLARED.clear()
    declare("ex-expr-exact", "x", reference=lambda: 1 / (2 * np.sqrt(2)))
    declare("ex-expr-log", "loss", reference=lambda: -np.log(0.02))
    declare("ex-expr-exp", "odds", reference=lambda: np.exp(0.8425))
    declare("ex-expr-angle", "angle", reference=np.pi / 4)
    declare("ex-expr-length", "length", reference=lambda: 4 / np.sqrt(5))
    yield {r["key"]: r for r in D.declared()}
    D._DECLARED.clear()
    D._DECLARED.update(saved)


@pytest.fixture(scope="module")
def page(browser, records, tmp_path_factory):
    folder = tmp_path_factory.mktemp("expressions")
    shutil.copyfile(ANSWER_JS, folder / "answer.js")
    shutil.copyfile(ANSWER_CSS, folder / "answer.css")
    boxes = "".join(answer_box(key)._repr_html_() for key in records)
    (folder / "index.html").write_text(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Expressions</title>'
        '<script src="answer.js" defer></script></head>'
        f"<body><main><h1>Expressions</h1>{boxes}</main></body></html>\n", encoding="utf-8")
    context = browser.new_context()
    page = context.new_page()
    page.goto((folder / "index.html").as_uri())
    page.wait_for_function("() => window.lincourseAnswers !== undefined")
    yield page
    context.close()


def test_the_page_and_python_read_the_same_numbers_and_refuse_the_same_texts(page):
    assert len(CASES) >= 40
    in_page = page.evaluate("""texts => texts.map(t => {
        try { return {numbers: window.lincourseAnswers.readNumbers(t)[0]}; }
        catch (e) { return {error: e.message}; } })""", [text for text, _ in CASES])
    differences = []
    for (text, expected), js in zip(CASES, in_page):
        py = _python(text)
        if py != js:
            differences.append(f"{text!r}: Python {py}, page {js}")
        if isinstance(expected, str) and expected not in py.get("error", ""):
            differences.append(f"{text!r}: expected an error with {expected!r}, got {py}")
        if isinstance(expected, list) and not np.allclose(py.get("numbers", [np.nan]), expected, rtol=1e-15):
            differences.append(f"{text!r}: expected {expected}, got {py}")
    assert not differences, "\n".join(differences)


@pytest.mark.parametrize("key, texts", [
    ("ex-expr-exact", EXACT), ("ex-expr-log", ["-log(0.02)", "-ln(0.02)", "log(50)", "3.91"]),
    ("ex-expr-exp", ["exp(0.8425)", "e^(0.8425)", "e**0.8425", "2.32"]), ("ex-expr-angle", ["pi/4", "0.785"]),
    ("ex-expr-length", ["4/sqrt(5)", "4*5^-0.5", "1.79"]),
])
def test_exact_forms_are_right_in_the_page_and_in_the_notebook(page, records, key, texts):
    for text in texts:
        assert verdict(records[key], text, {})[0] is True, text
        shown = page.evaluate("([key, text]) => window.lincourseAnswers.answer(JSON.parse(document.querySelector("
                              "`#lincourse-answer-${key} script`).textContent), text, {})", [key, text])
        assert shown["verdict"] is True, (text, shown)


def test_too_few_digits_asks_for_digits_in_both(page, records):
    record = records["ex-expr-exact"]
    in_python = verdict(record, "0.35", {})
    box = page.locator("#lincourse-answer-ex-expr-exact")
    box.locator("input").fill("0.35")
    box.locator("button").click()
    page.wait_for_function("el => el.dataset.count", arg=box.locator(".lincourse-answer-result").element_handle())
    assert in_python == (None, box.locator(".lincourse-answer-result").inner_text())
    assert "give 3 significant digits (0.35 has 2)" in in_python[1]
    assert box.locator(".lincourse-answer-result").get_attribute("data-verdict") == "none"
