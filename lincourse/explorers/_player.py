"""The kernel-free website player: an explorer precomputed at every position of its website sliders.

The same ``draw`` function as the live widget is evaluated at every combination of the website
grid of each parameter (:func:`player_grids`: the parameter's even ``player_step`` grid, which holds
every value the chapters ask the reader to set, declared once in the explorer's ``asked``). A frame is

* a PNG *background*, drawn once: axes, ticks and labels, everything no slider changes;
* an SVG *layer*: every artist of the figure, its titles and legend, written by
  :class:`~._svg.SVGLayerRenderer` in the figure's pixel coordinates;
* the *readout*, the very text ``draw`` returned (the live explorer shows the same).

The page holds the default frame inline (so a reader without JavaScript still sees the figure and
readout); the players' behaviour is ``player.js`` beside this module (one file for every page),
and the other frames live in chunk files (``c<n>.js``, one ``<script src>`` each, so they load
from a static host and from a local folder opened as ``file://``), fetched when a slider first
needs them or is about to (``player.js`` says "Loading…" meanwhile, never showing a stale frame).
Identical SVG elements are stored once per chunk. Chunks are written by worker processes in parallel, into a cache directory named by a
hash of everything that determines them (the lincourse sources, matplotlib's version, the
explorer's declaration, grids and sample frames), so an unchanged explorer is never rendered twice.

When the book is built (``LINCOURSE_EXPLORER_MODE=player``), :mod:`lincourse._book` sets
:data:`DIR_VARIABLE` to the cache and copies the players a page uses into ``_static/players``.

What the build guarantees: every drawn object stays inside its panel, at every position of every
explorer's website sliders. While it writes a frame, the renderer notes where each object's SVG
reaches (:attr:`~._svg.SVGLayerRenderer.reach`), and :meth:`_Scene.layer` compares that with the
object's panel, to :data:`TOLERANCE` (0.5 px): arrows (``FancyArrowPatch``), lines and their
markers (``Line2D``), scatter markers (``PathCollection``) and the panel's texts must stay inside
the panel, the titles inside the figure. Lines across the whole plane (``AxLine``) and shaded
half-planes are clipped to their panel by design and are not checked, nor are images and legends,
nor the pieces ``setup`` drew (no slider moves them). A frame where an object escapes raises
:class:`OutsidePanelError`, which names the explorer, the slider values, the object, the edge and
the overshoot, and says what to change: the notebook's cell fails, and with it the book's build
(an error in a worker process is raised again in the build's process by the pool). The check
applies to every explorer: over the whole website grids of the thirteen course explorers it
flagged only the current-iteration dot of ``gradient_descent``, cut in half by the panel's edge at
iterations 0 and 100 (a real defect, mended by a margin on that panel's iteration axis).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import html
import io
import itertools
import json
import math
import multiprocessing
import os
import re
import shutil
import tempfile
from pathlib import Path

import matplotlib

from ._engine import anchor, plain_label
from ._svg import FONT, SVGLayerRenderer, merge_paths, reach_box

__all__ = ["player_grids", "player_html", "build_player", "frame", "DIR_VARIABLE", "URL_PLACEHOLDER",
           "MIN_POSITIONS", "MAX_ANGLE_STEP", "PLAYER_CSS", "PLAYER_JS", "make_readable", "OutsidePanelError",
           "TOLERANCE"]

#: Environment variable naming the directory where players are written (and cached).
DIR_VARIABLE = "LINCOURSE_PLAYER_DIR"
#: Environment variable: number of worker processes rendering a player (default: the usable cores, at most 4).
JOBS_VARIABLE = "LINCOURSE_PLAYER_JOBS"
#: Written in the page where the URL of the players' directory goes; the book build replaces it.
URL_PLACEHOLDER = "@@LINCOURSE_PLAYERS@@/"
#: Every website slider has at least this many positions (or all of them, for a short count).
MIN_POSITIONS = 13
#: Website angle sliders move by this many degrees or fewer.
MAX_ANGLE_STEP = 15
#: Target size of a chunk of frames, in bytes (a chunk is what one slider step may have to fetch).
#: A step on any slider but the last lands in another chunk, of which it needs one frame: small
#: chunks keep the prefetch of every one-step neighbour light (tens of kB gzipped on a 4G line).
CHUNK_BYTES = 64_000
_FORMAT_VERSION = "4"
#: How far, in pixels, a drawn object may reach past its panel's edge (rounding, antialiasing).
TOLERANCE = 0.5


class OutsidePanelError(ValueError):
    """A frame of the website player draws an object outside its panel (or a title outside the figure)."""


# -- grids ----------------------------------------------------------------------------------------
def player_grids(explorer):
    """Per-parameter lists of the website player's values.

    The even grid of ``player_step`` (the parameter's own step when that is ``None``): one step from
    end to end, so a slider's knob sits where its value is. The default and every value of the
    explorer's ``asked`` settings are on it (:class:`~._engine.Param` and :class:`~._engine.Explorer`
    refuse a declaration where they are not).
    """
    return {p.name: p.grid(p.player_step) for p in explorer.params}


# -- rendering ------------------------------------------------------------------------------------
class _Scene:
    """What every frame of one explorer shares: sizes, clip rectangles, the background, static SVG.

    The artists and their order come from the explorer's own :meth:`~._engine.Explorer.scene`, the
    one the live widget draws.
    """

    def __init__(self, explorer, key):
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.image import AxesImage

        self.explorer = explorer
        fig = explorer.figure
        if not isinstance(fig.canvas, FigureCanvasAgg):
            FigureCanvasAgg(fig)
        self.canvas = fig.canvas
        self.width, self.height = (int(v) for v in self.canvas.get_width_height())
        self.dpi = fig.dpi
        scene = explorer.scene()
        self.clips = {}
        for k, ax in enumerate(scene.axes):
            self.clips[tuple(round(v, 1) for v in ax.bbox.extents)] = f"lc{key[:10]}c{k}"
        self._pieces = {}
        self._image_type = AxesImage
        # Where the checked objects must stay, in tenths of a pixel of the layer (y down): each
        # panel's box, and the figure's for the titles (see ``_bounds``).
        self._panels = {}
        for ax in scene.axes:
            x0, y0, x1, y1 = ax.bbox.extents
            self._panels[id(ax)] = (10 * x0, 10 * (self.height - y1), 10 * x1, 10 * (self.height - y0))
        self._figure_box = (0.0, 0.0, 10.0 * self.width, 10.0 * self.height)
        # Legends made by ``setup`` never change: kept (so their ids stay theirs) and drawn once.
        self._static_ids = set(scene.static) | {id(ax.legend_) for ax in scene.axes if ax.legend_ is not None}
        # Images (the probability field) go to the page at their data resolution; the browser
        # smooths them when it scales them up, as the live figure's bilinear interpolation does.
        for ax in scene.axes:
            for image in ax.images:
                image.set_interpolation("none")

    def background_png(self):
        """The figure with every drawable hidden: drawn once, as a palette PNG."""
        from PIL import Image

        with self.explorer.scene().hidden():
            self.canvas.draw()
            rgb = Image.frombuffer("RGBA", self.canvas.get_width_height(), self.canvas.buffer_rgba(), "raw", "RGBA",
                                   0, 1).convert("RGB")
        image = rgb.quantize(colors=64, method=Image.Quantize.MEDIANCUT)
        buf = io.BytesIO()
        image.save(buf, format="PNG", optimize=True)
        return buf.getvalue()

    def _bounds(self, artist, texts):
        """The box (tenths of a pixel) ``artist`` must stay inside, and what it is, or ``None`` if it is not checked.

        Arrows, lines but not lines across the plane (``AxLine``), scatter markers and the panel's
        texts: their panel; titles (the texts of a panel not among its ``texts``): the figure.
        """
        kind = _kind(type(artist))
        if kind is None:
            return None
        if kind == "text":
            if id(artist) not in texts:
                return self._figure_box, "title"
        return self._panels.get(id(artist.axes)), kind

    def _check(self, artist, kind, box, reach):
        """Raise :class:`OutsidePanelError` if the positions ``reach`` (tenths of a pixel) leave ``box`` by more than
        :data:`TOLERANCE`."""
        x0, y0, x1, y1 = reach_box(reach)
        beyond = {"left": box[0] - x0, "top": box[1] - y0, "right": x1 - box[2], "bottom": y1 - box[3]}
        side = max(beyond, key=beyond.get)
        if beyond[side] <= 10 * TOLERANCE:
            return
        raise OutsidePanelError(_outside_message(self.explorer, artist, kind, side, beyond[side] / 10))

    def layer(self):
        """The SVG elements of the explorer's current state, one string per drawable, in the scene's order.

        Raises :class:`OutsidePanelError` if an arrow, a line, a marker or a text reaches outside its
        panel, or a title outside the figure (see the module's docstring).
        """
        measure = self.canvas.get_renderer()
        renderer = SVGLayerRenderer(self.width, self.height, self.dpi, measure, self.clips)
        scene = self.explorer.scene()
        texts = {id(t) for ax in scene.axes for t in ax.texts}
        pieces = []
        for a in scene.drawables:
            if id(a) in self._static_ids and not isinstance(a, self._image_type):
                key = id(a)
            elif hasattr(a, "legend_handles"):  # a legend made by draw: the same entries, same place, same look
                box = tuple(round(v, 1) for v in a.get_window_extent(measure).extents)
                key = ("legend", id(a.axes), box, tuple(t.get_text() for t in a.texts))
            else:
                key = None
            if key is not None and key in self._pieces:
                pieces.append(self._pieces[key])
                continue
            start = len(renderer.out)
            bounds = self._bounds(a, texts)
            if bounds is None or bounds[0] is None:
                a.draw(renderer)
            else:
                renderer.reach = []
                a.draw(renderer)
                reach, renderer.reach = renderer.reach, None
                if reach:
                    self._check(a, bounds[1], bounds[0], reach)
            piece = merge_paths(renderer.out[start:])
            if key is not None:
                self._pieces[key] = piece
            pieces.append(piece)
        return [p for p in pieces if p]

    def frame(self, values):
        """``(list of SVG strings, readout)`` at ``values``."""
        self.explorer._move(**values)
        return self.layer(), self.explorer.readout


@functools.lru_cache(maxsize=None)
def _kind(cls):
    """What an artist type is for the check ("arrow", "line", "markers", "text"), or None: not checked."""
    from matplotlib.collections import PathCollection
    from matplotlib.lines import AxLine, Line2D
    from matplotlib.patches import FancyArrowPatch
    from matplotlib.text import Text

    if issubclass(cls, Text):
        return "text"
    if issubclass(cls, FancyArrowPatch):
        return "arrow"
    if issubclass(cls, Line2D) and not issubclass(cls, AxLine):
        return "line"
    if issubclass(cls, PathCollection):
        return "markers"
    return None


_ADVICE = {
    "arrow": "shorten the arrow, or draw it only when it fits in view (its foot and its head inside the limits)",
    "line": ("keep the line's points inside the limits, and a marker one radius from the edge (a margin on the "
             "axis, or leave the marker out when its point is out of view); a line across the whole plane is "
             "drawn with axline, which is clipped by design"),
    "markers": ("keep the markers one radius inside the limits (a margin on the axes), or leave out the points "
                "out of view"),
    "text": "move the text inward (its alignment or offset toward the middle of the panel), or shorten it",
    "title": "shorten the title or make its font smaller",
}


def _outside_message(explorer, artist, kind, side, amount):
    """What :class:`OutsidePanelError` says: where, what, how far, and what to change."""
    values = ", ".join(f"{p.name}={p.format(explorer.values[p.name])}" for p in explorer.params)
    label = artist.get_text() if kind in ("text", "title") else artist.get_label()
    what = type(artist).__name__ + (f" {label!r}" if label and not label.startswith("_") else "")
    if kind == "line" and artist.get_marker() not in (None, "None", "none", "", " "):
        what += f" (marker {artist.get_marker()!r})"
    where = "the figure" if kind == "title" else "its panel"
    return (f"{explorer.title!r} at {values}: the {what} reaches {amount:.1f} px beyond the {side} edge of {where} "
            f"({TOLERANCE} px allowed), in the website player. Every drawn object must stay inside its panel at every "
            f"position of the website sliders: {_ADVICE[kind]}.")


def frame(explorer, **values):
    """The website player's frame at ``values``: ``(svg_elements, readout)`` (tests use this).

    Like the player, it draws the explorer's images at their data resolution from then on.
    """
    scene = _Scene(explorer, "0" * 16)
    defaults = dict(explorer.values)
    try:
        return scene.frame(values)
    finally:
        explorer._move(**defaults)


# -- the cache key ---------------------------------------------------------------------------------
def _source_digest():
    root = Path(__file__).resolve().parents[1]
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def _key(explorer, grids, scene):
    h = hashlib.sha256()
    h.update(_FORMAT_VERSION.encode())
    h.update(_source_digest().encode())
    h.update(matplotlib.__version__.encode())
    h.update(repr((explorer.title, explorer.caption, [vars(p) for p in explorer.params],
                   sorted((k, repr(v)) for k, v in explorer.asked.items()), grids,
                   scene.width, scene.height, scene.dpi)).encode())
    combos = list(itertools.product(*grids.values()))
    samples = {0, len(combos) - 1, len(combos) // 2, len(combos) // 3}
    for i in sorted(samples):  # the data enter through the frames (the points are artists)
        svg, text = scene.frame(dict(zip(grids, combos[i])))
        h.update("".join(svg).encode())
        h.update(text.encode())
    return h.hexdigest()[:16]


# -- building ---------------------------------------------------------------------------------------
_WORK = {}


def _render_chunk(n):
    """Render chunk ``n`` of the player set up in ``_WORK`` and write ``c<n>.js``."""
    scene, grids, size, key, out = (_WORK[k] for k in ("scene", "grids", "chunk", "key", "out"))
    names = list(grids)
    sizes = [len(grids[name]) for name in names]
    total = math.prod(sizes)
    table, index, frames, readouts = [], {}, [], []
    for i in range(n * size, min(total, (n + 1) * size)):
        combo, rest = [], i
        for s in reversed(sizes):
            combo.append(rest % s)
            rest //= s
        values = {name: grids[name][j] for name, j in zip(names, reversed(combo))}
        svg, text = scene.frame(values)
        refs = []
        for piece in svg:
            if piece not in index:
                index[piece] = len(table)
                table.append(piece)
            refs.append(index[piece])
        frames.append(refs)
        readouts.append(text)
    data = json.dumps({"s": table, "f": frames, "r": readouts}, separators=(",", ":"), ensure_ascii=False)
    (Path(out) / f"c{n}.js").write_text(f'lincoursePlayerChunk("{key}",{n},{data});\n', encoding="utf-8")
    return n


def _jobs():
    value = os.environ.get(JOBS_VARIABLE)
    if value:
        return max(1, int(value))
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, 4))


def build_player(explorer, directory=None):
    """Render the explorer's website player into ``directory`` (default: :data:`DIR_VARIABLE`).

    Returns the player's description: a dict with ``key`` (its directory name), ``grids``,
    ``chunk`` (frames per chunk file), ``default`` (the default frame's SVG and readout) and
    ``background`` (PNG bytes). Reuses a directory already rendered with the same key.
    """
    directory = Path(directory or os.environ.get(DIR_VARIABLE) or Path(tempfile.gettempdir()) / "lincourse-players")
    directory.mkdir(parents=True, exist_ok=True)
    defaults = dict(explorer.values)
    grids = player_grids(explorer)
    scene = _Scene(explorer, "0" * 16)
    try:
        key = _key(explorer, grids, scene)
        scene = _Scene(explorer, key)
        default_svg, default_text = scene.frame(explorer.defaults)
        target = directory / key
        manifest = target / "player.json"
        if manifest.exists():
            info = json.loads(manifest.read_text())
        else:
            total = math.prod(len(v) for v in grids.values())
            per_frame = max(200, sum(len(s) for s in default_svg) // 3 + len(default_text))
            chunk = int(min(total, max(8, min(1024, CHUNK_BYTES // per_frame))))
            count = math.ceil(total / chunk)
            work = Path(tempfile.mkdtemp(prefix=f"{key}-", dir=directory))  # private (0700) until complete
            (work / "bg.png").write_bytes(scene.background_png())
            _WORK.update(scene=scene, grids=grids, chunk=chunk, key=key, out=str(work))
            jobs = min(_jobs(), count)
            try:
                if jobs > 1 and total > 400 and "fork" in multiprocessing.get_all_start_methods():
                    with multiprocessing.get_context("fork").Pool(jobs) as pool:
                        for _ in pool.imap_unordered(_render_chunk, range(count)):
                            pass
                else:
                    for n in range(count):
                        _render_chunk(n)
            except BaseException:  # an OutsidePanelError (re-raised here from a worker): no half-rendered player
                shutil.rmtree(work, ignore_errors=True)
                raise
            finally:
                _WORK.clear()
            info = {"key": key, "chunk": chunk, "count": count, "total": total}
            (work / "player.json").write_text(json.dumps(info))
            make_readable(work)  # a web server running as another user must read the player
            try:
                work.rename(target)
            except OSError:  # another process rendered it meanwhile
                shutil.rmtree(work, ignore_errors=True)
        background = (target / "bg.png").read_bytes()
    finally:
        explorer._move(**defaults)
    return {"key": key, "grids": grids, "chunk": info["chunk"], "count": info["count"],
            "default": (default_svg, default_text), "background": background,
            "size": (scene.width, scene.height), "clips": scene.clips}


def make_readable(path):
    """Let any user read ``path`` and everything under it (folders 0755, files 0644 with the usual umask).

    A website is served by another user than the one who built it: ``tempfile.mkdtemp`` makes
    0700 folders, and a restrictive umask makes 0600 files, which a web server answers with 403.
    """
    path = Path(path)
    for item in [path, *path.rglob("*")] if path.is_dir() else [path]:
        mode = item.stat().st_mode
        wanted = mode | (0o555 if item.is_dir() else 0o444)
        if wanted != mode:
            item.chmod(wanted)


#: The players' styles and behaviour: plain CSS and JavaScript files beside this module, which
#: :mod:`lincourse._book` links into every page of the site (``_static/lincourse-player.css``, ``.js``).
PLAYER_CSS = Path(__file__).with_name("player.css")
PLAYER_JS = Path(__file__).with_name("player.js")


def player_html(explorer, directory=None, base_url=URL_PLACEHOLDER):
    """The HTML of the explorer's website player (its frames written by :func:`build_player`).

    Without JavaScript it is the figure and readout at the default values, with the sliders
    disabled; the script enables them. Screen readers hear the figure's title (the figure's
    caption), its description (the picture's text alternative, the explorer's ``caption``), each
    slider by its label and value, and the readout, a polite live region, after every move.
    """
    info = build_player(explorer, directory)
    grids, key = info["grids"], info["key"]
    labels = [plain_label(p.label or p.name) for p in explorer.params]
    values = [[p.format(v) for v in grids[p.name]] for p in explorer.params]
    default_svg, default_text = info["default"]
    width, height = info["size"]
    cfg = {"key": key, "sizes": [len(v) for v in values], "values": values, "labels": labels,
           "chunk": info["chunk"]}
    rows = []
    for k, p in enumerate(explorer.params):
        start = grids[p.name].index(p.clip(p.default))
        label = html.escape(labels[k])
        rows.append(
            f'<label class="lincourse-slider"><span class="lincourse-label">{label}</span>'
            f'<span class="lincourse-control"><input type="range" min="0" max="{len(values[k]) - 1}" step="1" '
            f'value="{start}" aria-label="{label}" aria-valuetext="{html.escape(values[k][start])}" disabled>'
            # the slider announces its value itself: the visible copy is not a second live region
            f'<output aria-hidden="true">{html.escape(values[k][start])}</output></span></label>'
        )
    clips = "".join(
        f'<clipPath id="{cid}"><rect x="{x0:.1f}" y="{height - y1:.1f}" width="{x1 - x0:.1f}" height="{y1 - y0:.1f}"/>'
        f"</clipPath>" for (x0, y0, x1, y1), cid in info["clips"].items())
    background = "data:image/png;base64," + base64.b64encode(info["background"]).decode("ascii")
    caption = explorer.caption or explorer.title
    n_frames = math.prod(cfg["sizes"])
    if all(len(grids[p.name]) == len(p.grid()) for p in explorer.params):
        note = f"all {n_frames} slider positions precomputed"
    else:
        note = f"precomputed at {n_frames} slider positions; run the notebook for every step"
    payload = json.dumps(cfg, separators=(",", ":")).replace("</", "<\\/")
    base = f"{base_url}{key}/"
    return (
        f'<figure class="lincourse-player" id="{anchor(explorer.title)}" tabindex="-1" data-key="{key}" '
        f'data-base="{html.escape(base)}" data-title="{html.escape(explorer.title)}">'
        f'<figcaption><span class="lincourse-title">{html.escape(explorer.title)}</span> '
        f'<span class="lincourse-note">({note})</span></figcaption>{"".join(rows)}'
        f'<p class="lincourse-nojs">The sliders need JavaScript; the figure shows the default values.</p>'
        # the status says "Loading…" over the figure while a frame is on its way (player.js)
        f'<div class="lincourse-plate"><p class="lincourse-status" role="status"></p>'
        f'<svg class="lincourse-figure" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="{html.escape(caption)}"><defs>{clips}</defs>'
        f'<image href="{background}" width="{width}" height="{height}"/>'
        f'<g class="lincourse-layer" font-family="{FONT}">{"".join(default_svg)}</g></svg></div>'
        f'<pre class="lincourse-readout" aria-live="polite" aria-atomic="true">{html.escape(default_text)}</pre>'
        f'<script type="application/json">{payload}</script></figure>'
    )
