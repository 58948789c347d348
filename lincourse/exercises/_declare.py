"""``declare``: an exercise's one declaration, turned into a public record that holds only hashes.

The record of an exercise (a dict, stored as JSON in ``data/<chapter>.json``) has the fields

``key``, ``answer`` (the name of the answer variable), ``kind``, ``points``, ``objective``,
``hints`` (shown one more with each wrong attempt), ``form_hint`` (added to every form error),
``digits`` (numbers, vectors, functions), ``size`` (vectors), ``flatten``, ``options`` and
``example`` (sets and choices), ``cases``, ``shapes`` and ``timeout`` (functions), and

``accept``
    the salted hashes (:func:`~lincourse.exercises._canonical.digest`) of the canonical forms of the
    reference: its own, and its neighbour when it lies within a twentieth of a unit of a rounding
    boundary (so that ``1.235``, typed for a reference of ``1.23499``, is right);
``wrong``
    hash -> feedback, for the common wrong answers.

Never the reference itself: a function's reference is called on the cases here, at build time, and
only the hashes of its results are kept.
"""

from __future__ import annotations

import copy
import itertools
import json
import math
import re
from pathlib import Path

import numpy as np

from ._canonical import (
    KINDS, MAX_DIGITS, ZERO, FormError, canonical_count, canonical_number, digest, form_of_items, item_form, seal,
)

WRITTEN = tuple(name for name, kind in KINDS.items() if kind.reads == "written")
DATA = Path(__file__).with_name("data")
MAX_FORMS = 64
_KEY = re.compile(r"^[a-z][a-z0-9-]*$")
_DECLARED: dict[str, dict] = {}   # declared in this process (the instructor notebook): wins over DATA
_REFERENCES: dict[str, object] = {}   # the reference answers declared in this process, for the answer key only
_shipped: dict[str, dict] | None = None


def declare(key, answer, kind="number", reference=None, *, digits=None, points=1, objective=None,
            wrong=None, hint=None, form_hint=None, options=None, example=None, cases=None,
            flatten=False, timeout=10.0, explain=None, core=None, minutes=None, params=None, statement=None):
    """Declare an exercise: how its answer is checked, graded and shown, in every world.

    Written in the chapter notebook, in a code cell tagged ``exercise-declaration`` right after the
    exercise. The reference is evaluated once, here; what is kept is a record of hashes.

    Parameters
    ----------
    key : str
        The exercise's label, e.g. ``"ex-distance-origin"``.
    answer : str
        The name of the variable (or function) the student's answer cell defines.
    kind : {"number", "count", "vector", "set", "choice", "function", "proof", "explanation"}
        What the answer is: a number (to ``digits`` significant digits), a whole number, a list of
        numbers, a set of short strings, one letter or word, a function (graded on ``cases``), or a
        written answer (no automatic verdict; graded by hand).
    reference : callable or value
        The right answer, computed by lincourse: a zero-argument callable (or the value itself);
        for ``kind="function"`` the reference function. None for written answers.
    digits : int, optional
        Significant digits compared: 3 for numbers and vectors, 6 for functions' results.
    points : float
        What the exercise is worth in a graded assignment.
    objective : str, optional
        The label of the learning objective it practises.
    wrong : dict, optional
        ``{name: (value or callable, feedback)}``: common wrong answers and what to say about them
        (for a function: a wrong function, compared on the cases).
    hint, form_hint : str or list of str, optional
        Hints for a wrong answer (the n-th wrong attempt shows the n-th), and a sentence added to
        every form error (e.g. how to turn ``(g_w, g_b)`` into one list).
    options, example : optional
        Sets and choices: the allowed items, and an example of the form. The default names two forms
        (``A or B``, ``{A} or {A, B}`` with the options' first letters), so that an example is never
        read as the answer.
    cases : list of tuple
        Functions: the argument tuples both functions are called with (public: a student may ask
        for them with :func:`cases`).
    flatten : bool
        Vectors: accept nested lists or tuples, such as ``(g_w, g_b)``, flattened into one list.
    timeout : float
        Functions: seconds a student's function may take on one case.
    explain : str, optional
        Why the right answer is right (a concept check's explanation), shown after "Correct.". It is
        stored encrypted with the right answer's canonical form as the key
        (:func:`~lincourse.exercises._canonical.seal`), so only somebody who gave that answer reads it.
    core : bool
        True for an exercise of the chapter's core path (the lecture and its homework), False for one of
        its optional "Going further" layer. Graded assignments take the core exercises by default.
    minutes : int
        The minutes a student with the prerequisites needs for it, honestly (the chapter's time budget
        adds these up).
    params : callable, optional
        Variants (number, count and vector exercises): ``params(rng)`` draws the exercise's numbers from
        a numpy ``Generator`` and returns them as a dict; ``reference`` and the callables of ``wrong``
        then take that dict, ``reference=lambda p: ...``. Variant 0 (the numbers the chapter's text
        uses) is ``params(None)``; variant ``s`` is ``params(rng)`` with ``rng`` seeded from ``s`` and the
        key (:func:`variant`). The record carries :data:`PRACTICE` pre-computed practice variants
        ("another one"); a graded assignment draws each student's own seed (``tools/assignments.py``).
    statement : str, optional
        With ``params``: the sentence that gives the numbers, with ``{name}`` (``str.format``) placeholders
        filled from the parameters, e.g. ``"Take $w = ({w0}, {w1})$ and $b = {b}$."``. The chapter's
        statement cell repeats it for variant 0; the student notebook, the website and the answer key
        show it rendered for their variant.

    Returns
    -------
    AnswerBox
        The exercise's answer box (the website shows this cell's output, not its code).
    """
    from ._box import AnswerBox

    if params is not None:
        record = _varied(key, answer, kind, reference, digits, points, objective, wrong, hint, form_hint,
                         options, example, cases, flatten, timeout, explain, core, minutes, params, statement)
    else:
        if statement is not None:
            raise ValueError(f"{key}: statement= renders the numbers of params=; declare params too")
        record = _record(key, answer, kind, reference, digits, points, objective, wrong, hint, form_hint,
                         options, example, cases, flatten, timeout, explain, core, minutes)
    _DECLARED[key] = record
    return AnswerBox(record)


def _record(key, answer, kind, reference, digits, points, objective, wrong, hint, form_hint,
            options, example, cases, flatten, timeout, explain=None, core=None, minutes=None):
    if not (isinstance(key, str) and _KEY.match(key)):
        raise ValueError(f"key must be a label such as 'ex-distance-origin' (lower case, digits, -), got {key!r}")
    if kind not in KINDS:
        raise ValueError(f"{key}: kind must be one of {', '.join(KINDS)}, got {kind!r}")
    if not (isinstance(answer, str) and answer.isidentifier()):
        raise ValueError(f"{key}: answer must be the name of the answer variable, such as 'distance', got {answer!r}")
    if digits is None:
        digits = 6 if KINDS[kind].reads == "function" else 3
    if not (isinstance(digits, int) and 1 <= digits <= MAX_DIGITS):
        raise ValueError(f"{key}: digits must be an integer from 1 to {MAX_DIGITS}, got {digits!r}")
    if core not in (None, True, False):
        raise ValueError(f"{key}: core must be True (the core path) or False (Going further), got {core!r}")
    if minutes is not None and not (isinstance(minutes, int) and 1 <= minutes <= 120):
        raise ValueError(f"{key}: minutes must be a whole number of minutes from 1 to 120, got {minutes!r}")
    hints = [hint] if isinstance(hint, str) else list(hint or [])
    way = KINDS[kind]
    record = {"key": key, "answer": answer, "kind": kind, **way.fields(), "points": points, "objective": objective,
              "core": core, "minutes": minutes, "hints": hints, "form_hint": form_hint, "accept": [], "wrong": {}}
    if way.reads == "written":
        return record
    if reference is None:
        raise ValueError(f"{key}: a {kind} exercise needs a reference (a callable computing the answer with lincourse)")
    if way.compare == "digits":
        record["digits"] = digits
    if way.reads == "items":
        record["options"] = [str(o) for o in options] if options else None
        record["example"] = example or _default_example(way, record["options"])
    if way.entries == "size":
        record["flatten"] = bool(flatten)
    if way.reads == "function":
        if not cases:
            raise ValueError(f"{key}: a function exercise needs cases, a list of argument tuples")
        record["cases"] = [encode(tuple(case)) for case in cases]
        record["timeout"] = float(timeout)
        results = [_call_on(reference, record, i) for i in range(len(cases))]
        record["shapes"] = [list(r.shape) for r in results]
        accept = [f for i, r in enumerate(results) for f in _function_forms(record, i, r)]
    else:
        value = reference() if callable(reference) else reference
        _REFERENCES[key] = value
        if way.entries == "size":
            record["size"] = len(_numbers_of(value, flatten))
        accept = _forms(record, value)
    record["accept"] = sorted({digest(key, f) for f in accept})
    if explain is not None:
        if way.reads == "function":
            raise ValueError(f"{key}: explain= is for short answers; a function exercise explains in its solution")
        record["explain"] = {digest(key, f): seal(key, f, " ".join(str(explain).split())) for f in sorted(set(accept))}
    for name, (value, feedback) in (wrong or {}).items():
        if way.reads == "function":
            forms = [f for i in range(len(cases)) for f in _function_forms(record, i, _call_on(value, record, i))]
        else:
            forms = _forms(record, value() if callable(value) else value)
        hashes = {digest(key, f) for f in forms} - set(record["accept"])
        if not hashes:
            raise ValueError(f"{key}: the wrong answer {name!r} is accepted as right; remove it or raise digits")
        record["wrong"].update({h: str(feedback) for h in sorted(hashes)})
    return record


PRACTICE = 24          # practice variants carried by a varied exercise's record ("another one")
VARIED_KINDS = tuple(name for name, kind in KINDS.items() if kind.reads == "numbers")
_VARIANTS: dict[str, object] = {}   # key -> seed -> variant record, in the process that declared it


def _rng(key, seed):
    """The generator of variant ``seed`` of exercise ``key`` (seeded from both, so that two exercises of
    one student do not share their draws)."""
    import zlib

    return np.random.default_rng([int(seed), zlib.crc32(key.encode("utf-8"))])


def _varied(key, answer, kind, reference, digits, points, objective, wrong, hint, form_hint, options, example,
            cases, flatten, timeout, explain, core, minutes, params, statement):
    if kind not in VARIED_KINDS:
        raise ValueError(f"{key}: params= is for {', '.join(VARIED_KINDS)} exercises; a {kind} cannot vary")
    if not callable(params) or not callable(reference):
        raise ValueError(f"{key}: params= needs params(rng) -> dict and reference=lambda p: ...")
    if not isinstance(statement, str) or "{" not in statement:
        raise ValueError(f"{key}: params= needs statement=, the sentence giving the numbers with {{name}} placeholders")

    def one(seed):
        p = params(None if seed == 0 else _rng(key, seed))
        if not isinstance(p, dict):
            raise ValueError(f"{key}: params must return a dict of the exercise's numbers, got {type(p).__name__}")
        bound = {name: ((lambda v=v: v(p)) if callable(v) else v, feedback)
                 for name, (v, feedback) in (wrong or {}).items()}
        while True:   # a slip that gives the right answer for these numbers is no slip here: left out
            try:
                r = _record(key, answer, kind, lambda: reference(p), digits, points, objective, bound, hint,
                            form_hint, options, example, cases, flatten, timeout, explain, core, minutes)
                break
            except ValueError as exc:
                same = [n for n in bound if f"wrong answer {n!r} is accepted" in str(exc)]
                if not same or seed == 0:
                    raise
                bound.pop(same[0])
        r["seed"] = int(seed)
        r["statement"] = render(statement, p)
        return r

    _VARIANTS[key] = one
    record = one(0)
    record["variants"] = [{f: v[f] for f in ("seed", "statement", "accept", "wrong", "explain") if f in v}
                          for v in (one(s) for s in range(1, PRACTICE + 1))]
    one(0)   # variant 0's reference is the one the answer key prints
    return record


def graded_variant(key, seed):
    """The variant a graded assignment gives the student of seed ``seed``: variant ``seed``, unless its
    numbers are those of variant 0 or of a practice variant (whose hashes ship in every page), or its
    answer is variant 0's, then the next draw that is neither. Raises when 50 draws in a row are practice numbers (``params`` draws too few
    distinct numbers to grade on)."""
    practice = {variant(key, s)["statement"] for s in range(PRACTICE + 1)}
    text = set(variant(key, 0)["accept"])   # the answer to the text's numbers, whose hashes ship everywhere
    for k in range(50):
        r = variant(key, int(seed) + k * 4_000_000_000)
        if r["statement"] not in practice and not text & set(r["accept"]):
            return r
    raise ValueError(f"{key}: params draws the practice numbers again and again; draw from more numbers to grade it")


def render(statement, p):
    """``statement`` with its ``{name}`` placeholders filled from the parameters ``p`` (numbers as
    ``:g`` unless the placeholder gives a format)."""
    shown = {k: (float(v) if isinstance(v, (np.floating, np.integer)) else v) for k, v in p.items()}
    shown = {k: (int(v) if isinstance(v, float) and v.is_integer() else v) for k, v in shown.items()}
    return statement.format(**shown)


def variant(key, seed):
    """The record of variant ``seed`` of exercise ``key``: its numbers (``statement``) and hashes.

    Only in a process that ran the exercise's declaration (the chapter, the instructor's tools): the
    shipped record carries variant 0 and the practice variants, never a graded seed's.
    """
    if key not in _VARIANTS:
        raise KeyError(f"{key} declares no params= here (run its chapter's declaration first)")
    return _VARIANTS[key](seed)


def _default_example(way, options):
    first, second = (options or ["A", "B"])[:2] if len(options or []) >= 2 else ("A", "B")
    return f"{{{first}}} or {{{first}, {second}}}" if way.entries == "any" else f"{first} or {second}"


def _neighbours(x, digits):
    """The forms of ``x`` and of its neighbours a twentieth of a unit (of the last digit) away."""
    if not math.isfinite(x):
        raise ValueError(f"the reference must be a finite number, got {x}")
    if abs(x) < ZERO:
        return ["0"]
    t = 0.05 * 10.0 ** (math.floor(math.log10(abs(x))) - digits + 1)
    return sorted({canonical_number(x + s, digits) for s in (-t, 0.0, t)})


def _numbers_of(value, flatten):
    array = np.asarray(value if not flatten else np.concatenate([np.ravel(v) for v in value]), dtype=float)
    if array.ndim != 1 or not np.all(np.isfinite(array)):
        raise ValueError(f"a vector reference must be a finite 1-d list of numbers, got {value!r}")
    return array


def _forms(record, value):
    """Every accepted canonical form of a reference (or common wrong) answer ``value``."""
    key = record["key"]
    try:
        if record["reads"] == "numbers" and record["entries"] == "one" and record["compare"] == "digits":
            return _neighbours(float(value), record["digits"])
        if record["compare"] == "whole":
            form = canonical_count(float(value))
            if form is None:
                raise ValueError(f"a count must be a whole number, got {value!r}")
            return [form]
        if record["entries"] == "size":
            return _vector_forms(_numbers_of(value, record["flatten"]), record["digits"])
        items = [value] if isinstance(value, str) else list(value)
        if record["entries"] == "one" and len(items) != 1:
            raise ValueError(f"a choice is one string, got {value!r}")
        return [form_of_items(record, [item_form(str(i)) for i in items])]
    except (FormError, ValueError, TypeError) as exc:
        raise ValueError(f"{key}: {exc}") from None


def _vector_forms(numbers, digits):
    choices = [_neighbours(float(x), digits) for x in numbers]
    count = math.prod(len(c) for c in choices)
    if count > MAX_FORMS:
        raise ValueError(f"{count} entries lie next to a rounding boundary; change the data or digits")
    return [",".join(p) for p in itertools.product(*choices)]


def _function_forms(record, i, result):
    if not np.all(np.isfinite(result)):
        raise ValueError(f"{record['key']}: the reference is not finite on case {i + 1}")
    return [f"case{i + 1}:{f}" for f in _vector_forms(result.ravel(), record["digits"])]


def _call_on(function, record, i):
    return np.asarray(function(*decode(record["cases"][i])), dtype=float)


def encode(value):
    """A case argument as JSON: arrays (with their dtype), tuples and lists, plain values."""
    if isinstance(value, np.ndarray):
        return {"array": value.tolist(), "dtype": str(value.dtype)}
    if isinstance(value, tuple):
        return {"tuple": [encode(v) for v in value]}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"a case argument must be an array, a number, a string or a list of them, got {type(value).__name__}")


def decode(value):
    """The inverse of :func:`encode`: fresh objects, so a function that changes its arguments harms nothing."""
    if isinstance(value, dict) and "array" in value:
        return np.array(value["array"], dtype=value["dtype"])
    if isinstance(value, dict) and "tuple" in value:
        return tuple(decode(v) for v in value["tuple"])
    if isinstance(value, list):
        return [decode(v) for v in value]
    return copy.copy(value)


def declared():
    """The records declared in this process, in order (what ``tools/build_exercises.py`` writes)."""
    return list(_DECLARED.values())


def _load_shipped():
    global _shipped
    if _shipped is None:
        _shipped = {}
        for path in sorted(DATA.glob("*.json")):
            for record in json.loads(path.read_text(encoding="utf-8"))["exercises"]:
                _shipped[record["key"]] = record
    return _shipped


def record_of(key):
    """The record of exercise ``key``: declared in this process, else shipped with lincourse."""
    if key in _DECLARED:
        return _DECLARED[key]
    shipped = _load_shipped()
    if key not in shipped:
        known = ", ".join(sorted(set(shipped) | set(_DECLARED))) or "none"
        raise KeyError(f"no exercise is declared as {key!r} (known: {known}); declare it in its chapter "
                       "and run tools/build_exercises.py")
    return shipped[key]


def cases(key):
    """The argument tuples a function exercise is checked on, to try your function on them yourself."""
    record = record_of(key)
    if record["reads"] != "function":
        raise ValueError(f"{key} is a {record['kind']} exercise; only function exercises have cases")
    return [decode(case) for case in record["cases"]]
