"""Exercises: one declaration each, from which every world checks, grades and shows the answer.

In the chapter notebook (the instructor edition), right after an exercise, a code cell tagged
``exercise-declaration`` declares it::

    declare("ex-distance-origin", answer="distance", kind="number", points=2, objective="obj-distance",
            reference=lambda: lc.distance_from_origin(w, b),
            wrong={"sign": (lambda: -lc.distance_from_origin(w, b), "a distance is never negative ...")},
            hint="...")

``declare`` evaluates the reference once and keeps a public record that holds only salted hashes of
the answer's canonical forms (:mod:`._declare`). ``tools/build_exercises.py`` writes the records of
every chapter to ``lincourse/exercises/data/<chapter>.json``, shipped with the package, and from them

* the notebook checks: ``check("ex-distance-origin", distance)`` prints the verdict and feedback and
  returns True, False or None (no answer yet, wrong form, written answer); it never raises;
* the autograder scores: ``score("ex-distance-origin", distance)`` is the points earned;
* the website's answer box: ``answer_box(key)`` (also what ``declare`` returns), checked in the
  browser by ``answer.js`` with the same verdicts and words (:mod:`._box`).

See ``docs/exercises.md`` for the design.
"""

from ._box import ANSWER_CSS, ANSWER_JS, AnswerBox, answer_box
from ._check import another, check, score
from ._declare import cases, declare, declared, variant

__all__ = ["declare", "check", "another", "variant", "score", "answer_box", "cases", "declared", "AnswerBox", "ANSWER_JS", "ANSWER_CSS"]
