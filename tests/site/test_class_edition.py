"""The class edition of the website (``make book EDITION=class``): answer boxes, and no answers.

For a class that grades its homework: every chapter with its explorers and answer boxes, and no
solution, no teaching note, no notebook source to download, no button that opens the full notebooks,
and no reference answer anywhere in the pages (the same search as tests/test_no_answers.py).
"""

import re
from pathlib import Path

import pytest
from build_exercises import references_of, writings

ROOT = Path(__file__).resolve().parents[2]
CLASS = ROOT / "_build" / "class" / "html"

CHAPTERS = sorted((ROOT / "chapters").glob("*.ipynb"))

pytestmark = pytest.mark.skipif(not (CLASS / "intro.html").exists(),
                                reason="no class edition: run `make book EDITION=class` first")


def _text(html):
    """The page's text and attribute values, without scripts' code (the answer records are JSON data) and without
    the geometry of drawings (an SVG path's coordinates are not numbers a student reads)."""
    html = re.sub(r"<script(?![^>]*application/json)[^>]*>.*?</script>", " ", html, flags=re.S)
    return re.sub(r'\s(?:d|points|transform|viewBox|x[12]?|y[12]?|cx|cy|r|width|height)="[^"]*"', " ", html)


def test_no_notebook_sources_are_published():
    assert not (CLASS / "_sources").exists()
    assert not list(CLASS.rglob("*.ipynb"))


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_a_class_page_has_answer_boxes_and_no_solution_note_or_button(chapter):
    html = (CLASS / "chapters" / f"{chapter.stem}.html").read_text(encoding="utf-8")
    assert html.count('class="lincourse-answer"') >= 4
    assert 'class="lincourse-player' in html
    for absent in ('class="solution', "solution-start", "admonition instructor", "For instructors",
                   "dropdown-download-buttons", "btn-launch-thebe", "mybinder.org", "colab.research.google.com",
                   "btn-source-repository-button"):
        assert absent not in html, f"{chapter.stem}: {absent!r} in the class edition"
    text = _text(html)
    leaks = []
    for key, reference in references_of(chapter).items():
        for written in writings(reference):
            if re.search(r"(?<![\d.\w])" + re.escape(written) + r"(?![\d\w]|\.\d)", text):
                leaks.append(f"{key}: {written}")
    assert not leaks, f"{chapter.stem}: " + ", ".join(leaks)
