"""Sphinx extension: the website players in the course's Jupyter Book build (listed in ``_config.yml``).

The players (:mod:`lincourse.explorers._player`): before the notebooks run, the build points
:data:`~lincourse.explorers._player.DIR_VARIABLE` at ``_build/.players`` (the kernels inherit it),
where every player writes its frames once, in a directory named by the hash of what determines
them, so a rebuild with nothing changed renders nothing. Each page's links to its players are
made relative to the page, and when the build ends exactly the players the pages use are copied
to ``_static/players``.

The players' styles and behaviour (``lincourse/explorers/player.css`` and ``player.js``) are
linked into every page as ``_static/lincourse-player.css`` and ``_static/lincourse-player.js``, and
the exercises' answer boxes' (``lincourse/exercises/answer.css`` and ``answer.js``) as
``_static/lincourse-answer.css`` and ``_static/lincourse-answer.js``;
they are in ``_static`` before the pages are written, so Sphinx adds their checksum to the links
(``?v=...``) and a browser never runs a cached copy of an older version.

The site is deployable on any host: every folder and file of it is readable by any user (a web
server runs as another user than the build; see :func:`~lincourse.explorers._player.make_readable`).

The book as a PDF (``make pdf``, the LaTeX builder): an explorer's output in "player" mode holds,
beside the website's player, its printed form, and :class:`PrintedExplorer`, a myst-nb mime renderer
(registered in ``pyproject.toml``), shows it as a numbered figure at its default values, with its
caption, the values and readout, and the address of its interactive version on the website
(``html.baseurl`` in ``_config.yml``). Answer boxes are left out of the PDF: an answer is checked
on the website or in the notebook.

One run of each chapter serves both builds: the notebooks run in the book's execution cache
(``execute_notebooks: cache`` in ``_config.yml``, jupyter-cache), which ``make book`` and ``make
test`` empty before the website's build, and the PDF's build, after it, finds every chapter there.

The course's fixes to the theme and the math are another extension, :mod:`lincourse._theme`.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from .exercises import ANSWER_CSS, ANSWER_JS
from .explorers._engine import MODE_VARIABLE, PRINT_MIME
from .explorers._player import DIR_VARIABLE, PLAYER_CSS, PLAYER_JS, URL_PLACEHOLDER, make_readable

_ASSETS = {PLAYER_CSS: "lincourse-player.css", PLAYER_JS: "lincourse-player.js",
           ANSWER_CSS: "lincourse-answer.css", ANSWER_JS: "lincourse-answer.js"}
_PLAYER_LINK = re.compile(r"_static/players/([0-9a-f]{16})/")


def _cache(app):
    return Path(app.outdir).parent / ".players"


def _config_inited(app, config):
    os.environ[DIR_VARIABLE] = str(_cache(app))
    _cache(app).mkdir(parents=True, exist_ok=True)


def _assets(app):
    """Put the players' styles and script into the site before the pages are written.

    Both builders run the notebooks in "player" mode (the kernels inherit it): the LaTeX builder
    prints the explorers from the same outputs (:class:`PrintedExplorer`), so a chapter the website's
    build ran is not run again.
    """
    os.environ[MODE_VARIABLE] = "player"
    if app.builder.format != "html":
        return
    static = Path(app.outdir) / "_static"
    static.mkdir(parents=True, exist_ok=True)
    for source, name in _ASSETS.items():
        shutil.copyfile(source, static / name)
        make_readable(static / name)


def _players(app, pagename, templatename, context, doctree):
    """Point a page's links to its players at ``_static/players/``, relative to the page."""
    body = context.get("body")
    if not body or URL_PLACEHOLDER not in body:
        return
    context["body"] = body.replace(URL_PLACEHOLDER, context["pathto"]("_static/players/", 1))


def _copy_players(app, exception):
    """Copy the players the written pages link to into the site; make the whole site readable by any user.

    The players are read off the pages themselves, so the build keeps no state across processes (a
    parallel build writes pages in several).
    """
    if exception is not None or app.builder.format != "html":
        return
    used = {key for page in Path(app.outdir).rglob("*.html") if "_static" not in page.parts
            for key in _PLAYER_LINK.findall(page.read_text(encoding="utf-8"))}
    target = Path(app.outdir) / "_static" / "players"
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True, exist_ok=True)
    for key in sorted(used):
        source = _cache(app) / key
        if source.is_dir():
            shutil.copytree(source, target / key)
    make_readable(app.outdir)


class PrintedExplorer:
    """A myst-nb mime renderer: an explorer in the book as a PDF, and no answer boxes there.

    An explorer's :data:`~lincourse.explorers._engine.PRINT_MIME` output becomes a figure: the
    drawing at the default values (vector PDF), the title as the caption, then the explorer's own
    caption, the values and readout, and where its interactive version is. Only the LaTeX builder
    selects that mime type.
    """

    mime_priority_overrides = [("latex", PRINT_MIME, 1)]

    @staticmethod
    def handle_mime(renderer, data, inline):
        from docutils import nodes
        from myst_nb.core.render import MimeData

        tags = data.cell_metadata.get("tags", [])
        if data.mime_type == "text/plain" and "exercise-declaration" in tags:
            return [nodes.comment("", "An answer box: answers are checked on the website or in the notebook.")]
        if data.mime_type != PRINT_MIME or inline:
            return None
        payload = data.content
        image = renderer.render_image(MimeData("application/pdf", payload["pdf"], data.cell_metadata,
                                               {}, data.cell_index, data.output_index, data.line))[0]
        image["width"] = "90%"
        env = renderer.renderer.sphinx_env
        address = f"{env.config.html_baseurl.rstrip('/')}/{env.docname}.html#{payload['anchor']}"
        figure = nodes.figure("", image, align="center")
        figure += nodes.caption("", payload["title"])
        legend = nodes.legend()
        if payload["caption"]:
            legend += nodes.paragraph("", payload["caption"])
        legend += nodes.paragraph("", f"Shown at {payload['values']}.")
        if payload["readout"]:
            legend += nodes.literal_block(payload["readout"], payload["readout"])
        legend += nodes.paragraph("", "", nodes.Text("Move the sliders in the interactive version: "),
                                  nodes.reference(address, address, refuri=address),
                                  nodes.Text(", or run the chapter's notebook."))
        figure += legend
        return [figure]


GOING_FURTHER = "going-further"


def _mark_going_further(app, doctree, docname):
    """Give every section whose title starts with "Going further" the class ``going-further``.

    A chapter's optional layer is made of such sections (``docs/chapters.md``); the website draws each
    as its own block marked optional (``_static/lincourse.css``), and the PDF shows its heading.
    """
    from docutils import nodes

    for section in doctree.findall(nodes.section):
        title = section.next_node(nodes.title)
        if title is not None and title.astext().lower().startswith("going further"):
            section["classes"].append(GOING_FURTHER)


def setup(app):
    for name in _ASSETS.values():
        if name.endswith(".css"):
            app.add_css_file(name)
        else:
            app.add_js_file(name, loading_method="defer")
    app.connect("config-inited", _config_inited)
    app.connect("builder-inited", _assets)
    app.connect("doctree-resolved", _mark_going_further)
    app.connect("html-page-context", _players, priority=901)
    app.connect("build-finished", _copy_players, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
