"""Write the answer key for teaching assistants: every exercise's statement, reference answer, points,
learning objective, core or optional, minutes and full solution, built as a small book by the book's
own pipeline (Jupyter Book, MyST, KaTeX rendered at build time), so that it opens offline.

Usage: ``python tools/answer_key.py [--out _build/answer-key] [NOTEBOOK ...]``
(default: the chapters of ``_toc.yml``); open ``OUT/html/index.html``.

Each chapter is read through the one chapter model (``tools/chapter_model.py``). Its reference answers
are computed, not copied: the chapter runs in a fresh kernel up to its last declaration
(``tools/build_exercises.py``, cached while the chapter is unchanged), and ``declare`` keeps the reference it
evaluated; points, kind, objective, ``core`` and minutes are what the declaration says. The key's source,
``OUT/src``, has one page per chapter: a notebook of MyST cells holding, for each exercise, its
statement, what its declaration says, the computed reference, its hint, and its solution cells with
their stored outputs (the chapters are executed: ``make execute``). It is built with the book's MyST
extensions and math settings (``_config.yml``), without executing anything, into ``OUT/html``. A
reference to a label of the book (a theorem, an equation, a section) links to that place on the
published website.
"""

from __future__ import annotations

import argparse
import copy
import re
import shutil
import subprocess
import sys
from pathlib import Path

import chapter_model as cm

ROOT = Path(__file__).resolve().parents[1]
# MyST's ways of labelling a place (chapter_model reads the directive and target labels; equations too here)
LABELLED_DIRECTIVE = re.compile(r"^(?::{3,}|`{3,})\{(?P<kind>[\w:-]+)\}[ \t]*(?P<title>[^\n]*)\n"
                                r"(?:(?::[\w-]+:[^\n]*\n))*?:label:\s*(?P<label>[\w:-]+)", re.M)
EQUATION = re.compile(r"\$\$\s*\((?P<label>[\w:-]+)\)")
TARGET_HEADING = re.compile(r"^\((?P<label>[\w:-]+)\)=\s*\n+#+\s+(?P<title>[^\n]+)", re.M)


def _how(kind):
    return "graded by hand" if kind in cm.WRITTEN else "graded automatically"


def _plural(n, word):
    return f"{n:g} {word}{'' if n == 1 else 's'}"


def statement_body(ch, exercise):
    """The text of an exercise's statement, without its directive's fence and options."""
    text = cm.source(ch.cells[exercise.statement])
    m = cm.EXERCISE.search(text)
    body = text[m.end():].rstrip()
    fence = m.group(1)
    return body[:-len(fence)].rstrip() if body.endswith(fence) else body


def _meta(ch, exercise):
    """One line: points, grading, kind, objective, core or optional, minutes (from the declaration)."""
    parts = [f"**{_plural(exercise.points, 'point')}**, {_how(exercise.kind)}", f"kind: {exercise.kind}"]
    objective = exercise.objective
    if isinstance(objective, int) and 1 <= objective <= len(ch.objectives):
        parts.append(f"objective {objective}. {ch.objectives[objective - 1].rstrip(';.,')}")
    elif objective:
        parts.append(f"objective {objective}")
    parts.append("optional (Going further)" if exercise.going_further else "core")
    minutes = exercise.minutes
    parts.append(f"about {_plural(minutes, 'minute')}" if minutes else "minutes not declared")
    return "; ".join(parts)


def _varies(record):
    """For an exercise with numbers of its own per student: what varies, and where a student's numbers are."""
    if not record or not record.get("variants"):
        return ""
    return ("\n\n**Numbers vary.** The reference above is for the numbers of the text: "
            f"{record['statement']} A graded student gets numbers of their own, drawn from their seed: their "
            "notebook shows them, `make grade` reports the seed, and the autograder computes that student's "
            f"reference. The website and `another(\"{record['key']}\")` offer {len(record['variants'])} "
            "practice variants, such as: " + " / ".join(v["statement"] for v in record["variants"][:2]))


def chapter_page(ch, references, records=None):
    """The key's page of chapter ``ch`` (an nbformat notebook of MyST cells), and its exercise count and points;
    ``references``: the computed reference answers, by key (``build_exercises.references_of``); ``records``:
    the exercises' records (``lincourse/exercises/data``), by key."""
    import nbformat

    v4 = nbformat.v4
    records = records or {}
    cells = [v4.new_markdown_cell(f"# {ch.title}\n\nThe exercises and concept checks of this chapter, in the order "
                                  "of the chapter.")]
    total = core = 0
    for e in ch.exercises:
        total += e.points
        core += 0 if e.going_further else e.points
        if e.declaration is None:
            answer = "*No declaration: this exercise has no record.*"
        elif e.written:
            answer = "**Reference answer:** written; see the solution."
        else:
            answer = (f"**Reference answer** (`{e.fields.get('answer', '?')}`): "
                      f"{references.get(e.key) or 'a function: see the solution'}")
        what = "Concept check" if e.check else "Exercise"
        cells.append(v4.new_markdown_cell(
            f"(answer-{e.key})=\n## {e.title or e.key} ({e.key})\n\n{what}. {_meta(ch, e)}.\n\n"
            f"{statement_body(ch, e)}\n\n{answer}" + _varies(records.get(e.key))))
        if e.hint is not None:
            cells.append(v4.new_markdown_cell(cm.source(ch.cells[e.hint])))
        cells.append(v4.new_markdown_cell(f"### Solution of {e.key}"))
        solution = [i for i in e.solution if not (cm.START.search(cm.source(ch.cells[i]))
                                                  or cm.END.search(cm.source(ch.cells[i])))]
        for i in solution:
            cells.append(copy.deepcopy(ch.cells[i]))   # its outputs as stored
        if not solution:
            cells.append(v4.new_markdown_cell("*(no solution written)*"))
    cells.append(v4.new_markdown_cell(f"**Chapter total: {_plural(total, 'point')}** "
                                      f"(core: {_plural(core, 'point')})."))
    nb = v4.new_notebook(cells=cells, metadata=copy.deepcopy(ch.nb.metadata))
    nb.metadata.pop("widgets", None)
    return nb, len(ch.exercises), total


def labels_of(chapters):
    """``{label: (chapter stem, anchor, text)}``: the places of the book a key's reference can point to."""
    found = {}
    for number, ch in chapters:
        number = f"chapter {number}" if number else ch.title
        for c in ch.cells:
            if c.cell_type != "markdown":
                continue
            text = cm.source(c)
            for m in LABELLED_DIRECTIVE.finditer(text):
                kind = m.group("kind").split(":")[-1].capitalize()
                title = re.sub(r"[{}`$]", "", m.group("title")).strip()
                found[m.group("label")] = (ch.stem, m.group("label"),
                                           f"{kind}{f' ({title})' if title else ''} of {number}")
            for m in TARGET_HEADING.finditer(text):
                found[m.group("label")] = (ch.stem, m.group("label"), f"section {m.group('title')!r} of {number}")
            for m in EQUATION.finditer(text):
                found[m.group("label")] = (ch.stem, f"equation-{m.group('label')}", f"equation {m.group('label')} of {number}")
    return found


def _resolve(app, env, node, contnode):
    """Sphinx ``missing-reference``: a reference to the book links to that place on the published website."""
    from docutils import nodes

    place = app.config.answer_key_labels.get(node.get("reftarget", ""))
    if place is None:
        return None
    stem, anchor, text = place
    link = nodes.reference("", "", internal=False, refuri=f"{app.config.answer_key_book}chapters/{stem}.html#{anchor}")
    link += contnode if node.get("refexplicit") else nodes.Text(text)
    return link


def setup(app):
    """The key's own Sphinx extension (``local_extensions`` of its ``_config.yml``)."""
    app.add_config_value("answer_key_labels", {}, "env")
    app.add_config_value("answer_key_book", "", "env")
    app.connect("missing-reference", _resolve)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


def config(book, labels, version):
    """The key's ``_config.yml``: the book's MyST and math settings, nothing executed, no launch buttons."""
    import yaml

    key = {"title": f"Answer key, version {version}", "author": book["author"], "copyright": book["copyright"],
           "logo": "", "only_build_toc_files": True, "exclude_patterns": ["_build"],
           "execute": {"execute_notebooks": "off"}, "parse": book["parse"],
           "launch_buttons": {"thebe": False},
           "html": {"use_repository_button": False, "use_download_button": False, "use_issues_button": False,
                    "use_edit_page_button": False}}
    sphinx = copy.deepcopy(book["sphinx"])
    sphinx["extra_extensions"] = [e for e in sphinx["extra_extensions"] if e != "lincourse._book"]   # no players
    sphinx["local_extensions"] = {"answer_key": str(ROOT / "tools")}
    settings = sphinx["config"]
    for name in list(settings):
        if name.startswith("latex_") or name == "nb_execution_raise_on_error":
            del settings[name]
    settings.update(answer_key_labels={k: list(v) for k, v in labels.items()},
                    answer_key_book=str(book["html"]["baseurl"]), html_copy_source=False, html_show_sourcelink=False,
                    html_theme_options={"use_download_button": False})
    sphinx["recursive_update"] = True
    key["sphinx"] = sphinx
    return yaml.safe_dump(key, sort_keys=False, allow_unicode=True)


def index_page(version, rows):
    lines = [f"# Answer key, version {version}", "",
             "For instructors and teaching assistants only: every exercise's reference answer, points and full "
             f"solution (course version {version}, {sum(r[1] for r in rows)} exercises and concept checks). "
             "Not for students. Exercises of a Going-further section are marked optional.", "",
             "| Chapter | Exercises and checks | Points | Declared minutes, core / Going further |", "|---|---|---|---|"]
    lines += [f"| {{doc}}`{title} <{stem}>` | {count} | {points:g} | {core} / {further} |"
              for stem, count, points, title, core, further in rows]
    return "\n".join(lines) + "\n"


def _records(stem):
    """The records of chapter ``stem`` by key (read as the assignments read them)."""
    from assignments import records_of

    return {r["key"]: r for r in records_of(stem)}


def write_source(notebooks, src):
    """Write the key's source into ``src``; return ``(exercise count, chapter count, labels of the book)``."""
    import nbformat
    import yaml
    from build_exercises import references_of
    from lincourse import __version__

    toc = cm.toc_chapters()
    numbered = [(toc.index(p.resolve()) + 1 if p.resolve() in toc else "", cm.read(p))
                for p in dict.fromkeys([*toc, *[p.resolve() for p in notebooks]])]
    shutil.rmtree(src, ignore_errors=True)
    (src / "_static").mkdir(parents=True)
    shutil.copytree(ROOT / "_static" / "katex", src / "_static" / "katex")   # KaTeX's stylesheet and fonts
    rows = []
    for path in notebooks:
        ch = next(ch for _, ch in numbered if ch.path.resolve() == path.resolve())
        if not ch.exercises:
            continue
        nb, count, points = chapter_page(ch, references_of(path), _records(ch.stem))
        nbformat.write(nb, src / f"{ch.stem}.ipynb")
        minutes = [sum(e.minutes or 0 for e in ch.exercises if e.going_further == layer) for layer in (False, True)]
        rows.append((ch.stem, count, points, ch.title, *minutes))
    book = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    labels = labels_of(numbered)
    (src / "_config.yml").write_text(config(book, labels, __version__), encoding="utf-8")
    (src / "_toc.yml").write_text(yaml.safe_dump({"format": "jb-book", "root": "index",
                                                  "chapters": [{"file": stem} for stem, *_ in rows]}), encoding="utf-8")
    (src / "index.md").write_text(index_page(__version__, rows), encoding="utf-8")
    return sum(r[1] for r in rows), len(rows), labels


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="chapter notebooks (default: _toc.yml's)")
    parser.add_argument("--out", type=Path, default=ROOT / "_build" / "answer-key")
    args = parser.parse_args(argv)
    notebooks = args.notebooks or cm.toc_chapters()
    src, html = args.out / "src", args.out / "html"
    count, chapters, labels = write_source(notebooks, src)
    # the build's output goes to a file: KaTeX's node server can outlive the build and would hold a pipe open
    log = args.out / "build.log"
    with open(log, "w", encoding="utf-8") as f:
        code = subprocess.run([str(Path(sys.executable).with_name("jupyter-book")), "build", str(src), "--all",
                               "--keep-going", "-q"], cwd=src, stdout=f, stderr=subprocess.STDOUT).returncode
    output = log.read_text(encoding="utf-8")
    if code != 0 or not (src / "_build" / "html" / "index.html").exists():
        print(output[-8000:], file=sys.stderr)
        return 1
    # sphinx-proof warns of a label of the book before the key links it to the website (_resolve): not a problem
    unresolved = re.compile(r"label '([\w:-]+)' not found")
    for line in output.splitlines():
        found = unresolved.search(line)
        if "WARNING" in line and not (found and found.group(1) in labels):
            print(line, file=sys.stderr)
    shutil.rmtree(html, ignore_errors=True)
    shutil.move(src / "_build" / "html", html)
    print(f"wrote {html}/index.html ({count} exercises and checks, {chapters} chapters)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
