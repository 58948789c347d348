"""Sphinx extension: the course's small fixes to the theme and to the math (listed in ``_config.yml``).

The website's pages come from sphinx-book-theme (on pydata-sphinx-theme), sphinx-thebe,
sphinx-exercise and sphinxcontrib-katex; this module adjusts what they put into every page.
The course's own styles and scripts are ``_static/lincourse.css`` and ``_static/lincourse.js``
(Jupyter Book links those itself); the players are served by :mod:`lincourse._book`.

Page weight (a chapter's first load stays under 3 MB, tests/site checks it):

* math is rendered when the book is built (sphinxcontrib-katex runs KaTeX in node): each formula
  is in the page as HTML, which the browser draws at first paint with KaTeX's stylesheet and fonts
  (``_static/katex``, served from the site), and as MathML, which screen readers read; no script
  typesets anything, so nothing moves when the page has loaded. The search page alone loads KaTeX's
  script, to render the formulas of the passages it quotes (:func:`_search_math`);
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

The student's progress (``_static/lincourse-progress.js``) needs to know what each chapter holds:
:func:`course_inventory` writes ``_static/lincourse-course.js``, the course's version and, per
chapter, its exercises' keys, kinds, points, ``core`` and ``minutes`` (no answers, no hashes).
"""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path

_KATEX_SCRIPTS = ("katex.min.js", "auto-render.min.js")


def _katex_scripts(app):
    """Copy KaTeX's script and its auto-renderer (shipped with sphinxcontrib-katex) for the search page."""
    if app.builder.format != "html":
        return
    import sphinxcontrib.katex

    static = Path(app.outdir) / "_static" / "katex"
    static.mkdir(parents=True, exist_ok=True)
    for name in _KATEX_SCRIPTS:
        shutil.copyfile(Path(sphinxcontrib.katex.__file__).with_name(name), static / name)


def _start_katex(app):
    """Start sphinxcontrib-katex's KaTeX server (node) before the first page, and connect to it safely.

    sphinxcontrib-katex starts the server on the first formula and connects as soon as the server has
    made its socket file; the server makes that file before it listens on it, so on a busy machine the
    connection could be refused, which failed the whole build. Here the server is started once and the
    connection retried until it is accepted, within sphinxcontrib-katex's start-up timeout. A server
    that exits or never accepts is killed before the error is raised: no node process outlives the
    build (one that did kept the build's output open, and whoever waited for the build waited for ever).
    """
    if app.builder.format != "html" or not getattr(app.config, "katex_prerender", False):
        return
    import atexit
    import socket
    import subprocess
    import tempfile

    from sphinxcontrib import katex
    from sphinxcontrib.katex import KaTeXServer

    if KaTeXServer.katex_server is not None:
        return
    rundir = Path(tempfile.mkdtemp(prefix="sphinxcontrib_katex"))
    path = rundir / "katex.sock"
    process = subprocess.Popen(KaTeXServer.build_command(socket=path), stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, cwd=rundir)
    deadline, sock = time.monotonic() + katex.STARTUP_TIMEOUT, None
    try:
        while sock is None:
            if process.poll() is not None:
                raise RuntimeError(f"the KaTeX server (node) exited with status {process.returncode} before "
                                   "it accepted a connection")
            if time.monotonic() > deadline:
                raise KaTeXServer.timeout_error(katex.STARTUP_TIMEOUT)
            if path.is_socket():
                candidate = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                try:
                    candidate.connect(str(path))
                    sock = candidate
                except ConnectionRefusedError:   # the socket file exists, the server does not listen yet
                    candidate.close()
            if sock is None:
                time.sleep(0.01)
    except BaseException:
        process.kill()
        process.wait()
        shutil.rmtree(rundir, ignore_errors=True)
        raise
    server = KaTeXServer(rundir, process, sock)
    atexit.register(KaTeXServer.terminate, server)
    KaTeXServer.katex_server = server


def _search_math(app, pagename, templatename, context, doctree):
    """The search page quotes passages of the chapters, formulas included: give it KaTeX's script.

    ``lincourse.js`` puts each formula of a passage back as its TeX source and renders it.
    """
    if pagename != "search" or app.builder.format != "html":
        return
    for name in _KATEX_SCRIPTS:
        app.builder.add_js_file(f"katex/{name}", priority=600)


_INVENTORY_FIELDS = ("key", "kind", "points", "core", "minutes")


def course_inventory():
    """The course's version and, per chapter (its page's name), its exercises, in declaration order."""
    from lincourse import __version__
    from lincourse.exercises._declare import DATA

    chapters = []
    for path in sorted(DATA.glob("*.json")):
        records = json.loads(path.read_text(encoding="utf-8"))["exercises"]
        chapters.append({"page": f"chapters/{path.stem}",
                         "exercises": [{f: r.get(f) for f in _INVENTORY_FIELDS} for r in records]})
    return {"version": __version__, "chapters": chapters}


def write_inventory(static):
    """Write ``lincourse-course.js`` (the inventory as ``window.lincourseCourse``) into ``static``."""
    static = Path(static)
    static.mkdir(parents=True, exist_ok=True)
    data = json.dumps(course_inventory(), separators=(",", ":"))
    (static / "lincourse-course.js").write_text(f"window.lincourseCourse = {data};\n", encoding="utf-8")


def _inventory(app):
    if app.builder.format == "html":
        write_inventory(Path(app.outdir) / "_static")


# The KaTeX fonts every page with math uses (upright and italic letters): asked for in the page's
# head, so that they arrive before the text is laid out and no line moves when they do.
_KATEX_FONTS = ("KaTeX_Main-Regular.woff2", "KaTeX_Math-Italic.woff2")


_PROGRESS = ('<div id="lincourse-progress" class="lincourse-progress"><p class="lincourse-progress-text">'
             "Your progress on this device (it needs JavaScript).</p><p class=\"lincourse-progress-note\">"
             "It is for you alone: nothing is sent or graded.</p></div>")


def _fix_page(app, pagename, templatename, context, doctree):
    """The mode follows the system's; each inline script and stylesheet once; folded outputs named by
    their text; the KaTeX fonts of a page with math preloaded."""
    if not context.get("default_mode"):
        context["default_mode"] = "auto"
    if context.get("body"):
        context["body"] = context["body"].replace('<summary aria-label="Toggle hidden content">', "<summary>")
        if pagename.startswith("chapters/") and "</h1>" in context["body"]:
            # the student's progress line (_static/lincourse-progress.js fills it) is in the page from the
            # start, so that filling it moves nothing below the title
            context["body"] = context["body"].replace("</h1>", "</h1>" + _PROGRESS, 1)
        if 'class="katex"' in context["body"] and "pathto" in context:
            context["metatags"] = context.get("metatags", "") + "".join(
                f'<link rel="preload" href="{context["pathto"]("_static/katex/fonts/" + name, 1)}" as="font" '
                f'type="font/woff2" crossorigin>\n' for name in _KATEX_FONTS)
    # Jupyter Book links every stylesheet of _static, KaTeX's among them, a second time
    _once(context.get("css_files"), lambda sheet: getattr(sheet, "filename", str(sheet)))
    # an inline script may be registered with filename None once and '' the other time
    _once(context.get("script_files"), lambda script: (
        getattr(script, "filename", str(script)) or "", tuple(sorted(getattr(script, "attributes", {}).items()))))


def _once(items, key):
    """Keep the first of the items (a page's stylesheets or scripts) with the same ``key``, in place."""
    if not items:
        return
    seen, unique = set(), []
    for item in items:
        if key(item) not in seen:
            seen.add(key(item))
            unique.append(item)
    items[:] = unique


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
    app.connect("builder-inited", _katex_scripts)
    app.connect("builder-inited", _inventory)
    app.add_js_file("lincourse-course.js", priority=400)
    app.connect("builder-inited", _start_katex, priority=900)   # after sphinxcontrib-katex's own
    app.connect("html-page-context", _search_math)
    app.connect("html-page-context", _fix_page, priority=900)
    app.connect("build-finished", _rewrite_pages)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
