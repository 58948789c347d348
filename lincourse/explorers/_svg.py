"""A matplotlib renderer that writes what an explorer draws as SVG elements, in the figure's pixels.

The website player (:mod:`._player`) shows a figure as a PNG *background* (axes, ticks, labels:
everything no slider changes, drawn once by Agg) under an SVG *layer* (every artist, the titles
and the legends, drawn by this renderer). Matplotlib's own artists call the renderer, so the
layer is exactly what ``draw`` declared, in the same order and the same coordinates as the live
figure; nothing is re-implemented per explorer.

Paths become ``<path>`` elements (in pixels, y pointing down), plain text becomes ``<text>`` (the
page's screen-reader-invisible SVG carries no text the alt text does not already give), math text
becomes glyph outlines, and images (the probability field) become small PNG ``<image>`` elements
at their data resolution, scaled by the browser.

While :attr:`SVGLayerRenderer.reach` is a list, the renderer also notes where what it writes
reaches: every vertex of every path, control points included (so curves are covered), and the four
corners of every plain text's measured box (width, height and descent, turned by its angle). The
player (:meth:`._player._Scene.layer`) turns this on for the artists that must stay inside their
panel and checks the box; the numbers are those the SVG holds, so the check costs a few list
operations per path.
"""

from __future__ import annotations

import base64
import html
import io
import math
import re

import numpy as np
from matplotlib.backend_bases import GraphicsContextBase, RendererBase
from matplotlib.path import Path
from matplotlib.textpath import TextToPath
from matplotlib.transforms import Affine2D

__all__ = ["SVGLayerRenderer", "merge_paths", "reach_box", "FONT"]

#: The layer's font, written once on the layer's ``<g>`` (its texts inherit it), not on every text.
FONT = "DejaVu Sans, Bitstream Vera Sans, Verdana, Arial, sans-serif"
_MATH = {}
_SIZES = {}
_TEXT_TO_PATH = TextToPath()
_CAPS = {"butt": "butt", "round": "round", "projecting": "square"}
_COMMANDS = {Path.MOVETO: "M", Path.LINETO: "L", Path.CURVE3: "Q", Path.CURVE4: "C"}


def _num(x):
    return f"{x:.1f}".rstrip("0").rstrip(".") if abs(x) < 1e6 else "0"


def _tenths(t):
    """An integer number of tenths as the shortest SVG number: 15 -> "1.5", -5 -> "-.5", 20 -> "2"."""
    sign, t = ("-", -t) if t < 0 else ("", t)
    whole, tenth = divmod(t, 10)
    if not tenth:
        return f"{sign}{whole}"
    return f"{sign}{whole or ''}.{tenth}"


def _numbers(values):
    """Numbers joined as SVG path data: a space only where a number does not start with "-"."""
    return "".join((v if v.startswith("-") or i == 0 else " " + v) for i, v in enumerate(values))


def _path_data(path, transform, reach=None):
    """The SVG path data of ``path`` under ``transform``, compact, at 0.1 px precision.

    Coordinates are rounded to tenths of a pixel, then written relative to the current point
    (``m l q c``, the SVG relative commands): short numbers, and no drift since every difference is
    taken between rounded positions. Long polylines are simplified as Agg simplifies them when it
    draws the live figure (``path.should_simplify``); NaN vertices are dropped, as Agg drops them;
    curves stay curves. When ``reach`` is a list, every written position (in tenths of a pixel,
    ``x, y, x, y, ...``, control points included: a curve stays inside their hull) is appended to it.
    """
    out = []
    cx = cy = sx = sy = 0  # the current point and the start of the subpath, in tenths of a pixel
    for vertices, code in path.iter_segments(transform, remove_nans=True, simplify=None, curves=True):
        if code == Path.CLOSEPOLY:
            out.append("z")
            cx, cy = sx, sy
            continue
        if code == Path.STOP:
            continue
        points = [int(round(v * 10)) if abs(v) < 1e8 else 0 for v in vertices]
        if reach is not None:
            reach += points
        numbers = []
        for i in range(0, len(points), 2):
            numbers += [_tenths(points[i] - cx), _tenths(points[i + 1] - cy)]
        command = _COMMANDS[code] if not out else _COMMANDS[code].lower()  # the first moveto is absolute
        out.append(command + _numbers(numbers))
        cx, cy = points[-2], points[-1]
        if code == Path.MOVETO:
            sx, sy = cx, cy
    return "".join(out)


_PATH = re.compile(r'<path d="([^"]*)"((?:(?!opacity)[^>])*)/>')


def merge_paths(elements):
    """``elements`` (SVG strings) as one string, consecutive opaque ``<path>`` elements of one style merged.

    A collection (many segments, many markers) arrives as one ``<path>`` per item with the same
    colours and widths; one element with all their subpaths draws the same pixels when nothing is
    translucent (translucent overlaps would darken, so those are kept apart). Every path's data
    starts with an absolute ``M``, so the subpaths keep their places.
    """
    parts = _PATH.split("".join(elements))  # text, d, style, text, d, style, ..., text
    out, pending = [parts[0]], None
    for k in range(1, len(parts), 3):
        d, style, text = parts[k], parts[k + 1], parts[k + 2]
        if pending is not None and pending[1] == style:
            pending[0].append(d)
        else:
            if pending is not None:
                out.append(f'<path d="{"".join(pending[0])}"{pending[1]}/>')
            pending = ([d], style)
        if text:
            out.append(f'<path d="{"".join(pending[0])}"{pending[1]}/>')
            out.append(text)
            pending = None
    if pending is not None:
        out.append(f'<path d="{"".join(pending[0])}"{pending[1]}/>')
    return "".join(out)


def _text_corners(x, y, angle, width, height, descent):
    """The corners of a text's box, in tenths of a pixel: baseline start at ``(x, y)`` (y down), turned by ``angle``.

    The box runs from the start to ``width`` along the baseline, from ``height - descent`` above
    it to ``descent`` below it, as the text's measured size says; the text turns about its start
    (SVG's ``rotate(-angle x y)``).
    """
    corners = ((0.0, descent), (width, descent), (width, descent - height), (0.0, descent - height))
    if angle:
        c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        corners = [(u * c + v * s, v * c - u * s) for u, v in corners]  # counter-clockwise on the page
    out = []
    for u, v in corners:
        out += [int(round((x + u) * 10)), int(round((y + v) * 10))]
    return out


def reach_box(reach):
    """``(x0, y0, x1, y1)``, the box of the positions in ``reach`` (tenths of a pixel), or ``None`` for none."""
    if not reach:
        return None
    xs, ys = reach[0::2], reach[1::2]
    return min(xs), min(ys), max(xs), max(ys)


def _color(rgb):
    r, g, b = (int(round(255 * min(max(c, 0.0), 1.0))) for c in rgb[:3])
    return f"#{r:02x}{g:02x}{b:02x}"


class SVGLayerRenderer(RendererBase):
    """Collects SVG elements for artists drawn onto it (``artist.draw(renderer)``).

    Parameters
    ----------
    width, height : int
        The figure's size in pixels.
    dpi : float
    measure : RendererBase
        A renderer that measures text (the figure's Agg renderer), so that text is laid out
        exactly as in the PNG of the live explorer.
    clips : dict
        Clip rectangle ``(x0, y0, x1, y1)`` in display pixels -> id of an SVG ``clipPath`` the
        page defines; an artist clipped to another rectangle is drawn unclipped.

    Attributes
    ----------
    out : list of str
        The SVG elements written so far.
    reach : list of int or None
        ``None`` (the default), or a list to which every position written from then on is
        appended, in tenths of a pixel of the layer (y pointing down), ``x, y, x, y, ...``: path
        vertices (markers and collections arrive as paths), math text's glyph outlines, and the
        corners of plain text's box. :func:`reach_box` turns it into a box.
    """

    def __init__(self, width, height, dpi, measure, clips):
        super().__init__()
        self.width, self.height, self.dpi = width, height, dpi
        self._measure = measure
        self._clips = clips
        self.out = []
        self.reach = None
        self._flip = Affine2D().scale(1.0, -1.0).translate(0.0, height)

    # -- what matplotlib asks of a renderer ------------------------------------------------------
    def flipy(self):
        return True

    def get_canvas_width_height(self):
        return self.width, self.height

    def get_text_width_height_descent(self, s, prop, ismath):
        key = (s, hash(prop), ismath, self.dpi)  # titles repeat across frames: measure each text once
        size = _SIZES.get(key)
        if size is None:
            size = _SIZES[key] = self._measure.get_text_width_height_descent(s, prop, ismath)
        return size

    def points_to_pixels(self, points):
        return points * self.dpi / 72.0

    def new_gc(self):
        return GraphicsContextBase()

    def option_scale_image(self):
        return True  # images arrive at their data resolution, with the transform to the page

    # -- drawing ---------------------------------------------------------------------------------
    def _clip(self, gc):
        rect = gc.get_clip_rectangle()
        if rect is None:
            return ""
        key = tuple(round(v, 1) for v in rect.extents)
        cid = self._clips.get(key)
        return f' clip-path="url(#{cid})"' if cid else ""

    def _alpha(self, gc, rgba):
        if gc.get_forced_alpha():
            return gc.get_alpha()
        return rgba[3] if rgba is not None and len(rgba) > 3 else 1.0

    def draw_path(self, gc, path, transform, rgbFace=None):
        trans = transform + self._flip
        d = _path_data(path, trans, self.reach)
        if not d:
            return
        attrs = [f'd="{d}"']
        if rgbFace is not None:
            alpha = self._alpha(gc, rgbFace)
            if alpha == 0:
                attrs.append('fill="none"')
            else:
                attrs.append(f'fill="{_color(rgbFace)}"')
                if alpha < 1:
                    attrs.append(f'fill-opacity="{alpha:.3g}"')
        else:
            attrs.append('fill="none"')
        lw = gc.get_linewidth()
        rgb = gc.get_rgb()
        stroke_alpha = self._alpha(gc, rgb)
        if lw > 0 and stroke_alpha > 0:
            attrs.append(f'stroke="{_color(rgb)}" stroke-width="{_num(self.points_to_pixels(lw))}"')
            if stroke_alpha < 1:
                attrs.append(f'stroke-opacity="{stroke_alpha:.3g}"')
            cap, join = _CAPS.get(gc.get_capstyle(), "butt"), gc.get_joinstyle() or "miter"
            if cap != "butt":  # SVG's defaults, "butt" and "miter", are not written
                attrs.append(f'stroke-linecap="{cap}"')
            if join != "miter":
                attrs.append(f'stroke-linejoin="{join}"')
            offset, dashes = gc.get_dashes()
            if dashes is not None and len(dashes):
                attrs.append('stroke-dasharray="' + ",".join(_num(self.points_to_pixels(v)) for v in dashes) + '"')
                if offset:
                    attrs.append(f'stroke-dashoffset="{_num(self.points_to_pixels(offset))}"')
        self.out.append(f"<path {' '.join(attrs)}{self._clip(gc)}/>")

    def draw_text(self, gc, x, y, s, prop, angle, ismath=False, mtext=None):
        if ismath:  # glyph outlines, memoised: legends redrawn on every move repeat the same labels
            key = (s, prop.get_size_in_points(), prop.get_family()[0], prop.get_weight(), round(x, 1), round(y, 1),
                   angle, tuple(gc.get_rgb()), self._clip(gc))
            cached = _MATH.get(key)
            if cached is None:  # (the outlines, and the corners of the box they reach, for a later reach)
                start, outer, self.reach = len(self.out), self.reach, []
                try:
                    self._text_as_path(gc, x, y, s, prop, angle, ismath, mtext)
                    box = reach_box(self.reach)
                finally:
                    self.reach = outer
                cached = _MATH[key] = ("".join(self.out[start:]), [] if box is None else list(box))
                del self.out[start:]
            self.out.append(cached[0])
            if self.reach is not None:
                self.reach += cached[1]
            return
        size = self.points_to_pixels(prop.get_size_in_points())
        rgb = gc.get_rgb()
        attrs = [f'x="{_num(x)}" y="{_num(y)}" font-size="{_num(size)}" fill="{_color(rgb)}"']
        alpha = self._alpha(gc, rgb)
        if alpha < 1:
            attrs.append(f'fill-opacity="{alpha:.3g}"')
        if prop.get_weight() in ("bold", 700, 800, 900, "heavy", "extra bold", "black"):
            attrs.append('font-weight="bold"')
        if angle:
            attrs.append(f'transform="rotate({_num(-angle)} {_num(x)} {_num(y)})"')
        self.out.append(f"<text {' '.join(attrs)}{self._clip(gc)}>{html.escape(s)}</text>")
        if self.reach is not None:
            self.reach += _text_corners(x, y, angle, *self.get_text_width_height_descent(s, prop, ismath))

    def _text_as_path(self, gc, x, y, s, prop, angle, ismath, mtext):
        """Math text as glyph outlines, filled in the text's colour (as matplotlib's own SVG backend does)."""
        extra = {} if mtext is None else {"features": mtext.get_fontfeatures(), "language": mtext.get_language()}
        verts, codes = _TEXT_TO_PATH.get_text_path(prop, s, ismath=ismath, **extra)
        size = self.points_to_pixels(prop.get_size_in_points())
        transform = Affine2D().scale(size / _TEXT_TO_PATH.FONT_SCALE).rotate_deg(angle).translate(x, self.height - y)
        gc.set_linewidth(0.0)
        self.draw_path(gc, Path(verts, codes), transform, rgbFace=gc.get_rgb())

    def draw_image(self, gc, x, y, im, transform=None):
        from PIL import Image

        h, w = im.shape[:2]
        if w == 0 or h == 0:
            return
        if transform is None:  # resampled to the page's pixels: store it at a quarter of that, smooth
            transform = Affine2D().scale(w, h)
            small = Image.fromarray(np.asarray(im)).resize((max(1, w // 4), max(1, h // 4)), Image.BILINEAR)
        else:
            small = Image.fromarray(np.asarray(im))
        buf = io.BytesIO()
        small.save(buf, format="WEBP", quality=85, method=1)
        href = "data:image/webp;base64," + base64.b64encode(buf.getvalue()).decode("ascii")
        m = (Affine2D().scale(1.0 / w, 1.0 / h) + transform
             + Affine2D().translate(x, y).scale(1.0, -1.0).translate(0.0, self.height)).get_matrix()
        # the stored image is small.size; the matrix maps a unit square, so scale it back to w x h first
        sw, sh = small.size
        m = m @ np.array([[w / sw, 0, 0], [0, h / sh, 0], [0, 0, 1]])
        matrix = " ".join(f"{v:.6g}" for v in (m[0, 0], m[1, 0], m[0, 1], m[1, 1], m[0, 2], m[1, 2]))
        opacity = gc.get_alpha()
        extra = f' opacity="{opacity:.3g}"' if opacity is not None and opacity < 1 else ""
        image = (f'<image width="{sw}" height="{sh}" preserveAspectRatio="none" transform="matrix({matrix})"'
                 f'{extra} href="{href}"/>')
        clip = self._clip(gc)
        self.out.append(f"<g{clip}>{image}</g>" if clip else image)
