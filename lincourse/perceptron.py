"""The perceptron, its mistake bound, and two remedies for data that are not separable.

Chapter 4 (*The perceptron and its convergence*) defines every algorithm here.

The rule is sequential: visit the samples in order and, on a mistake ``y_i (w . x_i + b) <= 0``,
set ``w += y_i x_i`` and ``b += y_i`` (or ``b += y_i R^2``). What need not be sequential is the
*search* for the next mistake: between two updates the weights do not change, so the scores of a
whole block of upcoming samples are computed with one matrix-vector product and the first
non-positive margin in the block is the next mistake. The block is screened in single precision
(half the memory traffic), and only the samples whose single-precision margin is within its
worst-case rounding error of zero are decided in double precision, so every decision, and the
weights, are those of the one-sample-at-a-time loop in double precision, update for update.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ._base import LinearClassifierMixin
from .geometry import _margin_one_point
from ._validation import (
    check_labels_pm1,
    check_option,
    check_positive,
    check_random_state,
    check_weights,
    check_X,
    check_X_y,
    warn_not_converged,
)

__all__ = [
    "Perceptron",
    "PocketPerceptron",
    "AveragedPerceptron",
    "mistake_bound",
    "Update",
    "max_margin_separator",
    "tightest_mistake_bound",
    "error_history",
    "weights_by_epoch",
    "mistake_experiment",
    "perceptron_orders",
]

_BIAS_UPDATES = ("unit", "radius")


class Update(NamedTuple):
    """One perceptron update: which sample was corrected, in which epoch, and the result."""

    index: int
    epoch: int
    coef: np.ndarray
    intercept: float


class Perceptron(LinearClassifierMixin):
    """Rosenblatt's perceptron with the mistake-driven update of chapter 4.

    Chapter 4, algorithms ``alg-perceptron-offset`` (``bias_update="unit"``) and
    ``alg-perceptron-radius`` (``bias_update="radius"``); with ``fit_intercept=False``,
    ``alg-perceptron-origin``.

    Parameters
    ----------
    fit_intercept : bool, default=True
        Learn an offset ``b``. If False the boundary passes through the origin.
    bias_update : {"unit", "radius"}, default="unit"
        On a mistake at ``(x_i, y_i)``: ``b += y_i`` ("unit", the augmented-vector perceptron) or
        ``b += y_i R^2`` with ``R = max_i ||x_i||`` ("radius", the variant whose proof gives the
        bound ``2 R^2 ||w~*||^2 / gamma*^2``).
    shuffle : bool, default=False
        Visit the samples in a fresh random order each epoch instead of ``0, 1, ..., n-1``.
    random_state : int, numpy Generator or None, default=None
        Seed for the orders when ``shuffle=True``.
    max_epochs : int, default=1000
        Upper limit on the number of passes over the data.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
        The weight vector ``w``.
    intercept_ : float
        The offset ``b`` (0.0 when ``fit_intercept=False``).
    classes_ : ndarray of shape (2,)
        The two labels; ``classes_[1]`` plays the role of ``+1``.
    n_features_in_ : int
    n_updates_ : int
        Number of updates (mistakes corrected), ``k`` in the convergence theorem.
    n_epochs_ : int
        Passes made, the final mistake-free pass included.
    converged_ : bool
        True if the last pass made no mistake (the training data are then separated).
    history_ : list of Update
        One entry per update: the sample index, the epoch, and ``coef``/``intercept`` after it.

    Notes
    -----
    Labels may be any two values (like scikit-learn); internally ``classes_[1]`` becomes ``+1``
    and ``classes_[0]`` becomes ``-1``. A sample with score exactly 0 is a mistake, whatever its
    label. With ``shuffle=False`` the weights equal those of
    ``sklearn.linear_model.Perceptron(shuffle=False, eta0=1, penalty=None, alpha=0)``.

    References
    ----------
    F. Rosenblatt (1958). The perceptron: a probabilistic model for information storage and
    organization in the brain. *Psychological Review* 65(6), 386-408.

    Examples
    --------
    >>> X = [[2.0, 1.0], [1.0, 3.0], [-1.0, -1.0], [-2.0, 1.0]]
    >>> clf = Perceptron().fit(X, [1, 1, -1, -1])
    >>> clf.predict(X), clf.converged_
    (array([ 1,  1, -1, -1]), True)
    """

    def __init__(self, fit_intercept=True, bias_update="unit", shuffle=False, random_state=None,
                 max_epochs=1000):
        self.fit_intercept = fit_intercept
        self.bias_update = bias_update
        self.shuffle = shuffle
        self.random_state = random_state
        self.max_epochs = max_epochs

    def fit(self, X, y):
        """Run the perceptron on ``(X, y)`` until a pass makes no mistake or ``max_epochs``.

        Returns
        -------
        self
        """
        X, y, self.classes_ = check_X_y(X, y)
        check_option(self.bias_update, "bias_update", _BIAS_UPDATES)
        check_positive(self.max_epochs, "max_epochs", integer=True)
        rng = check_random_state(self.random_state)
        signs = np.where(y == self.classes_[1], 1.0, -1.0)
        n, d = X.shape
        if not self.fit_intercept:
            step = 0.0
        elif self.bias_update == "unit":
            step = 1.0
        else:
            step = float(np.max(np.einsum("ij,ij->i", X, X)))  # R^2

        w, b = np.zeros(d), 0.0
        self.history_ = []
        state = self._start(d)
        # The search for the next mistake (see the module docstring): screen a block of samples in
        # single precision, and decide in double precision only where the screen is not sure.
        # Row i of the screening matrix Z32 is (y_i x_i, y_i, -g_i) in float32 and the
        # screening vector is (v, c, 1) with (v, c) = (w, b) / (||w|| + |b|), so Z32 @ it
        # is the scaled margin minus a guard g_i. The margin's rounding error is at most
        # (d + 6) u (||x_i|| ||w|| + |b|) / (||w|| + |b|) <= (d + 6) u (||x_i|| + 1), u = 2^-24
        # (rounding of x, w, b, the scaling, the products and the sums); g_i is 2.5 times that
        # bound, so a sample screened above 0 is certainly classified correctly. Every other sample
        # is decided exactly as the textbook loop decides it: y_i (x_i . w + b) <= 0 in double
        # precision.
        Z32 = np.empty((n, d + 2), dtype=np.float32)  # memory-bound: no padding, fewest bytes
        Z32[:, :d] = X
        Z32[:, :d] *= signs.astype(np.float32)[:, None]
        Z32[:, d] = signs
        Z32[:, d + 1] = -2.5 * (d + 6) * 2.0**-24 * (np.sqrt(np.einsum("ij,ij->i", X, X)) + 1.0)
        v32 = np.zeros(Z32.shape[1], dtype=np.float32)
        v32[d + 1] = 1.0
        hooks = type(self)._visit is not Perceptron._visit or type(self)._after_update is not Perceptron._after_update

        def scaled(w, b):
            scale = math.sqrt(float(w @ w)) + abs(b)
            if scale > 0:
                np.multiply(w, 1.0 / scale, out=v32[:d], casting="same_kind")
                v32[d] = b / scale
            return v32

        for epoch in range(1, int(self.max_epochs) + 1):
            if self.shuffle:
                order = rng.permutation(n)
                Xe, Ze, ye = X[order], Z32[order], signs[order]
            else:
                order, Xe, Ze, ye = None, X, Z32, signs
            v = scaled(w, b)
            mistakes, i, block, last = 0, 0, 1024, -1
            while i < n:
                stop = min(i + block, n)
                unsure = Ze[i:stop] @ v <= 0.0
                k = int(unsure.argmax())  # the first unsure sample, if any
                if not unsure[k]:
                    if hooks:
                        self._visit(state, w, b, stop - i)
                    i, block = stop, min(2 * block, 16384)
                    continue
                j = i + k
                if ye[j] * (Xe[j] @ w + b) > 0:  # unsure, but correct in double precision
                    if hooks:
                        self._visit(state, w, b, k + 1)
                    i = j + 1
                    continue
                if hooks:
                    self._visit(state, w, b, k)  # the correctly classified samples before j
                w += ye[j] * Xe[j]
                b += ye[j] * step
                v = scaled(w, b)
                mistakes += 1
                self.history_.append(Update(int(order[j]) if order is not None else j, epoch, w.copy(), b))
                if hooks:
                    self._after_update(state, X, signs, w, b)
                    self._visit(state, w, b, 1)
                # Next block: a mistake wastes the rest of its block, a small block costs a call; for a
                # gap G between mistakes about sqrt(3000 G) rows balances the two.
                i, block, last = j + 1, min(16384, max(256, int(math.sqrt(3000.0 * (j - last))))), j
            if mistakes == 0:
                break
        self.n_epochs_ = epoch
        self.n_updates_ = len(self.history_)
        self.converged_ = mistakes == 0
        self.n_features_in_ = d
        self.coef_, self.intercept_ = self._final(state, w, b)
        if not self.converged_:
            warn_not_converged(
                f"{type(self).__name__} made mistakes in all {self.max_epochs} epochs "
                "(max_epochs); the data may not be linearly separable"
            )
        return self

    # Hooks for the variants below; the plain perceptron keeps its last weights.
    def _start(self, d):
        return None

    def _visit(self, state, w, b, count):
        pass

    def _after_update(self, state, X, signs, w, b):
        pass

    def _final(self, state, w, b):
        return w.copy(), float(b)


class PocketPerceptron(Perceptron):
    """The perceptron that keeps "in its pocket" the weights with the lowest training error seen.

    Chapter 4, algorithm ``alg-pocket``. The updates are those of :class:`Perceptron`; after each
    update the training error of the new weights is computed and the pocket is replaced if it is
    strictly lower. ``coef_``/``intercept_`` are the pocket weights, so on data that are not
    separable the result has the lowest training error among all weights the run visited.
    Parameters as :class:`Perceptron`.

    Attributes
    ----------
    pocket_error_ : float
        Training error of the returned weights (boundary points count as mistakes).
    pocket_update_ : int
        Number of updates after which the pocket weights were found (0: the zero vector).

    References
    ----------
    S. I. Gallant (1990). Perceptron-based learning algorithms. *IEEE Transactions on Neural
    Networks* 1(2), 179-191.
    """

    def _start(self, d):
        return {"w": np.zeros(d), "b": 0.0, "error": 1.0, "update": 0, "count": 0}

    def _after_update(self, state, X, signs, w, b):
        state["count"] += 1
        error = float(np.mean(signs * (X @ w + b) <= 0))
        if error < state["error"]:
            state.update(w=w.copy(), b=float(b), error=error, update=state["count"])

    def _final(self, state, w, b):
        self.pocket_error_ = state["error"]
        self.pocket_update_ = state["update"]
        return state["w"].copy(), state["b"]


class AveragedPerceptron(Perceptron):
    """The perceptron whose answer is the average of the weights over every sample visit.

    Chapter 4, algorithm ``alg-averaged``. The updates are those of :class:`Perceptron`;
    ``coef_``/``intercept_`` are the averages of ``w`` and ``b`` over all visits (each visit
    counts the weights in force after it). Weights that survive many visits dominate, which
    damps the cycling of the plain perceptron on data that are not separable.
    Parameters as :class:`Perceptron`.

    References
    ----------
    Y. Freund and R. E. Schapire (1999). Large margin classification using the perceptron
    algorithm. *Machine Learning* 37(3), 277-296.
    """

    def _start(self, d):
        return {"w": np.zeros(d), "b": 0.0, "visits": 0}

    def _visit(self, state, w, b, count):
        if count:
            state["w"] += count * w
            state["b"] += count * b
            state["visits"] += count

    def _final(self, state, w, b):
        visits = max(state["visits"], 1)
        return state["w"] / visits, state["b"] / visits


def mistake_bound(X, y, w, b=0.0, bias_update="unit", fit_intercept=True):
    """Novikoff's upper bound on the number of perceptron updates, for a given separator.

    Chapter 4, theorem ``thm-novikoff`` and its corollaries. For any ``(w, b)`` that separates
    ``(X, y)`` with functional margin ``gamma_F = min_i y_i (w . x_i + b) > 0``:

    * ``fit_intercept=False`` (``b`` must be 0): ``(R / gamma)^2`` with ``R = max_i ||x_i||`` and
      ``gamma = gamma_F / ||w||``;
    * ``bias_update="unit"``: ``(R' / gamma')^2`` on augmented data, ``R' = max_i ||(1, x_i)||`` and
      ``gamma' = gamma_F / ||(b, w)||``;
    * ``bias_update="radius"``: ``2 R^2 (||w||^2 + b^2 / R^2) / gamma_F^2``.

    Every separator gives a valid bound; the best one comes from the separator with the
    largest (augmented) geometric margin.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,) with labels in {-1, +1}
    w : array-like of shape (n_features,)
    b : float, default=0.0
    bias_update : {"unit", "radius"}, default="unit"
    fit_intercept : bool, default=True

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``(w, b)`` does not separate the data (some ``y_i (w . x_i + b) <= 0``).

    Examples
    --------
    >>> mistake_bound([[1.0, 0.0], [-1.0, 0.0]], [1, -1], w=[1.0, 0.0], fit_intercept=False)
    1.0
    """
    X = check_X(X)
    w, b = check_weights(w, b, n_features=X.shape[1])
    y = check_labels_pm1(y, X.shape[0])
    check_option(bias_update, "bias_update", _BIAS_UPDATES)
    margins = y * (X @ w + b)
    gamma_f = float(margins.min())
    if gamma_f <= 0:
        raise ValueError(
            f"(w, b) does not separate the data: min_i y_i (w . x_i + b) = {gamma_f:.6g} <= 0; "
            "the mistake bound needs a separating hyperplane"
        )
    r2 = float(np.max(np.einsum("ij,ij->i", X, X)))
    if not fit_intercept:
        if b != 0:
            raise ValueError(f"b must be 0 when fit_intercept=False (a boundary through the origin), got {b}")
        return r2 * float(w @ w) / gamma_f**2
    if bias_update == "unit":
        return (1.0 + r2) * (float(w @ w) + b * b) / gamma_f**2
    if r2 == 0:
        raise ValueError("every x_i is the zero vector, so R = 0 and the 'radius' bound is undefined")
    return 2.0 * r2 * (float(w @ w) + b * b / r2) / gamma_f**2


# ---------------------------------------------------------------------------------------------
# Chapter 4 helpers: the separator behind the tightest bound, and experiments over many data sets
# ---------------------------------------------------------------------------------------------

def max_margin_separator(X, y, fit_intercept=True, intercept_penalty=0.0):
    """The hard-margin separator: minimise ``(||w||^2 + c b^2) / 2`` s.t. ``y_i (w . x_i + b) >= 1``.

    Chapter 4, equation ``(hard-margin)``. With ``intercept_penalty=0`` (the default) this is the
    hard-margin support vector machine: the separator of largest geometric margin ``1 / ||w||``.
    Other values of ``c`` give the separators that make the offset bounds of theorem
    ``thm-novikoff`` tightest: ``c = 1`` maximises the margin of the augmented vectors
    ``(1, x)`` (bound of ``alg-perceptron-offset``) and ``c = 1 / R^2`` minimises
    ``||w||^2 + b^2 / R^2`` (bound of ``alg-perceptron-radius``). With ``fit_intercept=False``
    the separator passes through the origin (``b = 0``).

    The problem is solved on the primal with SLSQP (:func:`scipy.optimize.minimize`), started
    from the feasible point that the separability linear program returns.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,) with labels in {-1, +1}
    fit_intercept : bool, default=True
    intercept_penalty : float, default=0.0
        The weight ``c >= 0`` of ``b^2`` in the objective.

    Returns
    -------
    w : ndarray of shape (n_features,)
    b : float
        Scaled so that ``min_i y_i (w . x_i + b) = 1``; the geometric margin is ``1 / ||w||``.

    Raises
    ------
    ValueError
        If the data are not linearly separable (through the origin, if ``fit_intercept=False``).

    Examples
    --------
    >>> w, b = max_margin_separator([[2.0, 0.0], [0.0, 0.0]], [1, -1])
    >>> np.round(w, 6).tolist(), round(b, 6)
    ([1.0, 0.0], -1.0)
    """
    from scipy.optimize import minimize

    X = check_X(X)
    y = check_labels_pm1(y, X.shape[0])
    if isinstance(intercept_penalty, bool) or not np.isfinite(intercept_penalty) or intercept_penalty < 0:
        raise ValueError(f"intercept_penalty must be a finite number >= 0, got {intercept_penalty!r}")
    n, d = X.shape
    A = y[:, None] * (np.hstack([X, np.ones((n, 1))]) if fit_intercept else X)  # rows y_i (x_i, 1)
    m = A.shape[1]
    start = _margin_one_point(A)
    if start is None:
        where = "" if fit_intercept else " through the origin"
        raise ValueError(f"the data are not linearly separable{where}: no (w, b) has y_i (w . x_i + b) >= 1")
    scale = np.ones(m)
    if fit_intercept:
        scale[-1] = intercept_penalty
    result = minimize(
        lambda v: 0.5 * float(v @ (scale * v)),
        start,
        jac=lambda v: scale * v,
        constraints=[{"type": "ineq", "fun": lambda v: A @ v - 1.0, "jac": lambda v: A}],
        method="SLSQP",
        options={"ftol": 1e-12, "maxiter": 1000},
    )
    v = result.x
    v = v / float(np.min(A @ v))  # exact feasibility: smallest functional margin exactly 1
    if fit_intercept:
        return v[:d].copy(), float(v[d])
    return v.copy(), 0.0


def tightest_mistake_bound(X, y, bias_update="unit", fit_intercept=True):
    """The smallest value of :func:`mistake_bound` over all separators, and the separator giving it.

    Chapter 4, theorem ``thm-novikoff`` with the separator of equation ``(hard-margin)``: the bound
    ``(R/gamma)^2`` is smallest for the separator of largest margin, in the geometry the variant
    uses (the original space through the origin, the augmented vectors ``(1, x)`` for
    ``bias_update="unit"``, the vectors ``(x, R)`` for ``bias_update="radius"``).

    Returns
    -------
    bound : float
    (w, b) : the separator attaining it

    Examples
    --------
    >>> bound, (w, b) = tightest_mistake_bound([[1.0, 0.0], [-1.0, 0.0]], [1, -1], fit_intercept=False)
    >>> round(bound, 6)
    1.0
    """
    X = check_X(X)
    check_option(bias_update, "bias_update", _BIAS_UPDATES)
    if not fit_intercept:
        penalty = 0.0
    elif bias_update == "unit":
        penalty = 1.0
    else:
        r2 = float(np.max(np.einsum("ij,ij->i", X, X)))
        if r2 == 0:
            raise ValueError("every x_i is the zero vector, so R = 0 and the 'radius' bound is undefined")
        penalty = 1.0 / r2
    w, b = max_margin_separator(X, y, fit_intercept=fit_intercept, intercept_penalty=penalty)
    bound = mistake_bound(X, y, w, b, bias_update=bias_update, fit_intercept=fit_intercept)
    return bound, (w, b)


def error_history(clf, X, y):
    """Training error of the weights after each update of a fitted perceptron.

    Chapter 4, algorithm ``alg-pocket``: the sequence whose running minimum the pocket algorithm
    keeps. Entry 0 is the error of the starting weights ``w = 0, b = 0`` (every point is a mistake,
    since a score of 0 counts as one), entry ``k`` the error after update ``k``.

    Parameters
    ----------
    clf : fitted Perceptron (or a subclass); its ``history_`` is read
    X, y : the training data it was fitted on

    Returns
    -------
    ndarray of shape (n_updates + 1,)
    """
    from ._validation import check_fitted

    check_fitted(clf, "history_")
    X = check_X(X, n_features=clf.n_features_in_)
    y = np.asarray(y)
    signs = np.where(y == clf.classes_[1], 1.0, -1.0)
    if signs.shape != (X.shape[0],):
        raise ValueError(f"y must have one label per row of X ({X.shape[0]}), got shape {y.shape}")
    errors = [1.0]
    for update in clf.history_:
        errors.append(float(np.mean(signs * (X @ update.coef + update.intercept) <= 0)))
    return np.array(errors)


def weights_by_epoch(clf):
    """The weights ``(w, b)`` in force at the end of each epoch of a fitted perceptron.

    Chapter 4, algorithm ``alg-perceptron-offset`` on data that are not separable: with a fixed
    order of visits the end-of-epoch weights eventually repeat, which is how the perceptron
    cycles instead of settling.

    Returns
    -------
    coef : ndarray of shape (n_epochs, n_features)
    intercept : ndarray of shape (n_epochs,)
    """
    from ._validation import check_fitted

    check_fitted(clf, "history_")
    w, b = np.zeros(clf.n_features_in_), 0.0
    coefs, intercepts = [], []
    k = 0
    for epoch in range(1, clf.n_epochs_ + 1):
        while k < len(clf.history_) and clf.history_[k].epoch == epoch:
            w, b = clf.history_[k].coef, clf.history_[k].intercept
            k += 1
        coefs.append(np.array(w, dtype=float))
        intercepts.append(float(b))
    return np.array(coefs), np.array(intercepts)


def mistake_experiment(margins, n_samples=100, d=2, bias_update="unit", random_state=0, tightest=True):
    """Run the perceptron on one random separable data set per requested margin; compare with the bound.

    Chapter 4, theorem ``thm-novikoff`` checked empirically. For each ``margin`` a data set is drawn
    with :func:`lincourse.datasets.make_separable` (the data sets share one seeded generator, so the
    whole experiment is reproducible), the perceptron is run (visiting the samples in order), and
    the number of updates is compared with the bound computed from the true separator
    ``(w*, b*)`` and, if ``tightest``, with the tightest bound (:func:`tightest_mistake_bound`).

    Parameters
    ----------
    margins : array-like of floats in (0, 0.5]
    n_samples, d : int
        Size and dimension of each data set.
    bias_update : {"unit", "radius"}, default="unit"
    random_state : int, numpy Generator or None, default=0
    tightest : bool, default=True

    Returns
    -------
    Bunch with arrays (one entry per data set): ``margin`` (requested), ``gamma`` (geometric margin
    of the true separator), ``n_updates``, ``n_epochs``, ``bound_true`` and ``bound_tightest``
    (NaN if ``tightest=False``).
    """
    from .datasets import Bunch, make_separable

    margins = np.atleast_1d(np.asarray(margins, dtype=float))
    check_option(bias_update, "bias_update", _BIAS_UPDATES)
    rng = check_random_state(random_state)
    out = {key: np.zeros(margins.size) for key in ("gamma", "n_updates", "n_epochs", "bound_true", "bound_tightest")}
    for j, margin in enumerate(margins):
        X, y, (w, b) = make_separable(n_samples, d=d, margin=float(margin), random_state=rng, return_separator=True)
        clf = Perceptron(bias_update=bias_update).fit(X, y)
        out["gamma"][j] = np.min(y * (X @ w + b)) / np.linalg.norm(w)
        out["n_updates"][j] = clf.n_updates_
        out["n_epochs"][j] = clf.n_epochs_
        out["bound_true"][j] = mistake_bound(X, y, w, b, bias_update=bias_update)
        out["bound_tightest"][j] = tightest_mistake_bound(X, y, bias_update)[0] if tightest else np.nan
    out["n_updates"] = out["n_updates"].astype(int)
    out["n_epochs"] = out["n_epochs"].astype(int)
    return Bunch(margin=margins, **out)


def perceptron_orders(X, y, random_states, **params):
    """Fit the perceptron once per seed, visiting the samples in a random order; collect the results.

    Chapter 4, algorithm ``alg-perceptron-offset`` with random orders: on separable data every
    run converges (theorem ``thm-novikoff`` holds for any order), but to different separators.

    Parameters
    ----------
    X, y : training data
    random_states : iterable of int
        One run with ``shuffle=True, random_state=s`` per seed ``s``.
    **params
        Further :class:`Perceptron` parameters (e.g. ``bias_update``).

    Returns
    -------
    Bunch with ``random_state``, ``coef`` (n_runs, n_features), ``intercept``, ``n_updates``,
    ``converged`` and ``geometric_margin`` (of the separator found, on ``(X, y)``).
    """
    from .datasets import Bunch
    from .geometry import geometric_margin

    seeds = [int(s) for s in random_states]
    fits = [Perceptron(shuffle=True, random_state=s, **params).fit(X, y) for s in seeds]
    labels = np.where(np.asarray(y) == fits[0].classes_[1], 1, -1)
    return Bunch(
        random_state=np.array(seeds),
        coef=np.array([f.coef_ for f in fits]),
        intercept=np.array([f.intercept_ for f in fits]),
        n_updates=np.array([f.n_updates_ for f in fits]),
        converged=np.array([f.converged_ for f in fits]),
        geometric_margin=np.array([geometric_margin(X, labels, f.coef_, f.intercept_) for f in fits]),
    )
