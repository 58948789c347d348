"""One model of a chapter notebook, read in one place (``docs/chapters.md``).

Usage: ``python tools/chapter_model.py [NOTEBOOK ...]`` prints each chapter's budget: core words, core and
Going-further minutes, checks and exercises (default: the chapters of ``_toc.yml``).

The editions (``make_notebooks``, ``class_edition``), the answer key, the assignments and the tests
read a chapter through :func:`read` instead of parsing its conventions themselves:

* the **exercises**, each with its statement, declaration, answer, hint and solution cells, and what
  its declaration says (kind, points, objective, ``core``, ``minutes``: read from the ``declare(...)``
  call with :mod:`ast`, never executed);
* the **learning objectives**, the **sections** (headings), the **teaching notes** (``instructor``),
  the **Going-further layer** (cells tagged ``going-further``) and the cells a reader meets;
* the **budget**: core words of prose, and the student minutes of the core and of Going further.
"""

from __future__ import annotations

import argparse
import ast
import math
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

START = re.compile(r"```\{solution-start\}\s*([\w:-]+)")
END = re.compile(r"```\{solution-end\}")
INLINE_SOLUTION = re.compile(r"(?ms)^(:{3,}|`{3,})\{solution\}.*?^\1\s*$\n?")
EXERCISE = re.compile(r"^(:{3,})\{exercise\}[ \t]*(?P<title>[^\n]*)\n(?P<options>(?::[\w-]+:[^\n]*\n)*)", re.M)
LABEL_OPTION = re.compile(r"^:label:\s*([\w:-]+)\s*$", re.M)
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$", re.M)
FENCE = re.compile(r"^(`{3,}|~{3,}).*?^\1\s*$", re.M | re.S)
MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]*\$", re.S)
TARGET = re.compile(r"^\(([\w:-]+)\)=\s*$", re.M)
REFERENCE = re.compile(r"\{(?:prf:ref|numref|eq|ref)\}`(?:[^`<]*<)?([\w:-]+)>?`")
PREREQUISITES = re.compile(r"\*\*Prerequisites:\*\*(.*?)(?:\n\n|\*\*|$)", re.S)
TIMES = re.compile(r"\*\*Core:\*\*\s*about\s+(?P<core>[^.]+)\.\s*\*\*Going further:\*\*\s*about\s+(?P<further>[^,.]+)")

DECLARATION, ANSWER, HINT, SOLUTION, INSTRUCTOR = "exercise-declaration", "answer", "hint", "solution", "instructor"
GOING_FURTHER = "going-further"
WORDS_PER_MINUTE = 50   # technical prose, read with a pencil
LINES_PER_MINUTE = 12   # code a reader runs, and what it prints, read line by line
FIGURE_MINUTES = 1      # a figure, looked at
EXPLORER_MINUTES = 3    # an explorer, moved and read
WIDGET = "application/vnd.jupyter.widget-view+json"
from lincourse.exercises._declare import WRITTEN  # noqa: E402  (the kinds' table: lincourse.exercises._canonical.KINDS)


def tags(cell):
    """The cell's tags, as a set."""
    return set(cell.get("metadata", {}).get("tags", []))


def source(cell):
    text = cell.get("source", "")
    return "".join(text) if isinstance(text, list) else text


def without_inline_solutions(markdown):
    """The text of a markdown cell without the ``{solution}`` directives written inside it."""
    return INLINE_SOLUTION.sub("", markdown)


def words(markdown):
    """Words of prose: a formula is one word, code blocks and directive option lines none."""
    text = FENCE.sub(" ", markdown)
    text = MATH.sub(" x ", text)
    text = re.sub(r"^:{3,}.*$|^:[\w-]+:.*$", " ", text, flags=re.M)
    return len(text.split())


def minutes_of(text):
    """``"2 h 10 min"``, ``"1 h"``, ``"45 min"`` -> minutes."""
    m = re.fullmatch(r"\s*(?:(\d+)\s*h)?\s*(?:(\d+)\s*min)?\s*", text)
    if not m or not (m.group(1) or m.group(2)):
        raise ValueError(f"not a duration such as '2 h 10 min': {text!r}")
    return 60 * int(m.group(1) or 0) + int(m.group(2) or 0)


def duration(minutes):
    """Minutes as the chapters write them: ``130`` -> ``"2 h 10 min"``."""
    h, m = divmod(int(minutes), 60)
    return " ".join(p for p in (f"{h} h" if h else "", f"{m} min" if m or not h else "") if p)


@dataclass
class Exercise:
    """One exercise or concept check and its cells (indices into the notebook's cells)."""
    key: str
    title: str
    statement: int
    declaration: int | None = None
    answer: int | None = None
    hint: int | None = None
    solution: list = field(default_factory=list)
    fields: dict = field(default_factory=dict)   # the declaration's literal keyword arguments
    going_further: bool = False

    @property
    def check(self):
        """A concept check (``q-...``) rather than an exercise (``ex-...``)."""
        return self.key.startswith("q-")

    @property
    def kind(self):
        return self.fields.get("kind", "number")

    @property
    def core(self):
        return self.fields.get("core")

    @property
    def minutes(self):
        return self.fields.get("minutes")

    @property
    def objective(self):
        return self.fields.get("objective")

    @property
    def points(self):
        return self.fields.get("points", 1)

    @property
    def written(self):
        return self.kind in WRITTEN

    @property
    def cells(self):
        """Every cell of the exercise, in order."""
        parts = [self.statement, self.declaration, self.answer, self.hint, *self.solution]
        return [i for i in parts if i is not None]


@dataclass
class Section:
    cell: int
    level: int
    title: str

    @property
    def going_further(self):
        return self.title.lower().startswith("going further")


@dataclass
class Chapter:
    path: Path
    nb: object
    title: str
    objectives: list
    exercises: list
    sections: list
    roles: dict   # cell index -> "statement" | "declaration" | "answer" | "hint" | "solution"

    @property
    def stem(self):
        return self.path.stem

    @property
    def cells(self):
        return self.nb.cells

    def exercise(self, key):
        return next(e for e in self.exercises if e.key == key)

    def is_going_further(self, i):
        return GOING_FURTHER in tags(self.cells[i])

    def is_instructor(self, i):
        return INSTRUCTOR in tags(self.cells[i])

    def is_declaration(self, i):
        """A cell that declares exercises (it computes their references: never in a student's copy)."""
        return DECLARATION in tags(self.cells[i])

    def is_solution(self, i):
        return self.roles.get(i) == "solution" or SOLUTION in tags(self.cells[i])

    def public(self, i):
        """A cell a student meets on the website: not a solution, a teaching note or a hidden cell."""
        return not (self.is_solution(i) or self.is_instructor(i) or "remove-cell" in tags(self.cells[i]))

    def enclosing(self, i):
        """The sections holding cell ``i``, outermost first."""
        stack = []
        for s in self.sections:
            if s.cell > i:
                break
            while stack and stack[-1].level >= s.level:
                stack.pop()
            stack.append(s)
        return stack

    def prose(self, going_further=False):
        """The markdown a reader meets, as (index, text): core (default) or the Going-further layer,
        without exercise statements, hints, solutions and teaching notes."""
        out = []
        for i, cell in enumerate(self.cells):
            if cell.cell_type != "markdown" or not self.public(i) or i in self.roles:
                continue
            if self.is_going_further(i) == going_further:
                out.append((i, source(cell)))
        return out

    def words(self, going_further=False):
        return sum(words(text) for _, text in self.prose(going_further))

    def code(self, going_further=False):
        """What the code cells a reader meets show: ``(lines, figures, explorers)``, core (default) or
        the Going-further layer. Lines are the shown source (without blank and comment lines) and the
        printed text; exercise declarations, answer cells and solutions are not counted (their minutes
        are declared)."""
        lines = figures = explorers = 0
        for i, cell in enumerate(self.cells):
            if (cell.cell_type != "code" or not self.public(i) or i in self.roles
                    or self.is_going_further(i) != going_further):
                continue
            if not tags(cell) & {"remove-input", "hide-input"}:
                lines += sum(1 for line in source(cell).splitlines() if line.strip() and not line.strip().startswith("#"))
            for out in cell.get("outputs", []):
                data = out.get("data", {})
                if out.get("output_type") == "stream":
                    lines += len(out.get("text", "").splitlines())
                elif WIDGET in data:
                    explorers += 1
                elif "image/png" in data or "image/svg+xml" in data:
                    figures += 1
                else:
                    text = next((data[k] for k in ("text/markdown", "text/html", "text/plain") if k in data), "")
                    lines += len((text if isinstance(text, str) else "".join(text)).splitlines())
        return lines, figures, explorers

    def minutes(self, going_further=False):
        """Student minutes: the prose at :data:`WORDS_PER_MINUTE`, the code and its output at
        :data:`LINES_PER_MINUTE`, each figure and explorer, and the declared minutes."""
        lines, figures, explorers = self.code(going_further)
        reading = (self.words(going_further) / WORDS_PER_MINUTE + lines / LINES_PER_MINUTE
                   + figures * FIGURE_MINUTES + explorers * EXPLORER_MINUTES)
        practice = sum(e.minutes or 0 for e in self.exercises if bool(e.going_further) == going_further)
        return int(math.ceil(reading + practice))

    def stated_times(self):
        """``(core, going_further)`` minutes as the opening states them, or None."""
        opening = next((source(c) for c in self.cells if c.cell_type == "markdown"), "")
        m = TIMES.search(opening)
        return (minutes_of(m.group("core")), minutes_of(m.group("further"))) if m else None

    def prerequisites(self):
        """The earlier chapters the opening's ``**Prerequisites:**`` line names for the core, in order.

        Only its first sentence counts (what Going further uses is said after it); "chapters 1 to 3"
        is a range.
        """
        opening = next((source(c) for c in self.cells if c.cell_type == "markdown"), "")
        m = PREREQUISITES.search(opening)
        if not m:
            return []
        first = re.split(r"(?<=[.;])\s", " ".join(m.group(1).split()), maxsplit=1)[0]
        found = set()
        for phrase in re.findall(r"chapters? (\d+(?:(?:,| and| to|,? and) \d+)*)", first):
            for a, b in re.findall(r"(\d+)(?: to (\d+))?", phrase):
                found.update(range(int(a), int(b or a) + 1))
        return sorted(found)

    def labels(self, i):
        """The labels defined in cell ``i`` (directive ``:label:`` options and ``(target)=`` lines)."""
        text = source(self.cells[i])
        return set(LABEL_OPTION.findall(text)) | set(TARGET.findall(text))

    def references(self, i):
        return set(REFERENCE.findall(source(self.cells[i])))


def declarations(text):
    """``{key: {literal keyword arguments}}`` of the ``declare(...)`` calls in a code cell's text."""
    found = {}
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return found
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "declare" and node.args:
            try:
                key = ast.literal_eval(node.args[0])
            except ValueError:
                continue
            fields = {}
            if len(node.args) > 1:
                try:
                    fields["answer"] = ast.literal_eval(node.args[1])
                except ValueError:
                    pass
            for kw in node.keywords:
                try:
                    fields[kw.arg] = ast.literal_eval(kw.value)
                except ValueError:
                    fields.setdefault("_computed", []).append(kw.arg)
            found[key] = fields
    return found


def read(path):
    """The :class:`Chapter` of notebook ``path``."""
    import nbformat

    return of_notebook(nbformat.read(path, as_version=4), path)


def of_notebook(nb, path="notebook.ipynb"):
    """The :class:`Chapter` of an nbformat notebook ``nb`` already in memory (named ``path`` in errors)."""
    path = Path(path)
    cells = nb.cells
    title = next((m.group(2) for c in cells if c.cell_type == "markdown" for m in [HEADING.search(source(c))] if m), "")
    sections = [Section(i, len(m.group(1)), m.group(2))
                for i, c in enumerate(cells) if c.cell_type == "markdown"
                for m in HEADING.finditer(FENCE.sub("", source(c)))]
    objectives = []
    for c in cells:
        text = source(c)
        if c.cell_type == "markdown" and "## Learning objectives" in text:
            after = text.split("## Learning objectives", 1)[1]
            objectives = [re.sub(r"^\d+\.\s+", "", line) for line in after.splitlines() if re.match(r"^\d+\.\s", line)]
            break
    declared = {}
    for c in cells:
        if c.cell_type == "code" and DECLARATION in tags(c):
            declared.update(declarations(source(c)))
    exercises, roles, open_solution = [], {}, None
    for i, c in enumerate(cells):
        text = source(c)
        if c.cell_type == "markdown" and START.search(text):
            key = START.search(text).group(1)
            open_solution = next((e for e in reversed(exercises) if e.key == key), None)
            if open_solution is None:
                raise ValueError(f"{path.name}: a solution for {key}, which no exercise statement declares")
        if open_solution is not None:
            open_solution.solution.append(i)
            roles[i] = "solution"
            if c.cell_type == "markdown" and END.search(text):
                open_solution = None
            continue
        m = EXERCISE.search(text) if c.cell_type == "markdown" else None
        label = LABEL_OPTION.search(m.group("options")) if m else None
        if label:
            exercise = Exercise(label.group(1), m.group("title").strip(), i,
                                fields=declared.get(label.group(1), {}),
                                going_further=GOING_FURTHER in tags(c))
            exercises.append(exercise)
            roles[i] = "statement"
            continue
        current = exercises[-1] if exercises else None
        if current is None or current.solution:
            continue
        t = tags(c)
        if DECLARATION in t and current.declaration is None and f'"{current.key}"' in text:
            current.declaration, roles[i] = i, "declaration"
        elif ANSWER in t and current.answer is None:
            current.answer, roles[i] = i, "answer"
        elif HINT in t and current.hint is None:
            current.hint, roles[i] = i, "hint"
    if open_solution is not None:
        raise ValueError(f"{path.name}: the solution of {open_solution.key} is opened but never closed")
    return Chapter(path, nb, title, objectives, exercises, sections, roles)


def toc_chapters():
    """The chapter notebooks of ``_toc.yml``, in order."""
    import yaml

    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    return [ROOT / f"{entry['file']}.ipynb" for entry in toc["chapters"]]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="chapter notebooks (default: _toc.yml's)")
    args = parser.parse_args(argv)
    print(f"{'chapter':<40} {'core words':>10} {'core':>12} {'further':>12} {'stated':>22}  checks/exercises (core)")
    for path in args.notebooks or toc_chapters():
        ch = read(path)
        core = [e for e in ch.exercises if not e.going_further]
        stated = ch.stated_times()
        stated = f"{duration(stated[0])} / {duration(stated[1])}" if stated else "-"
        print(f"{ch.stem:<40} {ch.words():>10} {duration(ch.minutes()):>12} {duration(ch.minutes(True)):>12} "
              f"{stated:>22}  {sum(e.check for e in core)}/{sum(not e.check for e in core)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
