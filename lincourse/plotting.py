"""One plotting vocabulary for every figure of the course.

Each function draws one mathematical object onto a given :class:`matplotlib.axes.Axes` and returns
the artists it made, so explorers can remove and redraw them. One palette (Okabe and Ito's
colour-blind-safe colours) and one marker per class (circle for ``+1``, square for ``-1``, triangle
for a third class) are used everywhere, so classes differ by shape as well as by colour.
Figures are drawn on a white background, which stays readable in the book's dark mode.
"""

from __future__ import annotations

import numpy as np
from matplotlib.colors import LinearSegmentedColormap
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, Polygon

__all__ = [
    "COLORS",
    "CLASS_STYLES",
    "new_figure",
    "setup_axes",
    "plot_points",
    "plot_hyperplane",
    "plot_halfspaces",
    "plot_normal",
    "plot_margin",
    "plot_distance",
    "mark_points",
    "plot_margin_losses",
    "PROBABILITY_CMAP",
    "ProbabilityField",
    "plot_probability_levels",
    "plot_probability",
    "figure_to_png",
]

#: Okabe-Ito palette (Okabe and Ito, 2008), safe for the common colour-vision deficiencies.
COLORS = {
    "positive": "#0072B2",  # blue
    "negative": "#E69F00",  # orange
    "third": "#009E73",  # bluish green
    "boundary": "#000000",
    "normal": "#CC79A7",  # reddish purple
    "mistake": "#D55E00",  # vermillion
    "distance": "#56B4E9",  # sky blue
    "neutral": "#666666",
}

#: Marker, colour and legend label per class label; shapes differ so colour is never the only cue.
CLASS_STYLES = {
    1: {"marker": "o", "color": COLORS["positive"], "label": "$y=+1$"},
    -1: {"marker": "s", "color": COLORS["negative"], "label": "$y=-1$"},
    0: {"marker": "s", "color": COLORS["negative"], "label": "$t=0$"},
    2: {"marker": "^", "color": COLORS["third"], "label": "class 2"},
}

_BIG = 1e4  # half-width of the polygons used for half-spaces; the axes limits clip them


def new_figure(width=5.0, height=4.0, dpi=80, ncols=1, nrows=1):
    """A pyplot-free :class:`~matplotlib.figure.Figure` (never shown implicitly) and its axes."""
    fig = Figure(figsize=(width, height), dpi=dpi, facecolor="white", layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False)
    return fig, (axes[0, 0] if axes.size == 1 else axes.ravel())


def setup_axes(ax, xlim=(-3, 3), ylim=(-3, 3), xlabel="$x_1$", ylabel="$x_2$", equal=True, grid=True):
    """Fix limits, labels and aspect of a 2-D feature-space plot."""
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if equal:
        ax.set_aspect("equal", adjustable="box")
    if grid:
        ax.grid(True, color="#dddddd", linewidth=0.6, zorder=0)
        ax.set_axisbelow(True)
    return ax


def plot_points(ax, X, y, size=36, labels=None, **kwargs):
    """Scatter the points of each class with its own colour and marker.

    ``labels`` maps class values to legend labels (defaults from :data:`CLASS_STYLES`).
    Returns the list of artists.
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    artists = []
    for value in np.unique(y):
        style = dict(CLASS_STYLES.get(int(value), {"marker": "D", "color": COLORS["neutral"],
                                                   "label": str(value)}))
        if labels is not None and value in labels:
            style["label"] = labels[value]
        mask = y == value
        artists.append(ax.scatter(X[mask, 0], X[mask, 1], s=size, marker=style["marker"], c=style["color"],
                                  edgecolors="black", linewidths=0.6, label=style["label"], zorder=3, **kwargs))
    return artists


def _line_points(w, b):
    w = np.asarray(w, dtype=float)
    foot = -b * w / (w @ w)  # the point of the line closest to the origin
    direction = np.array([-w[1], w[0]])
    return foot, foot + direction


def plot_hyperplane(ax, w, b=0.0, color=None, linestyle="-", linewidth=2.0, label="boundary", **kwargs):
    """Draw the line ``w . x + b = 0`` across the whole axes (2-D only)."""
    p0, p1 = _line_points(w, b)
    return [ax.axline(p0, p1, color=color or COLORS["boundary"], linestyle=linestyle, linewidth=linewidth,
                      label=label, zorder=2, **kwargs)]


def plot_halfspaces(ax, w, b=0.0, alpha=0.12):
    """Shade the half-planes ``w . x + b > 0`` (positive colour) and ``< 0`` (negative colour)."""
    w = np.asarray(w, dtype=float)
    foot, _ = _line_points(w, b)
    u = w / np.linalg.norm(w)
    t = np.array([-u[1], u[0]])
    artists = []
    for sign, key in ((1, "positive"), (-1, "negative")):
        corners = [foot + _BIG * t, foot - _BIG * t, foot - _BIG * t + sign * _BIG * u, foot + _BIG * t + sign * _BIG * u]
        artists.append(_add_patch(ax, Polygon(corners, closed=True, facecolor=COLORS[key], alpha=alpha,
                                              edgecolor="none", zorder=1)))
    return artists


def _add_patch(ax, patch):
    """``ax.add_patch(patch)``, without the data-limit update when the view is fixed (an explorer's).

    The update walks the patch's path (for an arrow, a Bézier clip): about a sixth of a slider step
    for an arrow, and as much again for the two half-planes, for limits a fixed view never reads.
    """
    if ax.get_autoscalex_on() or ax.get_autoscaley_on():
        return ax.add_patch(patch)  # the limits follow the data: they must include the patch
    return ax.add_artist(patch)


def _arrow(ax, start, end, color, label=None, width=2.0):
    arrow = FancyArrowPatch(tuple(start), tuple(end), arrowstyle="-|>", mutation_scale=14, color=color,
                            linewidth=width, label=label, zorder=4)
    return _add_patch(ax, arrow)


def plot_normal(ax, w, b=0.0, origin=None, scale=1.0, label=r"normal $w$"):
    """Arrow for the normal vector ``w``, drawn from ``origin`` (default: the boundary's foot point).

    ``scale`` multiplies the arrow's length; ``scale=None`` draws a unit-length arrow.
    """
    w = np.asarray(w, dtype=float)
    start = _line_points(w, b)[0] if origin is None else np.asarray(origin, dtype=float)
    vec = w / np.linalg.norm(w) if scale is None else scale * w
    return [_arrow(ax, start, start + vec, COLORS["normal"], label)]


def plot_margin(ax, w, b, gamma, label="margin"):
    """Dashed lines parallel to the boundary at signed distances ``+gamma`` and ``-gamma``."""
    norm = np.linalg.norm(w)
    artists = []
    for shift in (gamma, -gamma):
        artists += plot_hyperplane(ax, w, b - shift * norm, color=COLORS["neutral"], linestyle="--",
                                   linewidth=1.2, label=label if shift > 0 else None)
    return artists


def plot_distance(ax, x, w, b=0.0, label="distance"):
    """Segment from the point ``x`` to its foot on the boundary, with the foot marked."""
    x = np.asarray(x, dtype=float)
    w = np.asarray(w, dtype=float)
    foot = x - (w @ x + b) / (w @ w) * w
    line = ax.plot([x[0], foot[0]], [x[1], foot[1]], color=COLORS["distance"], linewidth=2.2,
                   linestyle=":", label=label, zorder=3)
    dot = ax.plot([foot[0]], [foot[1]], marker="x", color=COLORS["distance"], markersize=9, mew=2.5, zorder=5)
    return line + dot


def mark_points(ax, X, size=160, color=None, label="mistake"):
    """Ring the given points (e.g. mistakes, or the point closest to the boundary)."""
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    return [ax.scatter(X[:, 0], X[:, 1], s=size, facecolors="none", edgecolors=color or COLORS["mistake"],
                       linewidths=2.0, label=label, zorder=4)]


#: How :func:`plot_margin_losses` draws each loss: colour, line style, width, legend label. Line
#: styles differ as well as colours, so the curves stay apart in grey print.
LOSS_STYLES = {
    "zero-one": (COLORS["neutral"], "-", 2.6, r"0-1 loss $\mathbf{1}\{m \leq 0\}$"),
    "perceptron": (COLORS["negative"], "--", 1.8, r"perceptron loss $\max(0, -m)$"),
    "hinge": (COLORS["third"], "-.", 1.8, r"hinge loss $\max(0, 1 - m)$"),
    "logistic": (COLORS["positive"], "-", 1.8, r"logistic loss in bits $\log_2(1 + e^{-m})$"),
}


def plot_margin_losses(ax, margins, losses):
    """Draw losses against the margin ``m = y (w . x + b)`` (chapter 3, equation ``(margin-losses)``).

    ``losses`` maps names to arrays over ``margins``, as :func:`lincourse.losses.margin_losses`
    returns them; the names in :data:`LOSS_STYLES` get their own colour, line style and legend
    label, any other name a grey dotted line labelled with the name. The 0-1 loss is drawn as
    two flat pieces over the other curves, with a filled dot at ``(0, 1)`` and an open one at
    ``(0, 0)``: at ``m = 0`` the point is on the boundary, a mistake. Sets the horizontal limits
    to the range of ``margins``; returns the list of artists.
    """
    m = np.asarray(margins, dtype=float)
    artists = []
    for name, loss in losses.items():
        color, linestyle, width, label = LOSS_STYLES.get(name, (COLORS["neutral"], ":", 1.5, name))
        loss = np.asarray(loss, dtype=float)
        if name == "zero-one":  # a jump, not a steep line: the two flat pieces apart, drawn over the others
            left, right = m <= 0, m > 0
            artists += ax.plot(m[left], loss[left], color=color, linestyle=linestyle, linewidth=width, label=label,
                               zorder=3)
            artists += ax.plot(m[right], loss[right], color=color, linestyle=linestyle, linewidth=width, zorder=3)
            artists += ax.plot([0.0], [1.0], "o", color=color, markersize=6, zorder=5)  # the value at m = 0
            artists += ax.plot([0.0], [0.0], "o", markerfacecolor="white", markeredgecolor=color, markersize=6,
                               zorder=5)
        else:
            artists += ax.plot(m, loss, color=color, linestyle=linestyle, linewidth=width, label=label, zorder=2)
    ax.set_xlim(m.min(), m.max())
    ax.set_xlabel(r"margin $m = y\,(w\cdot x + b)$")
    ax.set_ylabel("loss of one point")
    ax.axvline(0.0, color="#bbbbbb", linewidth=0.8, zorder=0)
    ax.grid(True, color="#dddddd", linewidth=0.6, zorder=0)
    ax.set_axisbelow(True)
    return artists


#: Probability of the positive class from 0 to 1: the colour of the negative class, white at 1/2,
#: the colour of the positive class (the same two colours as the class markers).
PROBABILITY_CMAP = LinearSegmentedColormap.from_list("lincourse_probability",
                                                     [COLORS["negative"], "#ffffff", COLORS["positive"]])


class ProbabilityField:
    """The field ``sigmoid(w . phi(x) + b)`` as an image over a fixed grid of the axes.

    Create it once (in an explorer's ``setup``), then call :meth:`update` with new weights: the
    grid and its features are cached and the image's data replaced in place, which is much cheaper
    on a slider move than drawing a new image. ``features`` maps the grid's two coordinate arrays
    ``(x1, x2)`` to the list of feature arrays the weights multiply; by default the coordinates
    themselves, ``phi(x) = x`` (chapter 10 passes ``x1^2 + x2^2`` alone, for a circle).
    """

    def __init__(self, ax, xlim, ylim, resolution=80, alpha=0.6, features=None):
        gx, gy = np.meshgrid(np.linspace(*xlim, resolution), np.linspace(*ylim, resolution))
        self.grid = (gx, gy)
        self.features = [gx, gy] if features is None else list(features(gx, gy))
        self.image = ax.imshow(np.full_like(gx, 0.5), origin="lower", extent=(*xlim, *ylim), cmap=PROBABILITY_CMAP,
                               vmin=0, vmax=1, alpha=alpha, interpolation="bilinear", zorder=0, aspect="auto")

    def update(self, w, b=0.0):
        from .losses import sigmoid

        score = sum(weight * feature for weight, feature in zip(w, self.features, strict=True))
        self.image.set_data(sigmoid(score + b))
        return [self.image]


def plot_probability_levels(ax, w, b=0.0, levels=(0.1, 0.5, 0.9)):
    """The lines where ``sigmoid(w . x + b) = q`` for each level ``q``: ``w . x + b = log(q / (1 - q))``.

    They are hyperplanes parallel to the boundary (``q = 1/2``, solid; other levels dotted).
    """
    artists = []
    if not np.any(w):
        return artists
    for q in levels:
        main = q == 0.5
        artists += plot_hyperplane(ax, w, b - np.log(q / (1.0 - q)), color=COLORS["boundary"],
                                   linestyle="-" if main else ":", linewidth=2.0 if main else 1.0, label=None)
    return artists


def plot_probability(ax, w, b=0.0, xlim=(-3, 3), ylim=(-3, 3), resolution=100, levels=(0.1, 0.5, 0.9)):
    """Probability field ``sigmoid(w . x + b)`` with its level lines, for a static figure."""
    field = ProbabilityField(ax, xlim, ylim, resolution)
    return field.update(w, b) + plot_probability_levels(ax, w, b, levels)


def figure_to_png(fig):
    """Render a figure to PNG bytes with the Agg backend (fast compression, no pyplot)."""
    import io

    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    buf = io.BytesIO()
    canvas.print_png(buf, pil_kwargs={"compress_level": 1})
    return buf.getvalue()


def _register_png_formatter():
    """Show a Figure that ends a notebook cell as a PNG, whatever ``MPLBACKEND`` says.

    IPython only knows how to display a Figure when pyplot's inline backend is active, which the
    course's pyplot-free figures (and ``MPLBACKEND=agg`` in the Makefile) never make it.
    """
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return
    shell = get_ipython()
    if shell is not None and hasattr(shell, "display_formatter"):
        shell.display_formatter.formatters["image/png"].for_type(Figure, figure_to_png)


_register_png_formatter()


def plot_error_pairs(ax, pairs, best=None):
    """Chapter 4: each classifier's training error against its held-out error, one dot per data set.

    ``pairs`` maps a legend label to ``(e_in, e_heldout)``, two arrays with one entry per data set;
    the first label is drawn with the positive style (circle), the second with the negative style
    (square). The diagonal ``held-out = E_in`` is dashed: a dot above it is a classifier whose
    training error was optimistic. ``best``, if given, is the smallest error rate any classifier can
    have, drawn as dotted lines on both axes. Returns the list of artists.
    """
    styles = [CLASS_STYLES[1], CLASS_STYLES[-1], CLASS_STYLES[2]]
    artists = []
    for (label, (e_in, e_heldout)), style in zip(pairs.items(), styles):
        artists.append(ax.scatter(e_in, e_heldout, s=30, marker=style["marker"], color=style["color"],
                                  label=label, zorder=3))
    ax.set_xlim(0.0, 0.4)
    ax.set_ylim(0.0, 0.4)
    ax.set_aspect("equal")
    artists += ax.plot([0.0, 0.4], [0.0, 0.4], "--", color=COLORS["neutral"], linewidth=1.0,
                       label="held-out error = $E_{in}$", zorder=1)
    if best is not None:
        artists.append(ax.axvline(best, color=COLORS["boundary"], linestyle=":", linewidth=1.0, zorder=1))
        artists.append(ax.axhline(best, color=COLORS["boundary"], linestyle=":", linewidth=1.0, zorder=1))
    ax.set_xlabel("training error $E_{in}$")
    ax.set_ylabel("held-out error")
    ax.grid(True, color="#dddddd", linewidth=0.6, zorder=0)
    return artists


def plot_learning_curve(ax, sizes, e_in, e_heldout, best=None):
    """Chapter 4: the mean training error and the mean held-out error against the training set size.

    ``sizes`` are the numbers of training points ``N`` (drawn on a logarithmic axis), ``e_in`` and
    ``e_heldout`` the two means for each; the gap between them is shaded. ``best``, if given, is
    the smallest error rate any classifier can have, drawn as a dotted line. Returns the artists.
    """
    sizes = np.asarray(sizes, dtype=float)
    artists = [ax.fill_between(sizes, e_in, e_heldout, color=COLORS["distance"], alpha=0.3, linewidth=0,
                               label="gap")]
    artists += ax.plot(sizes, e_heldout, "s-", color=COLORS["mistake"], label="held-out error", zorder=3)
    artists += ax.plot(sizes, e_in, "o-", color=COLORS["positive"], label="training error $E_{in}$", zorder=3)
    if best is not None:
        artists.append(ax.axhline(best, color=COLORS["boundary"], linestyle=":", linewidth=1.0,
                                  label="smallest possible error", zorder=1))
    ax.set_xscale("log")
    ax.set_xticks(sizes, [f"{n:g}" for n in sizes])
    ax.minorticks_off()
    ax.set_xlabel("number of training points $N$")
    ax.set_ylabel("mean error over the data sets")
    ax.grid(True, color="#dddddd", linewidth=0.6, zorder=0)
    return artists


__all__ += ["plot_error_pairs", "plot_learning_curve"]
