"""Explorers and static figures of chapters 5 (*The perceptron and its convergence*) and 6 (*The
perceptron beyond separable data*).

* :func:`perceptron_steps` - step through the updates of one perceptron run (chapter 5).
* :func:`margin_updates` - the margin of generated data as a slider, with the updates it costs (chapter 5).
* :func:`nonseparable_steps` - the run on overlapping data, update by update, with its training error and
  the best error so far (chapter 6).
* :func:`plot_feature_boundary` - a boundary learned on mapped features, drawn in the original plane
  (chapter 10).
* ``plot_*`` - the chapters' static figures, each returning a pyplot-free Figure.

Everything expensive (the perceptron runs, the maximum-margin separators behind the tightest
bounds) is computed once when an explorer is built; a slider move only draws.
"""

from __future__ import annotations

import numpy as np

from .. import plotting as P
import warnings

from ..datasets import make_overlapping, make_separable
from ..geometry import training_error
from .._validation import ConvergenceWarning
from ..perceptron import Perceptron, max_margin_separator, mistake_experiment, tightest_mistake_bound
from ._engine import Explorer, Param

__all__ = [
    "perceptron_steps",
    "margin_updates",
    "nonseparable_steps",
    "plot_proof_geometry",
    "plot_bound_check",
    "plot_orders",
    "plot_error_histories",
    "plot_feature_boundary",
]


def _fmt(v):
    return "(" + ", ".join(f"{x:+.2f}" for x in np.atleast_1d(v)) + ")"


def _limits(values, pad=0.15):
    lo, hi = float(np.min(values)), float(np.max(values))
    span = max(hi - lo, 1e-9)
    return lo - pad * span, hi + pad * span


def _plane_data(X, y, default, name):
    """``(X, y)`` as a float array of 2-D points and labels in {-1, +1}; ``default()`` when ``X`` is None."""
    if X is None:
        X, y = default()
    X = np.asarray(X, dtype=float)
    y = np.where(np.asarray(y) > 0, 1, -1)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"{name} draws 2-D data: X must have shape (n_samples, 2), got {X.shape}")
    return X, y


def perceptron_steps(X=None, y=None, bias_update="unit"):
    """Chapter 5: step through a perceptron run (algorithm ``alg-perceptron-offset``), one update at a time.

    Left panel: the data, the boundary before the update (dashed grey; none for ``w = 0``), the
    boundary after it (solid, with its half-planes) and the corrected point ringed. Right panel: the
    weight space ``(w_[1], w_[2])``, with the path of the whole run, the weight vector before (grey) and
    after (purple) the update and the step ``y_i x_i`` between them (vermillion). The readout
    prints the update, the margin ``y_i (w . x_i + b)`` of the corrected point before and after
    (it grows by ``||x_i||^2 + 1``, or ``||x_i||^2 + R^2`` with ``bias_update="radius"``) and the
    mistakes so far against the tightest bound of theorem ``thm-novikoff``.

    Defaults to ``make_separable(30, margin=0.08, random_state=13)``; 2-D data only.
    """
    X, y = _plane_data(X, y, lambda: make_separable(30, margin=0.08, random_state=13), "perceptron_steps")
    clf = Perceptron(bias_update=bias_update).fit(X, y)
    if clf.n_updates_ == 0:  # pragma: no cover - the zero vector misclassifies every point
        raise ValueError("the run made no update")
    bound = tightest_mistake_bound(X, y, bias_update)[0] if clf.converged_ else float("nan")
    step = 1.0 if bias_update == "unit" else float(np.max(np.sum(X * X, axis=1)))
    coefs = np.vstack([np.zeros(2), [u.coef for u in clf.history_]])
    intercepts = np.concatenate([[0.0], [u.intercept for u in clf.history_]])
    n_updates = clf.n_updates_
    xlim, ylim = _limits(X[:, 0], 0.1), _limits(X[:, 1], 0.1)
    wlim = _limits(np.concatenate([coefs[:, 0], [0.0]])), _limits(np.concatenate([coefs[:, 1], [0.0]]))

    def setup(axes):
        ax, aw = axes
        P.setup_axes(ax, xlim, ylim)
        P.plot_points(ax, X, y)
        P.setup_axes(aw, wlim[0], wlim[1], xlabel="$w_{[1]}$", ylabel="$w_{[2]}$")
        aw.plot(coefs[:, 0], coefs[:, 1], "-o", color=P.COLORS["neutral"], alpha=0.35, markersize=3, zorder=1)
        aw.plot([0], [0], marker="+", color="black", markersize=10)
        aw.set_title("weight space: the path of $w$", fontsize=9)

    def draw(axes, k):
        ax, aw = axes
        u = clf.history_[k - 1]
        w0, b0, w1, b1 = coefs[k - 1], intercepts[k - 1], coefs[k], intercepts[k]
        x, yi = X[u.index], y[u.index]
        if np.any(w1):
            P.plot_halfspaces(ax, w1, b1, alpha=0.10)
            P.plot_hyperplane(ax, w1, b1, label=None)
        if np.any(w0):
            P.plot_hyperplane(ax, w0, b0, color=P.COLORS["neutral"], linestyle="--", linewidth=1.5, label=None)
        P.mark_points(ax, x, label=None)
        ax.set_title(f"update {k} of {n_updates}: point {u.index + 1} corrected (epoch {u.epoch})", fontsize=9)
        artists = [P._arrow(aw, (0, 0), w1, P.COLORS["normal"])]
        if np.any(w0):
            artists.append(P._arrow(aw, (0, 0), w0, P.COLORS["neutral"]))
            artists.append(P._arrow(aw, w0, w1, P.COLORS["mistake"], width=1.5))
        before, after = yi * (x @ w0 + b0), yi * (x @ w1 + b1)
        return (f"update {k} of {n_updates} (epoch {u.epoch}): point {u.index + 1}, x = {_fmt(x)}, y = {yi:+d}\n"
                f"before: w = {_fmt(w0)}, b = {b0:+.2f}, y (w·x + b) = {before:+.3f} (mistake)\n"
                f"after:  w = {_fmt(w1)}, b = {b1:+.2f}, y (w·x + b) = {after:+.3f}\n"
                f"gain = {after - before:.3f} = ‖x‖² + {step:.3g} = {x @ x + step:.3f}\n"
                f"mistakes so far {k}, tightest Novikoff bound {bound:.1f}")

    return Explorer(
        draw,
        [Param("k", 1, n_updates, 1, 1, "update k")],
        # chapter 5 prints a few updates and reads all of them
        asked={"sec-perceptron-explorers": [dict(k=k) for k in range(1, n_updates + 1)]},
        setup=setup,
        title="The perceptron, one update at a time",
        caption=("Left: blue circles (y=+1) and orange squares (y=-1) over the two half-planes of the boundary after "
                 "the update (solid black; its positive side shaded blue, its negative side orange), the boundary "
                 "before it (dashed grey; none before the first update, when w = 0) and the corrected point ringed "
                 "in vermillion. Right, weight space: the path of w through every update (light grey, one dot per "
                 "update, from the origin marked +), the weight vector before (grey arrow) and after (purple arrow) "
                 "this update, joined by the step y x (vermillion)."),
        figsize=(9.0, 4.2),
        ncols=2,
    )


def nonseparable_steps(X=None, y=None, max_epochs=6):
    """Chapter 6: the perceptron with offset (chapter 5's algorithm ``alg-perceptron-offset``) on data that
    are not separable.

    Left: the data and the boundary after update ``k`` (with its half-planes), the corrected point
    ringed. Right: the training error after every update of ``max_epochs`` epochs (grey), the best
    error so far (dashed: what the pocket algorithm keeps) and update ``k`` marked. The error does not
    settle and the run never stops on its own; the readout prints the update, the weights and both
    errors.

    Defaults to ``make_overlapping(24, separation=1.5, random_state=7)``; 2-D data only.
    """
    X, y = _plane_data(X, y, lambda: make_overlapping(24, separation=1.5, random_state=7), "nonseparable_steps")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)   # expected: the data are not separable
        clf = Perceptron(max_epochs=max_epochs).fit(X, y)
    if clf.converged_:
        raise ValueError("these data are separable: the run stopped; use perceptron_steps for separable data")
    history = clf.history_
    n = len(history)
    errors = np.array([training_error(X, y, u.coef, u.intercept) for u in history])
    best = np.minimum.accumulate(errors)
    ks = np.arange(1, n + 1)
    xlim, ylim = _limits(X[:, 0], 0.1), _limits(X[:, 1], 0.1)

    def setup(axes):
        ax, ae = axes
        P.setup_axes(ax, xlim, ylim)
        P.plot_points(ax, X, y)
        P.setup_axes(ae, (0, n + 1), (0, max(0.6, float(errors.max()) + 0.05)), xlabel="update $k$",
                     ylabel="training error", equal=False)
        ae.plot(ks, errors, color=P.COLORS["neutral"], linewidth=1.0, label="after update $k$")
        ae.plot(ks, best, color=P.COLORS["normal"], linestyle="--", linewidth=1.5, label="best so far")
        ae.legend(loc="upper right", fontsize=8)

    def draw(axes, k):
        ax, ae = axes
        u = history[k - 1]
        P.plot_halfspaces(ax, u.coef, u.intercept, alpha=0.10)
        P.plot_hyperplane(ax, u.coef, u.intercept, label=None)
        P.mark_points(ax, X[u.index], label=None)
        ax.set_title(f"update {k} of {n} (epoch {u.epoch})", fontsize=9)
        ae.plot([k], [errors[k - 1]], marker="o", color=P.COLORS["mistake"], markersize=7, zorder=3)
        return (f"update {k} of {n} (epoch {u.epoch}): point {u.index + 1} corrected\n"
                f"w = {_fmt(u.coef)}, b = {u.intercept:+.2f}, ‖w‖ = {np.linalg.norm(u.coef):.2f}\n"
                f"training error now {errors[k - 1]:.3f}; best so far {best[k - 1]:.3f}")

    return Explorer(
        draw,
        [Param("k", 1, n, 1, 1, "update k")],
        setup=setup,
        title="The perceptron on data that are not separable",
        caption=("Left: blue circles (y=+1) and orange squares (y=-1) that no line separates, the boundary after "
                 "update k (solid black, its positive side shaded blue) and the corrected point ringed in "
                 "vermillion. Right: the training error after each update (grey line), the best error so far "
                 "(dashed purple) and update k (vermillion dot)."),
        figsize=(9.0, 4.2),
        ncols=2,
    )


def margin_updates():
    """Chapter 5: the margin of generated data as a slider, with the number of perceptron updates.

    The slider is the margin requested from :func:`~lincourse.datasets.make_separable`, from 0.02 to
    0.26 in steps of 0.02; every data set has 60 points and the same seed, so the same true
    separator, and only the points move away from it. The numbers (updates, epochs, the bound from
    the true separator and the tightest bound) come from
    :func:`lincourse.perceptron.mistake_experiment`, one data set at a time. Left panel: the
    points, the true boundary (dashed, with the requested margin band) and the boundary the
    perceptron found (solid). Right panel, log scale: updates made and the two bounds against the
    largest geometric margin the data have (that of the maximum-margin separator, ``c = 0`` in
    equation ``(hard-margin)``), with the current data set marked. Everything is computed when the
    explorer is built; a slider move only draws.
    """
    margins = np.round(np.arange(0.02, 0.2601, 0.02), 2)
    runs = []
    for m in margins:
        X, y, (w, b) = make_separable(60, margin=float(m), random_state=4, return_separator=True)
        numbers = mistake_experiment([m], n_samples=60, random_state=4)  # the same data set
        fit = Perceptron().fit(X, y)
        largest = 1.0 / float(np.linalg.norm(max_margin_separator(X, y)[0]))
        runs.append(dict(margin=float(m), X=X, y=y, w_true=w, b_true=b, coef=fit.coef_, intercept=fit.intercept_,
                         max_margin=largest, **{k: numbers[k][0] for k in
                                                ("gamma", "n_updates", "n_epochs", "bound_true", "bound_tightest")}))
    largest = np.array([r["max_margin"] for r in runs])
    by_margin = {round(r["margin"], 2): r for r in runs}

    def setup(axes):
        ax, ac = axes
        P.setup_axes(ax, (-1.1, 1.1), (-1.1, 1.1))
        ac.set_yscale("log")
        ac.plot(largest, [r["bound_true"] for r in runs], "--", color=P.COLORS["neutral"])
        ac.plot(largest, [r["bound_tightest"] for r in runs], "-", color=P.COLORS["normal"])
        ac.plot(largest, [max(r["n_updates"], 1) for r in runs], "-o", color=P.COLORS["positive"], markersize=3)
        ac.set_xlim(0, largest.max() + 0.02)
        ac.set_ylim(1, 1e4)
        ac.set_xlabel(r"largest margin $\gamma$ of the data (maximum-margin separator)", fontsize=8)
        # the key sits in the axis label, which the engine draws once (a legend is redrawn on every move)
        ac.set_ylabel("updates made (dots); bounds:\ntrue $w^*$ (dashed), tightest (solid)", fontsize=8)
        ac.grid(True, color="#dddddd", linewidth=0.6)

    def draw(axes, margin):
        ax, ac = axes
        r = by_margin[round(margin, 2)]
        P.plot_points(ax, r["X"], r["y"], size=22)
        P.plot_hyperplane(ax, r["w_true"], r["b_true"], color=P.COLORS["neutral"], linestyle="--", linewidth=1.2,
                          label=None)
        P.plot_margin(ax, r["w_true"], r["b_true"], r["margin"], label=None)
        P.plot_hyperplane(ax, r["coef"], r["intercept"], label=None)
        ax.set_title(f"requested margin {r['margin']:.2f}: {r['n_updates']} updates", fontsize=9)
        ac.axvline(r["max_margin"], color=P.COLORS["mistake"], linewidth=1.2)
        ac.plot([r["max_margin"]], [max(r["n_updates"], 1)], "o", color=P.COLORS["mistake"], markersize=7, zorder=5)
        return (f"requested margin = {r['margin']:.2f}   margin of the true separator = {r['gamma']:.3f}\n"
                f"largest margin of these data (maximum-margin separator) = {r['max_margin']:.3f}\n"
                f"updates made = {r['n_updates']} in {r['n_epochs']} epochs\n"
                f"bound with the true separator = {r['bound_true']:.1f}\n"
                f"tightest bound = {r['bound_tightest']:.1f}")

    return Explorer(
        draw,
        [Param("margin", float(margins.min()), float(margins.max()), 0.02, 0.1, "requested margin")],
        asked={"sec-perceptron-experiments": [dict(margin=m) for m in (0.02, 0.1, 0.2)]},
        setup=setup,
        title="Smaller margin, more updates",
        caption=("Left: 60 points kept at least the requested margin away from a dashed true boundary (dashed margin "
                 "lines) and the solid boundary the perceptron found. Right, on a log scale: updates made (blue dots), "
                 "the bound from the true separator (grey dashes) and the tightest bound (purple), against the largest "
                 "margin the data have; a vermillion vertical line and dot mark the data set on the left."),
        figsize=(9.0, 4.2),
        ncols=2,
    )


# -- static figures ----------------------------------------------------------------------------

def plot_bound_check(result, title=None):
    """Chapter 5: updates made against the bound, one dot per data set, with the line ``y = x``.

    ``result`` is the Bunch returned by :func:`lincourse.perceptron.mistake_experiment`. A dot below
    the line obeys theorem ``thm-novikoff``; both axes are logarithmic.
    """
    fig, ax = P.new_figure(5.5, 4.2)
    updates = np.maximum(result.n_updates, 1)
    ax.scatter(result.bound_true, updates, s=14, marker="s", color=P.COLORS["negative"], edgecolors="black",
               linewidths=0.3, label="bound from the true separator", zorder=3)
    if np.all(np.isfinite(result.bound_tightest)):
        ax.scatter(result.bound_tightest, updates, s=16, marker="o", color=P.COLORS["positive"], edgecolors="black",
                   linewidths=0.3, label="tightest bound", zorder=3)
    top = float(np.nanmax([np.max(result.bound_true), np.max(updates)])) * 2
    ax.plot([1, top], [1, top], color="black", linewidth=1.2, label="$y = x$ (updates = bound)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(1, top)
    ax.set_ylim(1, top)
    ax.set_xlabel("Novikoff bound")
    ax.set_ylabel("updates made by the perceptron")
    ax.grid(True, color="#dddddd", linewidth=0.6)
    ax.legend(loc="upper left", fontsize=8)
    if title:
        ax.set_title(title, fontsize=10)
    return fig


def plot_proof_geometry(Z, y, coefs, u):
    """Chapter 5: the two inequalities of the proof of theorem ``thm-novikoff``, along one run.

    ``Z`` are the points the run sees (through the origin: augmented points for a run with an
    offset), ``coefs`` the weights ``w_0 = 0, w_1, ..., w_K`` after each update and ``u`` a unit
    separator (the ``w*`` of the proof, as the legends name it), with margin ``gamma = min_i y_i u . z_i`` and radius ``R = max_i ||z_i||``. Left:
    ``u . w_k`` above ``k gamma`` and ``||w_k||`` below ``sqrt(k) R``. Right: the cosine of the
    angle between ``w_k`` and ``u``, above ``sqrt(k) gamma / R`` (drawn up to ``k = (R / gamma)^2``,
    where it reaches 1; a cosine is at most 1, which is the bound), on a logarithmic axis.
    """
    Z, coefs, u = np.asarray(Z, dtype=float), np.asarray(coefs, dtype=float), np.asarray(u, dtype=float)
    gamma = float(np.min(np.asarray(y) * (Z @ u)))
    if gamma <= 0:
        raise ValueError(f"u must separate the points through the origin (min_i y_i u . z_i = {gamma:.3g} <= 0)")
    R = float(np.max(np.linalg.norm(Z, axis=1)))
    k = np.arange(len(coefs))
    along, length = coefs @ u, np.linalg.norm(coefs, axis=1)
    fig, (ax, ac) = P.new_figure(9.0, 3.6, ncols=2)
    ax.plot(k, along, "-o", color=P.COLORS["normal"], markersize=3, label=r"$w^\ast\cdot w_k$")
    ax.plot(k, k * gamma, "--", color=P.COLORS["normal"], label=r"$k\gamma$, a lower bound")
    ax.plot(k, length, "-s", color=P.COLORS["negative"], markersize=3, label=r"$\|w_k\|$")
    ax.plot(k, np.sqrt(k) * R, ":", color=P.COLORS["negative"], linewidth=2, label=r"$\sqrt{k}\,R$, an upper bound")
    ax.set_xlabel("update $k$")
    ax.grid(True, color="#dddddd", linewidth=0.6)
    ax.legend(loc="upper left", fontsize=8)
    cos = np.divide(along, length, out=np.zeros_like(along), where=length > 0)
    ac.plot(k[1:], cos[1:], "-o", color=P.COLORS["normal"], markersize=3, label=r"$\cos\angle(w_k, w^\ast)$")
    bound = (R / gamma) ** 2
    grid = np.geomspace(1, bound, 200)
    ac.plot(grid, np.sqrt(grid) * gamma / R, "--", color=P.COLORS["mistake"],
            label=r"$\sqrt{k}\,\gamma/R$, a lower bound")
    ac.axhline(1.0, color="black", linewidth=1.0)
    ac.axvline(bound, color=P.COLORS["neutral"], linestyle=":", label=r"$k = (R/\gamma)^2$")
    ac.set_xscale("log")
    ac.set_ylim(0, 1.05)
    ac.set_xlabel("update $k$ (log scale)")
    ac.grid(True, color="#dddddd", linewidth=0.6)
    ac.legend(loc="lower right", fontsize=8)
    return fig


def plot_orders(X, y, orders, separator=None):
    """Chapter 5: the separators found with different orders of visits, over the data (2-D).

    ``orders`` is the Bunch of :func:`lincourse.perceptron.perceptron_orders`; ``separator``, an
    optional ``(w, b)`` (e.g. the maximum-margin one), is drawn thick and dashed.
    """
    fig, ax = P.new_figure(6.4, 4.2)
    X = np.asarray(X, dtype=float)
    P.setup_axes(ax, _limits(X[:, 0], 0.1), _limits(X[:, 1], 0.1))
    P.plot_points(ax, X, y)
    styles = ["-", "-.", ":", (0, (5, 1)), (0, (3, 1, 1, 1)), (0, (1, 2))]
    for j, (w, b, s) in enumerate(zip(orders.coef, orders.intercept, orders.random_state)):
        P.plot_hyperplane(ax, w, b, color=P.COLORS["neutral"], linestyle=styles[j % len(styles)], linewidth=1.3,
                          label=f"order {s}")
    if separator is not None:
        P.plot_hyperplane(ax, separator[0], separator[1], color=P.COLORS["normal"], linestyle="--", linewidth=2.5,
                          label="maximum margin")
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=7, borderaxespad=0)
    return fig


def plot_error_histories(histories):
    """Chapter 6: training error after each update (dict name -> array), e.g. the perceptron's and the pocket's."""
    fig, ax = P.new_figure(6.0, 3.6)
    colors = [P.COLORS["neutral"], P.COLORS["positive"], P.COLORS["negative"], P.COLORS["normal"]]
    widths = [0.8, 2.0, 2.0, 2.0]
    for j, (name, errors) in enumerate(histories.items()):
        ax.plot(np.arange(len(errors)), errors, color=colors[j % 4], linewidth=widths[j % 4], label=name)
    ax.set_xlabel("update $k$")
    ax.set_ylabel("training error $E_{in}$")
    ax.set_ylim(0, 0.6)
    ax.grid(True, color="#dddddd", linewidth=0.6)
    ax.legend(loc="upper right", fontsize=8)
    return fig


def plot_feature_boundary(X, y, features, model, title=None):
    """The points of the plane and the boundary of a model fitted on mapped features.

    Chapter 10, the kernel perceptron: a perceptron fitted on ``features(X)`` (for example the six
    features of the kernel ``(1 + x . z)^2``) has a linear boundary in feature space, which is drawn
    here in the plane as the zero level of ``model.decision_function(features(x))`` over a 201 x 201
    grid covering the points.

    Parameters
    ----------
    X : array of shape (n, 2)
        The points.
    y : array of shape (n,)
        Their labels, in {-1, +1} (blue circles for +1, orange squares for -1).
    features : callable
        Maps an array of shape (m, 2) to the features the model was fitted on, shape (m, k).
    model : fitted estimator
        Anything with ``decision_function`` on those features, e.g. :class:`lincourse.Perceptron`.
    title : str, optional
        The axes' title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure, from :func:`lincourse.plotting.new_figure`.
    """
    X, y = _plane_data(X, y, None, "plot_feature_boundary")
    fig, ax = P.new_figure(4.2, 4.0)
    (x0, x1), (y0, y1) = _limits(X[:, 0]), _limits(X[:, 1])
    g0, g1 = np.meshgrid(np.linspace(x0, x1, 201), np.linspace(y0, y1, 201))
    scores = model.decision_function(features(np.c_[g0.ravel(), g1.ravel()])).reshape(g0.shape)
    ax.contour(g0, g1, scores, levels=[0.0], colors=[P.COLORS["normal"]], linewidths=2.0)
    P.plot_points(ax, X, y, size=22)
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    ax.set_aspect("equal")
    ax.legend(loc="upper right", fontsize=8)
    if title:
        ax.set_title(title)
    return fig
