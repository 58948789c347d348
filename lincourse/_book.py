"""Sphinx extension used by the course's Jupyter Book build (listed in ``_config.yml``).

The website players (:mod:`lincourse.explorers._player`): before the notebooks run, the build points
``LINCOURSE_PLAYER_DIR`` at ``_build/.players`` (the kernels inherit it), where every player writes
its frames once, in a directory named by the hash of what determines them, so a rebuild with
nothing changed renders nothing. Each page's links to its players are made relative to the page,
and when the build ends exactly the players the pages use are copied to ``_static/players``.

Page weight (a chapter's first load stays under 3 MB, tests/site checks it):

* math is typeset by MathJax's small components (loader, TeX input, CommonHTML output and the
  assistive MathML that screen readers read) instead of the 1.2 MB bundle; without the bundle's
  menu no formula takes a place in the Tab order;
* the theme draws its icons with the Font Awesome web font its CSS already declares, so its 1.5 MB
  script that replaces them by SVG is left out of every page (and out of the site).

Accessibility (tests/site/test_accessibility.py runs axe-core over every page):

* the players' styles (``lincourse/explorers/player.css``) are linked into every page as
  ``_static/lincourse-player.css``; the book's own adjustments to the theme are ``_static/lincourse.css``
  and ``_static/lincourse.js`` (Jupyter Book links those itself);
* the theme's search buttons show "Search Ctrl+K" but were named "Search" by an ``aria-label``
  (WCAG 2.5.3, label in name): the label is dropped, so the name is the visible text, and the
  shortcut is declared with ``aria-keyshortcuts``.

Two small fixes to every page, so that the browser console stays clean (tests/site checks it):

* the light/dark mode defaults to "auto" (follow the reader's system setting): sphinx-book-theme
  leaves pydata-sphinx-theme's ``default_mode`` empty, which its script reports as an invalid mode;
* duplicated inline scripts are removed: sphinx-thebe 0.3 registers its configuration script
  (``const THEBE_JS_URL = ...``) once per reading pass, and Jupyter Book 1 makes two, so every
  page declared the same constant twice and the browser logged a SyntaxError.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from .explorers._player import PLAYER_CSS

_PLACEHOLDER = "@@LINCOURSE_PLAYERS@@/"
_PLAYER_CSS_NAME = "lincourse-player.css"
_KEY = re.compile(r"@@LINCOURSE_PLAYERS@@/([0-9a-f]{16})/")
_used = set()


def _cache(app):
    return Path(app.outdir).parent / ".players"


def _config_inited(app, config):
    os.environ["LINCOURSE_PLAYER_DIR"] = str(_cache(app))
    _cache(app).mkdir(parents=True, exist_ok=True)


def _players(app, pagename, templatename, context, doctree):
    body = context.get("body")
    if not body or _PLACEHOLDER not in body:
        return
    _used.update(_KEY.findall(body))
    context["body"] = body.replace(_PLACEHOLDER, context["pathto"]("_static/players/", 1))


_MATHJAX = {
    "loader": {"load": ["input/tex", "output/chtml", "a11y/assistive-mml"]},
    "options": {"enableMenu": False},
}


def _builder_inited(app):
    config = app.config
    if "mathjax" not in str(getattr(config, "mathjax_path", "")):
        return
    config.mathjax_path = "mathjax/startup.js"
    merged = dict(config.mathjax3_config or {})
    for key, value in _MATHJAX.items():
        merged[key] = {**merged.get(key, {}), **value}
    config.mathjax3_config = merged


def _player_styles(app):
    """Put the players' styles into the site before the pages are written (so their links get a checksum)."""
    if app.builder.format != "html":
        return
    static = Path(app.outdir) / "_static"
    static.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(PLAYER_CSS, static / _PLAYER_CSS_NAME)


_FONTAWESOME = re.compile(r'<script[^>]*src="[^"]*scripts/fontawesome\.js[^"]*"[^>]*></script>\s*')
_SEARCH_BUTTON = re.compile(r'(<button class="[^"]*\bsearch-button-field\b[^"]*"[^>]*?) aria-label="[^"]*"')


def _rewrite_pages(app):
    """Leave out the Font Awesome script; name the search buttons by their visible text."""
    out = Path(app.outdir)
    for page in out.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        new = _FONTAWESOME.sub("", text)
        new = _SEARCH_BUTTON.sub(r'\1 aria-keyshortcuts="Control+K"', new)
        if new != text:
            page.write_text(new, encoding="utf-8")
    for name in ("fontawesome.js", "fontawesome.js.map", "fontawesome.js.LICENSE.txt"):
        (out / "_static" / "scripts" / name).unlink(missing_ok=True)


def _copy_players(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    target = Path(app.outdir) / "_static" / "players"
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True, exist_ok=True)
    for key in sorted(_used):
        source = _cache(app) / key
        if source.is_dir():
            shutil.copytree(source, target / key)
    _rewrite_pages(app)


def _fix_page(app, pagename, templatename, context, doctree):
    if not context.get("default_mode"):
        context["default_mode"] = "auto"
    scripts = context.get("script_files")
    if not scripts:
        return
    seen, unique = set(), []
    for script in scripts:
        # an inline script may be registered with filename None once and '' the other time
        key = (getattr(script, "filename", str(script)) or "", tuple(sorted(getattr(script, "attributes", {}).items())))
        if key in seen:
            continue
        seen.add(key)
        unique.append(script)
    scripts[:] = unique


def setup(app):
    app.add_css_file(_PLAYER_CSS_NAME)
    app.connect("config-inited", _config_inited)
    app.connect("builder-inited", _builder_inited, priority=900)
    app.connect("builder-inited", _player_styles)
    app.connect("html-page-context", _fix_page, priority=900)
    app.connect("html-page-context", _players, priority=901)
    app.connect("build-finished", _copy_players)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
