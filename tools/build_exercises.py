"""Write the exercises' public records from the chapters' declarations.

Usage: ``python tools/build_exercises.py [--check] [--out DIR] [NOTEBOOK ...]``
(default: every ``chapters/*.ipynb``, into ``lincourse/exercises/data``).

A chapter declares each exercise in a code cell tagged ``exercise-declaration``
(``lincourse.exercises.declare(...)``). This tool runs each chapter in a fresh kernel, in order, up to
its last declaration cell and without its solutions (read through ``tools/chapter_model.py``: a reference is
computed by lincourse, never by the solution), then writes the records the declarations made to
``DIR/<chapter-stem>.json``. The records hold salted hashes, never a reference answer; they are
shipped with lincourse, so that the student notebooks and the autograder check against them.
A chapter without declarations gets no file (a stale one is removed).

``--check`` writes nothing and exits with status 1 if a file is not what would be written (a
declaration changed since the last run), naming it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import chapter_model as cm

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "lincourse" / "exercises" / "data"
_DUMP = ("import json as _json, lincourse.exercises._declare as _d, lincourse.exercises._answer_key as _k\n"
         "print(_json.dumps([_d.declared(), {k: _k.shown(v) for k, v in _d._REFERENCES.items()}]))")
PRIVATE = ROOT / "_build" / "exercises"   # the reference answers, for tests and the answer key: never shipped


def records_of(path, timeout=600):
    """The records that the declaration cells of notebook ``path`` make, in order."""
    return run_declarations(path, timeout)[0]


def references_of(path, timeout=600):
    """The reference answers of notebook ``path``'s declarations, as the answer key writes them (None
    for a function), from a cache in ``_build/exercises`` kept while the notebook is unchanged."""
    import hashlib

    sha = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    cache = PRIVATE / f"{Path(path).stem}.json"
    if cache.exists():
        cached = json.loads(cache.read_text(encoding="utf-8"))
        if cached.get("sha256") == sha:
            return cached["references"]
    return run_declarations(path, timeout)[1]


def writings(reference):
    """The ways a program or a text would write a numeric reference (3, 4 and 6 significant digits), when
    they are telling enough to be looked for: at least three non-zero digits (2.33 or 0.345, not 1.05 or 200).
    The tests look for them where a student could read them (the package, the student and class editions)."""
    import re

    found = set()
    for text in re.findall(r"-?\d+(?:\.\d+)?(?:e[+-]?\d+)?", reference or ""):
        x = float(text)
        for digits in (3, 4, 6):
            written = f"{x:.{digits}g}"
            if len(re.sub(r"[^1-9]", "", written)) >= 3:
                found.add(written)
    return found


def run_declarations(path, timeout=600):
    """``(records, references)`` of notebook ``path``: its code cells run in a fresh kernel up to the
    last declaration, without solutions; the references are cached (see :func:`references_of`)."""
    import hashlib

    import nbformat

    from execute_notebooks import run_notebook

    ch = cm.read(path)
    nb = ch.nb
    declarations = [i for i, c in enumerate(ch.cells) if c.cell_type == "code" and ch.is_declaration(i)]
    if not declarations:
        return [], {}
    cells = [c for i, c in enumerate(ch.cells[:declarations[-1] + 1]) if c.cell_type == "code" and not ch.is_solution(i)]
    nb.cells = cells + [nbformat.v4.new_code_cell(_DUMP)]
    run_notebook(nb, Path(path).parent, timeout=timeout)
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.get("name") == "stdout")
    records, references = json.loads(text.strip().splitlines()[-1])
    PRIVATE.mkdir(parents=True, exist_ok=True)
    (PRIVATE / f"{Path(path).stem}.json").write_text(json.dumps(
        {"sha256": hashlib.sha256(Path(path).read_bytes()).hexdigest(), "references": references}), encoding="utf-8")
    return records, references


def undeclared(path, records):
    """The exercise labels of notebook ``path`` that no declaration covers (chapters not yet migrated)."""
    keys = {r["key"] for r in records}
    return [e.key for e in cm.read(path).exercises if e.key not in keys]


def render(stem, records):
    """The text of ``<stem>.json``."""
    document = {"chapter": stem, "written_by": "tools/build_exercises.py (do not edit)", "exercises": records}
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="chapter notebooks (default: chapters/*.ipynb)")
    parser.add_argument("--out", type=Path, default=DATA, help="where the records go (default: %(default)s)")
    parser.add_argument("--check", action="store_true", help="write nothing; fail if a file is out of date")
    args = parser.parse_args(argv)
    notebooks = args.notebooks or sorted((ROOT / "chapters").glob("*.ipynb"))
    stale, seen = [], {}
    for path in notebooks:
        records = records_of(path)
        for r in records:
            if r["key"] in seen:
                raise SystemExit(f"{path}: {r['key']} is declared in {seen[r['key']]} too; a key is declared once")
            seen[r["key"]] = path.name
        missing = undeclared(path, records)
        if missing:
            print(f"{path.name}: exercises without a declaration: {', '.join(missing)}", file=sys.stderr)
        target = args.out / f"{path.stem}.json"
        text = render(path.stem, records) if records else None
        current = target.read_text(encoding="utf-8") if target.exists() else None
        if text == current:
            continue
        stale.append(target)
        if args.check:
            continue
        if text is None:
            target.unlink()
        else:
            args.out.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        print(f"{'removed' if text is None else 'wrote'} {target} ({len(records)} exercises)")
    if args.check and stale:
        print("out of date (run tools/build_exercises.py): " + ", ".join(map(str, stale)), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
