"""Self-checks: right, wrong, unanswered, and that every registered check accepts its own answer."""

import numpy as np
import pytest

from lincourse import checks


def test_verdicts(capsys):
    checks.register("ex-test-number", lambda: 2.5, "think about the norm")
    assert checks.check("ex-test-number", ...) is None
    assert "No answer yet" in capsys.readouterr().out
    assert checks.check("ex-test-number", 2.5) is True
    assert capsys.readouterr().out.strip() == "Correct."
    assert checks.check("ex-test-number", 3.0) is False
    out = capsys.readouterr().out
    assert "Not yet" in out and "2.5" not in out and "norm" in out


def test_function_and_choice_checks(capsys):
    checks.register("ex-test-fn", lambda: (lambda x: 2 * x), "double it", kind="function", cases=[(1.0,), (np.ones(3),)])
    assert checks.check("ex-test-fn", lambda x: x + x) is True
    assert checks.check("ex-test-fn", lambda x: x) is False
    assert checks.check("ex-test-fn", lambda x: 1 / 0) is False
    assert "ZeroDivisionError" in capsys.readouterr().out
    checks.register("ex-test-choice", lambda: {"a", "c"}, "two of them", kind="choice")
    assert checks.check("ex-test-choice", ["C", "a"]) is True
    assert checks.check("ex-test-choice", ["a"]) is False


def test_unknown_key():
    with pytest.raises(KeyError, match="no self-check"):
        checks.check("ex-does-not-exist", 1)


def test_every_registered_check_accepts_its_expected_answer(capsys):
    for key in checks.registered():
        c = checks._REGISTRY[key]
        answer = c.expected()
        assert checks.check(key, answer) is True, key


def test_concept_checks_show_every_answer_with_its_reason():
    keys = checks.questions()
    assert len(keys) >= 10  # two per chapter
    for key in keys:
        q = checks.quiz(key)
        page = q._repr_html_()
        assert page.count("<details") == len(q.options) >= 2
        assert page.count("Right.") == 1  # exactly one correct option, stated as such
        assert q.prompt in repr(q)


def test_concept_check_registration_is_validated():
    with pytest.raises(ValueError, match="exactly one"):
        checks.register_question("q-test-two-right", "?", [("a", True, "x"), ("b", True, "y")])
    with pytest.raises(ValueError, match="2 to 8"):
        checks.register_question("q-test-one", "?", [("a", True, "x")])
    with pytest.raises(KeyError, match="no concept check"):
        checks.quiz("q-does-not-exist")


def test_numbers_written_by_hand_are_accepted_to_three_significant_digits(capsys):
    checks.register("ex-test-hand", lambda: 7 / 3, "divide by the norm")
    for right in (2.33, 2.333, 7 / 3, "2.33", np.float32(2.3333)):
        assert checks.check("ex-test-hand", right) is True, right
    for wrong in (2.34, 2.3, 2.32, float("nan"), "abc"):
        assert checks.check("ex-test-hand", wrong) is False, wrong
    out = capsys.readouterr().out
    assert "3 significant digits" in out and "2.33" not in out
    checks.register("ex-test-small", lambda: -0.0012345, "tiny")
    assert checks.check("ex-test-small", -0.00123) is True
    assert checks.check("ex-test-small", -0.00124) is False
    assert checks.check("ex-test-small", 0.00123) is False


def test_arrays_by_hand_and_exact_counts(capsys):
    checks.register("ex-test-vector", lambda: np.array([0.52497919, 1.04995837, 1e-17]), "gradient", kind="array")
    assert checks.check("ex-test-vector", [0.525, 1.05, 0]) is True
    assert checks.check("ex-test-vector", [0.525, 1.05, 0.01]) is False   # an entry far from 0 at this scale
    assert checks.check("ex-test-vector", [0.525, 1.05]) is False         # wrong shape
    checks.register("ex-test-count", lambda: 1234, "count them", digits=None, atol=0.0)
    assert checks.check("ex-test-count", 1234) is True
    assert checks.check("ex-test-count", 1235) is False                    # a count is exact
    capsys.readouterr()
    with pytest.raises(ValueError, match="digits"):
        checks.register("ex-test-bad", lambda: 1.0, "x", digits=0)


def test_agrees_rounds_like_the_third_significant_digit():
    assert checks.agrees(0.0250, 0.025) and checks.agrees(0.02504, 0.025) and not checks.agrees(0.0251, 0.025)
    assert checks.agrees(325, 325.0) and not checks.agrees(326, 325.0)
    assert checks.agrees(0.0, 0.0) and not checks.agrees(1e-6, 0.0)
