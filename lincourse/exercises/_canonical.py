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

Numbers may be typed as arithmetic: ``1/(2*sqrt(2))``, ``2**-1.5``, ``2^-1.5``, ``-log(0.02)``,
``e^(0.8425)``, ``pi/4``. The grammar is Python's expression grammar cut down to numbers, ``+ - * /``,
``**`` (or ``^``), brackets, ``sqrt``, ``exp``, ``log`` (natural; ``ln`` too), ``pi`` and ``e``. Both
worlds first cut the text into the same tokens (:func:`tokens`), so that they refuse the same characters
and names with the same words; then this module reads the tokens with Python's own parser (``ast``) and
evaluates only the nodes of that whitelist (never ``eval``), and ``answer.js`` with a small
recursive-descent parser of the same grammar. ``tests/expression_cases.json`` is the shared table of
cases both are tested on.
"""

from __future__ import annotations

import ast
import hashlib
import math
import re

SALT = "lincourse-exercises-1"


class Kind:
    """How answers of one kind are read and compared: a row of :data:`KINDS`.

    ``reads``: ``"numbers"`` (typed as numbers), ``"items"`` (short strings), ``"function"`` or
    ``"written"`` (a proof or an explanation, compared with the solution by the student).
    ``entries``: ``"one"``, ``"size"`` (a list of the record's ``size``) or ``"any"`` (a set).
    ``compare``: ``"digits"`` (to the record's significant digits), ``"whole"`` (exactly, a whole
    number) or ``"item"`` (a trimmed, lower-cased string).
    ``what``: what to type, in a few words (formatted with the record's fields; never the answer).

    Every record carries its kind's ``reads``, ``entries`` and ``compare``, and both worlds (this module
    with :mod:`._check`, and ``answer.js``) decide by these fields, never by the kind's name.
    """

    __slots__ = ("reads", "entries", "compare", "what")

    def __init__(self, reads, entries, compare, what):
        self.reads, self.entries, self.compare, self.what = reads, entries, compare, what

    def fields(self):
        return {"reads": self.reads, "entries": self.entries, "compare": self.compare}


KINDS = {
    "number": Kind("numbers", "one", "digits", "a number, such as 2.5, 5/4 or sqrt(2)/4 ({digits} significant digits count)"),
    "count": Kind("numbers", "one", "whole", "a whole number"),
    "vector": Kind("numbers", "size", "digits", "{size} numbers separated by commas ({digits} significant digits count)"),
    "set": Kind("items", "any", "item", "a set{options}, such as {example}"),
    "choice": Kind("items", "one", "item", "one answer{options}, such as {example}"),
    "function": Kind("function", "one", "digits", "a function"),
    "proof": Kind("written", "one", "", "a proof"),
    "explanation": Kind("written", "one", "", "an explanation"),
}
ZERO = 1e-12           # a number smaller than this in magnitude is zero (rounding noise of a true zero)
MAX_DIGITS = 15        # mantissas stay exact integers in a double

_WS = "[ \\t\\n\\r\\f\\v\\u00a0\\u2009\\u202f]"          # the same class in answer.js
_DECIMAL = "[+-]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
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
    """The numbers in ``text`` (``"1, 2"``, ``"[5/4 -1e-3]"``, ``"sqrt(2)/4"``) and whether they were in brackets.

    Commas and semicolons outside round brackets separate numbers; so do spaces, when every piece
    between them is a number or an expression of its own (``"0.1 -0.25"`` is two numbers,
    ``"2 ** -1.5"`` one). A list in round brackets, ``(1, 2)``, is a list; ``(7/3)`` is a number.
    """
    t = normalise(text)
    bracketed = len(t) >= 2 and t[0] in "[(" and t[-1] == _PAIRS[t[0]] and _closes_at_end(t)
    inner = t[1:-1] if bracketed else t
    parts = _pieces(inner)
    if bracketed and t[0] == "(" and len(parts) <= 1:
        bracketed, parts = False, _pieces(t)
    return [_value(part) for part in parts], bracketed


def _closes_at_end(t):
    """Whether the bracket that opens ``t`` is the one that closes it (``(1)/(2)`` is not bracketed)."""
    depth = 0
    for i, c in enumerate(t):
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(c, 0)
        if depth == 0:
            return i == len(t) - 1
    return False


def _pieces(t):
    """The number-texts of ``t``: cut at commas and semicolons outside brackets, then at spaces if
    every piece between spaces reads as a number of its own."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(t):
        depth += {"(": 1, ")": -1}.get(c, 0)
        if c in ",;" and depth == 0:
            parts.append(t[start:i])
            start = i + 1
    parts.append(t[start:])
    pieces = []
    for part in parts:
        part = _TRIM.sub("", _SLASH.sub("/", part))
        if part == "":
            continue
        words = [w for w in _INNER.split(part) if w]
        if len(words) > 1 and all(_reads(w) for w in words):
            pieces.extend(words)
        else:
            pieces.append(part)
    return pieces


def _reads(word):
    try:
        _value(word)
    except FormError as exc:
        return "finite" in str(exc)   # a number, if not a finite one: the message will say so
    return True


_TOKEN = re.compile(f"{_WS}+|(?P<number>(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?)|(?P<name>[A-Za-z]+)"
                    "|(?P<op>\\*\\*|[-+*/^()])")
FUNCTIONS = {"sqrt": math.sqrt, "exp": math.exp, "log": math.log, "ln": math.log}
CONSTANTS = {"pi": math.pi, "e": math.e}
_KNOWN = "sqrt, exp, log, pi and e"


def tokens(text):
    """The tokens of an expression: ``("number", "2.5")``, ``("name", "sqrt")``, ``("op", "**")``.

    Raises FormError for a character or a name outside the grammar. (The twin of ``tokens`` in ``answer.js``.)
    """
    out, i = [], 0
    while i < len(text):
        match = _TOKEN.match(text, i)
        if not match:
            raise FormError(f'could not read "{text}" as a number: "{text[i]}" is not part of one '
                            f'(use digits, + - * / ^ ( ) and {_KNOWN})')
        i = match.end()
        kind = match.lastgroup
        if kind is None:
            continue
        word = match.group(kind)
        if kind == "name":
            word = word.lower()
            if word not in FUNCTIONS and word not in CONSTANTS:
                raise FormError(f'could not read "{text}" as a number: "{match.group(kind)}" is not a name '
                                f'I know ({_KNOWN})')
        out.append((kind, "**" if word == "^" else word))
    depth = 0
    for kind, word in out:
        depth += {"(": 1, ")": -1}.get(word, 0) if kind == "op" else 0
        if depth < 0:
            break
    if depth != 0:
        raise FormError(f'could not read "{text}" as a number: its brackets do not match')
    return out


_BINARY = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
           ast.Div: lambda a, b: a / b if b != 0 else math.copysign(math.inf, a) if a != 0 else math.nan,
           ast.Pow: lambda a, b: _pow(a, b)}
_UNARY = {ast.USub: lambda a: -a, ast.UAdd: lambda a: a}


def _pow(a, b):
    try:
        value = a ** b
    except OverflowError:
        return math.inf
    except ZeroDivisionError:   # 0 ** -1
        return math.inf
    return value if isinstance(value, float) else math.nan   # a complex power: no real number


def _apply(name, x):
    try:
        return FUNCTIONS[name](x)
    except OverflowError:
        return math.inf
    except ValueError:   # log(0), log(-1), sqrt(-1)
        return -math.inf if name in ("log", "ln") and x == 0 else math.nan


def _value(text):
    """The value of one number-text; raises FormError if it is not a number or a finite one."""
    found = tokens(text)
    numbers = [float(word) for kind, word in found if kind == "number"]
    # the numbers become names, so that Python's parser sees only the grammar's shapes ("05" is 5)
    source = " ".join(f"_{sum(k == 'number' for k, _ in found[:i])}" if kind == "number" else word
                      for i, (kind, word) in enumerate(found))
    try:
        tree = ast.parse(source, mode="eval").body
        value = _evaluate(tree, numbers)
    except (SyntaxError, _NotInGrammar):
        raise FormError(f'could not read "{text}" as a number') from None
    if not math.isfinite(value):
        raise FormError(f'"{text}" is not a finite number')
    return value


class _NotInGrammar(Exception):
    pass


def _evaluate(node, numbers):
    """The value of a parsed expression, from the whitelist of nodes; anything else is not in the grammar."""
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        return float(_BINARY[type(node.op)](_evaluate(node.left, numbers), _evaluate(node.right, numbers)))
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_evaluate(node.operand, numbers))
    if isinstance(node, ast.Name) and node.id.startswith("_"):
        return numbers[int(node.id[1:])]
    if isinstance(node, ast.Name) and node.id in CONSTANTS:
        return CONSTANTS[node.id]
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS
            and len(node.args) == 1 and not node.keywords):
        return _apply(node.func.id, _evaluate(node.args[0], numbers))
    raise _NotInGrammar


def short_digits(text, digits):
    """If ``text`` is one plain decimal number with fewer than ``digits`` significant digits, that
    number of digits (``"0.35"``, 3 -> 2); else None."""
    t = normalise(text)
    if not re.fullmatch(_DECIMAL, t):
        return None
    mantissa = re.split("[eE]", t)[0].lstrip("+-").replace(".", "").lstrip("0")
    if "." not in t and "e" not in t.lower():
        mantissa = mantissa.rstrip("0") or mantissa   # 700 is one significant digit, or three: give the benefit
    n = len(mantissa)
    return n if 0 < n < digits else None


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
    if record["entries"] == "size":
        size = record["size"]
        if len(numbers) != size:
            raise FormError(f"expected a list of {size} number{'s' if size != 1 else ''}, got {len(numbers)}")
        return ",".join(canonical_number(x, record["digits"]) for x in numbers)
    if bracketed:
        raise FormError("expected one number, not a list")
    if len(numbers) != 1:
        raise FormError(f"expected one number, got {len(numbers)}")
    if record["compare"] == "whole":
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
    if record["entries"] == "one":
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
    if record["reads"] == "items":
        return form_of_items(record, read_items(text, record["example"]))
    return form_of_numbers(record, *read_numbers(text))
