"""Grade a folder of submitted notebooks with otter-grader, offline and without Docker; write a CSV.

Usage: ``python tools/grade.py --chapter NN --submissions DIR [--assignments _build/assignments]
[--out FILE.csv] [--jobs 2] [--timeout 600]``

Each submission (``DIR/*.ipynb``) is graded by ``otter run`` with the chapter's autograder
(``tools/assignments.py`` writes it; ``make assignments``) in the environment of this course, one
process per submission (forked from one that imported otter once), ``--jobs`` at a time. A submission
that raises, loops or redefines things gets the points its answers earn and never stops the run; one
that cannot be read at all gets a row with 0 points and the reason.

Exercises graded on each student's own numbers (``tools/assignments.py --students``) are judged with
the seed of the student the submission belongs to: its file is named after the student's id
(``<id>.ipynb``, as the roster has it), else the id in the notebook's metadata is used, and said in the
note. The seed comes from the roster in ``assignment.json``, never from the notebook: it is given to
``otter run`` in the environment (``LINCOURSE_SEED``), which the judge reads as the run started. A
notebook whose recorded seed differs from its student's (edited) gets what its answers earn on the
student's own numbers, and the note says so.

The CSV (default ``_build/grades/NN_name.csv``) has one row per submission: the file name, the seed
used (empty without a roster), the points of every automatically graded exercise, their total and the
maximum, then an empty column per proof or explanation for the marks given by hand, and a ``note`` column.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import tempfile
import time
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


def seed_for(submission, students):
    """``(seed or None, note)``: the seed the submission is graded with, from the roster ``students``."""
    if not students:
        return None, ""
    stem = Path(submission).stem
    try:
        meta = json.loads(Path(submission).read_text(encoding="utf-8")).get("metadata", {}).get("lincourse", {})
    except (OSError, ValueError, AttributeError):
        meta = {}
    meta = meta if isinstance(meta, dict) else {}
    if stem in students:
        student, note = stem, ""
    elif meta.get("student") in students:
        student, note = meta["student"], f"file not named after a student: graded as {meta['student']}, from the notebook"
    else:
        return None, "no student of the roster: its own-numbers exercises earn nothing"
    seed = students[student]
    if meta.get("seed") != seed:
        note = "; ".join(filter(None, [note, f"the notebook's seed was changed ({meta.get('seed')!r}): graded with "
                                             f"the student's own numbers"]))
    return seed, note


def _otter_run(submission, autograder, out, seed):
    """``otter run`` on one submission, in a process of its own (see :func:`_processes`); its output to a log."""
    log = os.open(Path(out) / "otter.log", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.environ.pop("LINCOURSE_SEED", None)
    if seed is not None:
        os.environ["LINCOURSE_SEED"] = str(seed)   # read by the judge as the run starts, in the kernel otter starts
    from otter.run import main as otter_run

    otter_run(str(submission), autograder=str(autograder), output_dir=str(out), no_logo=True)


def _processes():
    """Where each submission is graded: a process forked from a server that imported otter once (otter's
    imports take seconds, and a process of its own per submission keeps one that cheats or crashes from the
    others; the submission itself runs in a kernel otter starts)."""
    import multiprocessing

    if "forkserver" not in multiprocessing.get_all_start_methods():   # pragma: no cover - Windows
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["otter.run"])
    return context


def _points(out, exitcode, timed_out, timeout):
    """``({exercise: points}, note)`` from what ``otter run`` left in ``out``."""
    if timed_out:
        return {}, f"not graded: it ran for more than {timeout} s"
    results = Path(out) / "results.json"
    if not results.exists():
        log = Path(out) / "otter.log"
        last = log.read_text(errors="replace").strip().splitlines() if log.exists() else []
        return {}, "not graded: " + (last[-1] if last else f"otter exited with status {exitcode}")
    points = {}
    for test in json.loads(results.read_text())["tests"]:
        name = test["name"].split(" - ")[0]
        points[name] = points.get(name, 0.0) + float(test.get("score") or 0.0)
    return points, ""


def grade_all(submissions, autograder, seeds, jobs=2, timeout=600):
    """``[({exercise: points}, note)]`` for each submission (graded with its seed, the student's), ``jobs`` at a time."""
    from multiprocessing.connection import wait

    context = _processes()
    results, running, waiting = [None] * len(submissions), {}, list(range(len(submissions)))
    with tempfile.TemporaryDirectory() as work:
        while waiting or running:
            while waiting and len(running) < max(1, jobs):
                i = waiting.pop(0)
                out = Path(work) / str(i)
                out.mkdir()
                process = context.Process(target=_otter_run, args=(submissions[i], autograder, out, seeds[i]))
                process.start()
                running[i] = (process, out, time.monotonic() + timeout)
            # until a process ends or the first deadline passes
            wait([p.sentinel for p, _, _ in running.values()],
                 max(0.0, min(deadline for _, _, deadline in running.values()) - time.monotonic()))
            for i, (process, out, deadline) in list(running.items()):
                late = process.exitcode is None and time.monotonic() > deadline
                if late:
                    process.kill()
                if process.exitcode is not None or late:
                    process.join()
                    results[i] = _points(out, process.exitcode, late, timeout)
                    del running[i]
    return results


def grade(assignment, submissions, out, jobs=2, timeout=600):
    """Grade every ``*.ipynb`` in ``submissions`` against ``assignment``; write the CSV ``out``; return its rows."""
    assignment = Path(assignment)
    summary = json.loads((assignment / "assignment.json").read_text())
    auto = [e for e in summary["exercises"] if e["graded"].startswith("auto")]
    by_hand = [e for e in summary["exercises"] if e["graded"] == "by hand"]
    students = summary.get("students") or {}
    zips = sorted((assignment / "autograder").glob("*.zip"))
    files = sorted(Path(submissions).glob("*.ipynb"))
    if not files:
        raise SystemExit(f"no submitted notebooks (*.ipynb) in {submissions}")
    if not zips:
        raise SystemExit(f"{assignment} has no autograder: its chapter has no automatically graded exercise")
    seeds = [seed_for(f, students) for f in files]
    results = grade_all(files, zips[0], [seed for seed, _ in seeds], jobs, timeout)
    maximum = sum(float(e["points"]) for e in auto)
    header = (["submission", "seed"] + [f"{e['key']} ({e['points']:g})" for e in auto] + ["total", "maximum"]
              + [f"{e['key']} ({e['points']:g}, by hand)" for e in by_hand] + ["note"])
    rows = []
    for file, (seed, seed_note), (points, note) in zip(files, seeds, results):
        earned = [points.get(e["key"], 0.0) for e in auto]
        rows.append([file.name, "" if seed is None else str(seed)] + [f"{p:g}" for p in earned]
                    + [f"{sum(earned):g}", f"{maximum:g}"] + [""] * len(by_hand)
                    + ["; ".join(filter(None, [seed_note, note]))])
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
