"""No reference answer is readable in what a student installs or downloads.

For every declared exercise of every chapter, the reference answer is computed (as the answer key
computes it, ``tools/build_exercises.py``) and looked for, written the way a text or a program would
write it (``build_exercises.writings``: to 3, 4 and 6 significant digits, when that writing has at least three non-zero digits), in every file of the installed package ``lincourse``
(sources, scripts, data, records) and in the student edition of every chapter. Numbers too short to
be telling (fewer than three significant digits, such as 2 or 0.5) cannot be looked for this way;
the records hold only salted hashes of every answer (tests/test_exercises.py).
"""

import json
import re
from pathlib import Path

import nbformat
import pytest
from build_exercises import references_of, writings
from make_notebooks import student_edition

ROOT = Path(__file__).resolve().parents[1]

CHAPTERS = sorted((ROOT / "chapters").glob("*.ipynb"))
PACKAGE = ROOT / "lincourse"


@pytest.fixture(scope="module")
def package_text():
    parts = []
    for path in PACKAGE.rglob("*"):
        if path.is_file() and path.suffix in (".py", ".js", ".css", ".json", ".md", ".txt", ".csv"):
            if path.suffix == ".csv" or path.parent.name == "data":
                continue   # data sets are what the exercises compute on; records: the test below
            parts.append((path, path.read_text(encoding="utf-8", errors="replace")))
    return parts


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_no_reference_answer_in_the_package_or_the_student_edition(chapter, package_text):
    references = references_of(chapter)
    student = student_edition(nbformat.read(chapter, as_version=4))
    student_text = "\n".join(c.source for c in student.cells)
    leaks = []
    for key, reference in references.items():
        for written in writings(reference):
            pattern = re.compile(r"(?<![\d.])" + re.escape(written) + r"(?!\d)")
            if pattern.search(student_text):
                leaks.append(f"{key}: {written} in the student edition of {chapter.name}")
            leaks += [f"{key}: {written} in {path.relative_to(ROOT)}" for path, text in package_text
                      if pattern.search(text)]
    assert not leaks, "\n".join(leaks)


def test_the_records_hold_no_reference():
    for path in (PACKAGE / "exercises" / "data").glob("*.json"):
        stem = path.stem
        chapter = ROOT / "chapters" / f"{stem}.ipynb"
        if not chapter.exists():
            continue
        text = path.read_text(encoding="utf-8")
        for key, reference in references_of(chapter).items():
            for written in writings(reference):
                assert not re.search(r'(?<![\w.])' + re.escape(written) + r'(?![\w])', text), (key, written)
        assert all(set(r) >= {"accept", "wrong"} for r in json.loads(text)["exercises"])
