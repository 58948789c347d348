"""Write, for every chapter, a graded assignment for otter-grader, from the chapter's one source.

Usage: ``python tools/assignments.py [--out _build/assignments] [--data DIR] [NOTEBOOK ...]``
(default: every ``chapters/*.ipynb``; ``--data``: the exercise records, default
``lincourse/exercises/data``, as ``tools/build_exercises.py`` writes them).

For a chapter ``NN_name`` it writes ``OUT/NN_name/``:

* ``student/NN_name.ipynb``: the student edition (``tools/make_notebooks.py``), the notebook to hand
  out; students answer in its answer cells and submit it;
* ``autograder/NN_name-autograder.zip``: otter-grader's autograder (``otter generate``), one hidden
  test per exercise with a short answer or a function, worth the exercise's points. A test reads the
  answer variable the exercise declares from the submission's namespace and judges it against the
  record embedded in the test (salted hashes, never the reference), with lincourse's own verdict:
  the same as ``check`` gives the student, all or nothing;
* ``tests/``: those tests as files (what the zip holds);
* ``assignment.json``: the exercises, their points and how each is graded (``auto`` or, for proofs
  and explanations, ``by hand``).

Grading: ``make grade SUBMISSIONS=dir CHAPTER=NN`` (``tools/grade.py``), offline, without Docker.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "lincourse" / "exercises" / "data"
WRITTEN = ("proof", "explanation")

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


def write_assignment(notebook, out, data=DATA):
    """Write the assignment of chapter ``notebook`` into ``out/<stem>``; return that folder."""
    import nbformat
    from make_notebooks import student_edition

    notebook = Path(notebook)
    stem = notebook.stem
    records = records_of(stem, data)
    folder = Path(out) / stem
    shutil.rmtree(folder, ignore_errors=True)
    for sub in ("student", "tests", "autograder"):
        (folder / sub).mkdir(parents=True)
    nbformat.write(student_edition(nbformat.read(notebook, as_version=4)), folder / "student" / notebook.name)
    graded = [r for r in records if r["kind"] not in WRITTEN and r["points"]]
    for r in graded:
        text = TEST.format(key=r["key"], points=float(r["points"]), plural="" if r["points"] == 1 else "s",
                           record=repr(r), answer=r["answer"])
        (folder / "tests" / f"{r['key']}.py").write_text(text, encoding="utf-8")
    (folder / "requirements.txt").write_text(
        f"lincourse @ git+https://github.com/lincourse/lincourse@v{_version()}\n", encoding="utf-8")
    summary = {"chapter": stem, "notebook": notebook.name, "exercises": [
        {"key": r["key"], "answer": r["answer"], "kind": r["kind"], "points": r["points"],
         "objective": r.get("objective"), "graded": "by hand" if r["kind"] in WRITTEN else "auto"}
        for r in records if r["points"]]}
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
    args = parser.parse_args(argv)
    notebooks = args.notebooks or sorted((ROOT / "chapters").glob("*.ipynb"))
    for notebook in notebooks:
        folder = write_assignment(notebook, args.out, args.data)
        exercises = json.loads((folder / "assignment.json").read_text())["exercises"]
        auto = sum(e["points"] for e in exercises if e["graded"] == "auto")
        hand = sum(e["points"] for e in exercises if e["graded"] != "auto")
        print(f"{folder}: {len(exercises)} exercises, {auto:g} points graded automatically, {hand:g} by hand")
    return 0


if __name__ == "__main__":
    sys.exit(main())
