"""Write the source of the class edition of the website: the book without solutions or teaching notes.

Usage: ``python tools/class_edition.py [--out _build/class/src]``; ``make book EDITION=class`` then
builds it into ``_build/class/html``. When the website's build has run every chapter as it stands
(the book's execution cache, ``_build/.jupyter_cache``, player mode), the class edition takes those
runs and is built without executing anything again.

The public site is for self-study: solutions in dropdowns, teaching notes folded in a box for
instructors. A class that grades its homework is pointed at the class edition instead: the same
chapters, explorers, players, answer boxes (which hold salted hashes only), hints and Going-further
sections, read through the one chapter model (``tools/chapter_model.py``), without

* the solutions (every ``solution-start`` ... ``solution-end`` block and every cell tagged ``solution``),
* the teaching notes (cells tagged ``instructor``),
* the buttons that lead to the full notebooks: the download of a page's ``.ipynb`` (its
  declarations compute the answers), Binder, Colab, Live Code and the repository link. Students get
  their notebooks from the instructor (``make assignments``),
* the book as a PDF (``make pdf``), which has the solutions and the teaching notes.
"""

from __future__ import annotations

import argparse
import copy
import re
import shutil
import sys
from pathlib import Path

import chapter_model as cm

ROOT = Path(__file__).resolve().parents[1]
PDF = ROOT / "_static" / "downloads" / "linear-classification.pdf"   # make pdf writes it

BANNER = ("\n:::{note}\nThis is the class edition of the course: it has no solutions. Your instructor hands out the "
          "notebooks and says how exercises are submitted.\n:::\n")


def class_edition(nb):
    """A copy of notebook ``nb`` without solutions or teaching notes (outputs, hints and Going further kept)."""
    nb = copy.deepcopy(nb)
    ch = cm.of_notebook(nb)
    cells = []
    for i, cell in enumerate(ch.cells):
        if ch.is_solution(i) or ch.is_instructor(i):
            continue
        if cell.cell_type == "markdown":
            cell.source = cm.without_inline_solutions(cm.source(cell))
        cells.append(cell)
    nb.cells = cells
    return nb


RUNS = ROOT / "_build" / ".jupyter_cache"   # the book's execution cache: the website build's runs (player mode)


def _executed(nb, runs=RUNS):
    """The website build's run of notebook ``nb`` (player mode, outputs kept), if it ran exactly these code cells.

    The runs are read from the book's execution cache (jupyter-cache, ``execute_notebooks: cache``), which
    matches a notebook by its code cells: the chapter's own cells, with the run's outputs merged in.
    (``_build/jupyter_execute`` holds the run only when the build executed the notebook, not when it
    took it from the cache.)
    """
    if not Path(runs).is_dir():
        return None
    from jupyter_cache import get_cache

    try:
        return get_cache(str(runs)).merge_match_into_notebook(nb)[1]
    except KeyError:   # not run, or run before its code changed
        return None


def _config(text):
    """The class edition's ``_config.yml``: no buttons that lead to the full notebooks."""
    import yaml

    config = yaml.safe_load(text)
    config["title"] = config.get("title", "") + " (class edition)"
    config["launch_buttons"] = {"thebe": False}
    config.setdefault("html", {}).update(use_repository_button=False, use_download_button=False,
                                         use_issues_button=False, use_edit_page_button=False)
    # Jupyter Book 1 passes use_download_button to the theme only through html_theme_options (merged,
    # not replaced, with recursive_update), and Sphinx copies every page's source (the notebooks,
    # declarations included) to _sources unless told not to
    sphinx = config.setdefault("sphinx", {})
    sphinx["recursive_update"] = True
    sphinx.setdefault("config", {}).update(html_copy_source=False, html_show_sourcelink=False,
                                           html_theme_options={"use_download_button": False})
    return yaml.safe_dump(config, sort_keys=False, allow_unicode=True)


def main(argv=None):
    import nbformat

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "_build" / "class" / "src")
    args = parser.parse_args(argv)
    out = args.out
    shutil.rmtree(out, ignore_errors=True)
    (out / "chapters").mkdir(parents=True)
    # the book as a PDF has the solutions and the teaching notes: not in this edition
    shutil.copytree(ROOT / "_static", out / "_static", ignore=shutil.ignore_patterns(PDF.name))
    shutil.copyfile(ROOT / "_toc.yml", out / "_toc.yml")
    (out / "_config.yml").write_text(_config((ROOT / "_config.yml").read_text()), encoding="utf-8")
    intro = (ROOT / "intro.md").read_text(encoding="utf-8")
    intro = re.sub(r"\n\*\*On paper\.\*\*.*?\n\n", "\n", intro, count=1, flags=re.S)
    title_end = intro.index("\n", intro.index("# ")) + 1
    (out / "intro.md").write_text(intro[:title_end] + BANNER + intro[title_end:], encoding="utf-8")
    reused = 0
    for path in sorted((ROOT / "chapters").glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        run = _executed(nb)
        reused += run is not None
        nbformat.write(class_edition(run or nb), out / "chapters" / path.name)
    if reused == len(list((ROOT / "chapters").glob("*.ipynb"))):
        # every chapter as the website's build ran it (player mode): no second run, and the players'
        # frames from that build's cache
        config = (out / "_config.yml").read_text(encoding="utf-8")
        (out / "_config.yml").write_text(config.replace("execute_notebooks: cache", "execute_notebooks: 'off'"),
                                         encoding="utf-8")
        (out / "_build").mkdir(exist_ok=True)
        (out / "_build" / ".players").symlink_to(ROOT / "_build" / ".players", target_is_directory=True)
        print(f"the chapters as the website's build ran them ({RUNS.relative_to(ROOT)}): not executed again")
    for extra in ("LICENSE", "LICENSE-CONTENT.md", "CITATION.cff"):
        if (ROOT / extra).exists():
            shutil.copyfile(ROOT / extra, out / extra)
    print(f"class edition source written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
