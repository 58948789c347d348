"""tools/make_notebooks.py: one source, an instructor and a student edition (which
``tests/site/test_lab.py`` runs in JupyterLab)."""

import subprocess
import sys
from pathlib import Path

import chapter_model as cm
import nbformat
import pytest
from class_edition import _config, class_edition
from make_notebooks import student_edition

ROOT = Path(__file__).resolve().parents[1]

CHAPTERS = sorted((ROOT / "chapters").glob("*.ipynb"))


def _toy():
    v4 = nbformat.v4
    nb = v4.new_notebook()
    nb.cells = [
        v4.new_markdown_cell("# Toy\n\n:::{exercise}\n:label: ex-toy\nCompute 6 * 7.\n:::"),
        v4.new_code_cell("answer = ...\nprint(answer)", outputs=[v4.new_output("stream", text="Ellipsis\n")],
                         execution_count=1),
        v4.new_markdown_cell("```{solution-start} ex-toy\n:class: dropdown\n```"),
        v4.new_markdown_cell("Multiply: SECRET-REASONING.", metadata={"tags": ["solution"]}),
        v4.new_code_cell("answer = 6 * 7  # SECRET-CODE", metadata={"tags": ["solution"]}),
        v4.new_markdown_cell("```{solution-end}\n```"),
        v4.new_markdown_cell("**Teaching notes.** SECRET-NOTE", metadata={"tags": ["instructor"]}),
        v4.new_code_cell("x = 1  # SECRET-TAGGED", metadata={"tags": ["solution"]}),
        v4.new_markdown_cell("Text\n\n:::{solution} ex-toy\nSECRET-INLINE\n:::\n\nMore text"),
        v4.new_code_cell("print('kept')"),
    ]
    return nb


def test_student_edition_of_a_toy_notebook():
    student = student_edition(_toy())
    text = nbformat.writes(student)
    assert "SECRET" not in text
    assert "solution-start" not in text and "solution-end" not in text
    stubs = [c for c in student.cells if "stub" in c.metadata.get("tags", [])]
    assert len(stubs) == 2 and "ex-toy" in stubs[0].source
    assert all(c.outputs == [] and c.execution_count is None for c in student.cells if c.cell_type == "code")
    assert "More text" in text and "print('kept')" in text


def test_student_edition_keeps_the_answer_cell_and_hint_and_drops_the_declaration():
    v4 = nbformat.v4
    nb = v4.new_notebook()
    nb.cells = [
        v4.new_markdown_cell(":::{exercise} Distance\n:label: ex-toy\nSet `distance`.\n:::"),
        v4.new_code_cell('declare("ex-toy", answer="distance", reference=lambda: 7 / 3)  # SECRET-DECLARATION',
                         metadata={"tags": ["exercise-declaration", "remove-input"]}),
        v4.new_code_cell('distance = ...   # your answer\ncheck("ex-toy", distance)',
                         metadata={"tags": ["answer", "remove-cell"]}),
        v4.new_markdown_cell(":::{admonition} Hint\n:class: dropdown\nDivide by the norm: HINT-KEPT.\n:::",
                             metadata={"tags": ["hint"]}),
        v4.new_markdown_cell("```{solution-start} ex-toy\n:class: dropdown\n```"),
        v4.new_code_cell('distance = 7 / 3  # SECRET-CODE\ncheck("ex-toy", distance)'),
        v4.new_markdown_cell("```{solution-end}\n```"),
        v4.new_markdown_cell("SECRET-NOTE", metadata={"tags": ["instructor"]}),
        v4.new_markdown_cell("## Going further: more\n\nOPTIONAL-KEPT", metadata={"tags": ["going-further"]}),
    ]
    assert cm.of_notebook(nb).exercise("ex-toy").hint == 3
    student = student_edition(nb)
    text = nbformat.writes(student)
    assert "SECRET" not in text and "stub" not in text
    assert "HINT-KEPT" in text and "OPTIONAL-KEPT" in text
    for_class = nbformat.writes(class_edition(nb))   # the class edition keeps the declaration, hint and Going further
    assert "HINT-KEPT" in for_class and "OPTIONAL-KEPT" in for_class and "SECRET-DECLARATION" in for_class
    assert "SECRET-CODE" not in for_class and "SECRET-NOTE" not in for_class
    answer = [c for c in student.cells if "answer" in c.metadata.get("tags", [])]
    assert len(answer) == 1 and answer[0].metadata.tags == ["answer"] and "distance = ..." in answer[0].source


def test_unclosed_solution_is_an_error():
    nb = _toy()
    del nb.cells[5]
    with pytest.raises(ValueError, match="never closed"):
        student_edition(nb)


def test_help_and_cli(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "make_notebooks.py"), "--help"], capture_output=True,
                          text=True)
    assert done.returncode == 0 and "student" in done.stdout
    path = tmp_path / "toy.ipynb"
    nbformat.write(_toy(), path)
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "make_notebooks.py"), str(path), "--out",
                           str(tmp_path / "out")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out" / "instructor" / "toy.ipynb").read_text() == path.read_text()
    assert "SECRET" not in (tmp_path / "out" / "student" / "toy.ipynb").read_text()


def _solution_lines(nb):
    """Lines (25+ characters) that appear in solutions and nowhere else in the notebook."""
    ch = cm.of_notebook(nb)
    lines, public = set(), set()
    for i, cell in enumerate(ch.cells):
        target = lines if ch.is_solution(i) else public
        target |= {line.strip() for line in cell.source.splitlines() if len(line.strip()) >= 25}
    # a solution line that is part of a longer line of the lesson (the same call with a comment, say) is public too
    return {line for line in lines - public if not any(line in other for other in public)}


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_chapter_student_edition_has_no_solution_and_keeps_hints_and_going_further(path):
    """The student edition of each chapter, read: no solution line, no teaching note, every hint and the
    Going-further layer kept. That it runs is proven where students run it, in JupyterLab:
    ``tests/site/test_lab.py`` (``make lab-test``) runs every student edition (Run All with no error
    output, every answer cell's "No answer yet", every slider redrawn, an empty log console)."""
    nb = nbformat.read(path, as_version=4)
    secret = _solution_lines(nb)
    assert secret, f"{path.name} has no solution cells"
    student = student_edition(nb)
    text = nbformat.writes(student)
    leaked = [line for line in secret if line in text]
    assert not leaked, f"solution text survives in the student edition of {path.name}: {leaked[:3]}"
    assert not any("instructor" in c.metadata.get("tags", []) for c in student.cells)
    kept, model = {c.id for c in student.cells}, cm.of_notebook(nb)
    dropped = lambda i: model.is_solution(i) or model.is_instructor(i) or model.is_declaration(i)
    assert all(c.id in kept for i, c in enumerate(model.cells)          # hints and the Going-further layer stay
               if (model.roles.get(i) == "hint" or model.is_going_further(i)) and not dropped(i))


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_chapter_student_edition_keeps_the_notebook_metadata(path):
    """The student edition carries the chapter's notebook metadata unchanged (only the stored widget state
    goes, with the outputs), its kernelspec and language_info first: a student who opens it in JupyterLab
    gets the kernel metadata that ``tests/site/test_lab.py`` finds equal to what the kernel reports."""
    nb = nbformat.read(path, as_version=4)
    assert "kernelspec" in nb.metadata and "language_info" in nb.metadata
    expected = {k: v for k, v in nb.metadata.items() if k != "widgets"}
    assert student_edition(nbformat.read(path, as_version=4)).metadata == expected


def test_class_edition_keeps_the_answer_boxes_and_drops_solutions_notes_and_buttons(tmp_path):
    nb = _toy()
    nb.cells.insert(1, nbformat.v4.new_code_cell('declare("ex-toy", answer="answer", reference=42)',
                                                 metadata={"tags": ["exercise-declaration", "remove-input"]}))
    edition = class_edition(nb)
    text = nbformat.writes(edition)
    assert "SECRET" not in text and "solution-start" not in text
    sources = "\n".join(c.source for c in edition.cells)
    assert 'declare("ex-toy"' in sources and "More text" in sources and "print('kept')" in sources
    config = __import__("yaml").safe_load(_config((ROOT / "_config.yml").read_text()))
    assert config["launch_buttons"] == {"thebe": False}
    assert not config["html"]["use_download_button"] and not config["html"]["use_repository_button"]
    assert config["title"].endswith("(class edition)")
    assert config["sphinx"]["recursive_update"] is True
    assert config["sphinx"]["config"]["html_copy_source"] is False
    assert config["sphinx"]["config"]["html_theme_options"] == {"use_download_button": False}
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "class_edition.py"), "--out", str(tmp_path / "src")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "class edition" in (tmp_path / "src" / "intro.md").read_text()
    for path in (tmp_path / "src" / "chapters").glob("*.ipynb"):
        chapter = nbformat.read(path, as_version=4)
        assert not any("{solution-start}" in c.source or "instructor" in c.metadata.get("tags", [])
                       for c in chapter.cells), path.name


def test_the_class_edition_reuses_a_run_of_exactly_the_same_cells(tmp_path):
    import nbformat

    import class_edition

    from jupyter_cache import get_cache
    from jupyter_cache.cache.main import CacheBundleIn

    kernel = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# T"), nbformat.v4.new_code_cell("print(1)")],
                                  metadata=kernel)
    run = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Old title"),
                                          nbformat.v4.new_code_cell("print(1)")], metadata=kernel)
    run.cells[1].outputs = [nbformat.v4.new_output("stream", text="1\n")]
    run.cells[1].execution_count = 1
    get_cache(str(tmp_path / "runs")).cache_notebook_bundle(CacheBundleIn(run, "c.ipynb"))  # as the book's build does
    reused = class_edition._executed(nb, tmp_path / "runs")
    assert reused.cells[1].outputs[0]["text"] == "1\n" and reused.cells[0].source == "# T"   # the text is the chapter's
    nb.cells[1].source = "print(2)"   # the chapter's code changed since the website's build ran it
    assert class_edition._executed(nb, tmp_path / "runs") is None
    assert class_edition._executed(nb, tmp_path / "missing") is None
