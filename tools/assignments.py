"""Write, for every chapter, a graded assignment for otter-grader, from the chapter's one source.

Usage: ``python tools/assignments.py [--out _build/assignments] [--data DIR] [--students FILE] [--all]
[NOTEBOOK ...]`` (default: every ``chapters/*.ipynb``; ``--data``: the exercise records, default
``lincourse/exercises/data``, as ``tools/build_exercises.py`` writes them; ``--students``: the class
roster, one student id a line; ``--all``: Going-further exercises too, not only the core ones).

What is graded automatically is what a student cannot read off what they are given (the package and
every page carry the practice records, whose hashes give a short answer away to a brute force):

* an exercise with variants (``declare(..., params=..., statement=...)``) is graded on the student's
  own numbers: each student on the roster gets a seed, ``1000 +`` an HMAC of their id under a secret
  kept in ``OUT/secret.txt`` (never a practice seed, never guessable from an id), their notebook shows
  their numbers, and the test holds the accepted hashes of every student's seed, computed here by
  running the chapter's declarations (the references never leave this process);
* a function is graded on its public cases (writing a function that passes them is the exercise);
* a choice, a set or a number without variants stays practice (``"graded": "practice"``): its answer
  is checked where the student works, with feedback, and earns no points;
* proofs and explanations are graded by hand.

For a chapter ``NN_name`` it writes ``OUT/NN_name/``:

* ``student/NN_name.ipynb``: the student edition (``tools/make_notebooks.py``) with variant 0's numbers,
  and with a roster ``student/<id>/NN_name.ipynb`` for each student, showing that student's numbers
  (its metadata ``lincourse`` holds the id and seed); students answer in its answer cells and submit it;
* ``autograder/NN_name-autograder.zip``: otter-grader's autograder (``otter generate``), one hidden
  test per graded exercise, worth the exercise's points. A test reads the answer variable the exercise
  declares from the submission's namespace and judges it against the record embedded in the test
  (salted hashes, never the reference), with lincourse's own verdict, all or nothing;
* ``tests/``: those tests as files (what the zip holds);
* ``assignment.json``: the exercises (points, core, minutes, how each is graded: ``auto``, ``auto,
  own numbers``, ``practice`` or ``by hand``) and the roster's seeds, for ``tools/grade.py``.

Grading: ``make grade SUBMISSIONS=dir CHAPTER=NN`` (``tools/grade.py``), offline, without Docker.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import re
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "lincourse" / "exercises" / "data"

TEST = '''"""{key}: {points:g} point{plural}, from the chapter's declaration (written by tools/assignments.py)."""

from otter.test_files import test_case

OK_FORMAT = False
name = {key!r}
points = {points!r}
RECORD = {record}


@test_case(points={points!r}, hidden=True)
def test_answer(env):
    from lincourse.exercises._check import judge_answer

    earned, message = judge_answer(RECORD, env.get({answer!r}, None))
    assert earned, message
'''


def records_of(stem, data=DATA):
    """The records of chapter ``stem`` (an empty list for a chapter without exercises)."""
    path = Path(data) / f"{stem}.json"
    if not path.exists():
        return []
    return json.loads(path.read_text(encoding="utf-8"))["exercises"]


def _version():
    from lincourse import __version__

    return __version__


def seed_of(secret, student):
    """The seed of ``student``: ``1000 +`` an HMAC of the id under the instructor's ``secret`` (above the
    practice seeds, and not to be guessed from an id)."""
    digest = hmac.new(secret.encode("utf-8"), str(student).encode("utf-8"), hashlib.sha256).hexdigest()
    return 1000 + int(digest[:8], 16) % 2_000_000_000


def _secret(out):
    path = Path(out) / "secret.txt"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_hex(16) + "\n", encoding="utf-8")
    return path.read_text(encoding="utf-8").strip()


_DUMP = ("import json as _json, lincourse.exercises._declare as _d\n"
         "print(_json.dumps({k: {str(s): _d.graded_variant(k, s) for s in %r} for k in %r}))")


def graded_variants(notebook, keys, seeds, timeout=600):
    """``{key: {seed: variant record}}``: the chapter's declarations run in a fresh kernel (as
    ``tools/build_exercises.py`` runs them), then each varied exercise drawn for each seed."""
    import nbformat

    import chapter_model as cm
    from execute_notebooks import run_notebook

    ch = cm.read(notebook)
    nb = ch.nb
    last = max(i for i, c in enumerate(ch.cells) if c.cell_type == "code" and ch.is_declaration(i))
    nb.cells = [c for i, c in enumerate(ch.cells[:last + 1]) if c.cell_type == "code" and not ch.is_solution(i)]
    nb.cells.append(nbformat.v4.new_code_cell(_DUMP % (list(seeds), list(keys))))
    run_notebook(nb, Path(notebook).parent, timeout=timeout)
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.get("name") == "stdout")
    return json.loads(text.strip().splitlines()[-1])


def graded_as(r):
    """How exercise record ``r`` is graded (see the module docstring)."""
    if r["reads"] == "written":
        return "by hand"
    if r.get("variants"):
        return "auto, own numbers"
    if r["reads"] == "function":
        return "auto"
    return "practice"


def personal(student_nb, records, student, seed, drawn):
    """A copy of the student notebook showing ``student``'s numbers (seed ``seed``) in every varied exercise."""
    import copy

    nb = copy.deepcopy(student_nb)
    nb.metadata["lincourse"] = {"student": student, "seed": seed}
    for r in records:
        if not r.get("variants"):
            continue
        mine = drawn[r["key"]][str(seed)]["statement"]
        label = re.compile(rf"^:label: {re.escape(r['key'])}\s*$", re.M)
        cells = [c for c in nb.cells if c.cell_type == "markdown" and label.search(c.source)]
        if len(cells) != 1 or r["statement"] not in cells[0].source:
            raise SystemExit(f"{r['key']}: its statement cell must contain the declaration's statement for "
                             f"variant 0, {r['statement']!r}, so that a student's notebook can show their numbers")
        cells[0].source = cells[0].source.replace(r["statement"], mine)
        for cell in nb.cells:
            if cell.cell_type == "code" and f'check("{r["key"]}"' in cell.source:
                cell.source = re.sub(rf'^check\("{re.escape(r["key"])}",\s*(\w+)\)\s*$',
                                     r"\1   # graded with your own numbers: no check here", cell.source, flags=re.M)
    intro = nbformat_cell(f"**Your assignment, {student}.** The exercises marked below are graded with numbers "
                          f"drawn for you (seed {seed}); a classmate's answers to them are wrong for yours. "
                          "Practise with `another(...)` and the website; answer here with your numbers.")
    nb.cells.insert(1, intro)
    return nb


def nbformat_cell(text):
    import nbformat

    return nbformat.v4.new_markdown_cell(text)


def write_assignment(notebook, out, data=DATA, students=None, everything=False):
    """Write the assignment of chapter ``notebook`` into ``out/<stem>``; return that folder."""
    import nbformat
    from make_notebooks import student_edition

    notebook = Path(notebook)
    stem = notebook.stem
    # the core exercises (core=True); Going further (core=False) only with --all
    records = [r for r in records_of(stem, data) if r["points"] and (everything or r.get("core") is True)]
    folder = Path(out) / stem
    shutil.rmtree(folder, ignore_errors=True)
    for sub in ("student", "tests", "autograder"):
        (folder / sub).mkdir(parents=True)
    student_nb = student_edition(nbformat.read(notebook, as_version=4))
    nbformat.write(student_nb, folder / "student" / notebook.name)
    roster = {}
    if students:
        secret = _secret(out)
        roster = {s: seed_of(secret, s) for s in students}
    varied = [r for r in records if graded_as(r) == "auto, own numbers"]
    drawn = graded_variants(notebook, [r["key"] for r in varied], sorted(set(roster.values()))) if varied and roster else {}
    for student, seed in roster.items():
        (folder / "student" / student).mkdir()
        nbformat.write(personal(student_nb, records, student, seed, drawn), folder / "student" / student / notebook.name)
    graded = [r for r in records if graded_as(r) == "auto" or (graded_as(r) == "auto, own numbers" and roster)]
    for r in graded:
        embedded = {k: v for k, v in r.items() if k not in ("variants", "statement", "explain", "wrong", "seed")}
        if r.get("variants"):
            embedded.pop("accept")
            embedded["seeds"] = {str(seed): drawn[r["key"]][str(seed)]["accept"] for seed in sorted(set(roster.values()))}
        text = TEST.format(key=r["key"], points=float(r["points"]), plural="" if r["points"] == 1 else "s",
                           record=repr(embedded), answer=r["answer"])
        (folder / "tests" / f"{r['key']}.py").write_text(text, encoding="utf-8")
    (folder / "requirements.txt").write_text(
        f"lincourse @ git+https://github.com/lincourse/lincourse@v{_version()}\n", encoding="utf-8")
    summary = {"chapter": stem, "notebook": notebook.name, "exercises": [
        {"key": r["key"], "answer": r["answer"], "kind": r["kind"], "points": r["points"],
         "objective": r.get("objective"), "core": r.get("core"), "minutes": r.get("minutes"),
         "graded": graded_as(r) if (graded_as(r) != "auto, own numbers" or roster) else "practice"}
        for r in records], "students": roster}
    (folder / "assignment.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    if graded:
        otter = Path(sys.executable).with_name("otter")
        done = subprocess.run([str(otter), "generate", "-t", "tests", "-o",
                               str(Path("autograder") / f"{stem}-autograder.zip"), "-r", "requirements.txt",
                               "--no-config", "--no-environment"], cwd=folder, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"{stem}: otter generate failed:\n{done.stdout}\n{done.stderr}")
    return folder


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="chapter notebooks (default: chapters/*.ipynb)")
    parser.add_argument("--out", type=Path, default=ROOT / "_build" / "assignments")
    parser.add_argument("--data", type=Path, default=DATA, help="the exercise records (default: %(default)s)")
    parser.add_argument("--students", type=Path, help="the roster: one student id a line (their own numbers)")
    parser.add_argument("--all", action="store_true", help="Going-further exercises too (default: the core ones)")
    args = parser.parse_args(argv)
    notebooks = args.notebooks or sorted((ROOT / "chapters").glob("*.ipynb"))
    students = None
    if args.students:
        students = [line.strip() for line in args.students.read_text(encoding="utf-8").splitlines() if line.strip()]
        bad = [s for s in students if not re.fullmatch(r"[\w.@-]+", s)]
        if bad:
            raise SystemExit(f"a student id is letters, digits and . _ @ -, used as a folder name; got {bad[0]!r}")
    for notebook in notebooks:
        folder = write_assignment(notebook, args.out, args.data, students, args.all)
        exercises = json.loads((folder / "assignment.json").read_text())["exercises"]
        auto = sum(e["points"] for e in exercises if e["graded"].startswith("auto"))
        hand = sum(e["points"] for e in exercises if e["graded"] == "by hand")
        practice = sum(1 for e in exercises if e["graded"] == "practice")
        print(f"{folder}: {len(exercises)} exercises, {auto:g} points graded automatically, {hand:g} by hand, "
              f"{practice} for practice only")
    return 0


if __name__ == "__main__":
    sys.exit(main())
