"""The chapter rules, for every chapter of the table of contents.

A chapter is one lecture: at most 4,000 words of prose outside solutions and teaching notes, a stated
duration of at most 90 minutes, teaching notes folded in a box for instructors with a time plan.
Every learning objective is practised by an exercise or concept check that declares it; a chapter has
at least four exercises, a proof among them; every exercise has its four cells (statement,
declaration, answer cell, solution); the corrections of the source notes sit in one folded note; the
text speaks to its readers (no words about how the course is built).
"""

import re
from pathlib import Path

import nbformat
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
TOC = yaml.safe_load((ROOT / "_toc.yml").read_text())
CHAPTERS = [ROOT / f"{entry['file']}.ipynb" for entry in TOC["chapters"]]
START = re.compile(r"```\{solution-start\}\s*([\w:-]+)")
END = re.compile(r"```\{solution-end\}")
LABEL = re.compile(r"^:::+\{exercise\}[^\n]*\n(?::[\w-]+:[^\n]*\n)*?:label:\s*([\w:-]+)", re.M)
DECLARE = re.compile(r'declare\(\s*"([\w-]+)"(.*?)\)\s*$', re.S)
INTERNAL = re.compile(r"\b(nbval|CI|helper|lead engineer|seed documents?|sphinx-exercise|cell tag|the issue)\b")


def _tags(cell):
    return set(cell.metadata.get("tags", []))


def _public_cells(nb):
    """The cells a reader meets as the lesson: no solutions, no teaching notes."""
    inside = False
    for cell in nb.cells:
        if cell.cell_type == "markdown" and START.search(cell.source):
            inside = True
            continue
        if cell.cell_type == "markdown" and END.search(cell.source):
            inside = False
            continue
        if not inside and not _tags(cell) & {"instructor", "solution", "remove-cell"}:
            yield cell


def _prose_words(nb):
    return sum(len(re.sub(r"\$\$.*?\$\$|\$[^$]*\$", " x ", c.source, flags=re.S).split())
               for c in _public_cells(nb) if c.cell_type == "markdown")


def _objectives(nb):
    for cell in nb.cells:
        if cell.cell_type == "markdown" and "## Learning objectives" in cell.source:
            after = cell.source.split("## Learning objectives", 1)[1]
            return [line for line in after.splitlines() if re.match(r"^\d+\.\s", line)]
    return []


def _declarations(nb):
    found = {}
    for cell in nb.cells:
        if cell.cell_type == "code" and "exercise-declaration" in _tags(cell):
            for m in DECLARE.finditer(cell.source):
                body = m.group(2)
                kind = re.search(r'kind\s*=\s*"(\w+)"', body)
                objective = re.search(r"objective\s*=\s*(\d+)", body)
                found[m.group(1)] = {"kind": kind.group(1) if kind else "number",
                                     "objective": int(objective.group(1)) if objective else None}
    return found


@pytest.fixture(scope="module", params=CHAPTERS, ids=lambda p: p.stem)
def chapter(request):
    return request.param, nbformat.read(request.param, as_version=4)


def test_the_table_of_contents_lists_every_chapter():
    assert sorted(CHAPTERS) == sorted((ROOT / "chapters").glob("*.ipynb"))
    assert 8 <= len(CHAPTERS) <= 10


def test_a_chapter_is_one_lecture(chapter):
    path, nb = chapter
    words = _prose_words(nb)
    assert words <= 4000, f"{path.name}: {words} words of prose (at most 4,000 outside solutions and notes)"
    opening = " ".join(c.source for c in nb.cells[:4] if c.cell_type == "markdown")
    minutes = [int(m) for m in re.findall(r"(\d+)\s*minutes", opening)]
    assert minutes and max(minutes) <= 90, f"{path.name}: the opening states no duration of at most 90 minutes"


def test_teaching_notes_are_folded_for_instructors_with_a_time_plan(chapter):
    path, nb = chapter
    notes = [c.source for c in nb.cells if "instructor" in _tags(c)]
    assert notes, f"{path.name}: no teaching notes"
    for note in notes:
        assert re.match(r"^:::+\{admonition\} For instructors\n:class: dropdown instructor", note), note[:80]
    assert re.search(r"\d+\s*min", "\n".join(notes)), f"{path.name}: the teaching notes give no time plan"


def test_every_objective_is_practised_and_every_exercise_declared(chapter):
    path, nb = chapter
    objectives = _objectives(nb)
    declared = _declarations(nb)
    assert objectives, f"{path.name}: no numbered learning objectives"
    practised = {d["objective"] for d in declared.values()}
    missing = [k for k in range(1, len(objectives) + 1) if k not in practised]
    assert not missing, f"{path.name}: objectives {missing} are practised by no exercise or concept check"
    assert all(d["objective"] in range(1, len(objectives) + 1) for d in declared.values()), declared
    labels = [m for c in nb.cells if c.cell_type == "markdown" for m in LABEL.findall(c.source)]
    assert sorted(labels) == sorted(declared), f"{path.name}: exercises and declarations differ"
    exercises = [k for k in declared if k.startswith("ex-")]
    assert len(exercises) >= 4, f"{path.name}: {len(exercises)} exercises (at least 4)"
    assert any(declared[k]["kind"] == "proof" for k in exercises), f"{path.name}: no proof exercise"


def test_every_exercise_has_its_four_cells_in_order(chapter):
    """Statement, declaration (hidden code), answer cell (hidden on the website), solution block."""
    path, nb = chapter
    cells = nb.cells
    for i, cell in enumerate(cells):
        found = LABEL.findall(cell.source) if cell.cell_type == "markdown" else []
        for key in found:
            declaration, answer = cells[i + 1], cells[i + 2]
            assert "exercise-declaration" in _tags(declaration) and "remove-input" in _tags(declaration), key
            assert f'"{key}"' in declaration.source, key
            assert {"answer", "remove-cell"} <= _tags(answer), f"{key}: no answer cell after the declaration"
            kind = _declarations(nb)[key]["kind"]
            if kind in ("proof", "explanation"):
                assert answer.cell_type == "markdown", key
            else:
                assert answer.cell_type == "code" and re.search(rf'check\("{key}",\s*\w+\)\s*$', answer.source), key
            rest = cells[i + 3:]
            opening = next((c for c in rest if c.cell_type == "markdown" and START.search(c.source)), None)
            assert opening is not None and START.search(opening.source).group(1) == key, f"{key}: no solution"


def test_sources_are_remarked_on_in_one_folded_note(chapter):
    path, nb = chapter
    notes = [c for c in nb.cells if c.cell_type == "markdown" and "{admonition} About the sources" in c.source]
    assert len(notes) == 1, f"{path.name}: {len(notes)} 'About the sources' notes (one)"
    assert ":class: dropdown" in notes[0].source


def test_the_text_speaks_to_its_readers(chapter):
    path, nb = chapter
    for cell in _public_cells(nb):
        if cell.cell_type == "markdown":
            hit = INTERNAL.search(cell.source)
            assert not hit, f"{path.name}: {hit.group(0)!r} in {cell.source[:80]!r}"
