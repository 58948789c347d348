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
* a plain rendering, :meth:`Explorer.render`, usable without any kernel or widget (tests,
  benchmarks, and the precomputed player for the website, which evaluates the same ``draw`` over a
  grid of parameter values).

The figure is a pyplot-free :class:`~matplotlib.figure.Figure`, so nothing is shown implicitly and no
``<Figure size ...>`` text leaks into notebook outputs; no ``Output`` widget is used, so no
``clear_output`` messages are sent. The text shown for an explorer in a notebook is its
:func:`repr`, which depends only on its title and parameter values, so stored outputs compare
equal under ``nbval`` in strict mode.
"""

from __future__ import annotations

import html
import io
import math
import os
from dataclasses import dataclass

import numpy as np

from ..plotting import new_figure

__all__ = ["Param", "Explorer", "display_mode"]

#: Environment variable that selects how explorers display: "widget" (live sliders, the default)
#: or "player" (the kernel-free precomputed player, used when the book is built).
MODE_VARIABLE = "LINCOURSE_EXPLORER_MODE"


def display_mode():
    """How explorers display in this process: ``"widget"`` or ``"player"``."""
    mode = os.environ.get(MODE_VARIABLE, "widget")
    return mode if mode in ("widget", "player") else "widget"


@dataclass(frozen=True)
class Param:
    """One slider: a named parameter with its range, step, default value and label.

    ``player_step`` is the (coarser) step used for the precomputed website player; by default the
    engine picks one so that the player stays small.
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

    @property
    def integer(self):
        """True when every value is an integer (the slider is then an IntSlider)."""
        return all(float(v).is_integer() for v in (self.min, self.max, self.step, self.default))

    def clip(self, value):
        """``value`` snapped to the slider's grid and clipped to ``[min, max]``."""
        k = round((float(value) - self.min) / self.step)
        v = min(max(self.min + k * self.step, self.min), self.max)
        return int(round(v)) if self.integer else round(v, 10)

    def grid(self, step=None):
        """The values the slider can take (with ``step``, a coarser grid), ends included."""
        step = step or self.step
        n = int(math.floor((self.max - self.min) / step + 1e-9))
        values = [self.clip(self.min + i * step) for i in range(n + 1)]
        if values[-1] != self.clip(self.max):
            values.append(self.clip(self.max))
        if self.clip(self.default) not in values:
            values = sorted(set(values) | {self.clip(self.default)})
        return values


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

    def __init__(self, draw, params, setup=None, title="", caption="", figsize=(5.0, 4.0), ncols=1, dpi=80):
        self._draw = draw
        self.params = list(params)
        names = [p.name for p in self.params]
        if len(set(names)) != len(names):
            raise ValueError(f"Explorer parameter names must be unique, got {names}")
        self.title = title
        self.caption = caption
        self.figure, self.ax = new_figure(*figsize, dpi=dpi, ncols=ncols)
        if setup is not None:
            setup(self.ax)
        self._static = {id(a) for a in self._artists()}
        self.values = {p.name: p.clip(p.default) for p in self.params}
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
    def _axes(self):
        return list(np.atleast_1d(self.ax))

    def _artists(self):
        for ax in self._axes():
            yield from (*ax.lines, *ax.collections, *ax.patches, *ax.texts, *ax.images, *ax.artists)

    def _redraw(self):
        for artist in [a for a in self._artists() if id(a) not in self._static]:
            artist.remove()
        for ax in self._axes():
            ax.set_prop_cycle(None)  # same values, same colours: draw stays a function of its parameters
        text = self._draw(self.ax, **self.values)
        self.readout = "" if text is None else str(text)
        self._png = None
        if self._widget is not None:
            self._image.value = self.png
            self._readout.value = self._readout_html()

    @property
    def png(self):
        """The current figure as PNG bytes (rendered on demand, then cached until the next move)."""
        if self._png is None:
            self._png = self._render_png()
        return self._png

    def _limits(self):
        return [(ax.get_xlim(), ax.get_ylim()) for ax in self._axes()]

    def _render_png(self):
        """Render with a cached background: axes, ticks, labels and grid are drawn once.

        Only the contents (points, lines, patches, texts, images) and the titles and legends are
        drawn on each move, in z-order, over a copy of the background. The background is redrawn
        when the axes limits change.
        """
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from PIL import Image

        fig = self.figure
        if not isinstance(fig.canvas, FigureCanvasAgg):
            FigureCanvasAgg(fig)
        canvas = fig.canvas
        contents = [a for a in self._artists() if a.get_visible()]
        extras = []
        for ax in self._axes():
            extras += [ax.title, ax._left_title, ax._right_title]
            if ax.legend_ is not None:
                extras.append(ax.legend_)
        extras = [a for a in extras if a.get_visible()]
        if self._background is None or self._background[0] != self._limits():
            titles = [a for a in extras if hasattr(a, "get_position")]
            positions = [a.get_position() for a in titles]
            for a in contents + extras:
                a.set_visible(False)
            canvas.draw()
            self._background = (self._limits(), canvas.copy_from_bbox(fig.bbox))
            for a in contents + extras:
                a.set_visible(True)
            for a, xy in zip(titles, positions):  # a draw with hidden contents moves the titles away
                a.set_position(xy)
        canvas.restore_region(self._background[1])
        renderer = canvas.get_renderer()
        for ax in self._axes():
            mine = [a for a in contents if a.axes is ax]
            for a in sorted(mine, key=lambda a: a.get_zorder()):
                a.draw(renderer)
        for a in extras:
            a.draw(renderer)
        buf = io.BytesIO()
        Image.frombuffer("RGBA", canvas.get_width_height(), canvas.buffer_rgba(), "raw", "RGBA", 0, 1).convert(
            "RGB").save(buf, format="PNG", compress_level=1)
        return buf.getvalue()

    def set(self, **values):
        """Move sliders to ``values`` (snapped to their grid) and redraw once; returns self.

        A value outside a slider's range is an error rather than silently clipped, so that a cell
        never prints numbers for parameters other than those it asked for.
        """
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

    def render(self, **values):
        """Set ``values`` and return ``(png_bytes, readout)``: the kernel-free rendering."""
        self.set(**values)
        return self.png, self.readout

    # -- live widget -----------------------------------------------------------------------------
    @property
    def widget(self):
        """The ipywidgets interface (a VBox of title, sliders, image and readout), built on first use."""
        if self._widget is None:
            self._build_widget()
        return self._widget

    @property
    def sliders(self):
        """Mapping from parameter name to its slider widget; setting ``.value`` redraws synchronously."""
        self.widget
        return self._sliders

    def _build_widget(self):
        import ipywidgets as W

        self._updating = False
        self._sliders = {}
        for p in self.params:
            cls = W.IntSlider if p.integer else W.FloatSlider
            kwargs = {} if p.integer else {"readout_format": _format_for(p.step)}
            slider = cls(value=self.values[p.name], min=p.min, max=p.max, step=p.step,
                         description=p.label or p.name, continuous_update=True,
                         style={"description_width": "initial"}, layout=W.Layout(width="95%"), **kwargs)
            slider.observe(self._on_slider, names="value")
            self._sliders[p.name] = slider
        width, height = (int(v) for v in self.figure.get_size_inches() * self.figure.dpi)
        self._image = W.Image(value=self.png, format="png", layout=W.Layout(max_width=f"{width}px", width="100%"))
        self._readout = W.HTML(self._readout_html())
        header = [W.HTML(f"<b>{html.escape(self.title)}</b>")] if self.title else []
        footer = [W.HTML(f"<small>{html.escape(self.caption)}</small>")] if self.caption else []
        self._widget = W.VBox(header + list(self._sliders.values()) + [self._image, self._readout] + footer)

    def _on_slider(self, change):
        if getattr(self, "_updating", False):
            return
        name = next(n for n, s in self._sliders.items() if s is change["owner"])
        self.values[name] = change["new"]
        self._redraw()

    def _readout_html(self):
        return f"<pre style='margin:0'>{html.escape(self.readout)}</pre>" if self.readout else ""

    # -- display ---------------------------------------------------------------------------------
    def __repr__(self):
        values = ", ".join(f"{k}={v!r}" for k, v in self.values.items())
        return f"Explorer({self.title!r}, {values})"

    def _repr_mimebundle_(self, include=None, exclude=None):
        if display_mode() == "player":
            from ._player import player_html

            return {"text/html": player_html(self), "text/plain": repr(self)}
        bundle = self.widget._repr_mimebundle_()
        bundle["text/plain"] = repr(self)
        return bundle


def _format_for(step):
    decimals = max(0, -int(math.floor(math.log10(step)))) if step < 1 else 0
    return f".{decimals}f"
