"""Write the answer key for teaching assistants: every exercise's statement, reference answer, points,
learning objective and full solution, in one HTML document that opens offline.

Usage: ``python tools/answer_key.py [--out _build/answer-key.html] [NOTEBOOK ...]``
(default: every ``chapters/*.ipynb``).

The reference answers are computed, not copied: each chapter runs in a fresh kernel up to its last
declaration (as ``tools/build_exercises.py`` runs it), and ``declare`` keeps the reference it
evaluated. The solutions are the chapters' solution blocks with their stored outputs (the chapters
are executed: ``make execute``). Formulas are typeset by MathJax, copied beside the document
(``answer-key_files/``), so the key needs no network.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
DECLARATION = "exercise-declaration"
DIRECTIVE = re.compile(r"^(:{3,})\{exercise\}\s*(?P<title>[^\n]*)\n(?P<body>.*?)^\1\s*$", re.M | re.S)
LABEL = re.compile(r"^:label:\s*([\w:-]+)\s*$", re.M)
OPTION = re.compile(r"^:[\w-]+:[^\n]*\n", re.M)
ROLE = re.compile(r"\{([\w:-]+)\}`([^`<]*?)(?:\s*<([^`>]*)>)?`")


def _role(m):
    """A MyST role as plain text: an equation reference as "(label)", another as its text or target."""
    if m.group(1) == "eq":
        return f"({m.group(2)})"
    return m.group(2) or m.group(3) or ""
START = re.compile(r"```\{solution-start\}\s*([\w:-]+)")
END = re.compile(r"```\{solution-end\}")


def _tags(cell):
    return set(cell.get("metadata", {}).get("tags", []))


def _markdown():
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.use(dollarmath_plugin, allow_space=True, double_inline=True,
           renderer=lambda content, opts: (f"\\[{html.escape(content)}\\]" if opts.get("display_mode")
                                           else f"\\({html.escape(content)}\\)"))
    return md


def _md(md, text):
    """MyST text as HTML: roles become their text, directive fences their content."""
    text = ROLE.sub(_role, text)
    text = re.sub(r"^(:{3,}|`{3,})\{[\w:-]+\}[^\n]*\n", "", text, flags=re.M)
    text = re.sub(r"^:{3,}\s*$", "", text, flags=re.M)
    text = OPTION.sub("", text)
    return md.render(text)


def _outputs(cell):
    parts = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            parts.append(f"<pre class='out'>{html.escape(''.join(out['text']))}</pre>")
        elif "data" in out:
            data = out["data"]
            if "image/png" in data:
                parts.append(f"<img alt='figure of the solution' src='data:image/png;base64,{data['image/png']}'>")
            elif "text/plain" in data:
                parts.append(f"<pre class='out'>{html.escape(''.join(data['text/plain']))}</pre>")
    return "".join(parts)


def chapter_key(path, records, references, md):
    """The HTML of one chapter's part of the key."""
    import nbformat

    nb = nbformat.read(path, as_version=4)
    title = next((c.source.splitlines()[0].lstrip("# ") for c in nb.cells if c.cell_type == "markdown"), path.stem)
    objectives = []
    for c in nb.cells:
        if c.cell_type == "markdown" and "## Learning objectives" in c.source:
            after = c.source.split("## Learning objectives", 1)[1]
            objectives = [re.sub(r"^\d+\.\s*", "", line) for line in after.splitlines() if re.match(r"^\d+\.", line)]
    statements, solutions, current = {}, {}, None
    for c in nb.cells:
        if c.cell_type == "markdown":
            for m in DIRECTIVE.finditer(c.source):
                label = LABEL.search(m.group("body"))
                if label:
                    statements[label.group(1)] = (m.group("title").strip(), m.group("body"))
            if START.search(c.source):
                current = START.search(c.source).group(1)
                solutions[current] = []
                continue
            if END.search(c.source):
                current = None
                continue
        if current:
            solutions[current].append(c)
    parts = [f"<section><h2>{html.escape(title)}</h2>"]
    total = 0
    for r in records:
        key = r["key"]
        name, body = statements.get(key, (key, ""))
        objective = r.get("objective")
        if isinstance(objective, int) and 1 <= objective <= len(objectives):
            objective = f"{objective}. {objectives[objective - 1]}"
        total += r["points"]
        how = "graded by hand" if r["kind"] in ("proof", "explanation") else "graded automatically"
        answer = "" if r["kind"] in ("proof", "explanation") else (
            f"<p class='answer'><strong>Answer</strong> (<code>{html.escape(r['answer'])}</code>): "
            f"{html.escape(references.get(key) or 'a function: see the solution')}</p>")
        solution = "".join(_md(md, c.source) if c.cell_type == "markdown" else
                           f"<pre class='code'>{html.escape(c.source)}</pre>{_outputs(c)}" for c in solutions.get(key, []))
        parts.append(f"<article id='{key}'><h3>{html.escape(name)} <small>({key})</small></h3>"
                     f"<p class='meta'>{r['points']:g} point{'s' if r['points'] != 1 else ''}, {how}; "
                     f"kind: {r['kind']}" + (f"; objective {md.renderInline(ROLE.sub(_role, str(objective)))}"
                        if objective else "")
                     + f"</p>{_md(md, body)}{answer}<div class='solution'><h4>Solution</h4>{solution or '<p>(none)</p>'}"
                     f"</div></article>")
    parts.append(f"<p class='meta'>Chapter total: {total:g} points.</p></section>")
    return "".join(parts)


STYLE = """body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
article{border-top:1px solid #bbb;padding:.5rem 0 1rem}.meta{color:#444;font-size:.9rem}.answer{background:#eef6ee;
padding:.4rem .6rem}pre{white-space:pre-wrap;word-break:break-word;background:#f4f4f4;padding:.5rem}pre.out{background:#fff;
border-left:3px solid #ccc}img{max-width:100%}.solution{margin-left:1rem}@media print{article{break-inside:avoid-page}}"""


def main(argv=None):
    from build_exercises import run_declarations

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="chapter notebooks (default: chapters/*.ipynb)")
    parser.add_argument("--out", type=Path, default=ROOT / "_build" / "answer-key.html")
    args = parser.parse_args(argv)
    notebooks = args.notebooks or sorted((ROOT / "chapters").glob("*.ipynb"))
    md = _markdown()
    sections, count = [], 0
    for path in notebooks:
        records, references = run_declarations(path)
        if not records:
            continue
        sections.append(chapter_key(path, records, references, md))
        count += len(records)
    files = args.out.with_name(args.out.stem + "_files")
    files.mkdir(parents=True, exist_ok=True)
    from importlib.metadata import distribution

    mathjax = Path(distribution("sphinx-mathjax-offline").locate_file("sphinx-mathjax-offline/static/mathjax/tex-svg.js"))
    shutil.copyfile(mathjax, files / "tex-svg.js")
    from lincourse import __version__

    document = (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>Answer key, version {__version__}"
                f"</title><meta name='viewport' content='width=device-width, initial-scale=1'><style>{STYLE}</style>"
                f"<script defer src='{files.name}/tex-svg.js'></script></head><body><h1>Answer key</h1>"
                f"<p>For instructors and teaching assistants only: every exercise's reference answer, points and "
                f"full solution (course version {__version__}, {count} exercises). Not for students.</p>"
                + "".join(sections) + "</body></html>\n")
    args.out.write_text(document, encoding="utf-8")
    print(f"wrote {args.out} ({count} exercises) and {files}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
