"""Write the instructor and student editions of the chapter notebooks from the one source.

Usage: ``python tools/make_notebooks.py [--out _build/notebooks] [NOTEBOOK ...]``

The chapter notebooks in ``chapters/`` are the instructor edition: exercises with solutions, and
teaching notes. This tool writes

* ``OUT/instructor/``: the chapters as they are (solutions, notes and executed outputs);
* ``OUT/student/``: the same notebooks without solutions, teaching notes or the exercises'
  declarations, with all outputs cleared. Each exercise keeps its answer cell (tagged ``answer``):
  the cell the student writes in and whose ``check`` reads it (``docs/exercises.md``).

The chapter is read through the one chapter model (``tools/chapter_model.py``): a solution is a cell
of an exercise's solution block (``solution-start`` ... ``solution-end``, markers included) or a cell
tagged ``solution``; teaching notes are cells tagged ``instructor``; declarations are cells tagged
``exercise-declaration`` (they compute the reference answers; the student edition checks against the
hashed records shipped with lincourse). Hints (cells tagged ``hint``) and the Going-further layer stay.
A ``{solution}`` directive written inside a single markdown cell is removed from that cell's text.
An exercise without an answer cell gets a stub cell in place of its solution.
"""

from __future__ import annotations

import argparse
import copy
import shutil
import sys
from pathlib import Path

import chapter_model as cm

ROOT = Path(__file__).resolve().parents[1]


def _stub(label):
    import nbformat

    text = (f"# Exercise {label}: write your solution here, then run the cell.\n"
            "# (The instructor edition of this notebook has a worked solution.)\n")
    return nbformat.v4.new_code_cell(text, metadata={"tags": ["stub"]})


def student_edition(nb):
    """Return a copy of ``nb`` without solutions, teaching notes, declarations or outputs."""
    nb = copy.deepcopy(nb)
    ch = cm.of_notebook(nb)
    # an exercise without an answer cell gets a stub where its solution was: the student writes there
    stubs = {e.solution[0]: e.key for e in ch.exercises if e.answer is None and e.solution}
    cells = []
    for i, cell in enumerate(ch.cells):
        if i in stubs:
            cells.append(_stub(stubs[i]))
        if ch.is_solution(i):
            if ch.roles.get(i) != "solution" and cell.cell_type == "code":
                cells.append(_stub(cell.metadata.get("exercise", "above")))
            continue
        if ch.is_instructor(i) or ch.is_declaration(i):
            continue
        if cm.ANSWER in cm.tags(cell):
            # the website hides answer cells; a notebook shows them
            cell.metadata["tags"] = sorted(cm.tags(cell) - {"remove-cell"})
        if cell.cell_type == "markdown":
            cell.source = cm.without_inline_solutions(cm.source(cell))
        else:
            cell.outputs = []
            cell.execution_count = None
        cells.append(cell)
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
