"""The website's answer boxes (``answer.js``) say exactly what the notebook's ``check`` says.

A small static page with a few answer boxes (``lincourse.exercises.answer_box``) is written to a
temporary folder and opened from ``file://`` in Chromium (no server, no kernel, no crypto.subtle).
Then one table of inputs is typed into the boxes and given to the Python check, and the verdicts
and feedback must be identical; the canonical forms of thousands of numbers, the SHA-256 of many
strings and the forms of many typed answers must be identical too. axe-core finds no violation on
the page, the boxes work with the keyboard alone and from a plain-http server, a proof's box
leads to its solution, and without JavaScript a box says where else to check.
"""

import json
import math
import shutil

import numpy as np
import pytest

from _site import BROWSER_ARGS, CHROMIUM, serve
from lincourse.exercises import _canonical as C
from lincourse.exercises import _declare as D
from lincourse.exercises import ANSWER_CSS, ANSWER_JS, declare
from lincourse.exercises._check import verdict

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium not found: install Debian's chromium package "
                                "(apt-get install chromium) to run the browser tests")

AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    "rules": {"label-content-name-mismatch": {"enabled": True}},
    "resultTypes": ["violations"],
    "preload": False,   # axe's preload fetches the stylesheets, which a file:// page may not
}

# (exercise, what the student types), in order: hints advance with the wrong attempts, in both worlds
TABLE = [
    ("ex-web-distance", "2.33"), ("ex-web-distance", "7/3"), ("ex-web-distance", " 7 / 3 "),
    ("ex-web-distance", "2.3333333"), ("ex-web-distance", "2.34"), ("ex-web-distance", "-2.33"),
    ("ex-web-distance", "2,33"), ("ex-web-distance", "[2.33]"), ("ex-web-distance", "two"),
    ("ex-web-distance", "1e400"), ("ex-web-distance", "1/0"), ("ex-web-distance", "\u22127/3"),
    ("ex-web-distance", "2.4"), ("ex-web-distance", "2.5"), ("ex-web-distance", "0x10"),
    ("ex-web-distance", "   "), ("ex-web-distance", "2.33e0"), ("ex-web-distance", ".233e1"),
    ("ex-web-edge", "2.335"), ("ex-web-edge", "2.33"), ("ex-web-edge", "2.3349"), ("ex-web-edge", "2.32"),
    ("ex-web-tiny", "-1e-3"), ("ex-web-tiny", "-0.001"), ("ex-web-tiny", "-1/1000"), ("ex-web-tiny", "1e-3"),
    ("ex-web-tiny", "0"), ("ex-web-tiny", "-0.0010004"),
    ("ex-web-count", "7"), ("ex-web-count", "7.0"), ("ex-web-count", "14/2"), ("ex-web-count", "7.5"),
    ("ex-web-count", "8"), ("ex-web-count", "7 8"),
    ("ex-web-gradient", "0.1, -0.25, 1.5"), ("ex-web-gradient", "[0.1 -1/4 1.5]"), ("ex-web-gradient", "(0.1; -0.25; 1.5)"),
    ("ex-web-gradient", "0.1, -0.25"), ("ex-web-gradient", "0.1, 0.25, 1.5"), ("ex-web-gradient", "-0.1, 0.25, -1.5"),
    ("ex-web-gradient", "0.1, x, 1.5"), ("ex-web-gradient", "{0.1, -0.25, 1.5}"),
    ("ex-web-set", "{A, C}"), ("ex-web-set", "A, C"), ("ex-web-set", "c;a"), ("ex-web-set", '{"A", "C"}'),
    ("ex-web-set", "[A, C]"), ("ex-web-set", "B"), ("ex-web-set", "{A, B, C}"), ("ex-web-set", "AC"),
    ("ex-web-set", "{A, C"), ("ex-web-set", "A, C}"), ("ex-web-set", "{}"), ("ex-web-set", "{ a , c , a }"),
    ("ex-web-choice", "B"), ("ex-web-choice", " b "), ("ex-web-choice", "'B'"), ("ex-web-choice", "A"),
    ("ex-web-choice", "A, B"), ("ex-web-choice", "E"), ("ex-web-choice", "{B}"),
    ("ex-web-word", "Logistic  Regression"), ("ex-web-word", "perceptron"), ("ex-web-word", "svm"),
]


@pytest.fixture(scope="module")
def records():
    """A few declarations of every kind a box checks (into a registry of their own)."""
    saved = dict(D._DECLARED)
    D._DECLARED.clear()
    declare("ex-web-distance", "distance", reference=lambda: 7 / 3, points=2,
            wrong={"sign": (lambda: -7 / 3, "A distance is never negative: take the absolute value.")},
            hint=["Use the signed-distance formula.", "Divide by the norm of theta."])
    declare("ex-web-edge", "margin", reference=2.33499999, hint="Half the distance between the points.")
    declare("ex-web-tiny", "shift", reference=-1e-3, digits=2)
    declare("ex-web-count", "mistakes", kind="count", reference=7, wrong={"off": (6, "Count the last update too.")})
    declare("ex-web-gradient", "gradient", kind="vector", reference=lambda: (np.array([0.1, -0.25]), 1.5),
            flatten=True, wrong={"sign": ([-0.1, 0.25, -1.5], "That is the direction of descent, not the gradient.")},
            form_hint="Give g_w and g_b as one list: [*g_w, g_b].")
    declare("ex-web-set", "separable", kind="set", reference={"A", "C"}, options="ABCD",
            wrong={"all": ({"A", "B", "C"}, "B is not separable: look at the XOR pattern.")}, hint="Draw each one.")
    declare("ex-web-choice", "letter", kind="choice", reference="B", options=["A", "B", "C", "D"],
            wrong={"A": ("A", "A holds only at b = 0.")},
            explain="B: the boundary moves by −b/‖θ‖, here é and ∑ too, " * 3)
    declare("ex-web-word", "model", kind="choice", reference="logistic regression", example="perceptron")
    declare("ex-web-proof", "proof", kind="proof", points=3)
    declare("ex-web-function", "point_margins", kind="function", reference=lambda X: 2 * X, cases=[(np.ones(2),)])
    result = {r["key"]: r for r in D.declared()}
    yield result
    D._DECLARED.clear()
    D._DECLARED.update(saved)


@pytest.fixture(scope="module")
def site(records, tmp_path_factory):
    """The page, answer.js and answer.css in a fresh folder."""
    folder = tmp_path_factory.mktemp("answers")
    shutil.copyfile(ANSWER_JS, folder / "answer.js")
    shutil.copyfile(ANSWER_CSS, folder / "answer.css")
    boxes = "\n".join(f'<section><h2 id="{key}">Exercise {key}</h2><p>The exercise.</p>'
                      f"{_box(key)}</section>" for key in records)
    solution = ('<div class="solution admonition" id="solution-proof"><p class="admonition-title">Solution to '
                '<a class="reference internal" href="#ex-web-proof">Exercise ex-web-proof</a></p><p>The proof.</p></div>')
    (folder / "index.html").write_text(
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Answer boxes</title>'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<link rel="stylesheet" href="answer.css"><script src="answer.js" defer></script></head>'
        f"<body><main><h1>Answer boxes</h1>{boxes}{solution}</main></body></html>\n", encoding="utf-8")
    return folder


def _box(key):
    from lincourse.exercises import answer_box

    return answer_box(key)._repr_html_()


@pytest.fixture(scope="module")
def page(browser, site):
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning") else None)
    page.goto((site / "index.html").as_uri())
    page.wait_for_function("() => window.lincourseAnswers !== undefined")
    yield page
    assert not errors, errors
    context.close()


def _type(page, key, text, submit="click"):
    """Type ``text`` into the box of ``key``, check it, and return (verdict, message) as the page shows them."""
    box = page.locator(f"#lincourse-answer-{key}")
    result = box.locator(".lincourse-answer-result")
    before = int(result.get_attribute("data-count") or 0)
    radios = box.locator("input[type=radio]")
    if radios.count():   # a multiple choice: click the option typed, if it is one (else nothing to compare)
        wanted = C.item_form(text)
        chosen = [radios.nth(i) for i in range(radios.count()) if C.item_form(radios.nth(i).get_attribute("value")) == wanted]
        if not chosen:
            return None
        chosen[0].check()
        field = chosen[0]
    else:
        field = box.locator("input, textarea")
        field.fill(text)
    if submit == "click":
        box.locator("button").click()
    else:
        field.press("Enter")
    page.wait_for_function("([el, n]) => Number(el.dataset.count || 0) > n", arg=[result.element_handle(), before])
    shown = {"right": True, "wrong": False, "none": None}[result.get_attribute("data-verdict")]
    return shown, result.inner_text()


def test_the_page_and_the_notebook_give_the_same_verdicts_and_feedback(page, records):
    assert len(TABLE) >= 40
    attempts, differences = {}, []
    for key, text in TABLE:
        in_python = verdict(records[key], text, attempts)
        in_browser = _type(page, key, text)
        if in_browser is None:   # a text a radio button cannot give
            continue
        if in_python[1].startswith("No answer yet"):   # each world says how to give an answer there
            in_python = (None, "No answer yet: type your answer, then press Check.")
        if in_python != in_browser:
            differences.append(f"{key} {text!r}: notebook {in_python}, page {in_browser}")
    assert not differences, "\n".join(differences)
    seen = {v for key, text in TABLE for v in [verdict(records[key], text, {})[0]]}
    assert seen == {True, False, None}


def _numbers():
    rng = np.random.default_rng(0)
    xs = list(10.0 ** rng.uniform(-11, 15, 1500) * rng.choice([-1, 1], 1500))
    for e in range(-11, 16):      # powers of ten, rounding boundaries, and the doubles next to them
        for base in (1.0, 9.995, 9.9951, 1.2345, 2.335, 0.5, 4.5, 9.5, 9.95, 9.999999):
            x = base * 10.0 ** e
            xs += [x, math.nextafter(x, 0), math.nextafter(x, math.inf), -x]
    xs += [0.0, -0.0, 1e-12, math.nextafter(1e-12, 0), 0.1 + 0.2, 1 / 3, 2 / 3, 7 / 3, 1e300, 5e-324]
    return [repr(float(x)) for x in xs]


def test_canonical_numbers_sha256_and_typed_forms_agree(page, records):
    numbers = _numbers()
    for digits in (1, 2, 3, 4, 6, 10, 15):
        in_browser = page.evaluate("([xs, d]) => xs.map(x => lincourseAnswers.canonicalNumber(Number(x), d))",
                                   [numbers, digits])
        in_python = [C.canonical_number(float(x), digits) for x in numbers]
        different = [(x, p, b) for x, p, b in zip(numbers, in_python, in_browser) if p != b]
        assert not different, (digits, len(different), different[:10])

    texts = ["", "a", "abc", "ex-a|233e-2", "é ü ∑ 中文 😀", "x" * 55, "x" * 56, "x" * 63, "x" * 64, "y" * 119, "z" * 1000]
    assert page.evaluate("ts => ts.map(lincourseAnswers.sha256)", texts) == [
        __import__("hashlib").sha256(t.encode()).hexdigest() for t in texts]

    typed = ["1", " 1 ", "1.", ".5", "-.5", "+5", "1e5", "1E-5", "1e+05", "007", "1/3", "-1/-3", "1 / 3", "1//3",
             "1/", "/3", "1e", "e5", "--1", "1-", "1..2", "1.2.3", "١", "½", "∞", "NaN", "Infinity", "1,000",
             "1 000", "1\u00a02", "\u2009-2\u2009", "\u22122", "[1]", "(1)", "[1", "1]", "[(1)]", "{1}", "1;2;3",
             "1,,2", ",1", "0.30000000000000004", "9.995", "999.5", "1e-12", "9e-13", "-0", "123456789012345678",
             "4503599627370497", "9007199254740993", "1e21", "1e308", "1e309", "2e-324"]
    items = ["A", "a ,  b", "{a,b}", "[a;b]", "(a)", "{a", "a}", "''", "'a'", '"A", "b"', "`c`", "{ }", "a  b",
             "a\tb", "A,A", "ß", "İ", "ℌ"]
    for key in ("ex-web-distance", "ex-web-count", "ex-web-gradient", "ex-web-set", "ex-web-choice", "ex-web-word"):
        cases = typed + items
        in_browser = page.evaluate("""([record, ts]) => ts.map(t => {
            try { return lincourseAnswers.formOfText(record, t); } catch (e) { return '!' + e.message; } })""",
                                   [_public(records[key]), cases])
        in_python = []
        for t in cases:
            try:
                in_python.append(C.form_of_text(records[key], t))
            except C.FormError as exc:
                in_python.append("!" + str(exc))
        different = [(t, p, b) for t, p, b in zip(cases, in_python, in_browser) if p != b]
        assert not different, (key, different)


def _public(record):
    return {k: v for k, v in record.items() if k not in ("cases",)} | {"salt": C.SALT}


def test_axe_finds_no_violation_and_the_keyboard_suffices(page):
    from axe_playwright_python.base import AXE_SCRIPT

    page.evaluate(AXE_SCRIPT)
    violations = page.evaluate("async o => (await axe.run(document, o)).violations.map(v => v.id + ': ' + v.help)",
                               AXE_OPTIONS)
    assert not violations, violations
    page.locator("#lincourse-answer-ex-web-distance-input").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Check"
    assert _type(page, "ex-web-choice", "b", submit="enter")[1].startswith("Correct. B: the boundary moves")
    assert page.locator("#lincourse-answer-ex-web-distance-label").inner_text().startswith("Your answer: a number")


def test_a_proof_leads_to_its_solution_and_a_function_to_the_notebook(page):
    assert _type(page, "ex-web-proof", "By induction ...") == (
        None, "Compare your proof with the solution below, step by step.")
    assert page.evaluate("document.activeElement.id") == "solution-proof"
    note = page.locator('.lincourse-answer[data-key="ex-web-function"]').inner_text()
    assert 'check("ex-web-function", point_margins)' in note


def test_boxes_work_from_a_plain_http_server_without_crypto_subtle(browser, site):
    with serve(site) as base:
        context = browser.new_context()
        # crypto.subtle exists only in secure contexts: a page on a plain-http host has none
        context.add_init_script("Object.defineProperty(Crypto.prototype, 'subtle', {get: () => undefined})")
        page = context.new_page()
        page.goto(f"{base}/index.html")
        page.wait_for_function("() => window.lincourseAnswers !== undefined")
        assert page.evaluate("crypto.subtle === undefined")
        assert _type(page, "ex-web-distance", "7/3") == (True, "Correct.")
        context.close()


def test_without_javascript_a_box_says_where_to_check(browser, site):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto((site / "index.html").as_uri())
    text = page.locator("#lincourse-answer-ex-web-distance .lincourse-answer-result").inner_text()
    assert text == 'Checking here needs JavaScript; in the notebook, run check("ex-web-distance", distance).'
    context.close()


def test_no_reference_answer_in_the_page(site, records):
    html = (site / "index.html").read_text(encoding="utf-8")
    for r in records.values():
        for h in list(r["accept"]) + list(r["wrong"]):
            html = html.replace(h, "#")
    for secret in ("2.33", "233", "0.001", "logistic regression", "-0.25", "1.5"):
        assert secret not in html, secret
    assert json.dumps(C.SALT) in html
