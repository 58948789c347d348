"""Grading end to end: `make assignments` and `make grade` on a small chapter, with otter-grader, offline.

The chapter (tests/data/grading/90_toy.ipynb) has the cells of a real one: an exercise of each kind
(a number, a set, a function, a proof), each declared, with an answer cell and a solution. Its
records are built, its assignment written (student notebook, otter autograder), and a folder of
submissions graded: the instructor edition gets full marks, the untouched student notebook none,
and submissions that cheat or fail get exactly what their answers earn, without stopping the run.
"""

import csv
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
TOY = ROOT / "tests" / "data" / "grading" / "90_toy.ipynb"
from grade import find_assignment

pytestmark = pytest.mark.skipif(shutil.which("otter", path=str(Path(sys.executable).parent)) is None,
                                reason="otter-grader is not installed (pip install -e '.[test]')")

# what the student writes in each answer cell (by exercise), for each submission
ANSWERS = {
    "all-right": {"ex-toy-distance": "distance = 2.0", "ex-toy-set": 'positive = {"C", "a"}',
                  "ex-toy-function": "def double(x):\n    return x + np.asarray(x, dtype=float)"},
    # redefines check (so its own notebook says "Correct." everywhere) and gives wrong answers
    "redefines-check": {"ex-toy-distance": "def check(*args):\n    print('Correct.')\n    return True\n\ndistance = 3.0",
                        "ex-toy-set": 'positive = {"A", "B", "C"}\ncheck("ex-toy-set", positive)',
                        "ex-toy-function": "def double(x):\n    return 3 * x"},
    # reads the package: the records hold hashes only; then replaces lincourse's and hashlib's functions
    "reads-the-package": {
        "ex-toy-distance": ("import lincourse.exercises._declare as D, lincourse.exercises._check as C, hashlib\n"
                            "record = D.record_of('ex-toy-distance') if 'ex-toy-distance' in D._DECLARED else {}\n"
                            "distance = str(record.get('accept', ['nothing'])[0])\n"
                            "C.verdict = lambda *a, **k: (True, 'Correct.')\n"
                            "C.judge = lambda *a, **k: (True, 'Correct.')\n"
                            "C._form_of = lambda *a, **k: 'anything'"),
        "ex-toy-set": 'positive = {"A"}', "ex-toy-function": "double = lambda x: x"},
    # raises: in an answer cell, and inside the function; the other answers are right
    "raises": {"ex-toy-distance": "distance = 2.0\nraise RuntimeError('a cell that fails')",
               "ex-toy-set": 'positive = "A, C"',
               "ex-toy-function": "def double(x):\n    raise ValueError('not written yet')"},
}
EXPECTED = {"all-right": [2, 1, 3], "redefines-check": [0, 0, 0], "reads-the-package": [0, 0, 0],
            "raises": [2, 1, 0], "instructor": [2, 1, 3], "untouched": [0, 0, 0]}


def _submission(student, answers):
    """The student notebook with ``answers`` written into its answer cells, above their check."""
    nb = nbformat.read(student, as_version=4)
    for cell in nb.cells:
        found = re.search(r'check\("([\w-]+)"', cell.source)
        if cell.cell_type == "code" and "answer" in cell.metadata.get("tags", []) and found:
            if found.group(1) in answers:
                cell.source = answers[found.group(1)] + "\n" + cell.source.splitlines()[-1]
    return nb


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("grading")
    run = lambda *args: subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True, cwd=ROOT)
    done = run(ROOT / "tools" / "build_exercises.py", "--out", tmp / "data", TOY)
    assert done.returncode == 0, done.stderr
    done = run(ROOT / "tools" / "assignments.py", "--out", tmp / "assignments", "--data", tmp / "data", TOY)
    assert done.returncode == 0, done.stderr
    folder = find_assignment(tmp / "assignments", 90)
    student = folder / "student" / TOY.name
    submissions = tmp / "submissions"
    submissions.mkdir()
    shutil.copyfile(TOY, submissions / "instructor.ipynb")
    shutil.copyfile(student, submissions / "untouched.ipynb")
    for name, answers in ANSWERS.items():
        nbformat.write(_submission(student, answers), submissions / f"{name}.ipynb")
    (submissions / "not-a-notebook.ipynb").write_text("{ this is not json")
    done = run(ROOT / "tools" / "grade.py", "--chapter", "90", "--assignments", tmp / "assignments",
               "--submissions", submissions, "--out", tmp / "grades.csv")
    assert done.returncode == 0, done.stderr
    with open(tmp / "grades.csv", newline="") as f:
        rows = list(csv.reader(f))
    return folder, rows


def test_the_assignment_holds_a_student_notebook_and_an_autograder_without_answers(graded):
    folder, _ = graded
    assert sorted(p.name for p in (folder / "autograder").iterdir()) == ["90_toy-autograder.zip"]
    summary = json.loads((folder / "assignment.json").read_text())
    assert [(e["key"], e["points"], e["graded"]) for e in summary["exercises"]] == [
        ("ex-toy-distance", 2, "auto"), ("ex-toy-set", 1, "auto"), ("ex-toy-function", 3, "auto"),
        ("ex-toy-proof", 2, "by hand")]
    student = (folder / "student" / "90_toy.ipynb").read_text()
    for secret in ("distance_from_origin([1.0, 2.0, 2.0], -6.0)", '{"A", "C"}', "2 * np.asarray", "twice an integer"):
        assert secret not in student
        assert all(secret not in p.read_text() for p in (folder / "tests").iterdir())


def test_every_submission_gets_its_true_score_and_none_stops_the_run(graded):
    _, rows = graded
    header, rows = rows[0], {row[0].removesuffix(".ipynb"): row for row in rows[1:]}
    assert header == ["submission", "ex-toy-distance (2)", "ex-toy-set (1)", "ex-toy-function (3)", "total", "maximum",
                      "ex-toy-proof (2, by hand)", "note"]
    for name, points in EXPECTED.items():
        row = rows[name]
        assert [float(p) for p in row[1:4]] == points, (name, row)
        assert float(row[4]) == sum(points) and row[5] == "6" and row[6] == "", (name, row)
    assert rows["not-a-notebook"][4] == "0" and rows["not-a-notebook"][7].startswith("not graded")


def test_the_answer_key_holds_every_reference_solution_and_points(tmp_path):
    out = tmp_path / "answer-key.html"
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "answer_key.py"), "--out", str(out), str(TOY)],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    page = out.read_text()
    assert (tmp_path / "answer-key_files" / "tex-svg.js").stat().st_size > 100_000   # formulas offline
    for key, answer, points in [("ex-toy-distance", "2", "2 points"), ("ex-toy-set", "{A, C}", "1 point"),
                                ("ex-toy-function", "a function: see the solution", "3 points"),
                                ("ex-toy-proof", None, "2 points, graded by hand")]:
        article = page.split(f"<article id='{key}'>")[1].split("</article>")[0]
        assert points in article and "objective" in article
        if answer:
            assert f"</code>): {answer}</p>" in article
    assert "objective 1. compute a distance;" in page and "twice an integer" in page
    assert "Chapter total: 8 points." in page
