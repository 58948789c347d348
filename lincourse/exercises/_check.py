"""``check`` and ``score``: the verdict on an answer, in a notebook and in the autograder.

A check never raises, whatever the answer is or does: a malformed answer gets a form error, a
student's function that raises, loops or returns the wrong shape gets feedback saying so. The
verdict (:func:`judge`) and every message shared with the website are written twice, here and in
``answer.js``, and tested to agree.
"""

from __future__ import annotations

import numbers
import signal
import threading

import numpy as np

from ._canonical import (
    SALT, FormError, canonical_number, digest, form_of_items, form_of_numbers, form_of_text, item_form, normalise, short_digits,
    unseal,
)
from ._declare import decode, record_of

_ATTEMPTS: dict[str, int] = {}   # wrong attempts per exercise in this session: the n-th shows the n-th hint


def check(key, value):
    """Check ``value``, an answer to exercise ``key``; print the verdict and feedback.

    Parameters
    ----------
    key : str
        The exercise, e.g. ``"ex-distance-origin"``.
    value : object
        The answer: a number, a list or array, a set, a string typed as on the website (``"5/4"``,
        ``"{A, C}"``), a function, or ``...`` while there is none yet.

    Returns
    -------
    Verdict
        Equal to True if right, False if wrong; None if there is no verdict (no answer yet, an answer
        of the wrong form, a written answer). A notebook does not display it (the printed line says
        it all), so a cell ending in ``check(...)`` shows one line, not that line and ``True``.

    Examples
    --------
    >>> check("ex-distance-origin", ...)  # doctest: +SKIP
    No answer yet: set distance to your answer and run the cell again.
    """
    verdict, message = _verdict(key, value, _ATTEMPTS)
    print(message)
    return None if verdict is None else Verdict(verdict)


class Verdict:
    """What :func:`check` returns for a right or wrong answer: ``True`` or ``False`` (``.value``),
    compared and tested as that value, and not displayed by Jupyter at the end of a cell."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __bool__(self):
        return bool(self.value)

    def __eq__(self, other):
        return self.value == (other.value if isinstance(other, Verdict) else other)

    def __hash__(self):
        return hash(self.value)

    def __repr__(self):
        return repr(self.value)

    def _ipython_display_(self):
        """Display nothing: the line :func:`check` printed is the verdict."""


def score(key, value):
    """The points ``value`` earns on exercise ``key`` (all or nothing; 0 for a written answer,
    graded by hand). Prints nothing; never raises."""
    verdict, _ = _verdict(key, value, {})
    try:
        return float(record_of(key)["points"]) if verdict is True else 0.0
    except KeyError:
        return 0.0


def judge_answer(record, value):
    """``(right, message)`` for ``value`` as an answer to the exercise whose record is ``record``: the
    autograder's test (``tools/assignments.py``, which embeds the record in the test). Never raises.

    The answer is turned into canonical forms here, in the submission's process (a student's function
    is called here, on the public cases); whether they are right is decided in a fresh interpreter
    that runs only ``hashlib`` on the record's hashes, so a submission that has replaced functions of
    lincourse or numpy in its own process cannot change the verdict.

    A graded variant's record (``tools/assignments.py``) holds ``seeds``, seed -> accepted hashes, for the
    instructor's students and no ``accept``: the judge takes the seed from the environment the grader
    started the run with (``LINCOURSE_SEED``, read from ``/proc`` where there is one, so that a submission
    that changes its own ``os.environ`` does not change it) and judges against that seed's hashes.
    """
    try:
        if "seeds" in record:
            forms, message = _varied_forms(record, value)
        else:
            forms, message = _forms_for_grading(record, value)
    except Exception as exc:  # a bug of the check itself: no points, and say why
        return False, f"The check failed ({type(exc).__name__}: {exc})."
    if forms is None:
        return False, message
    import json
    import subprocess
    import sys

    try:
        done = subprocess.run([sys.executable, "-I", "-S", "-c", _JUDGE], capture_output=True, text=True, timeout=60,
                              input=json.dumps({"salt": SALT, "key": record["key"], "accept": record.get("accept"),
                                                "seeds": record.get("seeds"), "forms": forms}))
        right = json.loads(done.stdout)
    except Exception as exc:
        return False, f"The check failed ({type(exc).__name__}: {exc})."
    return right is True, message if right is True else "Not yet."


_JUDGE = ("import hashlib, json, os, sys\n"
          "d = json.load(sys.stdin)\n"
          "h = lambda f: hashlib.sha256(f\"{d['salt']}|{d['key']}|{f}\".encode('utf-8')).hexdigest()\n"
          "accept = d['accept']\n"
          "if d['seeds'] is not None:\n"
          "    seed = os.environ.get('LINCOURSE_SEED', '')\n"
          "    try:\n"
          "        with open(f'/proc/{os.getppid()}/environ', 'rb') as f:\n"
          "            first = dict(v.split(b'=', 1) for v in f.read().split(b'\\0') if b'=' in v)\n"
          "        seed = first.get(b'LINCOURSE_SEED', b'').decode()\n"
          "    except OSError:\n"
          "        pass\n"
          "    accept = d['seeds'].get(seed, [])\n"
          "print(json.dumps(bool(d['forms']) and all(h(f) in accept for f in d['forms'])))\n")


def _varied_forms(record, value):
    """``(forms, message)`` for a graded variant: the answer's canonical form, or None and why."""
    if value is None or value is Ellipsis:
        return None, f"No answer yet: {record['answer']} was not set."
    try:
        return [_form_of(record, value)], "Correct."
    except FormError as exc:
        return None, form_message(record, str(exc))


_PRACTISING: dict[str, dict] = {}   # key -> the practice variant ``another`` gave, checked by ``check``


def another(key):
    """Practise exercise ``key`` again with new numbers: print the next practice variant's statement;
    ``check(key, value)`` then checks against it, with the same feedback. Returns the statement."""
    record = record_of(key)
    variants = record.get("variants") or []
    if not variants:
        print(f"{key} has no other numbers: its answer does not depend on numbers that can change.")
        return None
    current = _PRACTISING.get(key, {}).get("seed", 0)
    seeds = [v["seed"] for v in variants]
    following = variants[(seeds.index(current) + 1) % len(variants)] if current in seeds else variants[0]
    _PRACTISING[key] = following
    _ATTEMPTS.pop(key, None)
    print(f"Another one ({key}, numbers {following['seed']} of {len(variants)}): {following['statement']}\n"
          f"Set {record['answer']} to your answer and run check({key!r}, {record['answer']}).")
    return following["statement"]


def _forms_for_grading(record, value):
    """``(forms, message)``: the canonical forms to judge (one per case for a function), or ``None``
    and why there is nothing to judge (no answer, a wrong form, a function that fails)."""
    right, message = verdict(record, value, {})
    if right is not True:
        return None, message
    if record["reads"] == "function":
        return _function_results(record, value), message
    return [_form_of(record, value)], message


def _verdict(key, value, attempts):
    try:
        record = record_of(key)
    except KeyError as exc:
        return None, exc.args[0]
    if key in _PRACTISING:   # practising with other numbers (another): that variant's hashes and feedback
        record = {**record, **_PRACTISING[key]}
    try:
        return verdict(record, value, attempts)
    except Exception as exc:  # a bug of the check itself: say so rather than stop the notebook
        return None, f"The check of {key} failed ({type(exc).__name__}: {exc}); please report this to the course authors."


def verdict(record, value, attempts):
    """``(True | False | None, message)`` for ``value`` as an answer to ``record``."""
    no_answer = None, f"No answer yet: set {record['answer']} to your answer and run the cell again."
    if value is None or value is Ellipsis or (isinstance(value, str) and normalise(value) == ""):
        return no_answer
    if record["reads"] == "written":
        return None, written_message(record)
    try:
        if record["reads"] == "function":
            return _check_function(record, value, attempts)
        return judge(record, _form_of(record, value), attempts, _typed(record, value))
    except FormError as exc:
        return None, form_message(record, str(exc))


def _typed(record, value):
    """The text of a number answer typed as text, to tell too few significant digits (a float's digits
    are not what was typed: ``3.0`` may mean 3)."""
    return value if record["compare"] == "digits" and record["entries"] == "one" and isinstance(value, str) else None


def judge(record, form, attempts, typed=None):
    """The verdict on an answer's canonical ``form``; ``typed``, the text of a number answer, tells a
    number given with too few significant digits (no attempt counted). (The twin of ``judge`` in ``answer.js``.)"""
    key = record["key"]
    h = digest(key, form)
    if h in record["accept"]:
        sealed = (record.get("explain") or {}).get(h)
        return True, "Correct." + (" " + unseal(key, form, sealed) if sealed else "")
    if h in record["wrong"]:
        attempts[key] = attempts.get(key, 0) + 1
        return False, "Not yet: " + record["wrong"][h]
    short = short_digits(typed, record["digits"]) if typed is not None else None
    if short is not None:
        return None, form_message(record, f"give {record['digits']} significant digits ({normalise(typed)} has {short})")
    attempts[key] = attempts.get(key, 0) + 1
    return False, not_yet(record, attempts[key])


def not_yet(record, attempt, what=""):
    """"Not yet", what is compared, and the hint for this attempt."""
    text = "Not yet" + what
    if record["reads"] == "numbers" and record["compare"] == "digits":
        text += f" (compared to {record['digits']} significant digits)"
    hints = record["hints"]
    return text + (f". Hint: {hints[min(attempt, len(hints)) - 1]}" if hints else ".")


def form_message(record, detail):
    return f"Check the form: {detail}." + (f" {record['form_hint']}" if record.get("form_hint") else "")


def written_message(record):
    return (f"Written answers are not checked automatically: compare yours with the solution, step by step "
            f"(graded by hand, {record['points']:g} point{'s' if record['points'] != 1 else ''}).")


# -- a Python value as an answer ------------------------------------------------------------------

def _form_of(record, value):
    """The canonical form of ``value``; raises FormError for the wrong form."""
    if isinstance(value, str):
        return form_of_text(record, value)
    if record["reads"] == "items":
        if record["entries"] == "any" and isinstance(value, (set, frozenset, list, tuple)) and all(isinstance(v, str) for v in value):
            return form_of_items(record, [i for i in (item_form(v) for v in value) if i])
        what = f"a set such as {record['example']}" if record["entries"] == "any" else f'one answer such as "{record["example"]}"'
        raise FormError(f"expected {what}, got {_describe(value)}")
    values, listed = _numbers(record, value)
    return form_of_numbers(record, values, listed)


def _numbers(record, value):
    """The numbers of a number, array or list, and whether it was a list."""
    expected = (f"a list of {record.get('size')} numbers" if record["entries"] == "size"
                else "a whole number" if record["compare"] == "whole" else "one number")
    listed = isinstance(value, (np.ndarray, list, tuple)) and not _is_real(value)
    if listed:
        if record.get("flatten"):
            value = _flat(value)
        if isinstance(value, np.ndarray) and value.ndim != 1:
            raise FormError(f"expected {expected}, got an array of shape {value.shape}")
        if not all(_is_real(v) for v in value):
            odd = sorted({_describe(v) for v in value if not _is_real(v)})
            raise FormError(f"expected {expected}, got a {type(value).__name__} holding {odd[0]}")
    elif not _is_real(value):
        raise FormError(f"expected {expected}, got {_describe(value)}")
    values = [float(v) for v in value] if listed else [float(value)]
    for v in values:
        if not np.isfinite(v):
            raise FormError(f"{v} is not a finite number")
    return values, listed


def _is_real(v):
    if isinstance(v, np.ndarray):
        return v.ndim == 0 and v.dtype.kind in "iuf"
    return isinstance(v, (numbers.Real, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))


def _flat(value):
    if isinstance(value, (list, tuple, np.ndarray)):
        return [x for v in value for x in _flat(v)]
    return [value]


def _describe(value):
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape}"
    if isinstance(value, (list, tuple, set, frozenset)):
        return f"a {type(value).__name__} of {len(value)}"
    return f"{type(value).__name__} {value!r}"[:60]


# -- a student's function as an answer -----------------------------------------------------------

class _TimeUp(BaseException):
    """Raised in a student's function that runs too long (a BaseException: ``except Exception`` in it
    does not swallow it)."""


def _call(function, args, seconds):
    """``function(*args)``, stopped after ``seconds`` where a timer can interrupt it (the main thread on Unix)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        return function(*args)

    def stop(signum, frame):
        raise _TimeUp

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return function(*args)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous if previous is not None else signal.SIG_DFL)


def _result_form(record, i, array):
    return f"case{i}:" + ",".join(canonical_number(float(x), record["digits"]) for x in array.ravel())


def _function_results(record, function):
    """The forms of ``function``'s results on the cases (called once more, for the grader's judge)."""
    return [_result_form(record, i, np.asarray(_call(function, decode(case), record["timeout"]), dtype=float))
            for i, case in enumerate(record["cases"], 1)]


def _check_function(record, function, attempts):
    if not callable(function):
        raise FormError(f"expected a function, the {record['answer']} you defined, got {_describe(function)}")
    key, n, where = record["key"], len(record["cases"]), ""
    for i, case in enumerate(record["cases"], 1):
        where = f" on case {i} of {n} (lincourse.exercises.cases({key!r})[{i - 1}] are its arguments)"
        try:
            result = _call(function, decode(case), record["timeout"])
        except _TimeUp:
            return False, f"Not yet: your function ran for more than {record['timeout']:g} s{where}: an endless loop?"
        except (Exception, SystemExit) as exc:
            return False, f"Not yet: your function raised {type(exc).__name__}: {exc}{where}."
        if result is None:
            return False, f"Not yet: your function returned None{where}: is a return statement missing?"
        try:
            array = np.asarray(result, dtype=float)
        except (TypeError, ValueError):
            return False, f"Not yet: your function returned {_describe(result)}{where}; expected numbers."
        if list(array.shape) != record["shapes"][i - 1]:
            return False, (f"Not yet: your function returned shape {array.shape}{where}; "
                           f"expected shape {tuple(record['shapes'][i - 1])}.")
        if not np.all(np.isfinite(array)):
            return False, f"Not yet: your function returned a value that is not finite (inf or nan){where}."
        ok, message = judge(record, _result_form(record, i, array), attempts)
        if not ok:
            return False, message if message.startswith("Not yet:") else not_yet(record, attempts[key], where)
    return True, "Correct."
