"""The exercise system's core: canonical forms, declarations, verdicts, feedback, and checks that never raise.

The website's twin of this code (``answer.js``) is held to the same table in
``tests/site/test_answer_boxes.py``.
"""

import hashlib
import json
import math
import re
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import nbformat
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from lincourse.exercises import _canonical as C
from lincourse.exercises import _declare as D
from lincourse.exercises import answer_box, cases, check, declare, score
from lincourse.exercises._check import verdict

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def fresh_registry(monkeypatch):
    """Each test declares into an empty registry and starts with no wrong attempts."""
    monkeypatch.setattr(D, "_DECLARED", {})
    monkeypatch.setattr(D, "_VARIANTS", {})
    import lincourse.exercises._check as K
    monkeypatch.setattr(K, "_ATTEMPTS", {})
    monkeypatch.setattr(K, "_PRACTISING", {})


def said(capsys, key, value):
    """``check``'s return value and the line it printed."""
    result = check(key, value)
    return result, capsys.readouterr().out.strip()


# -- canonical forms ---------------------------------------------------------------------------------

@pytest.mark.parametrize("x, digits, form", [
    (7 / 3, 3, "233e-2"), (-7 / 3, 3, "-233e-2"), (2.335, 3, "234e-2"), (0.125, 2, "13e-2"),
    (999.6, 3, "100e1"), (999.4, 3, "999e0"), (9.995, 3, "999e-2"), (9.9951, 3, "100e-1"), (1000.0, 3, "100e1"),
    (1e-3, 3, "100e-5"), (-1e-3, 1, "-1e-3"), (0.0, 3, "0"), (-0.0, 3, "0"), (5e-13, 3, "0"),
    (123456.0, 3, "123e3"), (1.0, 1, "1e0"), (0.1 + 0.2, 3, "300e-3"), (1e300, 3, "100e298"),
    (6.02214076e23, 4, "6022e20"), (1 / 3, 15, "333333333333333e-15"),
])
def test_canonical_number(x, digits, form):
    # 9.995 is the double 9.99499999999999921..., and 9.995 * 100 is 999.4999999999999: 999e-2 (declare
    # accepts both neighbours of such a reference)
    assert C.canonical_number(x, digits) == form


@given(st.floats(min_value=1e-11, max_value=1e15, allow_nan=False), st.integers(1, 8), st.booleans())
def test_canonical_number_rounds_to_d_significant_digits(x, digits, negative):
    """The mantissa has exactly d digits and is within half a unit (plus rounding of x * 10**k) of x."""
    x = -x if negative else x
    m, e = C.canonical_number(x, digits).split("e")
    m, e = abs(int(m)), int(e)
    assert 10 ** (digits - 1) <= m < 10 ** digits
    error = abs(Decimal(abs(x)) - Decimal(m) * Decimal(10) ** e) / Decimal(10) ** e
    assert error <= Decimal("0.5000001")


@pytest.mark.parametrize("text, numbers", [
    ("2.33", [2.33]), ("7/3", [7 / 3]), (" 7 / 3 ", [7 / 3]), ("-1e-3", [-1e-3]), ("\u22120.5", [-0.5]),
    ("1,2", [1.0, 2.0]), ("[1, 2; 3]", [1.0, 2.0, 3.0]), ("(1 2)", [1.0, 2.0]), (".5", [0.5]), ("+2.", [2.0]),
    ("1e400/1e400", None), ("1/0", None), ("0x10", None), ("1_000", None), ("inf", None), ("nan", None),
    ("\u0663", None), ("2,33", [2.0, 33.0]), ("", []),
])
def test_read_numbers(text, numbers):
    if numbers is None:
        with pytest.raises(C.FormError):
            C.read_numbers(text)
    else:
        assert C.read_numbers(text)[0] == numbers


def test_digest_is_salted_sha256_of_key_and_form():
    want = hashlib.sha256(f"{C.SALT}|ex-a|233e-2".encode()).hexdigest()
    assert C.digest("ex-a", "233e-2") == want


# -- declarations ---------------------------------------------------------------------------------------

def test_declare_keeps_hashes_and_neighbours_next_to_a_rounding_boundary():
    plain = declare("ex-test-plain", "x", reference=lambda: 7 / 3).record
    edge = declare("ex-test-edge", "x", reference=2.33499999).record   # 2.335 typed by hand is right too
    assert len(plain["accept"]) == 1 and len(edge["accept"]) == 2
    assert check("ex-test-edge", 2.335) and check("ex-test-edge", 2.33) and not check("ex-test-edge", 2.32)
    assert not check("ex-test-edge", 2.36)


@pytest.mark.parametrize("kwargs, message", [
    ({"key": "Ex 1"}, "key must be a label"),
    ({"kind": "float"}, "kind must be one of"),
    ({"answer": "my answer"}, "answer must be the name"),
    ({"digits": 0}, "digits must be an integer"),
    ({"reference": None}, "needs a reference"),
    ({"wrong": {"same": (7 / 3 + 1e-9, "?")}}, "is accepted as right"),
    ({"kind": "count", "reference": 2.5}, "a count must be a whole number"),
    ({"kind": "function", "reference": abs}, "needs cases"),
    ({"kind": "set", "reference": {"E"}, "options": "ABCD"}, "is not one of the options"),
])
def test_declare_says_what_to_fix(kwargs, message):
    args = {"key": "ex-test-bad", "answer": "x", "reference": lambda: 7 / 3} | kwargs
    with pytest.raises(ValueError, match=message):
        declare(**args)


def test_no_reference_value_in_the_records():
    """The records (the JSON shipped with lincourse, the website's boxes) hold no reference answer."""
    def margins(X, y):
        return y * X[:, 0] / 0.7071

    declare("ex-test-secret-number", "x", reference=lambda: 2.718281828, wrong={"neg": (-2.718281828, "sign")})
    declare("ex-test-secret-vector", "v", kind="vector", reference=[0.4567, -31.25])
    declare("ex-test-secret-set", "s", kind="set", reference={"quokka", "wombat"})
    declare("ex-test-secret-choice", "c", kind="choice", reference="platypus")
    declare("ex-test-secret-count", "n", kind="count", reference=8191)
    declare("ex-test-secret-function", "f", kind="function", reference=margins,
            cases=[(np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([1, -1]))])
    text = json.dumps(D.declared()) + "".join(answer_box(r["key"])._repr_html_() for r in D.declared())
    for r in D.declared():
        for h in list(r["accept"]) + list(r["wrong"]):
            text = text.replace(h, "#")
    outputs = [f"{v:.{d}g}" for v in (1 / 0.7071, -3 / 0.7071) for d in (3, 4, 6)]
    for secret in ["2.71", "2.72", "271", "272", "0.457", "457", "456", "31.2", "312", "quokka", "wombat",
                   "platypus", "8191", *outputs]:
        assert secret not in text, secret


# -- verdicts and feedback ------------------------------------------------------------------------------

@pytest.fixture
def number():
    return declare("ex-test-distance", "distance", reference=lambda: 7 / 3, points=2, objective="obj-distance",
                   wrong={"sign": (lambda: -7 / 3, "A distance is never negative.")}, hint=["first", "second"])


def test_number_verdicts_and_feedback(capsys, number):
    assert said(capsys, "ex-test-distance", ...) == (
        None, "No answer yet: set distance to your answer and run the cell again.")
    assert said(capsys, "ex-test-distance", 2.33) == (True, "Correct.")
    assert said(capsys, "ex-test-distance", "7/3") == (True, "Correct.")
    assert said(capsys, "ex-test-distance", np.float32(2.333)) == (True, "Correct.")
    assert said(capsys, "ex-test-distance", np.array(2.3333)) == (True, "Correct.")
    assert said(capsys, "ex-test-distance", 2.34) == (
        False, "Not yet (compared to 3 significant digits). Hint: first")
    assert said(capsys, "ex-test-distance", -2.33) == (False, "Not yet: A distance is never negative.")
    assert said(capsys, "ex-test-distance", 3) == (False, "Not yet (compared to 3 significant digits). Hint: second")
    assert said(capsys, "ex-test-distance", 4) == (False, "Not yet (compared to 3 significant digits). Hint: second")
    assert score("ex-test-distance", 2.33) == 2 and score("ex-test-distance", 2.34) == 0


@pytest.mark.parametrize("value, message", [
    ("2,33", "expected one number, got 2"),
    ([2.33], "expected one number, not a list"),
    ("[2.33]", "expected one number, not a list"),
    (np.array([2.33, 1.0]), "expected one number, not a list"),
    ("two", 'could not read "two" as a number'),
    (math.inf, "inf is not a finite number"),
    (np.nan, "nan is not a finite number"),
    (True, "expected one number, got bool True"),
    ({"a": 1}, "expected one number, got dict"),
    (1 + 2j, "expected one number, got complex"),
])
def test_number_form_errors(capsys, number, value, message):
    result, text = said(capsys, "ex-test-distance", value)
    assert result is None and text.startswith(f"Check the form: {message}"), text


def test_count_vector_set_choice(capsys):
    declare("ex-test-count", "n", kind="count", reference=lambda: 7)
    assert said(capsys, "ex-test-count", 7)[0] and said(capsys, "ex-test-count", "7.0")[0]
    assert said(capsys, "ex-test-count", np.int64(7))[0]
    assert said(capsys, "ex-test-count", 7.5) == (None, "Check the form: expected a whole number.")
    assert said(capsys, "ex-test-count", 8) == (False, "Not yet.")

    declare("ex-test-gradient", "g", kind="vector", reference=lambda: (np.array([0.1, -0.25]), 1.5),
            flatten=True, form_hint="Give g_w and g_b as one list: [*g_w, g_b].")
    for right in ([0.1, -0.25, 1.5], np.array([0.1, -0.25, 1.5]), (np.array([0.1, -0.25]), 1.5), "0.1, -1/4, 1.5"):
        assert said(capsys, "ex-test-gradient", right) == (True, "Correct."), right
    assert said(capsys, "ex-test-gradient", [0.1, 1.5]) == (
        None, "Check the form: expected a list of 3 numbers, got 2. Give g_w and g_b as one list: [*g_w, g_b].")
    declare("ex-test-plain-vector", "g", kind="vector", reference=[0.1, -0.25, 1.5])
    assert said(capsys, "ex-test-plain-vector", (np.array([0.1, -0.25]), 1.5)) == (
        None, "Check the form: expected a list of 3 numbers, got a tuple holding an array of shape (2,).")
    assert said(capsys, "ex-test-plain-vector", np.ones((3, 1)))[1] == (
        "Check the form: expected a list of 3 numbers, got an array of shape (3, 1).")
    assert said(capsys, "ex-test-plain-vector", 0.1)[1] == "Check the form: expected a list of 3 numbers, got 1."

    declare("ex-test-set", "which", kind="set", reference={"A", "C"}, options="ABCD")
    for right in ({"A", "C"}, ["c", "a"], ("A", "C", "A"), "{A, C}", "a; c", '{"A", "C"}', "[A,C]"):
        assert said(capsys, "ex-test-set", right) == (True, "Correct."), right
    assert said(capsys, "ex-test-set", "B") == (False, "Not yet.")  # a string is read as on the website
    assert said(capsys, "ex-test-set", "AC")[1] == 'Check the form: "ac" is not one of the options A, B, C, D.'
    assert said(capsys, "ex-test-set", 3)[1] == "Check the form: expected a set such as {A} or {A, B}, got int 3."
    assert said(capsys, "ex-test-set", "{A, C")[1] == "Check the form: expected a set such as {A} or {A, B}."

    declare("ex-test-choice", "letter", kind="choice", reference="B")
    assert said(capsys, "ex-test-choice", " b ") == (True, "Correct.")
    assert said(capsys, "ex-test-choice", "A, B")[1] == "Check the form: expected one answer such as A or B, got 2."
    assert said(capsys, "ex-test-choice", {"B"})[1] == 'Check the form: expected one answer such as "A or B", got a set of 1.'


def test_an_explanation_is_shown_only_after_the_right_answer(capsys):
    why = "B: the boundary moves by −b/‖θ‖ when only θ changes. " * 3
    declare("q-test-why", "q_why", kind="choice", reference="B", options="ABC", explain=why,
            wrong={"A": ("A", "A holds only at b = 0.")})
    record = D._DECLARED["q-test-why"]
    assert why not in json.dumps(record, ensure_ascii=False) and "boundary" not in json.dumps(record)
    assert said(capsys, "q-test-why", "A") == (False, "Not yet: A holds only at b = 0.")
    assert said(capsys, "q-test-why", "b") == (True, "Correct. " + why.strip())
    with pytest.raises(ValueError, match="explain= is for short answers"):
        declare("ex-test-why-function", "f", kind="function", reference=lambda x: x, cases=[(1.0,)], explain="x")


def test_written_answers_have_no_automatic_verdict(capsys):
    declare("ex-test-proof", "proof", kind="proof", points=3)
    assert said(capsys, "ex-test-proof", "By the triangle inequality ...") == (None, (
        "Written answers are not checked automatically: compare yours with the solution, step by step "
        "(graded by hand, 3 points)."))
    assert said(capsys, "ex-test-proof", "   ")[0] is None and score("ex-test-proof", "anything") == 0


# -- checks never raise ---------------------------------------------------------------------------------

def _margins(X, y, w, b):
    return y * (X @ w + b) / np.linalg.norm(w)


@pytest.fixture
def function():
    X = np.array([[1.0, 2.0], [-1.0, 0.5], [0.0, 0.0]])
    return declare("ex-test-margins", "point_margins", kind="function", reference=_margins, timeout=0.5,
                   cases=[(X, np.array([1, -1, 1]), np.array([2.0, -1.0]), 0.5),
                          (X[:2], np.array([-1, 1]), np.array([0.0, 3.0]), -1.0)],
                   wrong={"no-label": (lambda X, y, w, b: (X @ w + b) / np.linalg.norm(w), "Multiply by the label.")},
                   hint="One margin per point.")


def _loops(X, y, w, b):
    while True:
        try:
            pass
        except Exception:  # a student's except does not swallow the time limit
            pass


def _mutates(X, y, w, b):
    X *= 2
    return _margins(X / 2, y, w, b)


def _exits(X, y, w, b):
    sys.exit(3)


WHERE = " on case 1 of 2 (lincourse.exercises.cases('ex-test-margins')[0] are its arguments)"


@pytest.mark.parametrize("student, verdict_, message", [
    (_margins, True, "Correct."),
    (_mutates, True, "Correct."),
    (lambda X, y, w, b: (y * (X @ w) + b) / np.linalg.norm(w), False, "Not yet" + WHERE + ". Hint: One margin per point."),
    (lambda X, y, w, b: (X @ w + b) / np.linalg.norm(w), False, "Not yet: Multiply by the label."),
    (lambda X, y, w, b: 1 / 0, False, "Not yet: your function raised ZeroDivisionError: division by zero" + WHERE + "."),
    (_exits, False, "Not yet: your function raised SystemExit: 3" + WHERE + "."),
    (_loops, False, "Not yet: your function ran for more than 0.5 s" + WHERE + ": an endless loop?"),
    (lambda X, y, w, b: None, False, "Not yet: your function returned None" + WHERE + ": is a return statement missing?"),
    (lambda X, y, w, b: np.zeros((3, 1)), False, "Not yet: your function returned shape (3, 1)" + WHERE + "; expected shape (3,)."),
    (lambda X, y, w, b: np.full(3, np.inf), False, "Not yet: your function returned a value that is not finite (inf or nan)" + WHERE + "."),
    (lambda X, y, w, b: "margins", False, "Not yet: your function returned str 'margins'" + WHERE + "; expected numbers."),
    (lambda X, y, w, b: [[1.0], [2.0, 3.0]], False, "Not yet: your function returned a list of 2" + WHERE + "; expected numbers."),
    (42, None, "Check the form: expected a function, the point_margins you defined, got int 42."),
])
def test_function_answers_never_raise(capsys, function, student, verdict_, message):
    assert said(capsys, "ex-test-margins", student) == (verdict_, message)


def test_cases_are_public_and_fresh(function):
    first = cases("ex-test-margins")
    first[0][0][:] = 99
    assert cases("ex-test-margins")[0][0][0, 0] == 1.0


def test_odd_values_never_raise(capsys, number):
    class Hostile:
        def __float__(self):
            raise RuntimeError("no")

        def __array__(self, *args, **kwargs):
            raise RuntimeError("no")

        def __repr__(self):
            raise RuntimeError("no repr either")

    for value in (Hostile(), [Hostile()], object(), b"2.33", [[1, 2], [3]], 10 ** 400, -10 ** 400):
        result, text = said(capsys, "ex-test-distance", value)
        assert result is None and text, value
    assert said(capsys, "ex-no-such-exercise", 1)[1].startswith("no exercise is declared as 'ex-no-such-exercise'")
    assert score("ex-no-such-exercise", 1) == 0


# -- the answer box --------------------------------------------------------------------------------------

def test_answer_box_html(number):
    html = number._repr_html_()
    assert 'label id="lincourse-answer-ex-test-distance-label" for="lincourse-answer-ex-test-distance-input"' in html
    assert 'role="status" aria-live="polite"' in html and "<button type=\"button\">Check</button>" in html
    assert "check(&quot;ex-test-distance&quot;, distance)" in html     # what to do without JavaScript
    record = json.loads(html.split('class="lincourse-answer-record">')[1].split("</script>")[0])
    assert record["salt"] == C.SALT and "cases" not in record and "objective" not in record
    assert "2 points" in html and repr(number).startswith("Answer box of ex-test-distance")


def test_records_of_the_chapters_are_well_formed():
    for path in D.DATA.glob("*.json"):
        for record in json.loads(path.read_text())["exercises"]:
            assert record["kind"] in D.KINDS and record["accept"] or record["kind"] in D.WRITTEN, (path, record["key"])


# -- the build tool --------------------------------------------------------------------------------------

def test_build_exercises_runs_declarations_without_solutions(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("import numpy as np\nfrom lincourse.exercises import declare\nw, b = np.array([3.0, 4.0]), 2.0"),
        nbformat.v4.new_markdown_cell(":::{exercise} Distance\n:label: ex-tool-distance\n\nCompute it.\n:::"),
        nbformat.v4.new_code_cell("distance = ...", metadata={}),
        nbformat.v4.new_code_cell("raise RuntimeError('a solution cell ran')", metadata={"tags": ["solution"]}),
        nbformat.v4.new_code_cell('declare("ex-tool-distance", "distance", reference=lambda: abs(b) / np.linalg.norm(w))',
                                  metadata={"tags": ["exercise-declaration"]}),
        nbformat.v4.new_markdown_cell(":::{exercise} Another\n:label: ex-tool-later\n\nLater.\n:::"),
        nbformat.v4.new_code_cell("raise RuntimeError('a cell after the last declaration ran')"),
    ]
    chapter = tmp_path / "09_test.ipynb"
    nbformat.write(nb, chapter)
    tool = [sys.executable, str(ROOT / "tools" / "build_exercises.py"), "--out", str(tmp_path / "data"), str(chapter)]
    run = subprocess.run(tool, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "exercises without a declaration: ex-tool-later" in run.stderr
    document = json.loads((tmp_path / "data" / "09_test.json").read_text())
    (record,) = document["exercises"]
    assert record["key"] == "ex-tool-distance" and C.digest("ex-tool-distance", "400e-3") in record["accept"]
    # --check on a current file exits 0: `make test` runs it on the chapters first (a failure stops it)
    (tmp_path / "data" / "09_test.json").write_text("{}")
    stale = subprocess.run(tool + ["--check"], capture_output=True, text=True, timeout=300)
    assert stale.returncode == 1 and "09_test.json" in stale.stdout + stale.stderr


def test_build_exercises_help():
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "build_exercises.py"), "--help"],
                         capture_output=True, text=True)
    assert run.returncode == 0 and "exercise" in run.stdout


def test_a_cell_ending_in_check_shows_the_verdict_once(capsys):
    declare("ex-test-once", "x", reference=2.5)
    verdict = check("ex-test-once", 2.5)
    assert verdict == True and bool(verdict) and repr(verdict) == "True"   # noqa: E712
    assert check("ex-test-once", ...) == None and check("ex-test-once", 3.0) == False   # noqa: E711, E712
    assert verdict._ipython_display_() is None   # Jupyter shows nothing more than the printed line


# -- answers typed as arithmetic (the same table is read by answer.js in tests/site/test_expressions.py) --

EXPRESSION_CASES = json.loads((Path(__file__).with_name("expression_cases.json")).read_text())["cases"]


@pytest.mark.parametrize("text, expected", EXPRESSION_CASES)
def test_read_numbers_reads_arithmetic(text, expected):
    if isinstance(expected, str):
        with pytest.raises(C.FormError, match=re.escape(expected)):
            C.read_numbers(text)
    else:
        assert C.read_numbers(text)[0] == pytest.approx(expected, rel=1e-15)


def test_read_numbers_never_evaluates_python():
    for text in ("__import__('os')", "open('x')", "(1).real", "[1 for x in y]", "lambda: 1", "1 if 1 else 2"):
        with pytest.raises(C.FormError):
            C.read_numbers(text)


def test_exact_forms_are_right_and_too_few_digits_asks_for_digits(capsys):
    declare("ex-test-exact", "x", reference=lambda: 1 / (2 * np.sqrt(2)))
    for text in ("1/(2*sqrt(2))", "sqrt(2)/4", "2**-1.5", "2^-1.5", "0.354"):
        assert check("ex-test-exact", text) == True, text   # noqa: E712
    assert check("ex-test-exact", "0.35") is None
    assert "give 3 significant digits (0.35 has 2)" in capsys.readouterr().out
    assert check("ex-test-exact", "0.353") == False   # noqa: E712


# -- variants: per-student numbers and "another one" ------------------------------------------------

def _varied(**extra):
    """A number exercise whose numbers vary: the distance of the line a x1 + b x2 = c from the origin."""
    params = lambda rng: ({"a": 3, "b": 4, "c": 10} if rng is None else
                          {"a": int(rng.integers(1, 10)), "b": int(rng.integers(1, 10)), "c": int(rng.integers(11, 99))})
    return declare("ex-varied", answer="distance", params=params, statement="the line ${a} x_1 + {b} x_2 = {c}$",
                   reference=lambda p: p["c"] / math.hypot(p["a"], p["b"]),
                   wrong={"norm": (lambda p: p["c"], "You forgot to divide by the norm of the normal vector."),
                          "square": (lambda p: p["c"] / (p["a"] ** 2 + p["b"] ** 2), "Divide by the norm, not its square.")},
                   hint="Divide |c| by the norm of (a, b).", **extra)


def test_a_varied_exercise_carries_variant_0_and_practice_variants_with_their_slips():
    record = _varied().record
    assert record["statement"] == "the line $3 x_1 + 4 x_2 = 10$" and record["seed"] == 0
    assert len(record["variants"]) == D.PRACTICE and [v["seed"] for v in record["variants"]] == list(range(1, 25))
    assert len({v["statement"] for v in record["variants"]}) >= 20   # new numbers, not the same ones again
    assert all(len(set(v["wrong"].values())) == 2 for v in record["variants"])   # the slips vary with the numbers
    assert json.dumps(record).count("2.0") == 0 and "10 /" not in json.dumps(record)   # hashes, never the answers
    assert D.variant("ex-varied", 12345) == D.variant("ex-varied", 12345)   # a seed gives the same numbers
    assert D.variant("ex-varied", 12345)["statement"] != D.variant("ex-varied", 12346)["statement"]


def test_another_one_in_the_notebook_checks_the_new_numbers_with_the_same_feedback(capsys):
    from lincourse.exercises import another

    record = _varied().record
    assert said(capsys, "ex-varied", 2.0) == (True, "Correct.")
    shown = another("ex-varied")
    first = record["variants"][0]
    assert shown == first["statement"] and first["statement"] in capsys.readouterr().out
    a, b, c = map(int, re.search(r"\$(\d+) x_1 \+ (\d+) x_2 = (\d+)\$", shown).groups())
    assert said(capsys, "ex-varied", c / math.hypot(a, b)) == (True, "Correct.")
    if c / math.hypot(a, b) != 2.0:
        assert said(capsys, "ex-varied", 2.0)[0] == False   # noqa: E712 (variant 0's answer is not this one's)
    assert said(capsys, "ex-varied", c) == (False, "Not yet: You forgot to divide by the norm of the normal vector.")
    another("ex-varied")
    capsys.readouterr()
    import lincourse.exercises._check as K
    assert K._PRACTISING["ex-varied"]["seed"] == 2


def test_a_graded_variant_never_has_practice_numbers_and_only_numbers_vary():
    _varied()
    practice = {D.variant("ex-varied", s)["statement"] for s in range(D.PRACTICE + 1)}
    drawn = [D.graded_variant("ex-varied", 1000 + s)["statement"] for s in range(200)]
    assert not practice & set(drawn) and len(set(drawn)) > 150
    with pytest.raises(ValueError, match="cannot vary"):
        declare("ex-varied-choice", answer="c", kind="choice", options="AB", reference="A",
                params=lambda rng: {}, statement="{x}")
    with pytest.raises(ValueError, match="params"):
        declare("ex-statement-only", answer="x", reference=1.0, statement="x = {x}")
    declare("ex-few", answer="x", params=lambda rng: {"x": 1 if rng is None else int(rng.integers(1, 3))},
            statement="x = {x}", reference=lambda p: p["x"])
    with pytest.raises(ValueError, match="draw from more numbers"):
        D.graded_variant("ex-few", 5000)


def test_a_slip_right_for_some_numbers_is_left_out_of_that_variant_only():
    """With a = 2, doubling a is squaring it: that variant has no such slip; the others keep it."""
    record = declare("ex-slip", answer="d", params=lambda rng: {"a": 3} if rng is None else {"a": int(rng.integers(1, 4))},
                     statement="a = {a}", reference=lambda p: p["a"] ** 2,
                     wrong={"double": (lambda p: 2 * p["a"], "You doubled a; square it.")}).record
    assert list(record["wrong"].values()) == ["You doubled a; square it."]
    assert all((v["wrong"] == {}) == (v["statement"] == "a = 2") for v in record["variants"])
    assert any(v["wrong"] == {} for v in record["variants"]) and any(v["wrong"] for v in record["variants"])


def test_the_box_offers_another_one_with_plain_numbers():
    page = _varied()._repr_html_()
    assert "Another one: new numbers" in page and "lincourse-answer-another-row\" hidden" in page
    data = json.loads(re.search(r'class="lincourse-answer-record">(.*?)</script>', page).group(1))
    assert len(data["variants"]) == D.PRACTICE and "$" not in data["variants"][0]["statement"]
    assert "x₁" in data["variants"][0]["statement"]


@pytest.mark.skipif(not any(Path(p).exists() for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser")),
                    reason="Chromium not found (apt-get install chromium)")
def test_another_one_on_the_page_checks_the_new_numbers_without_a_kernel(tmp_path):
    from playwright.sync_api import sync_playwright

    from lincourse.exercises import ANSWER_CSS, ANSWER_JS

    box = _varied()
    for f in (ANSWER_JS, ANSWER_CSS):
        (tmp_path / f.name).write_text(f.read_text())
    (tmp_path / "index.html").write_text(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title><link rel="stylesheet" '
        f'href="answer.css"><script src="answer.js" defer></script></head><body><main>{box._repr_html_()}</main></body></html>')
    chromium = next(p for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser") if Path(p).exists())
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto((tmp_path / "index.html").as_uri())
        page.wait_for_function("() => window.lincourseAnswers !== undefined")
        root = page.locator("#lincourse-answer-ex-varied")
        result = root.locator(".lincourse-answer-result")

        def typed(text):
            before = int(result.get_attribute("data-count") or 0)
            root.locator("input").fill(text)
            root.locator("button").first.click()
            page.wait_for_function("([el, n]) => Number(el.dataset.count || 0) > n", arg=[result.element_handle(), before])
            return result.inner_text()

        assert typed("2") == "Correct."
        root.locator(".lincourse-answer-another").click()
        page.wait_for_function("el => el.textContent.startsWith('New numbers')", arg=result.element_handle())
        shown = root.locator(".lincourse-answer-numbers").inner_text()
        a, b, c = map(int, re.search(r"(\d+) x₁ \+ (\d+) x₂ = (\d+)", shown).groups())
        assert box.record["variants"][0]["statement"] == f"the line ${a} x_1 + {b} x_2 = {c}$"
        assert typed(f"{c / math.hypot(a, b):.3g}") == "Correct."
        assert typed(str(c)) == "Not yet: You forgot to divide by the norm of the normal vector."
        browser.close()
    assert not errors, errors
