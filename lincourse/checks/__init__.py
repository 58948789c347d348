"""Self-checks for the exercises: a clear right or wrong, and a hint that does not give the answer away.

In a notebook::

    from lincourse.checks import check
    answer = ...                  # the student replaces ... with an answer
    check("ex-distance-origin", answer)

prints one line: ``Correct.``, ``Not yet: <hint>``, or, while the answer is still ``...`` (or None),
``No answer yet ...``. A check never raises on a wrong or missing answer, so a student notebook runs
top to bottom whatever state its exercises are in; it raises only on a key that does not exist.

Each chapter registers its checks in a module of this package (``chapter1.py`` ...), with the expected
value computed by lincourse rather than written out, so the notebook never shows the solution.
Kinds of check: a number, a vector or array, a set of choices, or a function, which is called on
test cases and compared with a reference implementation.

Numbers and arrays written by hand are accepted in any correct form to three significant digits
(``2.33``, ``7/3`` and ``lc.signed_distance(...)`` are all right for 2.3333...): every entry must
round to the expected value's first three significant digits, that is, lie within half a unit of
the third significant digit. A count or another exact integer is registered with ``digits=None``
and compared exactly. Functions are compared with a relative tolerance of 1e-6 (they compute, so
they should agree to rounding).

Concept checks are multiple-choice questions that work without a kernel too (on the website)::

    from lincourse.checks import quiz
    quiz("q-hyperplanes-scaling")

shows the question with its answers; opening an answer says whether it is right, and why. The
page needs no script: each answer is an HTML ``<details>`` element, which a keyboard opens as
well as a mouse. The chapter modules register the questions next to their checks.
"""

from __future__ import annotations

import html
import importlib
import pkgutil
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

__all__ = ["Check", "register", "agrees", "check", "registered", "Question", "register_question", "quiz", "questions"]

_REGISTRY: dict[str, "Check"] = {}


@dataclass
class Check:
    """How to judge the answer to one exercise.

    ``expected`` is a zero-argument callable returning the right answer (computed on demand).
    ``kind`` is "number", "array", "choice" (answer compared as a set of strings or one string,
    case-insensitive), or "function" (``expected`` then returns a reference function and ``cases``
    is a list of argument tuples to call both with). Numbers and arrays are compared to ``digits``
    significant digits (see :func:`agrees`); with ``digits=None`` they, like functions, are
    compared with ``rtol`` and ``atol``.
    """

    key: str
    expected: Callable[[], Any]
    hint: str
    kind: str = "number"
    digits: int | None = 3
    rtol: float = 1e-6
    atol: float = 1e-9
    cases: list = field(default_factory=list)


def register(key, expected, hint, kind="number", digits=3, rtol=1e-6, atol=1e-9, cases=()):
    """Add a check to the registry (called by the chapter modules of this package)."""
    if kind not in ("number", "array", "choice", "function"):
        raise ValueError(f"kind must be 'number', 'array', 'choice' or 'function', got {kind!r}")
    if digits is not None and not (isinstance(digits, int) and digits >= 1):
        raise ValueError(f"digits must be a positive integer or None, got {digits!r}")
    _REGISTRY[key] = Check(key, expected, hint, kind, digits, rtol, atol, list(cases))


def agrees(got, want, digits=3, atol=1e-9):
    """True if every entry of ``got`` equals ``want`` to ``digits`` significant digits.

    An entry ``w`` is matched by any ``g`` with ``|g - w| <= 0.5 * 10**(e - digits + 1)``, ``e`` the
    decimal exponent of ``|w|`` (so that ``g`` rounds to the digits of ``w``), with a relative
    slack of 1e-9 for numbers that are themselves rounded, like 0.5 written for 0.4999999999.
    An entry of an array that is zero, or negligible next to the largest one, takes the unit of
    the largest entry; an all-zero answer must be within ``atol``.

    >>> agrees(2.33, 7 / 3), agrees(2.34, 7 / 3), agrees([0.5, 1e-17], [0.5, 0.0])
    (True, False, True)
    """
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    if got.shape != want.shape or not np.all(np.isfinite(got)):
        return False
    size = np.abs(want)
    largest = float(size.max()) if size.size else 0.0
    if largest <= atol:
        return bool(np.all(np.abs(got - want) <= atol))
    size = np.maximum(size, largest * 10.0 ** -(digits + 3))
    unit = 10.0 ** (np.floor(np.log10(size)) - digits + 1)
    return bool(np.all(np.abs(got - want) <= 0.5 * unit * (1 + 1e-9) + 1e-12 * size))


def _load_all():
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("chapter"):
            importlib.import_module(f"{__name__}.{info.name}")


def registered():
    """Sorted list of the exercise keys that have a self-check."""
    _load_all()
    return sorted(_REGISTRY)


def _judge(c, answer):
    if c.kind == "choice":
        norm = (lambda v: {str(s).strip().lower() for s in v}) if not isinstance(answer, str) else None
        want = c.expected()
        if isinstance(want, str):
            return isinstance(answer, str) and answer.strip().lower() == want.strip().lower()
        return norm is not None and norm(answer) == {str(s).strip().lower() for s in want}
    if c.kind == "function":
        if not callable(answer):
            return False
        reference = c.expected()
        for args in c.cases:
            got, want = answer(*args), reference(*args)
            if np.shape(got) != np.shape(want):
                return False
            if not np.allclose(np.asarray(got, dtype=float), np.asarray(want, dtype=float), rtol=c.rtol, atol=c.atol):
                return False
        return True
    want = np.asarray(c.expected(), dtype=float)
    try:
        got = np.asarray(answer, dtype=float)
    except (TypeError, ValueError):
        return False
    if got.shape != want.shape:
        return False
    if c.digits is not None:
        return agrees(got, want, c.digits, c.atol)
    return bool(np.allclose(got, want, rtol=c.rtol, atol=c.atol))


def check(key, answer):
    """Judge ``answer`` to exercise ``key``; prints the verdict and returns True, False or None.

    None means there is no answer yet (``answer`` is ``...`` or None).
    """
    _load_all()
    if key not in _REGISTRY:
        raise KeyError(f"no self-check is registered for {key!r}; known: {', '.join(sorted(_REGISTRY))}")
    c = _REGISTRY[key]
    if answer is Ellipsis or answer is None:
        print(f"No answer yet for {key}: replace ... with your answer and run the cell again.")
        return None
    try:
        ok = _judge(c, answer)
    except Exception as exc:  # a student's function that raises is a wrong answer, not a crash
        print(f"Not yet: your answer raised {type(exc).__name__}: {exc}. Hint: {c.hint}")
        return False
    if ok:
        print("Correct.")
    elif c.kind in ("number", "array") and c.digits is not None:
        print(f"Not yet (numbers are accepted to {c.digits} significant digits, in any form). Hint: {c.hint}")
    else:
        print(f"Not yet. Hint: {c.hint}")
    return ok


# -- concept checks: multiple-choice questions ---------------------------------------------------

_QUESTIONS: dict[str, "Question"] = {}


@dataclass(frozen=True)
class Question:
    """A multiple-choice concept check: a prompt and its options, each ``(text, correct, why)``.

    Exactly one option is correct; every option carries the reason it is right or wrong, which
    is what the reader sees on choosing it.
    """

    key: str
    prompt: str
    options: tuple

    def _repr_html_(self):
        letters = "ABCDEFGH"
        items = []
        for letter, (text, correct, why) in zip(letters, self.options):
            verdict = "Right." if correct else "Not quite."
            items.append(
                f'<details class="lincourse-quiz-option"><summary>{letter}. {html.escape(text)}</summary>'
                f"<p><strong>{verdict}</strong> {html.escape(why)}</p></details>"
            )
        return (
            f'<div class="lincourse-quiz" role="group" aria-label="Concept check">'
            f"<p><strong>Concept check.</strong> {html.escape(self.prompt)}</p>"
            + "".join(items)
            + "<p><em>Open an answer to see whether it is right, and why.</em></p></div>"
        )

    def __repr__(self):
        lines = [f"Concept check: {self.prompt}"]
        lines += [f"  {letter}. {text}" for letter, (text, _, _) in zip("ABCDEFGH", self.options)]
        lines.append("(Open an answer to see whether it is right, and why.)")
        return "\n".join(lines)


def register_question(key, prompt, options):
    """Add a concept check (called by the chapter modules of this package).

    ``options`` is a sequence of ``(text, correct, why)``, shown in this order (vary the place
    of the right one); exactly one must be correct.
    """
    options = [(str(text), bool(correct), str(why)) for text, correct, why in options]
    if not 2 <= len(options) <= 8:
        raise ValueError(f"a concept check needs 2 to 8 options, {key!r} has {len(options)}")
    if sum(correct for _, correct, _ in options) != 1:
        raise ValueError(f"exactly one option of {key!r} must be correct")
    _QUESTIONS[key] = Question(key, str(prompt), tuple(options))


def questions():
    """Sorted list of the concept-check keys."""
    _load_all()
    return sorted(_QUESTIONS)


def quiz(key):
    """The concept check ``key``, displayed by Jupyter (and on the website) as a question whose
    answers open to say whether they are right, and why."""
    _load_all()
    if key not in _QUESTIONS:
        raise KeyError(f"no concept check is registered for {key!r}; known: {', '.join(sorted(_QUESTIONS))}")
    return _QUESTIONS[key]
