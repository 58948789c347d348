"""The explorer engine: a drawing function plus a declaration of its parameters.

An explorer is declared once, as

* ``params``: a list of :class:`Param` (name, range, step, default, label);
* ``setup(ax)``: draws what never changes (data points, axes limits, labels) - optional;
* ``draw(ax, **values)``: draws what depends on the parameters and returns a short text of the key
  numbers (the *readout*), or ``None``.

From that single declaration the engine builds

* the live interface: ipywidgets sliders over a PNG image and the readout. Moving a slider calls
  ``draw`` synchronously: the artists of the previous ``draw`` are removed, the new ones added and the
  figure re-rendered with Agg; the static part drawn by ``setup`` is kept, never rebuilt;
* a plain rendering, ``explorer.set(**values).png`` and ``.readout``, usable without any kernel
  or widget (tests, benchmarks, and the precomputed player for the website, which evaluates the
  same ``draw`` over a grid of parameter values).

The figure is a pyplot-free :class:`~matplotlib.figure.Figure`, so nothing is shown implicitly and no
``<Figure size ...>`` text leaks into notebook outputs; no ``Output`` widget is used, so no
``clear_output`` messages are sent. The text shown for an explorer in a notebook is its
:func:`repr`, which depends only on its title and parameter values, so stored outputs compare
equal under ``nbval`` in strict mode.
"""

from __future__ import annotations

import base64
import contextlib
import html
import io
import math
import os
import re
import threading
from dataclasses import dataclass

import numpy as np

from ..plotting import new_figure

__all__ = ["Param", "Explorer", "Scene", "display_mode"]

#: Environment variable that selects how explorers display: "widget" (live sliders, the default) or
#: "player" (when the book is built: one output holding both the kernel-free precomputed player, which
#: the website shows, and the figure at the default values, which the book as a PDF prints; so one run
#: of a chapter serves both builds, see :mod:`lincourse._book`).
MODE_VARIABLE = "LINCOURSE_EXPLORER_MODE"

#: The mime type of an explorer's printed form: its title, caption, default values, readout and
#: figure (a PDF, base64), which :class:`lincourse._book.PrintedExplorer` turns into a figure. Only
#: the LaTeX builder selects it; the website's builder shows the ``text/html`` player beside it.
PRINT_MIME = "application/vnd.lincourse.explorer+json"


#: The accepted values of :data:`MODE_VARIABLE`.
MODES = ("widget", "player")


def display_mode():
    """How explorers display in this process: ``"widget"`` or ``"player"``.

    An unset (or empty) :data:`MODE_VARIABLE` means ``"widget"``; any other value than those two
    is a ValueError that names it, rather than a silent fall-back to widgets.
    """
    mode = os.environ.get(MODE_VARIABLE) or "widget"
    if mode not in MODES:
        raise ValueError(f"{MODE_VARIABLE}={mode!r} is not a display mode; use one of {', '.join(map(repr, MODES))}")
    return mode


@dataclass(frozen=True)
class Param:
    """One slider: a named parameter with its range, step, default value and label.

    ``player_step`` is the step of the precomputed website player (a multiple of ``step``; default:
    ``step`` itself, every position). The website slider has exactly the positions of that grid,
    one even step from ``min``, so its knob sits where its value is; the default and every value the
    chapters ask the reader to set (the explorer's ``asked``) must lie on it. An angle slider that
    stops one step short of a full turn (0 to 355 by 5) keeps the last position of its website grid
    below ``max`` (0 to 345 by 15): 360 is 0 again.
    """

    name: str
    min: float
    max: float
    step: float
    default: float
    label: str = ""
    player_step: float | None = None

    def __post_init__(self):
        if not self.name.isidentifier():
            raise ValueError(f"Param name must be a Python identifier, got {self.name!r}")
        if not (self.min < self.max):
            raise ValueError(f"Param {self.name!r}: min must be < max, got min={self.min}, max={self.max}")
        if not (self.step > 0):
            raise ValueError(f"Param {self.name!r}: step must be > 0, got {self.step}")
        if not (self.min <= self.default <= self.max):
            raise ValueError(f"Param {self.name!r}: default {self.default} is outside [{self.min}, {self.max}]")
        if self.player_step is not None and not _multiple(self.player_step, self.step):
            raise ValueError(f"Param {self.name!r}: player_step {self.player_step} must be a multiple of "
                             f"step {self.step}")
        if not self.on_grid(self.default, self.player_step):
            raise ValueError(f"Param {self.name!r}: default {self.default} is not a position of the website "
                             f"slider ({self.min} + k * {self.player_step or self.step}); choose another default "
                             f"or a finer player_step")

    @property
    def integer(self):
        """True when every value is an integer (the slider is then an IntSlider)."""
        return all(float(v).is_integer() for v in (self.min, self.max, self.step, self.default))

    def clip(self, value):
        """``value`` snapped to the slider's grid and clipped to ``[min, max]``."""
        k = round((float(value) - self.min) / self.step)
        v = min(max(self.min + k * self.step, self.min), self.max)
        return int(round(v)) if self.integer else round(v, 10) + 0.0  # + 0.0: never -0.0

    @property
    def decimals(self):
        """Decimal places that show every value of the slider's grid exactly (0 for integers)."""
        return max(_decimals(self.step), _decimals(self.min))

    def format(self, value):
        """``value`` as text at the precision of the slider's step (1.25, not 1.3; 30, not 30.0).

        The one number format of the live slider, the website player and the readouts; a value that
        rounds to zero is written without a sign ("0.00", never "-0.00").
        """
        return f"{float(value):z.{self.decimals}f}"

    def grid(self, step=None):
        """The values the slider can take: ``min + k * step`` up to ``max`` (``step``: a coarser grid).

        One even step, never an inserted value: the grid ends at ``max`` when ``max - min`` is a
        multiple of ``step``, else at the last position below it.
        """
        step = step or self.step
        n = int(math.floor((self.max - self.min) / step + 1e-9))
        return [self.clip(self.min + i * step) for i in range(n + 1)]

    def on_grid(self, value, step=None):
        """True when ``value`` is a position of :meth:`grid` (``step``: of that coarser grid)."""
        value = float(value)
        return (self.min - 1e-9 <= value <= self.max + 1e-9) and _multiple(value - self.min, step or self.step)


class Explorer:
    """A slider explorer: parameters, a drawing function and (lazily) its live widget.

    Parameters
    ----------
    draw : callable ``draw(ax, **values) -> str | None``
        Draws the parameter-dependent part onto ``ax`` (an Axes, or an array of Axes when
        ``ncols > 1``) and returns the readout text.
    params : list of Param
    setup : callable ``setup(ax)``, optional
        Draws the static part once.
    title : str
        Shown above the sliders and used in the ``repr``.
    caption : str
        A sentence describing the figure for readers who cannot see it (alt text / caption).
    figsize : (float, float), default=(5, 4)
    ncols : int, default=1
        Number of side-by-side panels.
    dpi : int, default=80
    asked : dict, optional
        The slider settings the course asks the reader to make, declared once: a mapping from the
        label of the exercise (or the section) that asks to a list of dicts ``{name: value}``
        (parameters left out stay at their defaults). Every value must lie on the slider's grid and
        on its website grid (``player_step``), so the website player has a position at each of them
        (tests check that it shows the same readout as the live explorer there).

    Examples
    --------
    >>> from lincourse.explorers import Explorer, Param
    >>> def draw(ax, a):
    ...     ax.plot([0, 1], [0, a])
    ...     return f"slope = {a}"
    >>> ex = Explorer(draw, [Param("a", 0, 2, 0.5, 1)], title="A line")
    >>> ex.set(a=2.0).readout
    'slope = 2.0'
    """

    def __init__(self, draw, params, setup=None, title="", caption="", figsize=(5.0, 4.0), ncols=1, dpi=80,
                 asked=None):
        self._draw = draw
        self.params = list(params)
        names = [p.name for p in self.params]
        if len(set(names)) != len(names):
            raise ValueError(f"Explorer parameter names must be unique, got {names}")
        self.asked = _check_asked(asked or {}, {p.name: p for p in self.params})
        self.title = title
        self.caption = caption
        self.figure, self.ax = new_figure(*figsize, dpi=dpi, ncols=ncols)
        if setup is not None:
            setup(self.ax)
        self._static = frozenset(id(a) for a in Scene(self.ax, frozenset()).artists())
        self.values = self.defaults
        self.readout = ""
        self._png = None
        self._widget = None
        self._background = None
        self._redraw()
        # Lay the figure out once, with the default values, then freeze the layout: re-running the
        # constrained-layout solver on every slider move would cost more than the drawing itself.
        self.figure.draw_without_rendering()
        self.figure.set_layout_engine("none")

    # -- drawing ---------------------------------------------------------------------------------
    def scene(self):
        """The explorer's current frame as both renderers draw it: a :class:`Scene`.

        The live widget (a PNG) and the website player (SVG) both draw ``scene().drawables`` in
        that order over a background drawn inside ``scene().hidden()``, so the draw order is
        decided here, once.
        """
        return Scene(self.ax, self._static)

    def _redraw(self):
        with self._lock():  # one redraw at a time (see _lock)
            scene = self.scene()
            for artist in list(scene.artists()):
                if id(artist) not in scene.static:
                    artist.remove()
            for ax in scene.axes:
                ax.set_prop_cycle(None)  # same values, same colours: draw stays a function of its parameters
            text = self._draw(self.ax, **self.values)
            self.readout = "" if text is None else no_negative_zero(str(text))
            self._png = None
            if self._widget is not None:
                self._show()

    @property
    def png(self):
        """The current figure as PNG bytes (rendered on demand, then cached until the next move)."""
        if self._png is None:
            self._png = self._render_png()
        return self._png

    def _render_png(self):
        """Render with a cached background: axes, ticks, labels and grid are drawn once.

        Only the scene's drawables (points, lines, patches, texts, images, then titles and legends)
        are drawn on each move, in the scene's order, over a copy of the background. The background
        is redrawn when the axes limits change.
        """
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from PIL import Image

        fig = self.figure
        if not isinstance(fig.canvas, FigureCanvasAgg):
            FigureCanvasAgg(fig)
        canvas = fig.canvas
        scene = self.scene()
        if self._background is None or self._background[0] != scene.limits:
            with scene.hidden():
                canvas.draw()
                self._background = (scene.limits, canvas.copy_from_bbox(fig.bbox))
        canvas.restore_region(self._background[1])
        renderer = canvas.get_renderer()
        for a in scene.drawables:
            a.draw(renderer)
        buf = io.BytesIO()
        Image.frombuffer("RGBA", canvas.get_width_height(), canvas.buffer_rgba(), "raw", "RGBA", 0, 1).convert(
            "RGB").save(buf, format="PNG", compress_level=1)
        return buf.getvalue()

    def set(self, **values):
        """Move sliders to ``values`` (snapped to their grid) and redraw once; returns self.

        A value outside a slider's range is an error rather than silently clipped, so that a cell
        never prints numbers for parameters other than those it asked for. When the website is
        built (display mode ``"player"``), the setting reached must be one the website's player can
        show and declares: the defaults or a setting of :attr:`asked`. Otherwise the cell raises
        and the build stops, since the page would print numbers its reader cannot reproduce.
        """
        self._move(**values)
        if display_mode() == "player":
            self._check_declared()
        return self

    @property
    def defaults(self):
        """The sliders' default values (each snapped to its slider's grid), a new dict."""
        return {p.name: p.clip(p.default) for p in self.params}

    def _check_declared(self):
        defaults = self.defaults
        declared = [dict(defaults, **s) for settings in self.asked.values() for s in settings]
        if self.values != defaults and self.values not in declared:
            changed = {k: v for k, v in self.values.items() if v != defaults[k]}
            raise ValueError(f"{self.title!r}: the setting {changed} (the rest at the defaults) is not one the "
                             f"website's player declares; add it to the explorer's asked= under the label of the "
                             f"exercise or section that makes it, on the sliders' website grids")

    def _move(self, **values):
        """:meth:`set` without the website's check (the player's renderer visits every position)."""
        unknown = set(values) - set(self.values)
        if unknown:
            raise ValueError(f"unknown explorer parameter(s) {sorted(unknown)}; known: {sorted(self.values)}")
        params = {p.name: p for p in self.params}
        for name, v in values.items():
            p = params[name]
            if not (p.min - 1e-9 <= float(v) <= p.max + 1e-9):
                raise ValueError(f"{name}={v!r} is outside the slider's range [{p.min}, {p.max}]")
        new = {name: params[name].clip(v) for name, v in values.items()}
        if self._widget is not None:
            self._updating = True
            try:
                for name, v in new.items():
                    self.sliders[name].value = v
            finally:
                self._updating = False
        self.values.update(new)
        self._redraw()
        return self

    # -- live widget -----------------------------------------------------------------------------
    @property
    def widget(self):
        """The ipywidgets interface (a VBox of title, sliders, image and readout), built on first use.

        Its parts: :attr:`sliders`, ``image_view`` (an HTML widget holding the figure as an ``<img>``
        whose alt text is the caption and the readout) and ``readout_view`` (the readout, and an
        error message when ``draw`` failed).
        """
        if self._widget is None:
            with self._lock():
                if self._widget is None:
                    self._build_widget()
        return self._widget

    @property
    def sliders(self):
        """Mapping from parameter name to its slider widget; setting ``.value`` redraws synchronously."""
        self.widget
        return self._sliders

    def _lock(self):
        """The explorer's lock: one redraw at a time.

        ipykernel may handle comm messages (slider moves) on several threads; drawing, rendering and
        updating the widgets share one figure, so they run under this lock, one move after another.
        Reentrant, so that a slider written back from inside a callback does not deadlock.
        """
        lock = self.__dict__.get("_redraw_lock")
        if lock is None:
            lock = self.__dict__.setdefault("_redraw_lock", threading.RLock())  # atomic: one lock wins
        return lock

    def _build_widget(self):
        import ipywidgets as W

        self._updating = False
        self._error = ""
        self._sliders = {}
        for p in self.params:
            cls = W.IntSlider if p.integer else W.FloatSlider
            kwargs = {} if p.integer else {"readout_format": f".{p.decimals}f"}
            slider = cls(value=self.values[p.name], min=p.min, max=p.max, step=p.step,
                         description=p.label or p.name, continuous_update=True,
                         style={"description_width": "initial"}, layout=W.Layout(width="95%"), **kwargs)
            slider.observe(self._on_slider, names="value")
            self._sliders[p.name] = slider
        # The image is an <img> in an HTML widget rather than an ipywidgets Image, which has no alt
        # text: here the alt text is the caption and the readout, updated with every move.
        self.image_view = W.HTML(self._image_html())
        self.image_view.add_class("lincourse-explorer-image")
        self.readout_view = W.HTML(self._readout_html())
        self.readout_view.add_class("lincourse-explorer-readout")
        header = [W.HTML(f"<b>{html.escape(self.title)}</b>")] if self.title else []
        footer = [W.HTML(f"<small>{html.escape(self.caption)}</small>")] if self.caption else []
        self._widget = W.VBox(header + list(self._sliders.values()) + [self.image_view, self.readout_view] + footer)
        self._widget.add_class("lincourse-explorer")

    def _on_slider(self, change):
        """A slider moved (in the browser, or ``slider.value = v`` in code): snap, then redraw.

        A browser sends floats such as ``0.10000000000000009`` for 0.1: the value is snapped to the
        slider's grid (:meth:`Param.clip`) before anything uses it, and written back to the slider
        when it differs. Moves are serialised by :meth:`_lock`. An exception raised while drawing is
        shown in the explorer, under the figure, and the explorer stays usable: the next move
        redraws normally.
        """
        with self._lock():
            if getattr(self, "_updating", False):  # our own write-back (same thread: the lock is reentrant)
                return
            name = next(n for n, s in self._sliders.items() if s is change["owner"])
            param = next(p for p in self.params if p.name == name)
            slider = self._sliders[name]
            try:
                value = param.clip(slider.value)  # the latest value: a queued older move redraws it once
            except (TypeError, ValueError) as exc:
                self._show_error(f"{param.label or name}: {exc}")
                return
            if slider.value != value:
                self._updating = True
                try:
                    slider.value = value
                finally:
                    self._updating = False
            if self.values[name] == value and not self._error:
                return
            self.values[name] = value
            try:
                self._redraw()
            except Exception as exc:  # noqa: BLE001 - shown to the reader, who can move on
                self._show_error(f"{type(exc).__name__}: {exc}")
            else:
                self._error = ""

    def _show(self):
        """Put the current figure, alt text and readout into the widgets (under the lock)."""
        self._error = ""
        self.image_view.value = self._image_html()
        self.readout_view.value = self._readout_html()

    def _show_error(self, message):
        self._error = message
        self.readout_view.value = self._readout_html()

    def _alt_text(self):
        """The live image's alt text: the caption, then the readout."""
        parts = [t.strip() for t in (self.caption or self.title, self.readout) if t and t.strip()]
        return " ".join(p if p.endswith((".", "!", "?")) else p + "." for p in parts)

    def _image_html(self):
        width, height = (int(round(v)) for v in self.figure.get_size_inches() * self.figure.dpi)
        data = base64.b64encode(self.png).decode("ascii")
        return (f"<img src='data:image/png;base64,{data}' alt='{html.escape(self._alt_text(), quote=True)}' "
                f"width='{width}' height='{height}' style='max-width:100%;height:auto;display:block'>")

    def _readout_html(self):
        error = getattr(self, "_error", "")
        text = f"<pre style='margin:0'>{html.escape(self.readout)}</pre>" if self.readout else ""
        if error:
            text += (f"<pre role='alert' class='lincourse-explorer-error' style='margin:0;color:#b00020;"
                     f"white-space:pre-wrap'>Error: {html.escape(error)}</pre>")
        return text

    # -- display ---------------------------------------------------------------------------------
    def __repr__(self):
        values = ", ".join(f"{k}={v!r}" for k, v in self.values.items())
        return f"Explorer({self.title!r}, {values})"

    def printed(self):
        """What the book as a PDF shows of this explorer: the :data:`PRINT_MIME` payload.

        The figure is drawn at the current values (the defaults, in a chapter) as a vector PDF.
        """
        buffer = io.BytesIO()
        self.figure.savefig(buffer, format="pdf", metadata={"CreationDate": None, "Producer": None})
        values = ", ".join(f"{plain_label(p.label or p.name)} = {p.format(self.values[p.name])}"
                           for p in self.params)
        return {"title": self.title, "caption": self.caption, "values": values, "readout": self.readout,
                "anchor": anchor(self.title), "pdf": base64.b64encode(buffer.getvalue()).decode("ascii")}

    def _repr_mimebundle_(self, include=None, exclude=None):
        if display_mode() == "player":  # the book: the website shows the player, the PDF the printed figure
            from ._player import player_html

            return {"text/html": player_html(self), PRINT_MIME: self.printed(), "text/plain": repr(self)}
        bundle = self.widget._repr_mimebundle_()
        bundle["text/plain"] = repr(self)
        return bundle


class Scene:
    """One frame of an explorer, as the live widget and the website player both draw it.

    Attributes
    ----------
    axes : list of Axes
        The explorer's panels, left to right.
    static : frozenset of int
        The ids of the artists ``setup`` drew: ``draw`` never changes them.
    drawables : list of Artist
        What is drawn over the background, in drawing order: the visible contents of each panel
        (lines, collections, patches, texts, images) by z-order, panel after panel, then each
        panel's titles and legend.
    limits : list of ((float, float), (float, float))
        Each panel's x and y limits: the background changes only when they do.
    """

    def __init__(self, ax, static):
        self.axes = list(np.atleast_1d(ax))
        self.static = static
        contents = [a for a in self.artists() if a.get_visible()]
        ordered = []
        for ax in self.axes:
            ordered += sorted((a for a in contents if a.axes is ax), key=lambda a: a.get_zorder())
        extras = []
        for ax in self.axes:
            extras += _titles(ax)
            if ax.legend_ is not None:
                extras.append(ax.legend_)
        self.drawables = ordered + [a for a in extras if a.get_visible()]
        self.limits = [(ax.get_xlim(), ax.get_ylim()) for ax in self.axes]

    def artists(self):
        """Every artist of the panels' contents (lines, collections, patches, texts, images), visible or not."""
        for ax in self.axes:
            yield from (*ax.lines, *ax.collections, *ax.patches, *ax.texts, *ax.images, *ax.artists)

    @contextlib.contextmanager
    def hidden(self):
        """Hide the drawables while the background (axes, ticks, labels) is drawn, then show them again."""
        titles = [a for a in self.drawables if hasattr(a, "get_position")]
        positions = [a.get_position() for a in titles]
        for a in self.drawables:
            a.set_visible(False)
        try:
            yield
        finally:
            for a in self.drawables:
                a.set_visible(True)
            for a, xy in zip(titles, positions):  # a draw with hidden contents moves the titles away
                a.set_position(xy)


def anchor(title):
    """The id of an explorer's figure on its page, ``explorer-<title as a slug>`` (player and PDF)."""
    return "explorer-" + (re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "player")


def plain_label(label):
    """A slider label without LaTeX dollars and backslashes, for HTML text and the PDF."""
    return label.replace("$", "").replace("\\", "")


_NEGATIVE_ZERO = re.compile(r"(?<![\w.])-(?=0(?:\.0+)?(?![\w.]))")


def no_negative_zero(text):
    """``text`` with every negative zero written as zero: "-0.00" becomes "0.00", "-0" becomes "0".

    A number that rounds to zero from below prints as "-0.00" in Python; the readouts say "0.00".
    Only whole numbers are touched (not "-0.001", not "x-0"). Drawing functions may use the ``z``
    format option instead (``f"{x:+z.2f}"`` gives "+0.00").

    >>> no_negative_zero("d = -0.000, theta = (-0.00, -1.00), k = -0, w = -0.001")
    'd = 0.000, theta = (0.00, -1.00), k = 0, w = -0.001'
    """
    return _NEGATIVE_ZERO.sub("", text)


def _titles(ax):
    """The axes' three titles (centre, left, right: ``ax.set_title(..., loc=...)``), in that order.

    They are the text children of the axes that are not among ``ax.texts``.
    """
    from matplotlib.text import Text

    texts = {id(t) for t in ax.texts}
    return [c for c in ax.get_children() if isinstance(c, Text) and id(c) not in texts]


def _check_asked(asked, params):
    """Validate ``asked`` (label -> list of settings): known names, values on the sliders' grids."""
    out = {}
    for label, settings in asked.items():
        if isinstance(settings, dict):
            settings = [settings]
        checked = []
        for setting in settings:
            for name, value in setting.items():
                if name not in params:
                    raise ValueError(f"asked[{label!r}]: unknown parameter {name!r}; known: {sorted(params)}")
                p = params[name]
                if not p.on_grid(value):
                    raise ValueError(f"asked[{label!r}]: {name}={value!r} is not a position of the slider "
                                     f"(range [{p.min}, {p.max}], step {p.step})")
                if not p.on_grid(value, p.player_step):
                    raise ValueError(f"asked[{label!r}]: {name}={value!r} is not a position of the website "
                                     f"slider ({p.min} + k * {p.player_step}); use a finer player_step "
                                     f"or ask for a position of that grid")
            checked.append({name: params[name].clip(v) for name, v in setting.items()})
        out[label] = checked
    return out


def _multiple(x, step):
    """True when ``x`` is a whole multiple of ``step`` (to rounding error)."""
    k = float(x) / float(step)
    return abs(k - round(k)) < 1e-6


def _decimals(x):
    """Number of decimal places of ``x`` as written in the shortest exact form (0.25 -> 2, 5 -> 0)."""
    from decimal import Decimal

    exponent = Decimal(repr(float(x))).normalize().as_tuple().exponent
    return max(0, -int(exponent))
