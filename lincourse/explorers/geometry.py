"""Explorers of chapters 1-4: a hyperplane, a point's signed distance, a data set's margin, E_in,
and the held-out errors of one fixed line over many samples (Hoeffding's inequality).

Every explorer parametrises the normal vector by its angle (degrees from the x_1 axis) so that a
slider sweeps all directions, and computes every number it shows with :mod:`lincourse.geometry`.
"""

from __future__ import annotations

import math

import numpy as np

from .. import geometry as G
from .. import plotting as P
from ..datasets import make_gaussian_classes, make_overlapping, make_separable
from ._engine import Explorer, Param

__all__ = ["hyperplane", "point_distance", "dataset_margin", "training_error", "hoeffding", "unit_vector",
           "fitted_normal"]

#: Six labelled points used by the chapter 1 explorer (fixed, so the printed predictions are stable).
DEMO_POINTS = np.array([[1.5, 1.0], [0.5, 2.0], [-1.0, 1.5], [-2.0, -0.5], [0.5, -1.5], [2.0, -2.0]])
DEMO_LABELS = np.array([1, 1, -1, -1, -1, 1])


def unit_vector(angle_degrees):
    """``(cos a, sin a)`` for an angle in degrees: the direction the angle sliders set."""
    a = np.deg2rad(angle_degrees)
    return np.array([np.cos(a), np.sin(a)])


#: The lengths at which :func:`fitted_normal` may draw the normal vector, longest first, and their names.
NORMAL_SCALES = ((1.0, "w"), (0.5, "w/2"), (0.25, "w/4"))


def fitted_normal(ax, w, b, lim, pad=0.15):
    """Draw the normal vector ``w`` from the boundary's point closest to the origin, inside the view.

    The view is the square ``[-lim, lim]^2``, less ``pad`` for the arrow's head. The arrow is ``w``
    itself when it fits, else ``w/2`` or ``w/4``; it is left out when the boundary's closest point
    lies outside the view (the line is then out of sight or at a corner). Returns what was drawn,
    for the title: ``"w"``, ``"w/2"``, ``"w/4"`` or ``None``.
    """
    w = np.asarray(w, dtype=float)
    foot = -b * w / (w @ w)
    inside = lambda point: bool(np.all(np.abs(point) <= lim - pad))  # noqa: E731
    if not inside(foot):
        return None
    for scale, name in NORMAL_SCALES:
        if inside(foot + scale * w):
            P.plot_normal(ax, w, b, scale=scale, label=None)
            return name
    return None


def _arrow_note(drawn):
    """The title's note on the arrow: empty when it is ``w`` itself."""
    if drawn == "w":
        return ""
    return f"  (arrow: {drawn})" if drawn else "  (arrow out of view)"


def _fmt_vec(v):
    return "(" + ", ".join(f"{x:+z.2f}" for x in v) + ")"


def _signs(values):
    return "[" + ", ".join(f"{int(v):+d}" for v in values) + "]"


def _superscript(k):
    """A point's index as the text writes it, in parentheses above the line: 18 -> "⁽¹⁸⁾"."""
    return "⁽" + str(k).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")) + "⁾"


#: Half-width of chapter 1's view, ``[-3, 3]^2``.
HYPERPLANE_LIM = 3.0


def hyperplane():
    """Chapter 1: move the direction (angle), the length ``||w||`` and the offset ``b`` of ``w . x + b = 0``.

    The sliders are the classifier's own parameters: ``w = length * (cos angle, sin angle)`` and
    ``b``. With ``b != 0``, lengthening ``w`` alone moves the boundary (its distance from the
    origin is ``|b|/||w||``) and changes no direction; lengthening ``w`` and ``b`` by the same factor
    (e.g. length 1, b = 0.5 and length 2, b = 1) leaves the boundary and every prediction in place:
    chapter 1's scale-invariance theorem. Shows the boundary, the normal vector drawn from the
    boundary point closest to the origin, the two half-planes and six labelled points; the readout
    prints ``w``, ``b``, the scores, the predictions, ``|b|/||w||`` and the side of the origin.
    """
    def setup(ax):
        P.setup_axes(ax, (-HYPERPLANE_LIM, HYPERPLANE_LIM), (-HYPERPLANE_LIM, HYPERPLANE_LIM))
        P.plot_points(ax, DEMO_POINTS, DEMO_LABELS)
        for k, (x, y) in enumerate(DEMO_POINTS, start=1):
            ax.annotate(f"$x^{{({k})}}$", (x, y), xytext=(5, 5), textcoords="offset points", fontsize=9)
        ax.legend(loc="lower left", fontsize=8)

    def draw(ax, angle, length, b):
        w = length * unit_vector(angle)
        P.plot_halfspaces(ax, w, b)
        P.plot_hyperplane(ax, w, b, label=None)
        drawn = fitted_normal(ax, w, b, HYPERPLANE_LIM)
        # Plain-text titles: mathtext would be re-parsed on every move and cost ~20 ms.
        ax.set_title(f"w = ({w[0]:z.2f}, {w[1]:z.2f}),  b = {b:z.2f}{_arrow_note(drawn)}", fontsize=10)
        scores = G.decision_function(DEMO_POINTS, w, b)
        return (f"w = {_fmt_vec(w)}   ‖w‖ = {length:.2f}   b = {b:+z.2f}\n"
                f"scores w·x + b     = [{', '.join(f'{s:+z.2f}' for s in scores)}]\n"
                f"predictions        = {_signs(G.predict(DEMO_POINTS, w, b))}\n"
                f"distance of the boundary from the origin |b|/‖w‖ = {abs(b) / length:.3f}   "
                f"origin on the {'positive side' if b > 0 else 'negative side' if b < 0 else 'boundary'}")

    return Explorer(
        draw,
        [Param("angle", 0, 355, 5, 30, "angle of w (degrees)", player_step=15),
         Param("length", 0.5, 3.5, 0.25, 1.0, "length ‖w‖"),
         Param("b", -2.0, 2.0, 0.25, 0.0, "offset b")],
        setup=setup,
        title="A linear classifier: normal vector and offset",
        caption=("The line w·x + b = 0 splits the plane into a blue half (prediction +1, where w points) "
                 "and an orange half (prediction -1); the purple arrow is w, drawn from the point of the line "
                 "closest to the origin (at half or quarter length when w would not fit, as the title says). "
                 "Blue circles are points with y = +1, orange squares points with "
                 "y = -1. With b ≠ 0, lengthening w alone moves the line towards the origin; lengthening w and b "
                 "together leaves it in place."),
        asked={
            # section "Exploring a linear classifier": w and b scaled together, then w alone
            "sec-hyperplanes-explorer": [dict(angle=30, length=c, b=0.5 * c) for c in (0.5, 1.0, 2.0, 3.0)]
            + [dict(angle=30, length=c, b=0.5) for c in (0.5, 3.0)],
            "ex-hyperplanes-turn": [dict(angle=30, length=1.0, b=0.5), dict(angle=210, length=1.0, b=0.5)],
        },
    )


#: The offset of the line in the signed-distance explorer (chapter 2 moves the point and turns the line).
POINT_DISTANCE_OFFSET = -0.5
#: Half-width of chapter 2's view of a point and a line, ``[-4, 4]^2``.
POINT_DISTANCE_LIM = 4.0


def point_distance():
    """Chapter 2: move a point and turn a line; see the foot of the perpendicular and the signed distance.

    The line has a unit normal ``w`` at the chosen angle and the fixed offset
    ``b = POINT_DISTANCE_OFFSET`` (-0.5), so it stays at distance 0.5 from the origin while it turns
    (chapter 1's explorer moves the offset).
    """
    b = POINT_DISTANCE_OFFSET

    def setup(ax):
        # the point moves in [-3, 3]^2; its foot on the line reaches 3.83 (a corner point, the line turned
        # along the diagonal), so the view is [-4, 4]^2 and the point's diamond and the foot's cross stay in it
        P.setup_axes(ax, (-POINT_DISTANCE_LIM, POINT_DISTANCE_LIM), (-POINT_DISTANCE_LIM, POINT_DISTANCE_LIM))
        ax.plot([0], [0], marker="+", color="black", markersize=10)

    def draw(ax, x1, x2, angle):
        w = unit_vector(angle)
        x = np.array([x1, x2])
        P.plot_halfspaces(ax, w, b)
        P.plot_hyperplane(ax, w, b, label=None)
        P.plot_normal(ax, w, b, label=None)
        P.plot_distance(ax, x, w, b, label=None)
        ax.plot([x1], [x2], marker="D", color="black", markersize=7, zorder=6)
        rho = G.signed_distance(x, w, b)
        foot = G.project_onto_hyperplane(x, w, b)
        side = "the side w points to" if rho > 0 else ("on the boundary" if rho == 0 else "the other side")
        ax.set_title(f"signed distance = {rho:+z.2f}", fontsize=10)
        return (f"x = {_fmt_vec(x)}   w = {_fmt_vec(w)} (unit)   b = {b:+z.2f}\n"
                f"signed distance ρ(x) = (w·x + b)/‖w‖ = {rho:+z.3f}  ({side})\n"
                f"foot of the perpendicular = {_fmt_vec(foot)}")

    return Explorer(
        draw,
        [Param("x1", -3.0, 3.0, 0.1, 1.5, "point x₁", player_step=0.5),
         Param("x2", -3.0, 3.0, 0.1, 1.0, "point x₂", player_step=0.5),
         Param("angle", 0, 355, 5, 45, "angle of w (degrees)", player_step=15)],
        setup=setup,
        title="Signed distance of a point to a line",
        caption=("A line w·x - 0.5 = 0 with its unit normal w (purple arrow) splits the plane into a blue half "
                 "(positive side) and an orange half. A black diamond marks the point x; the dotted segment joins "
                 "it to its foot on the line (a cross), and its signed length is printed above the figure."),
        asked={
            # section "Exploring the signed distance": two points for the line at 45 degrees, one on the line at 0
            "sec-distance-explorer": [dict(x1=2.0, x2=1.5, angle=45), dict(x1=0.5, x2=-1.0, angle=45),
                                      dict(x1=0.5, x2=1.0, angle=0)],
        },
    )


#: Half-width of chapter 2's view of a data set and its margins, ``[-2.6, 2.6]^2``.
MARGIN_LIM = 2.6


def dataset_margin(X=None, y=None):
    """Chapter 2: the functional and geometric margins of a data set under a line.

    The sliders are the classifier's parameters: ``w = length * (cos angle, sin angle)`` and
    ``b``. The functional margin ``min_i y(i) (w . x(i) + b)`` grows with the length; the
    geometric margin, the functional one divided by ``||w||``, does not (move the length with
    ``b = 0``). The point attaining the minimum is ringed: the closest point when the line separates
    the data, the worst-classified point when it does not; when the margin is positive, dashed lines
    lie one geometric margin on each side. Defaults to 20 separable points
    (``make_separable(20, margin=0.25, random_state=3)``, scaled by 2).
    """
    if X is None:
        X, y = make_separable(20, margin=0.25, random_state=3)
        X = 2.0 * X

    def setup(ax):
        P.setup_axes(ax, (-MARGIN_LIM, MARGIN_LIM), (-MARGIN_LIM, MARGIN_LIM))
        P.plot_points(ax, X, y)
        ax.legend(loc="lower left", fontsize=8)

    def draw(ax, angle, length, b):
        w = length * unit_vector(angle)
        functional = y * G.decision_function(X, w, b)
        worst = int(np.argmin(functional))
        gamma_hat = G.functional_margin(X, y, w, b)
        gamma = G.geometric_margin(X, y, w, b)
        P.plot_hyperplane(ax, w, b, label=None)
        drawn = fitted_normal(ax, w, b, MARGIN_LIM)
        if gamma > 0:
            P.plot_margin(ax, w, b, gamma, label=None)
        P.mark_points(ax, X[worst], color=P.COLORS["normal"], label=None)
        mistakes = int(np.sum(functional <= 0))
        ax.set_title(f"functional margin = {gamma_hat:+z.3f},  geometric margin = {gamma:+z.3f}"
                     f"{_arrow_note(drawn)}", fontsize=10 if drawn == "w" else 9)
        verdict = "separates the data" if mistakes == 0 else f"misclassifies {mistakes} point(s)"
        which = "closest point" if mistakes == 0 else "worst-classified point"
        # points are numbered from 1, as in the text: x⁽ⁱ⁾ is Python's X[i - 1]. "min over i", not
        # "minᵢ": the PDF's monospaced font (FreeMono) has no subscript i (U+1D62).
        return (f"w = {_fmt_vec(w)}   ‖w‖ = {length:.2f}   b = {b:+z.2f}   → the line {verdict}\n"
                f"{which} (smallest y⁽ⁱ⁾ (w·x⁽ⁱ⁾ + b)): x{_superscript(worst + 1)} = {_fmt_vec(X[worst])}, "
                f"y = {int(y[worst]):+d}\n"
                f"functional margin min over i of y⁽ⁱ⁾ (w·x⁽ⁱ⁾ + b) = {gamma_hat:+z.3f}\n"
                f"geometric margin  (functional margin)/‖w‖ = {gamma:+z.3f}")

    return Explorer(
        draw,
        [Param("angle", 0, 355, 5, 45, "angle of w (degrees)", player_step=15),
         Param("length", 0.5, 3.5, 0.25, 1.0, "length ‖w‖", player_step=0.25),
         Param("b", -1.5, 1.5, 0.05, 0.0, "offset b", player_step=0.25)],
        setup=setup,
        title="Functional and geometric margins of a data set",
        caption=("Blue circles (y=+1) and orange squares (y=-1) with the line w·x + b = 0 and its normal w "
                 "(purple arrow, at half or quarter length when w would not fit, as the title says). The ringed point has the smallest y·(w·x + b): the closest point when the "
                 "line separates the data, the worst mistake otherwise. When the line separates the data, "
                 "dashed lines lie one geometric margin on each side."),
        asked={
            # section "Exploring the margins": three lines of length 1, then the third scaled by 2 and 3
            "sec-distance-margin-explorer": [dict(angle=45, length=1.0, b=0.0), dict(angle=300, length=1.0, b=0.0),
                                             dict(angle=315, length=1.0, b=0.25)]
            + [dict(angle=315, length=c, b=0.25 * c) for c in (2.0, 3.0)],
        },
    )


def training_error(X=None, y=None, feature_names=("$x_1$", "$x_2$")):
    """Chapter 3: a line over a data set, with the mistakes ringed and E_in printed live.

    The sliders set ``u = (cos a, sin a)`` and ``b`` for the *standardised* features
    ``z = (x - mean) / std``, which keeps one slider range right for any data; the line is drawn
    in the units of ``X``, where it is ``(u / std) . x + (b - u . mean / std) = 0`` (chapter 3 passes
    standardised features, so there the two coincide).
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
        u = unit_vector(angle)
        w, c = u / std, b - u @ (mean / std)  # the same line in the units of X
        wrong = y * G.decision_function(X, w, c) <= 0
        P.plot_halfspaces(ax, w, c, alpha=0.08)
        P.plot_hyperplane(ax, w, c, label=None)
        if wrong.any():
            P.mark_points(ax, X[wrong], label="mistake")
        ax.legend(loc="lower right", fontsize=8)
        e_in = G.training_error(X, y, w, c)
        ax.set_title(f"E_in = {int(wrong.sum())}/{len(y)} = {e_in:.3f}", fontsize=10)
        w, c = np.where(np.abs(w) < 1e-12, 0.0, w), (0.0 if abs(c) < 1e-12 else c)  # no 1e-18 artefacts
        return (f"line in the figure's units: w = ({w[0]:+z.4g}, {w[1]:+z.4g}), offset = {c:+z.4g}\n"
                f"mistakes (y (w·x + b) ≤ 0): {int(wrong.sum())} of {len(y)}\n"
                f"E_in = {e_in:.3f}")

    return Explorer(
        draw,
        # the website angle moves by 5 degrees, the live step: the chapter asks for 95 and compares 90 with 105
        [Param("angle", 0, 355, 5, 0, "angle of w (degrees)"),
         Param("b", -2.0, 2.0, 0.05, 0.0, "offset b", player_step=0.25)],
        setup=setup,
        title="Training error of a line",
        caption=("Blue circles (y=+1) and orange squares (y=-1) with a line and its two shaded half-planes; "
                 "points the line misclassifies are ringed in vermillion, and the fraction of them, E_in, is "
                 "printed above the figure."),
        asked={
            # chapter 3 (credit data), section on the explorer: angle 95, without and with an offset
            "sec-training-explorer": [dict(angle=95, b=0.0), dict(angle=95, b=0.5)],
            # the two settings the exercise compares
            "ex-training-step": [dict(angle=90, b=-0.25), dict(angle=105, b=-0.25)],
        },
    )


#: The number of samples the Hoeffding explorer draws for every sample size.
HOEFFDING_SAMPLES = 500


def hoeffding():
    """Chapter 4: the error of one fixed line on many independent samples, against Hoeffding's bound.

    The population is ``make_gaussian_classes`` (centres (-1, 0) and (1, 0), identity covariance),
    the line is ``x_1 = 0``, whose error on new data is ``E_out = Phi(-1)``. For a sample size ``n``
    (slider) the explorer cuts ``HOEFFDING_SAMPLES`` disjoint samples of ``n`` points from one seeded
    draw, computes the line's error ``nu`` on each, and draws their histogram with the band
    ``E_out +- eps`` (slider). The readout compares the fraction of samples outside the band with
    Hoeffding's bound ``2 exp(-2 eps^2 n)`` (chapter 4, equation ``(hoeffding)``).
    """
    n_max = 500
    X, y = make_gaussian_classes(HOEFFDING_SAMPLES * n_max, random_state=0)
    losses = (y * G.decision_function(X, [1.0, 0.0], 0.0) <= 0).astype(float)
    e_out = 0.5 * math.erfc(1.0 / math.sqrt(2.0))
    edges = np.linspace(0.0, 0.5, 26)

    def setup(ax):
        ax.set_xlim(0.0, 0.5)
        ax.set_ylim(0.0, 0.8)
        ax.set_xlabel("error ν of the line x₁ = 0 on one sample")
        ax.set_ylabel("fraction of the samples")
        ax.axvline(e_out, color=P.COLORS["boundary"], linewidth=1.2, label="E_out = Φ(-1)")
        ax.legend(loc="upper right", fontsize=8)

    def draw(ax, n, eps):
        n = int(round(n))
        nu = losses[: HOEFFDING_SAMPLES * n].reshape(HOEFFDING_SAMPLES, n).mean(axis=1)
        counts, _ = np.histogram(np.clip(nu, 0.0, 0.5 - 1e-12), bins=edges)
        ax.axvspan(e_out - eps, e_out + eps, color=P.COLORS["distance"], alpha=0.25, linewidth=0)
        ax.bar(edges[:-1], counts / HOEFFDING_SAMPLES, width=np.diff(edges), align="edge",
               color=P.COLORS["positive"], edgecolor="white", linewidth=0.5)
        outside = float(np.mean(np.abs(nu - e_out) > eps))
        bound = 2.0 * math.exp(-2.0 * eps ** 2 * n)
        ax.set_title(f"n = {n}: outside the band {outside:.3f}, bound {bound:.3f}", fontsize=10)
        return (f"n = {n} points per sample, {HOEFFDING_SAMPLES} samples, band E_out ± {eps:.2f}\n"
                f"fraction of samples with |ν - E_out| > ε: {outside:.3f}\n"
                f"Hoeffding's bound 2 exp(-2ε²n): {bound:.3f}")

    return Explorer(
        draw,
        [Param("n", 20, 500, 20, 100, "sample size n", player_step=40),
         Param("eps", 0.01, 0.25, 0.01, 0.05, "half-width ε of the band", player_step=0.02)],
        setup=setup,
        title="One fixed line on many samples: Hoeffding's inequality",
        caption=("Histogram of the error of the fixed line x₁ = 0 on 500 independent samples of n points each, "
                 "with a black line at its error on new data, E_out = Φ(-1), and a shaded band of half-width ε "
                 "around it; the title gives the fraction of samples outside the band and Hoeffding's bound."),
        asked={
            # chapter 4, section on Hoeffding's inequality: two settings the text compares
            "sec-hoeffding-explorer": [dict(n=100, eps=0.09), dict(n=500, eps=0.05)],
        },
    )
