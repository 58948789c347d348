"""Every static figure of every chapter has a text alternative (WCAG 1.1.1).

A figure cell's description is its cell metadata ``{"mystnb": {"image": {"alt": "..."}}}``; myst-nb
writes it as the image's ``alt``. Without it the built page's ``alt`` is the image's file name, a hash
such as ``46f1094644690a9e995dfc7a``. Checked in the notebooks (a sentence, not a name) and, when the
site is built, in the pages.
"""

import re
from pathlib import Path

import nbformat
import pytest

from _site import SITE

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "chapters").glob("*.ipynb"))
HASH = re.compile(r"^[0-9a-f]{16,}$|\.(png|svg|jpe?g)$", re.I)


def _figure_cells(path):
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code" and any("image/png" in o.get("data", {}) for o in cell.get("outputs", [])):
            yield cell


def _real(alt):
    return isinstance(alt, str) and len(alt.split()) >= 8 and not HASH.search(alt.strip())


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_figure_cell_has_a_description(path):
    missing = [cell.get("id") for cell in _figure_cells(path)
               if not _real(cell.metadata.get("mystnb", {}).get("image", {}).get("alt"))]
    assert not missing, f"{path.name}: figure cells without a description (mystnb.image.alt): {missing}"


@pytest.mark.skipif(not (SITE / "chapters").exists(), reason="needs the built site (_build/html)")
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_figure_of_the_built_page_has_its_description(path):
    page = SITE / "chapters" / f"{path.stem}.html"
    html = page.read_text(encoding="utf-8")
    alts = re.findall(r'<div class="cell_output[^"]*">.*?(?=<div class="cell docutils|</section>)', html, flags=re.S)
    images = [m for block in alts for m in re.findall(r'<img[^>]*\balt="([^"]*)"', block)]
    wanted = [cell.metadata.get("mystnb", {}).get("image", {}).get("alt") for cell in _figure_cells(path)]
    bad = [alt for alt in images if not _real(alt)]
    assert not bad, f"{page.name}: images whose alt is not a description: {bad}"
    assert all(w in [a.replace("&#39;", "'").replace("&quot;", '"').replace("&amp;", "&") for a in images]
               for w in wanted if w), f"{page.name}: a figure's description did not reach the page"
