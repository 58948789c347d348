"""Grade a folder of submitted notebooks with otter-grader, offline and without Docker; write a CSV.

Usage: ``python tools/grade.py --chapter NN --submissions DIR [--assignments _build/assignments]
[--out FILE.csv] [--jobs 2] [--timeout 600]``

Each submission (``DIR/*.ipynb``) is graded by ``otter run`` with the chapter's autograder
(``tools/assignments.py`` writes it; ``make assignments``) in the environment of this course, one
process per submission, ``--jobs`` at a time. A submission that raises, loops or redefines things
gets the points its answers earn and never stops the run; one that cannot be read at all gets a row
with 0 points and the reason.

The CSV (default ``_build/grades/NN_name.csv``) has one row per submission: the file name, the points
of every automatically graded exercise, their total and the maximum, then an empty column per proof
or explanation for the marks given by hand, and a ``note`` column.
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def find_assignment(assignments, chapter):
    """The folder of chapter ``chapter`` ("5", "05" or "05_perceptron") in ``assignments``."""
    chapter = str(chapter)
    prefix = chapter if "_" in chapter else f"{int(chapter):02d}_"
    matches = sorted(p for p in Path(assignments).iterdir() if p.is_dir() and p.name.startswith(prefix))
    if len(matches) != 1:
        known = ", ".join(sorted(p.name for p in Path(assignments).iterdir() if p.is_dir())) or "none"
        raise SystemExit(f"no single assignment for chapter {chapter!r} in {assignments} (there are: {known}); "
                         "run `make assignments` first")
    return matches[0]


def grade_one(submission, autograder, timeout):
    """``({exercise: points}, note)`` for one submission."""
    otter = Path(sys.executable).with_name("otter")
    with tempfile.TemporaryDirectory() as out:
        try:
            done = subprocess.run([str(otter), "run", "--no-logo", "-a", str(autograder), "-o", out, str(submission)],
                                  capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return {}, f"not graded: it ran for more than {timeout} s"
        results = Path(out) / "results.json"
        if not results.exists():
            last = (done.stderr or done.stdout).strip().splitlines()
            return {}, "not graded: " + (last[-1] if last else f"otter exited with status {done.returncode}")
        tests = json.loads(results.read_text())["tests"]
    points = {}
    for test in tests:
        name = test["name"].split(" - ")[0]
        points[name] = points.get(name, 0.0) + float(test.get("score") or 0.0)
    return points, ""


def grade(assignment, submissions, out, jobs=2, timeout=600):
    """Grade every ``*.ipynb`` in ``submissions`` against ``assignment``; write the CSV ``out``; return its rows."""
    assignment = Path(assignment)
    summary = json.loads((assignment / "assignment.json").read_text())
    auto = [e for e in summary["exercises"] if e["graded"] == "auto"]
    by_hand = [e for e in summary["exercises"] if e["graded"] != "auto"]
    zips = sorted((assignment / "autograder").glob("*.zip"))
    files = sorted(Path(submissions).glob("*.ipynb"))
    if not files:
        raise SystemExit(f"no submitted notebooks (*.ipynb) in {submissions}")
    if not zips:
        raise SystemExit(f"{assignment} has no autograder: its chapter has no automatically graded exercise")
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = list(pool.map(lambda f: grade_one(f, zips[0], timeout), files))
    maximum = sum(float(e["points"]) for e in auto)
    header = (["submission"] + [f"{e['key']} ({e['points']:g})" for e in auto] + ["total", "maximum"]
              + [f"{e['key']} ({e['points']:g}, by hand)" for e in by_hand] + ["note"])
    rows = []
    for file, (points, note) in zip(files, results):
        earned = [points.get(e["key"], 0.0) for e in auto]
        rows.append([file.name] + [f"{p:g}" for p in earned] + [f"{sum(earned):g}", f"{maximum:g}"]
                    + [""] * len(by_hand) + [note])
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(header)
        writer.writerows(rows)
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chapter", required=True, help="the chapter: 5, 05 or 05_perceptron")
    parser.add_argument("--submissions", required=True, type=Path, help="a folder of submitted notebooks")
    parser.add_argument("--assignments", type=Path, default=ROOT / "_build" / "assignments")
    parser.add_argument("--out", type=Path, help="the CSV to write (default: _build/grades/<chapter>.csv)")
    parser.add_argument("--jobs", type=int, default=2, help="submissions graded at a time (default: 2)")
    parser.add_argument("--timeout", type=int, default=600, help="seconds one submission may take (default: 600)")
    args = parser.parse_args(argv)
    assignment = find_assignment(args.assignments, args.chapter)
    out = args.out or ROOT / "_build" / "grades" / f"{assignment.name}.csv"
    rows = grade(assignment, args.submissions, out, args.jobs, args.timeout)
    print(f"{len(rows)} submissions graded; the grades are in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
