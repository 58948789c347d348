"""Write the instructor and student editions of the chapter notebooks from the one source.

Usage: ``python tools/make_notebooks.py [--out _build/notebooks] [NOTEBOOK ...]``

The chapter notebooks in ``chapters/`` are the instructor edition: exercises with solutions, and
teaching notes. This tool writes

* ``OUT/instructor/``: the chapters as they are (solutions, notes and executed outputs);
* ``OUT/student/``: the same notebooks without solutions, teaching notes or the exercises'
  declarations, with all outputs cleared. Each exercise keeps its answer cell (tagged ``answer``):
  the cell the student writes in and whose ``check`` reads it (``docs/exercises.md``).

What counts as a solution: every cell tagged ``solution``, and every cell between a markdown cell
opening a gated sphinx-exercise solution (```` ```{solution-start} ex-label ````) and the cell that
closes it (```` ```{solution-end} ````), markers included. Teaching notes are cells tagged
``instructor``; declarations are cells tagged ``exercise-declaration`` (they compute the reference
answers; the student edition checks against the hashed records shipped with lincourse). A solution
``{solution}`` directive written inside a single markdown cell is removed from that cell's text.
An exercise written before answer cells existed (no cell tagged ``answer`` before its solution)
gets a stub cell in place of its solution.
"""

from __future__ import annotations

import argparse
import copy
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
START = re.compile(r"```\{solution-start\}\s*([\w:-]+)")
END = re.compile(r"```\{solution-end\}")
INLINE = re.compile(r"(?ms)^(:{3,}|`{3,})\{solution\}.*?^\1\s*$\n?")


def _tags(cell):
    return set(cell.get("metadata", {}).get("tags", []))


def _stub(label):
    import nbformat

    text = (f"# Exercise {label}: write your solution here, then run the cell.\n"
            "# (The instructor edition of this notebook has a worked solution.)\n")
    return nbformat.v4.new_code_cell(text, metadata={"tags": ["stub"]})


DROPPED = {"instructor", "exercise-declaration"}


def student_edition(nb):
    """Return a copy of ``nb`` without solutions, teaching notes, declarations or outputs."""
    nb = copy.deepcopy(nb)
    cells, inside, label, stubbed, answered = [], False, None, False, False
    for cell in nb.cells:
        source = "".join(cell.source) if isinstance(cell.source, list) else cell.source
        tags = _tags(cell)
        if cell.cell_type == "markdown" and START.search(source):
            # an exercise with an answer cell needs no stub: the student writes there
            inside, label, stubbed = True, START.search(source).group(1), answered
            answered = False
            continue
        if inside:
            if cell.cell_type == "markdown" and END.search(source):
                inside = False
                if not stubbed:
                    cells.append(_stub(label))
                continue
            if cell.cell_type == "code" and not stubbed:
                cells.append(_stub(label))
                stubbed = True
            continue
        if tags & DROPPED:
            continue
        if "answer" in tags:
            answered = True
            tags.discard("remove-cell")   # the website hides answer cells; a notebook shows them
            cell.metadata["tags"] = sorted(tags)
        if "solution" in tags:
            if cell.cell_type == "code":
                cells.append(_stub(cell.metadata.get("exercise", "above")))
            continue
        if cell.cell_type == "markdown" and INLINE.search(source):
            cell.source = INLINE.sub("", source)
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
        cells.append(cell)
    if inside:
        raise ValueError(f"a solution for {label} is opened with solution-start but never closed")
    nb.cells = cells
    nb.metadata.pop("widgets", None)
    return nb


def main(argv=None):
    import nbformat

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", help="source notebooks (default: chapters/*.ipynb)")
    parser.add_argument("--out", default=str(ROOT / "_build" / "notebooks"), help="output folder (default: _build/notebooks)")
    parser.add_argument("--zip", metavar="FILE", help="also write the student editions into this zip file (the "
                        "website's download: make book puts it in _static/downloads/)")
    args = parser.parse_args(argv)
    paths = [Path(p) for p in args.notebooks] or sorted((ROOT / "chapters").glob("*.ipynb"))
    out = Path(args.out)
    for edition in ("instructor", "student"):
        (out / edition).mkdir(parents=True, exist_ok=True)
    for path in paths:
        shutil.copyfile(path, out / "instructor" / path.name)
        nb = nbformat.read(path, as_version=4)
        nbformat.write(student_edition(nb), out / "student" / path.name)
        print(f"{path.name}: instructor and student editions written")
    print(f"editions are in {out}/instructor and {out}/student")
    if args.zip:
        write_zip(sorted((out / "student").glob("*.ipynb")), Path(args.zip))
        print(f"student notebooks zipped into {args.zip}")
    return 0


ZIP_README = """Linear classification, interactively: the student notebooks (course version {version})

One notebook per chapter, without solutions. Open them in JupyterLab, Jupyter Notebook, VS Code or
Google Colab. Each notebook's first cell installs the course's small library, lincourse, where it is
missing (it needs an internet connection once); or install it yourself:

    pip install "lincourse @ git+{repository}@v{version}"

The data sets the chapters use ship with lincourse. Under each exercise, write your answer in the
answer cell (where "..." stands) and run that cell: its last line checks the answer.
The text and exercises are licensed CC BY 4.0, the code MIT.
"""


def write_zip(notebooks, target):
    """A zip of ``notebooks`` (student editions) with a short README, for download from the website."""
    import zipfile

    import yaml
    from lincourse import __version__

    repository = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]["url"]
    target.parent.mkdir(parents=True, exist_ok=True)
    folder = f"lincourse-notebooks-{__version__}"
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for path in notebooks:
            info = zipfile.ZipInfo(f"{folder}/{path.name}", date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type, info.external_attr = zipfile.ZIP_DEFLATED, 0o644 << 16
            z.writestr(info, path.read_bytes())
        info = zipfile.ZipInfo(f"{folder}/README.txt", date_time=(2026, 1, 1, 0, 0, 0))
        info.compress_type, info.external_attr = zipfile.ZIP_DEFLATED, 0o644 << 16
        z.writestr(info, ZIP_README.format(version=__version__, repository=repository))


if __name__ == "__main__":
    sys.exit(main())
