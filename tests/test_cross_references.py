"""Each chapter's cross-references point into the same notebook.

On the website Sphinx resolves a reference to another chapter, but a notebook opened on its own
(JupyterLab with jupyterlab-myst, Binder, Colab, the student edition) only knows its own labels, and
an unresolved reference shows as an error there. So a chapter names another chapter's results in
words (tests/site/test_lab.py checks the rendering itself in JupyterLab).
"""

import re
from pathlib import Path

import nbformat
import pytest

CHAPTERS = sorted((Path(__file__).resolve().parents[1] / "chapters").glob("*.ipynb"))
REFERENCE = re.compile(r"\{(?:eq|ref|numref|prf:ref)\}`(?:[^`<]*<)?([^`>]+)>?`")
LABELS = (re.compile(r":label:\s*(\S+)"), re.compile(r"^\((\S+)\)=\s*$", re.M), re.compile(r"\$\$\s*\((\S+)\)\s*$", re.M),
          re.compile(r"```\{solution-start\}\s*(\S+)"))


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_references_resolve_within_the_chapter(path):
    text = "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown")
    labels = {m for pattern in LABELS for m in pattern.findall(text)}
    missing = sorted(set(REFERENCE.findall(text)) - labels)
    assert not missing, f"{path.name} refers to labels it does not define: {missing}"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_a_link_to_an_exercise_is_not_preceded_by_the_word_exercise(path):
    """A ``{ref}`` to an exercise reads "Exercise 8" on the website: the prose does not say "exercise" again."""
    text = "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown")
    doubled = re.findall(r"\b[Ee]xercises?\s+\{ref\}`(?:ex|q)-[^`]*`", text)
    assert not doubled, f"{path.name}: {doubled} would read 'exercise Exercise N'; write the link alone"
