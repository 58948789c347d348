"""Sphinx extension: the course's small fixes to the theme and to MathJax (listed in ``_config.yml``).

The website's pages come from sphinx-book-theme (on pydata-sphinx-theme), sphinx-thebe,
sphinx-exercise and sphinx-mathjax-offline; this module adjusts what they put into every page.
The course's own styles and scripts are ``_static/lincourse.css`` and ``_static/lincourse.js``
(Jupyter Book links those itself); the players are served by :mod:`lincourse._book`.

Page weight (a chapter's first load stays under 3 MB, tests/site checks it):

* math is typeset by MathJax's small components (loader, TeX input, CommonHTML output and the
  assistive MathML that screen readers read) instead of the 1.2 MB bundle; without the bundle's
  menu no formula takes a place in the Tab order (and no ``enableMenu`` option is set, which
  MathJax would report as invalid without the menu component);
* the theme draws its icons with the Font Awesome web font its CSS already declares, so its 1.5 MB
  script that replaces them by SVG is left out of every page (and out of the site).

Accessibility (tests/site/test_accessibility.py runs axe-core over every page): the theme's search
buttons show "Search Ctrl+K" but were named "Search" by an ``aria-label`` (WCAG 2.5.3, label in
name): the label is dropped, so the name is the visible text, and the shortcut is declared with
``aria-keyshortcuts``. Likewise myst-nb's folded outputs ("Show code cell output") were named
"Toggle hidden content": the label is dropped, so the name is what the reader sees.

A clean browser console (tests/site checks it):

* the light/dark mode defaults to "auto" (follow the reader's system setting): sphinx-book-theme
  leaves pydata-sphinx-theme's ``default_mode`` empty, which its script reports as an invalid mode;
* duplicated inline scripts are removed: sphinx-thebe 0.3 registers its configuration script
  (``const THEBE_JS_URL = ...``) once per reading pass, and Jupyter Book 1 makes two, so every
  page declared the same constant twice and the browser logged a SyntaxError.

References to exercises: a ``{ref}`` to an exercise reads "Exercise 8" (sphinx-exercise's number),
and the chapters write it as prose, "(see exercise {ref}`ex-...`)" or "Exercise {ref}`ex-...` is a
good bridge", which printed "exercise Exercise 8" and "Exercise Exercise 15". The word before such
a link is dropped when the link already says it, so the page reads "(see Exercise 8)".
"""

from __future__ import annotations

import re
from pathlib import Path

_MATHJAX = {"loader": {"load": ["input/tex", "output/chtml", "a11y/assistive-mml"]}}


def _builder_inited(app):
    """Typeset with MathJax's small components (sphinx-mathjax-offline serves them from _static)."""
    config = app.config
    if "mathjax" not in str(getattr(config, "mathjax_path", "")):
        return
    config.mathjax_path = "mathjax/startup.js"
    merged = dict(config.mathjax3_config or {})
    for key, value in _MATHJAX.items():
        merged[key] = {**merged.get(key, {}), **value}
    options = dict(merged.get("options", {}))
    options.pop("enableMenu", None)  # a menu option without the menu component is "Invalid option"
    if options:
        merged["options"] = options
    else:
        merged.pop("options", None)
    config.mathjax3_config = merged


def _search_math(app, pagename, templatename, context, doctree):
    """The search page quotes passages of the chapters, formulas included: give it MathJax too.

    Sphinx adds MathJax only to pages with math of their own; ``lincourse.js`` typesets each passage
    as the search shows it.
    """
    if pagename != "search" or app.builder.format != "html" or getattr(app.builder, "math_renderer_name", "") != "mathjax":
        return
    from sphinx.ext.mathjax import install_mathjax

    domain = app.env.get_domain("math")
    has_equations = domain.has_equations
    domain.has_equations = lambda docname=None: True
    try:
        install_mathjax(app, pagename, templatename, context, doctree)
    finally:
        domain.has_equations = has_equations


def _fix_page(app, pagename, templatename, context, doctree):
    """The mode follows the system's; each inline script once; folded outputs named by their text."""
    if not context.get("default_mode"):
        context["default_mode"] = "auto"
    if context.get("body"):
        context["body"] = context["body"].replace('<summary aria-label="Toggle hidden content">', "<summary>")
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


_SAYS_EXERCISE = re.compile(r"^Exercise\s+\d")
_EXERCISE_BEFORE = re.compile(r"(?<!\w)[Ee]xercise\s+$")


def _one_word_exercise(app, doctree, docname):
    """"exercise Exercise 8" -> "Exercise 8": drop the word before a link to an exercise that says it."""
    from docutils import nodes

    for ref in list(doctree.findall(nodes.reference)):
        if not _SAYS_EXERCISE.match(ref.astext()):
            continue
        parent = ref.parent
        start = index = parent.index(ref)
        while start > 0 and isinstance(parent[start - 1], nodes.Text):  # a line break is a Text of its own
            start -= 1
        text = "".join(parent[i].astext() for i in range(start, index))
        if _EXERCISE_BEFORE.search(text):
            for i in reversed(range(start, index)):
                parent.remove(parent[i])
            parent.insert(start, nodes.Text(_EXERCISE_BEFORE.sub("", text)))


_FONTAWESOME = re.compile(r'<script[^>]*src="[^"]*scripts/fontawesome\.js[^"]*"[^>]*></script>\s*')
_SEARCH_BUTTON = re.compile(r'(<button class="[^"]*\bsearch-button-field\b[^"]*"[^>]*?) aria-label="[^"]*"')


def _rewrite_pages(app, exception):
    """Leave out the Font Awesome script; name the search buttons by their visible text."""
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir)
    for page in out.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        new = _FONTAWESOME.sub("", text)
        new = _SEARCH_BUTTON.sub(r'\1 aria-keyshortcuts="Control+K"', new)
        if new != text:
            page.write_text(new, encoding="utf-8")
    for name in ("fontawesome.js", "fontawesome.js.map", "fontawesome.js.LICENSE.txt"):
        (out / "_static" / "scripts" / name).unlink(missing_ok=True)


def setup(app):
    app.connect("builder-inited", _builder_inited, priority=900)
    app.connect("html-page-context", _search_math)
    app.connect("html-page-context", _fix_page, priority=900)
    app.connect("doctree-resolved", _one_word_exercise)
    app.connect("build-finished", _rewrite_pages)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
