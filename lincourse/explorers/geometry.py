"""Explorers of chapters 1-3: a hyperplane, a point's signed distance, a data set's margin, E_in.

Every explorer parametrises the normal vector by its angle (degrees from the x_1 axis) so that a
slider sweeps all directions, and computes every number it shows with :mod:`lincourse.geometry`.
"""

from __future__ import annotations

import numpy as np

from .. import geometry as G
from .. import plotting as P
from ..datasets import make_overlapping, make_separable
from ._engine import Explorer, Param

__all__ = ["hyperplane", "point_distance", "dataset_margin", "training_error", "unit_vector"]

#: Six labelled points used by the chapter 1 explorer (fixed, so the printed predictions are stable).
DEMO_POINTS = np.array([[1.5, 1.0], [0.5, 2.0], [-1.0, 1.5], [-2.0, -0.5], [0.5, -1.5], [2.0, -2.0]])
DEMO_LABELS = np.array([1, 1, -1, -1, -1, 1])


def unit_vector(angle_degrees):
    """``(cos a, sin a)`` for an angle in degrees: the direction the angle sliders set."""
    a = np.deg2rad(angle_degrees)
    return np.array([np.cos(a), np.sin(a)])


def _title(ax, text):
    """A title drawn as an ordinary text artist, redrawn with the other parameter-dependent parts.

    (``ax.set_title`` is not used: the engine's cached-background renderer hides the title while it
    draws the background, and matplotlib then moves the hidden title off the figure.)
    """
    return ax.text(0.5, 1.02, text, transform=ax.transAxes, ha="center", va="bottom", fontsize=10)


def _fmt_vec(v):
    return "(" + ", ".join(f"{x:+.2f}" for x in v) + ")"


def _signs(values):
    return "[" + ", ".join(f"{int(v):+d}" for v in values) + "]"


def hyperplane():
    """Chapter 1: move the direction (angle), the length and the offset of ``theta . x + b = 0``.

    The length slider rescales the whole classifier, ``(theta, b) = length * (u, b1)`` with ``u`` the
    unit vector at the given angle and ``b1`` the offset slider (the offset when ``||theta|| = 1``):
    this is the rescaling of chapter 1's scale-invariance theorem, so the boundary and the printed
    predictions never change with the length while the scores do. Shows the boundary, the normal
    vector drawn from the boundary point closest to the origin, the two half-planes and six labelled
    points; the readout prints ``theta``, ``b``, the scores, the predictions and ``-b/||theta||``.
    """
    def setup(ax):
        P.setup_axes(ax, (-3, 3), (-3, 3))
        P.plot_points(ax, DEMO_POINTS, DEMO_LABELS)
        for k, (x, y) in enumerate(DEMO_POINTS, start=1):
            ax.annotate(f"$x^{{({k})}}$", (x, y), xytext=(5, 5), textcoords="offset points", fontsize=9)
        ax.legend(loc="lower left", fontsize=8)

    def draw(ax, angle, length, b):
        theta, offset = length * unit_vector(angle), length * b
        P.plot_halfspaces(ax, theta, offset)
        P.plot_hyperplane(ax, theta, offset, label=None)
        P.plot_normal(ax, theta, offset, label=None)
        # Plain-text titles: mathtext would be re-parsed on every move and cost ~20 ms.
        _title(ax, f"θ = ({theta[0]:.2f}, {theta[1]:.2f}),  b = {offset:.2f}")
        scores = G.decision_function(DEMO_POINTS, theta, offset)
        return (f"theta = {_fmt_vec(theta)}   ||theta|| = {length:.2f}   b = {offset:+.2f}\n"
                f"scores theta.x + b = [{', '.join(f'{s:+.2f}' for s in scores)}]\n"
                f"predictions        = {_signs(G.predict(DEMO_POINTS, theta, offset))}\n"
                f"signed distance of the boundary from the origin -b/||theta|| = "
                f"{G.distance_from_origin(theta, offset):+.3f}")

    return Explorer(
        draw,
        [Param("angle", 0, 355, 5, 30, "angle of θ (degrees)"),
         Param("length", 0.25, 3.0, 0.25, 1.0, "length ‖θ‖ (b scales with it)"),
         Param("b", -2.0, 2.0, 0.25, 0.0, "offset b when ‖θ‖ = 1")],
        setup=setup,
        title="A linear classifier: normal vector and offset",
        caption=("The line θ·x + b = 0 splits the plane into a blue half (prediction +1, where θ points) "
                 "and an orange half (prediction -1); the purple arrow is θ. Blue circles are points with "
                 "y = +1, orange squares points with y = -1. The length slider multiplies θ and b by the "
                 "same factor: the arrow grows, the line stays."),
    )


def point_distance():
    """Chapter 2: move a point and a line; see the foot of the perpendicular and the signed distance."""
    def setup(ax):
        P.setup_axes(ax, (-3, 3), (-3, 3))
        ax.plot([0], [0], marker="+", color="black", markersize=10)

    def draw(ax, x1, x2, angle, b):
        theta = unit_vector(angle)
        x = np.array([x1, x2])
        P.plot_halfspaces(ax, theta, b)
        P.plot_hyperplane(ax, theta, b, label=None)
        P.plot_normal(ax, theta, b, label=None)
        P.plot_distance(ax, x, theta, b, label=None)
        ax.plot([x1], [x2], marker="D", color="black", markersize=7, zorder=6)
        d = G.signed_distance(x, theta, b)
        foot = G.project_onto_hyperplane(x, theta, b)
        side = "the side theta points to" if d > 0 else ("on the boundary" if d == 0 else "the other side")
        _title(ax, f"signed distance = {d:+.2f}")
        return (f"x = {_fmt_vec(x)}   theta = {_fmt_vec(theta)} (unit)   b = {b:+.2f}\n"
                f"signed distance (theta.x + b)/||theta|| = {d:+.3f}  ({side})\n"
                f"foot of the perpendicular = {_fmt_vec(foot)}\n"
                f"distance of the line from the origin -b/||theta|| = {G.distance_from_origin(theta, b):+.3f}")

    return Explorer(
        draw,
        [Param("x1", -2.5, 2.5, 0.1, 1.5, "point x₁"),
         Param("x2", -2.5, 2.5, 0.1, 1.0, "point x₂"),
         Param("angle", 0, 355, 5, 45, "angle of θ (degrees)"),
         Param("b", -2.0, 2.0, 0.1, -0.5, "offset b")],
        setup=setup,
        title="Signed distance of a point to a line",
        caption=("A black diamond marks the point x; the dotted segment joins it to its foot on the line "
                 "(a cross), and its signed length is printed above the figure."),
    )


def dataset_margin(X=None, y=None):
    """Chapter 2: the margin of a data set under a line, with the closest point ringed.

    Defaults to 20 separable points (``make_separable(20, margin=0.25, random_state=3)``, scaled by 2).
    """
    if X is None:
        X, y = make_separable(20, margin=0.25, random_state=3)
        X = 2.0 * X

    def setup(ax):
        P.setup_axes(ax, (-2.6, 2.6), (-2.6, 2.6))
        P.plot_points(ax, X, y)
        ax.legend(loc="lower left", fontsize=8)

    def draw(ax, angle, b):
        theta = unit_vector(angle)
        margins = y * G.decision_function(X, theta, b)  # = signed distances times y, since ||theta|| = 1
        closest = int(np.argmin(margins))
        gamma = G.geometric_margin(X, y, theta, b)
        P.plot_hyperplane(ax, theta, b, label=None)
        P.plot_normal(ax, theta, b, label=None)
        if gamma > 0:
            P.plot_margin(ax, theta, b, gamma, label=None)
        P.mark_points(ax, X[closest], color=P.COLORS["normal"], label=None)
        mistakes = int(np.sum(margins <= 0))
        _title(ax, f"geometric margin = {gamma:+.3f}")
        verdict = "separates the data" if mistakes == 0 else f"misclassifies {mistakes} point(s)"
        return (f"theta = {_fmt_vec(theta)} (unit)   b = {b:+.2f}   -> the line {verdict}\n"
                f"closest point: x[{closest}] = {_fmt_vec(X[closest])}, y = {int(y[closest]):+d}\n"
                f"geometric margin min_i y_i (theta.x_i + b)/||theta|| = {gamma:+.3f}")

    return Explorer(
        draw,
        [Param("angle", 0, 355, 5, 40, "angle of θ (degrees)"), Param("b", -1.5, 1.5, 0.05, 0.0, "offset b")],
        setup=setup,
        title="The margin of a data set",
        caption=("Blue circles (y=+1) and orange squares (y=-1); the ringed point is the one with the smallest "
                 "y·(signed distance), and the dashed lines lie one geometric margin on each side."),
    )


def training_error(X=None, y=None, feature_names=("$x_1$", "$x_2$")):
    """Chapter 3: a line over a data set, with the mistakes ringed and E_in printed live.

    The sliders set ``theta = (cos a, sin a)`` and ``b`` for the *standardised* features
    ``z = (x - mean) / std``, which keeps one slider range right for any data; the line is drawn
    in the original units, where it is ``(theta / std) . x + (b - theta . mean / std) = 0``.
    Defaults to 40 overlapping points (``make_overlapping(40, separation=2.5, random_state=1)``).
    """
    if X is None:
        X, y = make_overlapping(40, separation=2.5, random_state=1)
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    mean, std = X.mean(axis=0), X.std(axis=0)
    lo, hi = X.min(axis=0), X.max(axis=0)
    pad = 0.08 * (hi - lo)

    def setup(ax):
        P.setup_axes(ax, (lo[0] - pad[0], hi[0] + pad[0]), (lo[1] - pad[1], hi[1] + pad[1]),
                     xlabel=feature_names[0], ylabel=feature_names[1], equal=False)
        P.plot_points(ax, X, y)

    def draw(ax, angle, b):
        theta = unit_vector(angle)
        w, c = theta / std, b - theta @ (mean / std)  # the same line in original units
        wrong = y * G.decision_function(X, w, c) <= 0
        P.plot_halfspaces(ax, w, c, alpha=0.08)
        P.plot_hyperplane(ax, w, c, label=None)
        if wrong.any():
            P.mark_points(ax, X[wrong], label="mistake")
        ax.legend(loc="lower right", fontsize=8)
        e_in = G.training_error(X, y, w, c)
        _title(ax, f"E_in = {int(wrong.sum())}/{len(y)} = {e_in:.3f}")
        return (f"w = ({w[0]:+.4g}, {w[1]:+.4g})   b = {c:+.4g}   (original units)\n"
                f"mistakes (y (w.x + b) <= 0): {int(wrong.sum())} of {len(y)}\n"
                f"E_in = {e_in:.3f}")

    return Explorer(
        draw,
        [Param("angle", 0, 355, 5, 0, "angle of θ (degrees)"), Param("b", -2.0, 2.0, 0.05, 0.0, "offset b")],
        setup=setup,
        title="Training error of a line",
        caption=("Blue circles (y=+1) and orange squares (y=-1); points the line misclassifies are ringed in "
                 "vermillion, and the fraction of them, E_in, is printed above the figure."),
    )
