"""The book as a PDF (``make pdf`` writes ``_build/pdf/book.pdf``), read back with ``pdftotext``.

Every chapter of the table of contents, in order; every theorem, definition, algorithm and exercise of
a chapter, numbered within it; every explorer as a numbered figure at its default values, with its
caption and the address of its interactive version on the website; no answer box; no unresolved
reference ("??"); the website's link to the PDF. CI builds the PDF before these tests run
(``make book-strict``); elsewhere they are skipped until ``make pdf`` has run.
"""

import os
import re
import shutil
import subprocess
from pathlib import Path

import nbformat
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
PDF = ROOT / "_build" / "pdf" / "book.pdf"
LOG = ROOT / "_build" / "latex" / "book.log"
SITE_PDF = ROOT / "_build" / "html" / "_static" / "downloads" / "linear-classification.pdf"
CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
CHAPTERS = [ROOT / (entry["file"] + ".ipynb")
            for entry in yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))["chapters"]]

if os.environ.get("LINCOURSE_REQUIRE_BROWSER") and not (PDF.exists() and shutil.which("pdftotext")):
    raise RuntimeError("CI builds the PDF (make book-strict runs make pdf) and needs pdftotext (poppler-utils)")
pytestmark = pytest.mark.skipif(not (PDF.exists() and shutil.which("pdftotext")),
                                reason="no PDF: run `make pdf` (TeX Live with XeLaTeX, and poppler-utils)")

# sphinx-proof's and sphinx-exercise's directives, as the PDF names them
KINDS = {"prf:theorem": "Theorem", "prf:definition": "Definition", "prf:algorithm": "Algorithm",
         "prf:corollary": "Corollary", "prf:proposition": "Proposition", "prf:lemma": "Lemma",
         "exercise": "Exercise"}
_DIRECTIVE = re.compile(r"^\s*(?::::+|```+)\{(" + "|".join(map(re.escape, KINDS)) + r")\}", re.M)


@pytest.fixture(scope="module")
def pages():
    """The PDF's text, one string per page (whitespace runs made one space, typographic quotes plain)."""
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(PDF), "-"], check=True,
                          capture_output=True, text=True).stdout
    text = text.translate(str.maketrans("\u2018\u2019\u201c\u201d", "''\"\""))
    return [re.sub(r"\s+", " ", page) for page in text.split("\f")]


@pytest.fixture(scope="module")
def text(pages):
    return " ".join(pages)


def _notebook(path):
    return nbformat.read(path, as_version=4)


def _title(nb):
    first = next(c for c in nb.cells if c.cell_type == "markdown" and c.source.lstrip().startswith("# "))
    return first.source.lstrip()[2:].splitlines()[0].strip()


def _explorers(nb):
    """The explorers a chapter displays: (title,) of every output that is an explorer."""
    titles = []
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            plain = output.get("data", {}).get("text/plain", "")
            match = re.match(r"Explorer\((['\"])(.*?)\1", plain)
            if match:
                titles.append(match.group(2))
    return titles


def test_pages(pages):
    info = subprocess.run(["pdfinfo", str(PDF)], check=True, capture_output=True, text=True).stdout
    count = int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))
    assert count == len(pages) - (pages[-1].strip() == "")
    assert 10 * len(CHAPTERS) <= count <= 60 * len(CHAPTERS), f"{count} pages for {len(CHAPTERS)} chapters"


def test_every_chapter_in_order(pages):
    """Each chapter's title, on its own opening page, after the previous chapter's."""
    last = 0
    for n, path in enumerate(CHAPTERS, start=1):
        title = re.sub(r"\s+", " ", _title(_notebook(path)))
        opening = [i for i, page in enumerate(pages) if f"Chapter {n}. {title}" in page or
                   re.search(rf"CHAPTER \w+ {re.escape(title.upper())}", page)]
        assert opening, f"chapter {n} ({title!r}) is not in the PDF"
        assert opening[0] >= last, f"chapter {n} comes before chapter {n - 1}"
        last = opening[0]


def test_no_unresolved_reference(text):
    assert "??" not in text
    log = LOG.read_text(encoding="utf-8", errors="replace")
    assert "undefined references" not in log and not re.search(r"Reference `[^']*' on page \d+ undefined", log)
    assert "Missing character" not in log, "a character the PDF's fonts do not have"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_numbered_blocks_of_each_chapter(path, text):
    """Every theorem, definition, algorithm and exercise, numbered within its chapter (N.1, N.2, ...)."""
    n = CHAPTERS.index(path) + 1
    source = "\n".join(c.source for c in _notebook(path).cells if c.cell_type == "markdown")
    for directive, name in KINDS.items():
        count = len([m for m in _DIRECTIVE.findall(source) if m == directive])
        found = {int(k) for k in re.findall(rf"\b{name} {n}\.(\d+)(?!\.?\d)", text)}
        assert found == set(range(1, count + 1)), f"{name}s of chapter {n}: {sorted(found)}, expected {count}"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_explorers_printed_as_figures(path, text):
    """Each explorer: a numbered figure with its title, its default values and its interactive version."""
    n = CHAPTERS.index(path) + 1
    titles = _explorers(_notebook(path))
    assert titles, f"chapter {n} displays no explorer"
    captions = re.findall(rf"Fig\. {n}\.\d+: (.*?) Shown at ", text)
    assert len(captions) == len(titles)
    for title, caption in zip(titles, captions):
        assert caption.startswith(re.sub(r"\s+", " ", title)), (title, caption)
    base = CONFIG["html"]["baseurl"].rstrip("/")
    compact = re.sub(r"\s", "", text)  # an address may be broken over lines
    links = re.findall(rf"interactiveversion:{re.escape(base)}/chapters/{path.stem}\.html#explorer-[a-z0-9-]+", compact)
    assert len(links) == len(titles)


def test_no_answer_box_nor_internal_labels(text):
    assert "Answer box of" not in text and "Explorer(" not in text
    assert "Proof Index" not in text  # sphinx-proof's index lists labels and file names
    assert not re.search(r"\(chapters/\d\d_\w+\)", text)


def test_the_website_offers_the_pdf():
    intro = (ROOT / "_build" / "html" / "intro.html")
    if not intro.exists():
        pytest.skip("no website: run `make book`")
    assert 'href="_static/downloads/linear-classification.pdf"' in intro.read_text(encoding="utf-8")
    assert SITE_PDF.read_bytes() == PDF.read_bytes()
