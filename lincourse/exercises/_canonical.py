"""Canonical forms of answers, and reading an answer typed as text.

This module and ``answer.js`` (the website's answer boxes) are one algorithm written twice: every
function here has a twin of the same name (in camelCase) in ``answer.js``, doing the same double
operations, so that a notebook and a static web page turn the same answer into the same string, hash
it the same way, and say the same thing about a malformed answer. ``tests/site/test_answer_boxes.py`` feeds one
table of inputs to both and requires identical verdicts and feedback.

Canonical forms (what is hashed):

* a number to ``d`` significant digits: ``"<m>e<p>"``, the value ``m * 10**p``, with an integer
  mantissa ``10**(d-1) <= |m| < 10**d``, or ``"0"``; ``|x| < ZERO`` is zero;
* a whole number (a count): its decimal digits, ``"-3"``;
* a list of numbers: the entries' forms joined by ``,``;
* a set of short strings: trimmed, lower-cased, inner spaces collapsed, sorted, joined by ``,``;
  a choice: one such string.
"""

from __future__ import annotations

import hashlib
import math
import re

SALT = "lincourse-exercises-1"
ZERO = 1e-12           # a number smaller than this in magnitude is zero (rounding noise of a true zero)
MAX_DIGITS = 15        # mantissas stay exact integers in a double

_WS = "[ \\t\\n\\r\\f\\v\\u00a0\\u2009\\u202f]"          # the same class in answer.js
_DECIMAL = "[+-]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
_NUMBER = re.compile(f"^({_DECIMAL})(?:/({_DECIMAL}))?$")
_SPLIT_NUMBERS = re.compile(f"(?:{_WS}|[,;])+")
_SLASH = re.compile(f"{_WS}*/{_WS}*")
_TRIM = re.compile(f"^{_WS}+|{_WS}+$")
_INNER = re.compile(f"{_WS}+")
_QUOTES = re.compile("^['\"`]+|['\"`]+$")
_PAIRS = {"{": "}", "[": "]", "(": ")"}


def digest(key, form):
    """The salted SHA-256 (hex) of the canonical ``form`` of an answer to exercise ``key``."""
    return hashlib.sha256(f"{SALT}|{key}|{form}".encode("utf-8")).hexdigest()


def _keystream(key, form, n):
    """``n`` bytes of SHA-256 in counter mode, keyed by an answer's form (the twin of ``keystream`` in answer.js)."""
    out = b""
    block = 0
    while len(out) < n:
        out += hashlib.sha256(f"{SALT}|{key}|{form}|explain|{block}".encode("utf-8")).digest()
        block += 1
    return out[:n]


def seal(key, form, text):
    """``text`` encrypted (hex) with the right answer's canonical ``form`` as the key: a page or the package
    can show why an answer is right only to somebody who has given it."""
    data = text.encode("utf-8")
    return bytes(a ^ b for a, b in zip(data, _keystream(key, form, len(data)))).hex()


def unseal(key, form, sealed):
    """The text :func:`seal` encrypted."""
    data = bytes.fromhex(sealed)
    return bytes(a ^ b for a, b in zip(data, _keystream(key, form, len(data)))).decode("utf-8")


def _power(a, k):
    # a * 10**k with 10**k an exact decimal read as a double: multiply for k >= 0, divide for k < 0
    return a * float(f"1e{k}") if k >= 0 else a / float(f"1e{-k}")


def canonical_number(x, digits):
    """``x`` to ``digits`` significant digits as ``"<m>e<e>"`` (``"1.2345"`` -> ``"123e-2"``), or ``"0"``.

    >>> canonical_number(7 / 3, 3), canonical_number(-0.0, 3), canonical_number(999.6, 3)
    ('233e-2', '0', '100e1')
    """
    a = abs(x)
    if a < ZERO:
        return "0"
    e = math.floor(math.log10(a))
    for _ in range(3):  # log10 can be off by one next to a power of ten: correct e until m has d digits
        m = math.floor(_power(a, digits - 1 - e) + 0.5)
        if m >= 10 ** digits:
            e += 1
        elif m < 10 ** (digits - 1):
            e -= 1
        else:
            break
    return f"{'-' if x < 0 else ''}{m}e{e - digits + 1}"


def canonical_count(x):
    """A whole number as its digits (``3.0`` -> ``"3"``); None if ``x`` is not a whole number."""
    if not (math.isfinite(x) and x == math.floor(x) and abs(x) <= 2.0 ** 53):
        return None
    return str(int(x))


def normalise(text):
    """Trim, and read the minus sign U+2212 as ``-`` (what a copy from a web page gives)."""
    return _TRIM.sub("", text.replace("\u2212", "-"))


class FormError(ValueError):
    """An answer of the wrong form (two numbers where one is expected); the message says what was expected."""


def read_numbers(text):
    """The numbers in ``text`` (``"1, 2"``, ``"[5/4 -1e-3]"``) and whether they were in brackets."""
    t = normalise(text)
    bracketed = len(t) >= 2 and t[0] in "[(" and t[-1] == _PAIRS[t[0]]
    if bracketed:
        t = t[1:-1]
    numbers = []
    for token in _SPLIT_NUMBERS.split(_SLASH.sub("/", t)):
        if token == "":
            continue
        match = _NUMBER.match(token)
        if not match:
            raise FormError(f'could not read "{token}" as a number')
        value = float(match.group(1))
        if match.group(2) is not None:
            value = value / float(match.group(2)) if float(match.group(2)) != 0 else math.inf
        if not math.isfinite(value):
            raise FormError(f'"{token}" is not a finite number')
        numbers.append(value)
    return numbers, bracketed


def read_items(text, example):
    """The items of a set typed as ``{A, C}``, ``[A, C]`` or ``A, C``."""
    t = normalise(text)
    if (t and t[0] in _PAIRS and t[-1] != _PAIRS[t[0]]) or (t and t[0] not in _PAIRS and t[-1] in "}])"):
        raise FormError(f"expected a set such as {example}")
    if t and t[0] in _PAIRS:
        t = t[1:-1]
    return [item for item in (item_form(part) for part in re.split("[,;]", t)) if item != ""]


def item_form(item):
    """One item of a set or a choice: trimmed, unquoted, lower-cased, inner spaces collapsed."""
    return _INNER.sub(" ", _TRIM.sub("", _QUOTES.sub("", _TRIM.sub("", item))).lower())


def form_of_numbers(record, numbers, bracketed=False):
    """The canonical form of the numbers of an answer to ``record`` (a number, a count or a vector)."""
    kind = record["kind"]
    if kind == "vector":
        size = record["size"]
        if len(numbers) != size:
            raise FormError(f"expected a list of {size} number{'s' if size != 1 else ''}, got {len(numbers)}")
        return ",".join(canonical_number(x, record["digits"]) for x in numbers)
    if bracketed:
        raise FormError("expected one number, not a list")
    if len(numbers) != 1:
        raise FormError(f"expected one number, got {len(numbers)}")
    if kind == "count":
        form = canonical_count(numbers[0])
        if form is None:
            raise FormError("expected a whole number")
        return form
    return canonical_number(numbers[0], record["digits"])


def form_of_items(record, items):
    """The canonical form of the items of an answer to ``record`` (a set or a choice)."""
    options = record.get("options")
    if options:
        allowed = [item_form(o) for o in options]
        for item in items:
            if item not in allowed:
                raise FormError(f'"{item}" is not one of the options {", ".join(options)}')
    if record["kind"] == "choice":
        if len(items) != 1:
            raise FormError(f"expected one answer such as {record['example']}, got {len(items)}")
        return items[0]
    return ",".join(sorted(set(items)))


def form_of_text(record, text):
    """The canonical form of an answer to ``record`` typed as ``text``; None if there is none.

    Raises :class:`FormError` for an answer of the wrong form. (The twin of ``formOfText`` in ``answer.js``.)
    """
    if normalise(text) == "":
        return None
    if record["kind"] in ("set", "choice"):
        return form_of_items(record, read_items(text, record["example"]))
    return form_of_numbers(record, *read_numbers(text))
