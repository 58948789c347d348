"""Explorers and static figures of chapters 7-10 (*The logistic model and maximum likelihood*, *Fitting logistic
regression, and when the fit does not exist*, *Logistic regression in practice*, *Curved boundaries and several
classes*).

Explorers: :func:`sigmoid_fit` (a sigmoid over labelled points on a line, with the cross-entropy
live), :func:`probability_field` (the probability ``sigmoid(w . x + b)`` over the plane),
:func:`gradient_descent` (the boundary and the loss curve of gradient descent, per learning rate and
iteration), :func:`threshold_roc` (a decision threshold with its counts and its point on the ROC
curve) and :func:`curved_boundary` (a circle drawn by a logistic model of ``x1^2 + x2^2``). Every number they show is computed with :mod:`lincourse.losses` and
:mod:`lincourse.logistic`; what does not depend on the sliders (data, fitted optimum, all gradient
descent runs) is computed once, at construction, so that a slider move only redraws.

Static figures (each returns a pyplot-free Figure): :func:`sigmoid_figure`,
:func:`loss_curves_figure`, :func:`separable_figure`,
:func:`multiclass_figure`, :func:`calibration_figure`.
"""

from __future__ import annotations

import numpy as np
from matplotlib.colors import to_rgba

from .. import plotting as P
from ..datasets import make_overlapping
from ..logistic import LogisticRegression, gradient_descent_path
from ..losses import logistic_loss, sigmoid
from ._engine import Explorer, Param

__all__ = [
    "DEMO_1D_X",
    "DEMO_1D_Y",
    "demo_data",
    "sigmoid_fit",
    "probability_field",
    "gradient_descent",
    "sigmoid_figure",
    "loss_curves_figure",
    "separable_figure",
    "ovr_claims",
    "multiclass_figure",
    "calibration_figure",
    "threshold_roc",
    "rings_data",
    "curved_boundary",
]

#: Twelve points on a line with labels in {-1, +1}, overlapping near 0 (the 1-D explorer's data).
DEMO_1D_X = np.array([-2.6, -1.9, -1.4, -0.9, -0.4, 0.1, 0.3, 0.8, 1.2, 1.7, 2.2, 2.9])
DEMO_1D_Y = np.array([-1, -1, -1, 1, -1, -1, 1, 1, -1, 1, 1, 1])

_LIM = (-3.5, 3.5)

#: Legend labels of the two classes in chapters 7-9, by their targets ``t = (1 + y)/2`` in {0, 1}.
TARGET_LABELS = {1: "$t=1$", -1: "$t=0$"}


def demo_data():
    """The 2-D data of chapters 7 and 8: ``make_overlapping(40, separation=2.0, random_state=3)``.

    Forty points, two overlapping Gaussian classes, not linearly separable; every coordinate lies
    in ``[-3.5, 3.5]``.
    """
    return make_overlapping(40, separation=2.0, random_state=3)


def _mle(X, y):
    model = LogisticRegression().fit(X, y)
    return model.coef_, model.intercept_, float(model.loss_history_[-1])


# -- explorers ---------------------------------------------------------------------------------------
def sigmoid_fit():
    """Chapter 7: the curve ``p = sigmoid(w x + b)`` over twelve labelled points on a line.

    Points with target ``t = 1`` (``y = +1``) sit at height 1 (circles), points with ``t = 0``
    (``y = -1``) at height 0 (squares): the chapters' targets ``t = (1 + y)/2``, which the legend and
    the vertical axis, ``P(t = 1 | x)``, name.
    A vertical segment joins each point to the curve: its length is ``1 - p_i(observed label)``, and
    the point's loss is ``-log`` of the probability the model gives its observed label. The readout
    prints the mean cross-entropy, equation ``(cross-entropy)``, live, and the minimum reached by the
    maximum-likelihood fit.
    """
    x, y = DEMO_1D_X, DEMO_1D_Y
    t = (y + 1) / 2
    w_star, b_star, loss_star = _mle(x[:, None], y)
    grid = np.linspace(-4.0, 4.0, 241)

    def setup(ax):
        P.setup_axes(ax, (-4, 4), (-0.1, 1.1), xlabel="$x$", ylabel=r"$P(t=1\mid x)$", equal=False)
        ax.axhline(0.5, color=P.COLORS["neutral"], linestyle=":", linewidth=1.0, zorder=1)
        P.plot_points(ax, np.column_stack([x, t]), y, labels=TARGET_LABELS)
        ax.legend(loc="upper left", fontsize=8)

    def draw(ax, w, b):
        s = w * x + b
        p = sigmoid(s)
        ax.plot(grid, sigmoid(w * grid + b), color=P.COLORS["boundary"], linewidth=2.0, zorder=2)
        ax.vlines(x, np.minimum(p, t), np.maximum(p, t), colors=P.COLORS["mistake"], linewidth=1.5, zorder=2)
        if w != 0 and -4 < -b / w < 4:
            ax.axvline(-b / w, color=P.COLORS["normal"], linestyle="--", linewidth=1.2, zorder=1)
        loss = logistic_loss((y + 1) / 2, s)
        mistakes = int(np.sum(y * s <= 0))
        ax.set_title(f"mean cross-entropy = {loss:.3f}", fontsize=10)
        boundary = f"x = {-b / w + 0.0:+.2f}" if w != 0 else "none (w = 0: p = σ(b) everywhere)"
        return (f"w = {w:+.2f}   b = {b:+.2f}   boundary (p = 1/2): {boundary}\n"
                f"mean cross-entropy = {loss:.4f}   mistakes = {mistakes} of {y.size}\n"
                f"maximum likelihood: w* = {w_star[0]:+.3f}, b* = {b_star:+.3f}, cross-entropy = {loss_star:.4f}")

    return Explorer(
        draw,
        # w every 0.1 on the website too (the chapter asks for 1.0, 1.1 and 3.3), b every 0.2 (it asks
        # for 0, -0.2 and -0.6): 81 x 31 positions
        [Param("w", -4.0, 4.0, 0.1, 1.0, "weight w"),
         Param("b", -3.0, 3.0, 0.1, 0.0, "offset b", player_step=0.2)],
        setup=setup,
        title="A sigmoid over labelled points",
        caption=("Twelve points on a line: blue circles (t = 1) drawn at height 1, orange squares (t = 0) at "
                 "height 0. The black curve is the predicted probability sigmoid(w x + b); vermillion segments "
                 "join each point to the curve, and the dashed purple line marks where the probability is 1/2."),
        # the maximum-likelihood slider setting, and a curve with the same boundary three times steeper
        asked={"sec-logistic-sigmoid-explorer": [dict(w=1.1, b=-0.2), dict(w=3.3, b=-0.6)]},
    )


def probability_field(X=None, y=None):
    """Chapter 7: the probability ``sigmoid(w1 x1 + w2 x2 + b)`` over the plane, for chosen weights.

    The shading is the probability of ``t = 1`` (orange near 0, white at 1/2, blue near 1); the solid line is
    the decision boundary ``p = 1/2`` and the dotted lines are ``p = 0.1`` and ``p = 0.9``, which
    close in on the boundary as ``||w||`` grows. Defaults to :func:`demo_data`. The image is created
    once over a cached grid and refreshed with ``set_data``.
    """
    if X is None:
        X, y = demo_data()
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    w_star, b_star, loss_star = _mle(X, y)
    state = {}

    def setup(ax):
        P.setup_axes(ax, _LIM, _LIM)
        state["field"] = P.ProbabilityField(ax, _LIM, _LIM)
        P.plot_points(ax, X, y, labels=TARGET_LABELS)
        ax.legend(loc="lower left", fontsize=8)

    def draw(ax, w1, w2, b):
        w = np.array([w1, w2])
        state["field"].update(w, b)
        P.plot_probability_levels(ax, w, b)
        s = X @ w + b
        loss = logistic_loss((y + 1) / 2, s)
        mistakes = int(np.sum(y * s <= 0))
        ax.set_title(f"mean cross-entropy = {loss:.3f}", fontsize=10)
        return (f"w = ({w1:+.2f}, {w2:+.2f})   b = {b:+.2f}   ‖w‖ = {np.linalg.norm(w):.2f}\n"
                f"mean cross-entropy = {loss:.4f}   mistakes = {mistakes} of {y.size}\n"
                f"maximum likelihood: w* = ({w_star[0]:+.3f}, {w_star[1]:+.3f}), b* = {b_star:+.3f}, "
                f"cross-entropy = {loss_star:.4f}")

    return Explorer(
        draw,
        [Param("w1", -3.0, 3.0, 0.1, 1.0, "weight w₁", player_step=0.5),
         Param("w2", -3.0, 3.0, 0.1, 1.0, "weight w₂", player_step=0.5),
         Param("b", -1.5, 1.5, 0.05, 0.0, "offset b", player_step=0.25)],
        setup=setup,
        title="The probability field of a logistic model",
        caption=("Forty points, blue circles (t = 1) and orange squares (t = 0), over a shading of the predicted "
                 "probability of t = 1 (orange near 0, white at 1/2, blue near 1). The solid line is where the probability is "
                 "1/2, the dotted lines where it is 0.1 and 0.9."),
        # the three weight vectors of the section "The probability field in the plane", on the website grid:
        # the position nearest the fit, the same boundary twice as long, a line with fewer mistakes and more loss
        asked={"sec-logistic-field-explorer": [dict(w1=1.5, w2=0.5, b=0.0), dict(w1=3.0, w2=1.0, b=0.0),
                                               dict(w1=1.0, w2=0.0, b=0.0)]},
    )


def gradient_descent(X=None, y=None, n_iter=100):
    """Chapter 8: gradient descent (algorithm ``alg-gd``) for several learning rates, iteration by iteration.

    Left: the data, the probability field and the boundary after ``iteration`` steps. Right: the
    mean cross-entropy against the iteration for the chosen learning rate, with the current iteration
    marked and the minimum (Newton's method) dashed. The learning-rate slider moves in steps of 0.1
    in ``log10``; one run of ``n_iter`` iterations per slider value is computed at construction, so a
    slider move only redraws. Defaults to :func:`demo_data`.
    """
    if X is None:
        X, y = demo_data()
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    _, _, loss_star = _mle(X, y)
    rate = Param("log_lr", -1.5, 1.5, 0.1, 0.0, "log₁₀ learning rate")
    # keyed by the position on the slider's grid, not by a float: any value a slider sends maps to its run
    runs = [gradient_descent_path(X, y, 10.0 ** v, n_iter) for v in rate.grid()]
    state = {}
    iterations = np.arange(n_iter + 1)
    ylim = (0.3, 1.8)

    def setup(axes):
        left, right = axes
        P.setup_axes(left, _LIM, _LIM)
        state["field"] = P.ProbabilityField(left, _LIM, _LIM, resolution=60)
        P.plot_points(left, X, y)  # no legend: legends are redrawn on every move, and the caption names the classes
        right.set_xlim(-0.02 * n_iter, 1.02 * n_iter)  # a margin: the current-iteration dot stays whole at both ends
        right.set_ylim(*ylim)
        right.set_xlabel("iteration $k$")
        right.set_ylabel("mean cross-entropy")
        right.grid(True, color="#dddddd", linewidth=0.6)
        right.axhline(loss_star, color=P.COLORS["neutral"], linestyle="--", linewidth=1.2, zorder=1)
        right.text(n_iter, loss_star, "minimum ", ha="right", va="bottom", fontsize=8, color=P.COLORS["neutral"])

    def draw(axes, log_lr, iteration):
        left, right = axes
        coefs, intercepts, losses = runs[int(round((log_lr - rate.min) / rate.step))]
        w, b = coefs[iteration], intercepts[iteration]
        state["field"].update(w, b)
        P.plot_probability_levels(left, w, b, levels=(0.5,))
        lr = 10.0 ** log_lr
        left.set_title(f"η = {lr:.3g}, after {iteration} iterations", fontsize=10)
        right.plot(iterations, np.clip(losses, *ylim), color=P.COLORS["positive"], linewidth=1.5, zorder=2)
        right.plot([iteration], [min(losses[iteration], ylim[1])], marker="o", color=P.COLORS["mistake"],
                   markersize=7, zorder=3)
        rises = int(np.sum(np.diff(losses[:iteration + 1]) > 1e-12))
        return (f"learning rate = {lr:.4g}   iteration {iteration}   w = ({w[0]:+.3f}, {w[1]:+.3f})   b = {b:+.3f}\n"
                f"loss now = {losses[iteration]:.4f}   after {n_iter} iterations = {losses[-1]:.4f}   "
                f"minimum = {loss_star:.4f}\n"
                f"steps so far that increased the loss: {rises}")

    return Explorer(
        draw,
        [rate, Param("iteration", 0, n_iter, 1, 20, "iteration k", player_step=5)],
        setup=setup,
        title="Gradient descent and the learning rate",
        caption=("Left: forty points, blue circles (t = 1) and orange squares (t = 0), with the probability "
                 "shading and the boundary after k gradient steps. Right: the mean cross-entropy against the "
                 "iteration for the chosen learning rate (blue), the current iteration (vermillion dot) and "
                 "the minimum (dashed)."),
        # the section "Gradient descent in the explorer" sets three rates at the last iteration
        asked={"sec-logistic-gd-explorer": [dict(log_lr=v, iteration=100) for v in (-1.5, 0.0, 1.3)],
               # the exercise moves the rate over every slider position at the last iteration
               "ex-logistic-learning-rate": [dict(log_lr=round(v, 1), iteration=100)
                                             for v in np.arange(-1.5, 1.5001, 0.1)]},
        figsize=(8.4, 3.6),
        ncols=2,
    )


# -- static figures ---------------------------------------------------------------------------------------
def sigmoid_figure():
    """The step function of the perceptron, the sigmoid (equation ``(sigmoid)``) and its slope ``sigma (1 - sigma)``."""
    fig, ax = P.new_figure(6.0, 3.4)
    s = np.linspace(-6, 6, 601)
    p = sigmoid(s)
    ax.plot(s, (s > 0).astype(float), color=P.COLORS["neutral"], linestyle="--", linewidth=1.5,
            label="step (perceptron)")
    ax.plot(s, p, color=P.COLORS["positive"], linewidth=2.2, label=r"$\sigma(s)$")
    ax.plot(s, p * (1 - p), color=P.COLORS["negative"], linestyle="-.", linewidth=1.8,
            label=r"$\sigma'(s)=\sigma(s)(1-\sigma(s))$")
    ax.set_xlim(-6, 6)
    ax.set_ylim(-0.05, 1.05)
    ax.set_xlabel("score $s = w\\cdot x + b$")
    ax.grid(True, color="#dddddd", linewidth=0.6)
    ax.legend(loc="upper left", fontsize=8)
    return fig


def loss_curves_figure(curves, minimum=None):
    """Loss against iteration for several runs (``curves``: mapping label -> loss history).

    With ``minimum`` given, the vertical axis shows the excess ``loss - minimum`` on a log scale,
    where linear convergence is a straight line and Newton's quadratic convergence a plunge.
    """
    fig, ax = P.new_figure(6.0, 3.6)
    styles = [("positive", "-", "o"), ("negative", "--", "s"), ("third", "-.", "^"), ("normal", ":", "D")]
    for (label, history), (color, linestyle, marker) in zip(curves.items(), styles):
        history = np.asarray(history, dtype=float)
        values = history if minimum is None else np.maximum(history - minimum, 1e-16)
        ax.plot(np.arange(history.size), values, color=P.COLORS[color], linestyle=linestyle, linewidth=1.8,
                marker=marker, markevery=max(1, history.size // 12), markersize=5, label=label)
    if minimum is not None:
        ax.set_yscale("log")
        ax.set_ylabel("loss minus its minimum")
        ax.set_ylim(1e-16, 1.0)
    else:
        ax.set_ylabel("mean cross-entropy")
    ax.set_xlabel("iteration")
    ax.grid(True, color="#dddddd", linewidth=0.6)
    ax.legend(loc="upper right", fontsize=8)
    return fig


def separable_figure(X, y, models, lim=(-1.2, 1.2)):
    """Boundaries and the ``p = 0.1, 0.9`` lines of several fitted binary models over separable data.

    ``models`` maps a legend label to a fitted two-class model; one panel per model.
    """
    fig, axes = P.new_figure(3.2 * len(models), 3.4, ncols=len(models))
    axes = np.atleast_1d(axes)
    for ax, (label, model) in zip(axes, models.items()):
        P.setup_axes(ax, lim, lim)
        w, b = model.coef_, model.intercept_
        P.plot_probability(ax, w, b, lim, lim, resolution=120)
        P.plot_points(ax, X, y, size=24)
        ax.set_title(f"{label}\n$\\|w\\| = {np.linalg.norm(w):.1f}$", fontsize=9)
    return fig


def ovr_claims(model, X):
    """For a one-vs-rest model (``OneVsRestClassifier``) with K classes: how many binary classifiers claim each point.

    Classifier ``k`` claims ``x`` when its score ``w_k . x + b_k`` is positive, i.e. its
    probability exceeds 1/2. A count of 0 or of 2 or more marks an ambiguous point, which
    ``predict`` settles by the largest score.
    """
    return np.sum(model.decision_function(X) > 0, axis=1)


def _region_image(ax, model, xlim, ylim, resolution, ovr):
    xs = np.linspace(*xlim, resolution)
    ys = np.linspace(*ylim, resolution)
    gx, gy = np.meshgrid(xs, ys)
    grid = np.column_stack([gx.ravel(), gy.ravel()])
    scores = model.decision_function(grid)
    colors = np.array([to_rgba(P.CLASS_STYLES[k]["color"]) for k in (0, 1, 2)])
    rgba = colors[np.argmax(scores, axis=1)].copy()
    rgba[:, 3] = 0.25
    if ovr:
        claims = np.sum(scores > 0, axis=1)
        rgba[claims == 0] = to_rgba("white")
        rgba[claims >= 2] = to_rgba(P.COLORS["neutral"], 0.55)
    ax.imshow(rgba.reshape(resolution, resolution, 4), origin="lower", extent=(*xlim, *ylim), zorder=0,
              aspect="auto", interpolation="nearest")


def multiclass_figure(ovr, softmax, X, y, xlim, ylim, names, feature_names=("$x_1$", "$x_2$"), resolution=300):
    """Two panels for three classes: one-vs-rest regions (with the ambiguous ones) and softmax regions.

    Left: each class's colour where exactly one binary classifier claims the point, white where
    none does, grey where several do; the three binary boundaries are drawn. Right: the softmax
    prediction ``argmax_k`` of the class scores, which leaves no point ambiguous.
    """
    fig, (left, right) = P.new_figure(9.0, 4.0, ncols=2)
    labels = {k: names[k] for k in range(len(names))}
    styles = ["-", "--", "-."]
    for ax, model, title in ((left, ovr, "one-vs-rest: white = no class, grey = several"),
                             (right, softmax, "softmax: the largest score wins")):
        P.setup_axes(ax, xlim, ylim, xlabel=feature_names[0], ylabel=feature_names[1], equal=False)
        _region_image(ax, model, xlim, ylim, resolution, ovr=model is ovr)
        P.plot_points(ax, X, y, size=22, labels=labels)
        ax.set_title(title, fontsize=9)
    for k, binary in enumerate(ovr.estimators_):  # sklearn.multiclass.OneVsRestClassifier's K binary models
        P.plot_hyperplane(left, binary.coef_, binary.intercept_, color=P.CLASS_STYLES[k]["color"],
                          linestyle=styles[k], linewidth=1.8, label=f"{names[k]} vs rest")
    left.legend(loc="upper left", fontsize=7)
    return fig


def calibration_figure(table):
    """Reliability diagram of a :class:`~lincourse.metrics.CalibrationTable`: observed against predicted.

    Chapter 9, section on calibration. Each non-empty bin is a dot at (mean predicted probability,
    observed frequency) with a vertical bar for its 95 % Wilson interval (``table.low`` to
    ``table.high``), so that a bin of a few points shows how little it can say.
    """
    fig, ax = P.new_figure(4.2, 4.0)
    ax.plot([0, 1], [0, 1], color=P.COLORS["neutral"], linestyle="--", linewidth=1.2, label="perfect calibration")
    keep = table.count > 0
    ax.vlines(table.mean_predicted[keep], table.low[keep], table.high[keep], color=P.COLORS["positive"],
              linewidth=1.2, alpha=0.6, label="95 % interval of the bin")
    ax.plot(table.mean_predicted[keep], table.observed[keep], color=P.COLORS["positive"], marker="o",
            linewidth=1.8, label="model (one dot per bin)")
    for p, o, n in zip(table.mean_predicted[keep], table.observed[keep], table.count[keep]):
        offset = (-34 if p > 0.7 else 6, 6 if o < 0.15 else -12)  # keep the labels inside the axes
        ax.annotate(f"n={n}", (p, o), xytext=offset, textcoords="offset points", fontsize=8)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xlabel("mean predicted probability in the bin")
    ax.set_ylabel("observed fraction of positives")
    ax.grid(True, color="#dddddd", linewidth=0.6)
    ax.legend(loc="upper left", fontsize=8)
    return fig


def threshold_roc(t=None, p=None, positive="positive", negative="negative"):
    """Chapter 9: a decision threshold on predicted probabilities, with its confusion counts and ROC point.

    ``t`` marks the points of the positive class (named ``positive``) with 1 and the others with 0,
    and ``p`` is the predicted probability of the positive class (e.g. out-of-fold or held-out). Left:
    the predicted probabilities of the two classes (one row of ticks each) and the threshold ``q0``:
    a point is flagged positive when ``p >= q0``. Right: the ROC curve of ``p``
    (:func:`sklearn.metrics.roc_curve`) and the point of the threshold. The readout prints the four
    counts, the true and false positive rates and the error rate at ``q0``.

    Defaults to chapter 9's out-of-fold probabilities of malignancy for the training tumours of the
    breast-cancer data (:func:`_breast_cancer_out_of_fold`), malignant being the positive class.
    """
    from sklearn.metrics import roc_curve

    if t is None and p is None:
        t, p = _breast_cancer_out_of_fold()
        positive, negative = "malignant", "benign"
    elif t is None or p is None:
        raise ValueError("give both t and p, or neither (chapter 9's breast-cancer probabilities)")
    t = np.asarray(t, dtype=float)
    p = np.asarray(p, dtype=float)
    if t.shape != p.shape or t.ndim != 1 or not np.all((t == 0) | (t == 1)):
        raise ValueError("t must be a 1-d array of targets in {0, 1} and p the probabilities of the same points")
    if not (np.any(t == 1) and np.any(t == 0)):
        raise ValueError("t must hold both classes: a ROC curve needs positives and negatives")
    fpr, tpr, _ = roc_curve(t, p)
    n_pos, n_neg = int(t.sum()), int((1 - t).sum())

    def setup(axes):
        ah, ar = axes
        P.setup_axes(ah, (-0.02, 1.02), (-0.6, 1.6), xlabel="predicted probability $p$", ylabel="", equal=False,
                     grid=False)
        ah.set_yticks([0, 1], [negative, positive], fontsize=8)
        ah.plot(p[t == 1], np.ones(n_pos), "|", color=P.COLORS["positive"], markersize=14, alpha=0.6)
        ah.plot(p[t == 0], np.zeros(n_neg), "|", color=P.COLORS["negative"], markersize=14, alpha=0.6)
        P.setup_axes(ar, (-0.02, 1.02), (-0.02, 1.02), xlabel="false positive rate", ylabel="true positive rate")
        ar.plot(fpr, tpr, color=P.COLORS["boundary"], linewidth=1.8, drawstyle="steps-post")
        ar.plot([0, 1], [0, 1], color=P.COLORS["neutral"], linestyle=":", linewidth=1.0)

    def draw(axes, q0):
        ah, ar = axes
        predicted = p >= q0
        tp = int(np.sum(predicted & (t == 1)))
        fp = int(np.sum(predicted & (t == 0)))
        fn, tn = n_pos - tp, n_neg - fp
        ah.axvline(q0, color=P.COLORS["mistake"], linewidth=2.0)
        ah.set_title(f"threshold q₀ = {q0:.2f}: flag {positive} when p ≥ q₀", fontsize=9)
        ar.plot([fp / n_neg], [tp / n_pos], marker="o", color=P.COLORS["mistake"], markersize=8, zorder=3)
        return (f"q₀ = {q0:.2f}: flagged {positive}: {tp} {positive}, {fp} {negative} (false alarms)\n"
                f"            not flagged: {fn} {positive} (missed), {tn} {negative}\n"
                f"true positive rate {tp / n_pos:.3f}   false positive rate {fp / n_neg:.3f}   "
                f"error rate {(fp + fn) / t.size:.3f}")

    return Explorer(
        draw,
        [Param("q0", 0.05, 0.95, 0.05, 0.5, "threshold q0")],
        setup=setup,
        title="A decision threshold and the ROC curve",
        caption=("Left: the predicted probability of the positive class for every point, as a tick in the row of "
                 "its class (blue: positive, orange: negative), and the threshold (vermillion line). Right: the ROC curve (black steps), the "
                 "diagonal of a classifier that guesses (dotted) and the threshold's point (vermillion dot)."),
        figsize=(9.0, 3.8),
        ncols=2,
    )


def _breast_cancer_out_of_fold():
    """Chapter 9's split of the breast-cancer data (30% held out, seed 0, stratified) and its five folds
    (shuffled, seed 0): ``(t, p)`` with ``t = 1`` for a malignant training tumour and ``p`` its
    probability of malignancy from the model (standardised features, ``C = 1``) fitted on the other
    four folds."""
    from sklearn.model_selection import StratifiedKFold, cross_val_predict, train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from ..datasets import load_breast_cancer

    cancer = load_breast_cancer()
    X_train, _, y_train, _ = train_test_split(cancer.data, cancer.target, test_size=0.3, random_state=0,
                                              stratify=cancer.target)
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    p = cross_val_predict(make_pipeline(StandardScaler(), LogisticRegression(C=1.0)), X_train, y_train, cv=folds,
                          method="predict_proba")[:, 0]
    return 1 - y_train, p


def rings_data():
    """The two rings of chapter 10: ``sklearn.datasets.make_circles(200, noise=0.15, factor=0.5, random_state=0)``.

    Returns ``(X, t)``: 200 points of the plane, ``t = 1`` on the inner ring (radius 0.5) and ``t = 0`` on the
    outer ring (radius 1), both blurred by Gaussian noise of standard deviation 0.15.
    """
    from sklearn.datasets import make_circles

    return make_circles(n_samples=200, noise=0.15, factor=0.5, random_state=0)


def curved_boundary(X=None, t=None):
    """Chapter 10: the logistic model ``p = sigmoid(w3 (x1^2 + x2^2) + b)`` over two rings of points.

    The model is linear in the feature ``x1^2 + x2^2`` (the map ``(x1, x2, x1^2 + x2^2)`` with ``w1 = w2 = 0``),
    so its boundary ``p = 1/2`` in the plane is the circle of radius ``sqrt(-b / w3)`` when ``-b / w3 > 0``,
    the origin alone when ``b = 0`` and ``w3 != 0``, and empty otherwise. The shading is the probability of the inner
    ring (``t = 1``); the solid circle is the boundary and the dotted ones are ``p = 0.1`` and ``p = 0.9``. The readout
    prints the mean cross-entropy, equation ``(cross-entropy)``, the mistakes (a point on the boundary counts as one)
    and the maximum-likelihood fit of the same two weights. Defaults to :func:`rings_data`.
    """
    from matplotlib.patches import Circle

    if X is None:
        X, t = rings_data()
    X = np.asarray(X, dtype=float)
    t = np.asarray(t)
    if X.ndim != 2 or X.shape[1] != 2 or t.shape != (X.shape[0],) or not np.all((t == 0) | (t == 1)):
        raise ValueError("curved_boundary needs points X of shape (n, 2) and targets t in {0, 1} of shape (n,)")
    r2 = np.sum(X ** 2, axis=1)
    (w3_star,), b_star, loss_star = _mle(r2[:, None], t)
    lim = (-1.6, 1.6)
    state = {}

    def setup(ax):
        P.setup_axes(ax, lim, lim)
        state["field"] = P.ProbabilityField(ax, lim, lim, features=lambda x1, x2: [x1 ** 2 + x2 ** 2])
        P.plot_points(ax, X, 2 * t - 1, size=18, labels={1: "inner ring (t=1)", -1: "outer ring (t=0)"})
        ax.legend(loc="lower left", fontsize=8)

    def draw(ax, w3, b):
        state["field"].update([w3], b)
        for q in (0.1, 0.5, 0.9):
            level = np.log(q / (1.0 - q))                 # w3 r^2 + b = level
            if w3 != 0 and (level - b) / w3 > 0:
                ax.add_patch(Circle((0.0, 0.0), np.sqrt((level - b) / w3), fill=False, color=P.COLORS["boundary"],
                                    linestyle="-" if q == 0.5 else ":", linewidth=2.0 if q == 0.5 else 1.0))
        s = w3 * r2 + b
        loss = logistic_loss(t, s)
        mistakes = int(np.sum((2 * t - 1) * s <= 0))
        if w3 != 0 and -b / w3 > 0:
            boundary = f"the circle of radius {np.sqrt(-b / w3):.3f}"
        elif w3 != 0 and b == 0:
            boundary = "the origin alone"
        elif w3 != 0:                                      # b and w3 of one sign: the score has the sign of b
            boundary = f"none (p {'>' if b > 0 else '<'} 1/2 everywhere)"
        else:
            boundary = "none (w₃ = 0: p = σ(b) everywhere)"
        ax.set_title(f"mean cross-entropy = {loss:.3f}", fontsize=10)
        return (f"w₃ = {w3:+.1f}   b = {b:+.1f}   boundary: {boundary}\n"
                f"mean cross-entropy = {loss:.4f}   mistakes = {mistakes} of {t.size}\n"
                f"maximum likelihood: w₃* = {w3_star:+.3f}, b* = {b_star:+.3f}, radius {np.sqrt(-b_star / w3_star):.3f}, "
                f"cross-entropy = {loss_star:.4f}")

    return Explorer(
        draw,
        [Param("w3", -20.0, 4.0, 0.5, -4.0, "weight w₃ of x₁² + x₂²", player_step=1.0),
         Param("b", -4.0, 12.0, 0.5, 1.0, "offset b", player_step=1.0)],
        setup=setup,
        title="A circle from a linear model",
        caption=("Two hundred points, blue circles on the inner ring (t=1) and orange squares on the outer ring (t=0), "
                 "over a shading of the predicted probability of the inner ring, sigmoid(w3 (x1² + x2²) + b) "
                 "(orange near 0, white at 1/2, blue near 1). The solid circle is where the probability is 1/2, "
                 "the dotted circles where it is 0.1 and 0.9."),
        asked={"sec-curved-explorer": [dict(w3=-15.0, b=9.0), dict(w3=-4.0, b=-1.0), dict(w3=2.0, b=1.0)]},
    )
