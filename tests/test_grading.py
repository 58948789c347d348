"""Grading end to end: `make assignments` and `make grade` on a small chapter, with otter-grader, offline.

The chapter (tests/data/grading/90_toy.ipynb) has the cells of a real one: an exercise of each kind
(a number with variants, a set, a function, a proof), each declared, with an answer cell and a
solution. Its records are built, its assignment written for a roster (a notebook per student, with
the student's own numbers, and the otter autograder), and a folder of submissions graded: honest
answers earn their points, a neighbour's answers and answers brute-forced from the shipped practice
records earn nothing, and submissions that cheat or fail get exactly what their answers earn,
without stopping the run.
"""

import csv
import hashlib
import json
import math
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
TOY = ROOT / "tests" / "data" / "grading" / "90_toy.ipynb"
from build_exercises import writings
from grade import find_assignment

pytestmark = pytest.mark.skipif(shutil.which("otter", path=str(Path(sys.executable).parent)) is None,
                                reason="otter-grader is not installed (pip install -e '.[test]')")

OWN = "distance = {own}"   # the distance of the plane in the student's own notebook, computed from its numbers
# what the student writes in each answer cell (by exercise), for each submission
ANSWERS = {
    # cheats, with wrong answers: redefines check (so its own notebook says "Correct." everywhere), reads
    # the package (the records hold hashes only), then replaces lincourse's functions and its own
    # environment's seed; any of these that reached the grader would earn it points
    "cheats": {
        "ex-toy-distance": ("import os, lincourse.exercises._declare as D, lincourse.exercises._check as C, hashlib\n"
                            "record = D.record_of('ex-toy-distance') if 'ex-toy-distance' in D._DECLARED else {}\n"
                            "distance = str(record.get('accept', ['nothing'])[0])\n"
                            "os.environ['LINCOURSE_SEED'] = '0'\n"
                            "C.verdict = lambda *a, **k: (True, 'Correct.')\n"
                            "C.judge = lambda *a, **k: (True, 'Correct.')\n"
                            "C._form_of = lambda *a, **k: 'anything'\n"
                            "def check(*args):\n    print('Correct.')\n    return True"),
        "ex-toy-set": 'positive = {"A", "B", "C"}\ncheck("ex-toy-set", positive)',
        "ex-toy-function": "def double(x):\n    return 3 * x"},
    # raises: in an answer cell, and inside the function; the other answers are right
    "raises": {"ex-toy-distance": OWN + "\nraise RuntimeError('a cell that fails')",
               "ex-toy-set": 'positive = "A, C"',
               "ex-toy-function": "def double(x):\n    raise ValueError('not written yet')"},
    # three seeds: one honest (every answer right, the set too), one that pasted the honest one's
    # answers, one that pasted the answer brute-forced from the shipped practice record ({brute} is
    # filled in by the fixture)
    "honest": {"ex-toy-distance": OWN, "ex-toy-set": 'positive = {"C", "a"}',
               "ex-toy-function": "def double(x):\n    return 2 * np.asarray(x, dtype=float)"},
    "copied-neighbour": {"ex-toy-distance": "distance = {neighbour}",
                         "ex-toy-function": "def double(x):\n    return x + np.asarray(x, dtype=float)"},
    "brute-forced": {"ex-toy-distance": "distance = {brute}",
                     "ex-toy-function": "def double(x):\n    return 2 * np.asarray(x, dtype=float)"},
    # edits its notebook's seed to the honest one's and pastes the honest one's answer
    "edited-seed": {"ex-toy-distance": "distance = {neighbour}",
                    "ex-toy-function": "def double(x):\n    return 2 * np.asarray(x, dtype=float)"},
}
ROSTER = [name for name in ANSWERS] + ["untouched"]
# points of ex-toy-distance (own numbers, 2) and ex-toy-function (3); the set is practice, not graded
EXPECTED = {"cheats": [0, 0], "raises": [2, 0], "instructor": [0, 3], "untouched": [0, 0], "honest": [2, 3],
            "copied-neighbour": [0, 3], "brute-forced": [0, 3], "edited-seed": [0, 3]}
MEASURED = {}


def own_distance(nb):
    """The answer to ex-toy-distance for the numbers this notebook shows (as its student computes it)."""
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown" and "ex-toy-distance" in c.source)
    a, c = re.search(r"\$(\d+) x_1 \+ 2 x_2 \+ 2 x_3 = (\d+)\$", text).groups()
    return int(c) / math.sqrt(int(a) ** 2 + 8)


def brute_force(record):
    """What a student gets from a shipped record by trying every 3-digit number: the answers it accepts."""
    from lincourse.exercises._canonical import SALT, canonical_number

    found = set()
    for e in range(-3, 4):
        for m in range(100, 1000):
            form = canonical_number(m * 10.0 ** (e - 2), 3)
            if hashlib.sha256(f"{SALT}|{record['key']}|{form}".encode()).hexdigest() in record["accept"]:
                found.add(m * 10.0 ** (e - 2))
    return sorted(found)


def _submission(student, answers, fill):
    """The student notebook with ``answers`` written into its answer cells, above their last line."""
    nb = nbformat.read(student, as_version=4)
    names = {"distance": "ex-toy-distance"}
    for cell in nb.cells:
        if cell.cell_type != "code" or "answer" not in cell.metadata.get("tags", []):
            continue
        found = re.search(r'check\("([\w-]+)"', cell.source)
        own = re.match(r"(\w+)\s+# graded with your own numbers", cell.source.splitlines()[-1])
        key = found.group(1) if found else names.get(own.group(1)) if own else None
        if key in answers:
            text = answers[key]
            for name, value in {"own": own_distance(nb), **fill}.items():
                text = text.replace("{" + name + "}", repr(value))
            cell.source = text + "\n" + cell.source.splitlines()[-1]
    return nb


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("grading")
    run = lambda *args: subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True, cwd=ROOT)
    done = run(ROOT / "tools" / "build_exercises.py", "--out", tmp / "data", TOY)
    assert done.returncode == 0, done.stderr
    (tmp / "roster.txt").write_text("\n".join(ROSTER) + "\n")
    done = run(ROOT / "tools" / "assignments.py", "--out", tmp / "assignments", "--data", tmp / "data",
               "--students", tmp / "roster.txt", TOY)
    assert done.returncode == 0, done.stderr
    folder = find_assignment(tmp / "assignments", 90)
    student = folder / "student" / TOY.name
    shipped = {r["key"]: r for r in json.loads((tmp / "data" / "90_toy.json").read_text())["exercises"]}
    start = time.perf_counter()
    brute = brute_force(shipped["ex-toy-distance"])
    MEASURED["brute force of the practice record (s)"] = time.perf_counter() - start
    assert len(brute) >= 1   # the practice record gives its answer away: that is why it is not what is graded
    honest = nbformat.read(folder / "student" / "honest" / TOY.name, as_version=4)
    fill = {"neighbour": own_distance(honest), "brute": brute[0]}
    submissions = tmp / "submissions"
    submissions.mkdir()
    shutil.copyfile(TOY, submissions / "instructor.ipynb")
    shutil.copyfile(folder / "student" / "untouched" / TOY.name, submissions / "untouched.ipynb")
    for name, answers in ANSWERS.items():
        nb = _submission(folder / "student" / name / TOY.name, answers, fill)
        if name == "edited-seed":
            nb.metadata["lincourse"]["seed"] = honest.metadata["lincourse"]["seed"]
        nbformat.write(nb, submissions / f"{name}.ipynb")
    (submissions / "not-a-notebook.ipynb").write_text("{ this is not json")
    start = time.perf_counter()
    done = run(ROOT / "tools" / "grade.py", "--chapter", "90", "--assignments", tmp / "assignments",
               "--submissions", submissions, "--out", tmp / "grades.csv")
    MEASURED[f"make grade, {len(list(submissions.iterdir()))} submissions (s)"] = time.perf_counter() - start
    print(MEASURED)
    assert done.returncode == 0, done.stderr
    with open(tmp / "grades.csv", newline="") as f:
        rows = list(csv.reader(f))
    return folder, rows, shipped, fill


def test_the_assignment_holds_student_notebooks_and_an_autograder_without_answers(graded):
    folder, _, shipped, fill = graded
    assert sorted(p.name for p in (folder / "autograder").iterdir()) == ["90_toy-autograder.zip"]
    summary = json.loads((folder / "assignment.json").read_text())
    assert [(e["key"], e["points"], e["graded"], e["core"], e["minutes"]) for e in summary["exercises"]] == [
        ("ex-toy-distance", 2, "auto, own numbers", True, 3), ("ex-toy-set", 1, "practice", True, 3),
        ("ex-toy-function", 3, "auto", True, 3), ("ex-toy-proof", 2, "by hand", True, 3)]
    seeds = summary["students"]
    assert sorted(seeds) == sorted(ROSTER) and len(set(seeds.values())) == len(ROSTER)
    assert all(seed > 1000 for seed in seeds.values())   # never a practice seed
    practice = {v["seed"] for v in shipped["ex-toy-distance"]["variants"]} | {0}
    assert not practice & set(seeds.values())
    tests = " ".join(p.read_text() for p in (folder / "tests").iterdir())
    for student in ROSTER:
        nb = nbformat.read(folder / "student" / student / "90_toy.ipynb", as_version=4)
        assert nb.metadata["lincourse"] == {"student": student, "seed": seeds[student]}
        text = json.dumps(nb.cells)
        assert "own numbers" in text and 'check(\\"ex-toy-distance\\"' not in text
    shown = {own_distance(nbformat.read(folder / "student" / s / "90_toy.ipynb", as_version=4)) for s in ROSTER}
    assert len(shown) >= len(ROSTER) - 2   # the students' numbers differ
    for secret in ("distance_from_origin([1.0, 2.0, 2.0], -6.0)", '{"A", "C"}', "2 * np.asarray", "twice an integer"):
        assert secret not in (folder / "student" / "90_toy.ipynb").read_text()
        assert secret not in tests
    assert not (folder / "tests" / "ex-toy-set.py").exists()   # a set cannot vary: practice, no test, no hash
    # the test holds hashes per seed, never a practice record's and never a value
    # (a value as a program would write it, build_exercises.writings, searched as tests/test_no_answers.py does:
    # "4", the 3 digits of 4.0045, is in any test file, as part of other numbers)
    assert not [w for w in writings(repr(fill["neighbour"]))
                if re.search(r"(?<![\d.])" + re.escape(w) + r"(?!\d)", tests)], fill["neighbour"]
    assert "'accept'" not in tests.split("ex-toy-function")[0]
    assert all(h not in tests for h in shipped["ex-toy-distance"]["accept"])


def test_every_submission_gets_its_true_score_and_none_stops_the_run(graded):
    folder, rows, _, _ = graded
    seeds = json.loads((folder / "assignment.json").read_text())["students"]
    header, rows = rows[0], {row[0].removesuffix(".ipynb"): row for row in rows[1:]}
    assert header == ["submission", "seed", "ex-toy-distance (2)", "ex-toy-function (3)", "total", "maximum",
                      "ex-toy-proof (2, by hand)", "note"]
    for name, points in EXPECTED.items():
        row = rows[name]
        assert [float(p) for p in row[2:4]] == points, (name, row)
        assert float(row[4]) == sum(points) and row[5] == "5" and row[6] == "", (name, row)
        assert row[1] == str(seeds.get(name, "")), (name, row)   # the seed used: the student's, from the roster
    assert "seed was changed" in rows["edited-seed"][7] and "seed was changed" not in rows["honest"][7]
    assert "no student of the roster" in rows["instructor"][7]
    assert rows["not-a-notebook"][4] == "0" and "not graded" in rows["not-a-notebook"][7]


def test_no_student_is_given_the_numbers_of_a_practice_variant(graded):
    """The shipped record gives away the answers of variant 0 and of its practice variants (a brute force
    finds them), but no graded student has their numbers: to use a practice answer, a student would
    have to know which one is theirs, which is solving the exercise. (Two sets of numbers may still
    share an answer by chance; the brute-forced submission above earns nothing.)"""
    folder, _, shipped, _ = graded
    record = shipped["ex-toy-distance"]
    practice_numbers = {record["statement"]} | {v["statement"] for v in record["variants"]}
    practice_answers = set()
    for v in [record] + record["variants"]:
        practice_answers.update(f"{x:.3g}" for x in brute_force({"key": record["key"], "accept": v["accept"]}))
    assert len(practice_answers) >= 20   # the practice records give their answers away to a brute force
    shared = 0
    for student in ROSTER:
        nb = nbformat.read(folder / "student" / student / "90_toy.ipynb", as_version=4)
        text = next(c.source for c in nb.cells if c.cell_type == "markdown" and ":label: ex-toy-distance" in c.source)
        assert not any(numbers in text for numbers in practice_numbers), student
        shared += f"{own_distance(nb):.3g}" in practice_answers
    MEASURED["graded answers that a practice variant shares by chance"] = f"{shared} of {len(ROSTER)}"
    print(MEASURED)


def test_the_answer_key_holds_every_reference_solution_and_points(tmp_path):
    """The key is a small book built by the book's pipeline: formulas rendered by KaTeX when it is built."""
    out = tmp_path / "answer-key"
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "answer_key.py"), "--out", str(out), str(TOY)],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    page = (out / "html" / "90_toy.html").read_text()
    assert 'class="katex"' in page and "$" not in re.sub(r"<script.*?</script>", "", page, flags=re.S)  # no raw TeX
    assert "mathjax.js" not in page.lower() and "cdn" not in " ".join(re.findall(r'src="([^"]+)"', page))
    text = lambda html: " ".join(re.sub(r"<[^>]+>", "", html).split())
    for key, answer, points in [("ex-toy-distance", "2", "2 points, graded automatically"),
                                ("ex-toy-set", "{A, C}", "1 point, graded automatically"),
                                ("ex-toy-function", "a function: see the solution", "3 points, graded automatically"),
                                ("ex-toy-proof", None, "2 points, graded by hand")]:
        section = text(page.split(f'id="answer-{key}"')[1].split('id="answer-')[0])
        assert points in section and "objective" in section and "; core;" in section, section[:300]
        if answer:
            assert f"): {answer}" in section, section[:400]
    assert "objective 1. compute a distance; core" in text(page) and "twice an integer" in page
    assert 'check("ex-toy-function", double)' in text(page)   # the solution's code
    assert "Chapter total: 8 points (core: 8 points)." in text(page)
    assert "90_toy.html" in (out / "html" / "index.html").read_text()


def test_the_answer_key_says_when_a_student_has_numbers_of_their_own():
    import answer_key

    record = {"key": "ex-toy-varied", "statement": "Take $p = 0.02$.",
              "variants": [{"statement": "Take $p = 0.11$."}, {"statement": "Take $p = 0.07$."}, {"statement": "x"}]}
    line = answer_key._varies(record)
    assert "numbers of the text: Take $p = 0.02$." in line and "drawn from their seed" in line
    assert "3 practice variants, such as: Take $p = 0.11$. / Take $p = 0.07$." in line
    assert answer_key._varies({"key": "ex-toy-fixed"}) == "" and answer_key._varies(None) == ""
    varied = [r for stem in ("05_perceptron", "07_logistic_model") for r in answer_key._records(stem).values()
              if r.get("variants")]
    assert varied and all(answer_key._varies(r).count("practice variants") == 1 for r in varied)
