"""The website's answer box: an exercise's record as HTML, checked in the browser by ``answer.js``.

The box is plain HTML (a labelled input, a Check button, a live region for the verdict) carrying the
exercise's public record, hashes only, as JSON. ``answer.js`` and ``answer.css``, beside this module,
give it its behaviour and looks; a page links them once (the course website does so in every page).
They need no kernel, no server and no ``crypto.subtle``, so a box works from ``file://`` as well as
from any static host. Without JavaScript the box says where else to check the answer.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

from ._canonical import KINDS, SALT
from ._declare import record_of

ANSWER_JS = Path(__file__).with_name("answer.js")
ANSWER_CSS = Path(__file__).with_name("answer.css")
_BOX_FIELDS = ("key", "answer", "kind", "reads", "entries", "compare", "points", "hints", "form_hint", "digits", "size", "options", "example",
               "accept", "wrong", "explain")


def answer_box(key):
    """The answer box of exercise ``key``, shown by Jupyter and on the website."""
    return AnswerBox(record_of(key))


class AnswerBox:
    """An exercise's answer box; its ``_repr_html_`` is the box (see the module docstring)."""

    def __init__(self, record):
        self.record = record

    def __repr__(self):
        return f"Answer box of {self.record['key']}: in a notebook, check your answer with check({self.record['key']!r}, {self.record['answer']})."

    def _repr_html_(self):
        r = self.record
        key, kind, reads = r["key"], r["kind"], r["reads"]
        ident = f"lincourse-answer-{key}"
        call = html.escape(f'check("{key}", {r["answer"]})')
        if reads == "function":
            return (f'<div class="lincourse-answer lincourse-answer-code" data-key="{key}"><p>This exercise asks for '
                    f"a function, <code>{html.escape(r['answer'])}</code>: write it in the notebook and run "
                    f"<code>{call}</code> there to check it on test cases.</p></div>")
        payload = {f: r[f] for f in _BOX_FIELDS if r.get(f) is not None} | {"salt": SALT}
        if r.get("variants"):   # "another one": the practice variants, their numbers as plain text
            payload["variants"] = [{**v, "statement": plain(v["statement"])} for v in r["variants"]]
        data = json.dumps(payload, separators=(",", ":")).replace("</", "<\\/")
        if reads == "items" and r["entries"] == "one" and r.get("options"):
            # one radio button per option: the arrow keys move between them, a screen reader reads the group
            label = f"Your answer: one of {', '.join(r['options'])}"
            radios = "".join(f'<label class="lincourse-answer-option"><input type="radio" name="{ident}-choice" '
                             f'value="{html.escape(o, quote=True)}"> {html.escape(o)}</label>' for o in r["options"])
            return (f'<div class="lincourse-answer" id="{ident}" data-key="{key}" data-kind="{kind}" role="group" '
                    f'aria-labelledby="{ident}-label">'
                    f'<script type="application/json" class="lincourse-answer-record">{data}</script>'
                    f'<fieldset class="lincourse-answer-choices"><legend id="{ident}-label">{html.escape(label)} '
                    f'<span class="lincourse-answer-points">{_points(r)}</span></legend>'
                    f'<div class="lincourse-answer-row">{radios}<button type="button">Check</button></div></fieldset>'
                    f'<p class="lincourse-answer-result" role="status" aria-live="polite">'
                    f"Checking here needs JavaScript; in the notebook, run <code>{call}</code>.</p></div>")
        if reads == "written":
            label, field, button = (f"Your {kind} (it stays on this page: nothing is sent or stored)",
                                    f'<textarea id="{ident}-input" rows="4" spellcheck="true"></textarea>',
                                    "Compare with the solution")
        else:
            label, field, button = (f"Your answer: {_what(r)}",
                                    f'<input id="{ident}-input" type="text" autocomplete="off" '
                                    f'autocapitalize="off" spellcheck="false">', "Check")
        points = _points(r)
        return (f'<div class="lincourse-answer" id="{ident}" data-key="{key}" data-kind="{kind}" role="group" '
                f'aria-labelledby="{ident}-label">'
                f'<script type="application/json" class="lincourse-answer-record">{data}</script>'
                f'<label id="{ident}-label" for="{ident}-input">{html.escape(label)}</label>'
                f'<span class="lincourse-answer-points">{points}</span>'
                f'<div class="lincourse-answer-row">{field}<button type="button">{button}</button></div>'
                + _another(r) +
                f'<p class="lincourse-answer-result" role="status" aria-live="polite">'
                f"Checking here needs JavaScript; in the notebook, run <code>{call}</code>.</p></div>")


def _another(record):
    """The "Another one" button and the line that shows the new numbers (shown by ``answer.js``)."""
    if not record.get("variants"):
        return ""
    return ('<div class="lincourse-answer-another-row" hidden><button type="button" class="lincourse-answer-another">'
            'Another one: new numbers</button><p class="lincourse-answer-numbers" aria-live="polite"></p></div>')


_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def plain(statement):
    """A statement's formulas as plain text, for a page that typesets nothing after it loads:
    ``$x_1 = (1, 2)$`` becomes ``x₁ = (1, 2)``."""
    import re

    text = re.sub(r"_\{?(\d+)\}?", lambda m: m.group(1).translate(_SUB), statement)
    for tex, shown in ((r"\tilde w", "w̃"), (r"\cdot", "·"), (r"\sigma", "σ"), ("$", "")):
        text = text.replace(tex, shown)
    return text


def _points(record):
    return f"{record['points']:g} point{'s' if record['points'] != 1 else ''}"


def _what(record):
    """What to type, in a few words (never the answer)."""
    options = f" of {', '.join(record['options'])}" if record.get("options") else ""
    return KINDS[record["kind"]].what.format(**{**record, "options": options})
