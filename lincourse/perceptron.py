"""The perceptron, its mistake bounds, and two remedies for data that are not separable.

Chapters 5 and 6 (*The perceptron and its convergence*, *The perceptron beyond separable data*) define
every algorithm here. ``Perceptron.fit`` is
the chapter's algorithm block: visit the samples in order and, on a mistake
``y_i (w . x_i + b) <= 0``, set ``w += y_i x_i`` and ``b += y_i`` (or ``b += y_i R^2``). The pocket and
averaged perceptrons run the same loop and differ only in what they keep from it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from sklearn.utils.validation import check_is_fitted

from ._base import LinearClassifier
from ._validation import (
    as_float_array,
    check_bool,
    check_labels_pm1,
    check_nonnegative,
    check_option,
    check_positive,
    check_random_state,
    check_weights,
    check_X,
    warn,
)
from .geometry import _augment, _margin_one_point

__all__ = [
    "Perceptron",
    "PocketPerceptron",
    "AveragedPerceptron",
    "mistake_bound",
    "freund_schapire_bound",
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
    """One perceptron update: the sample corrected, when, and the weights after it."""

    index: int
    """Row of ``X`` that was a mistake."""
    epoch: int
    """Pass over the data (1, 2, ...)."""
    visit: int
    """Samples visited since the start, this one included (``(epoch - 1) * n + position``)."""
    coef: np.ndarray
    intercept: float


class Perceptron(LinearClassifier):
    """Rosenblatt's perceptron with the mistake-driven update of chapter 5.

    Chapter 5, algorithm ``alg-perceptron-offset`` (``bias_update="unit"``), the variant that moves
    ``b`` by ``y R^2`` (``bias_update="radius"``, the remark after it), and with
    ``fit_intercept=False`` algorithm ``alg-perceptron-origin``.

    Parameters
    ----------
    fit_intercept : bool, default=True
        Learn an offset ``b``. If False the boundary passes through the origin.
    bias_update : {"unit", "radius"}, default="unit"
        On a mistake at ``(x_i, y_i)``: ``b += y_i`` ("unit", the perceptron on the augmented vectors
        ``(1, x_i)``) or ``b += y_i R^2`` with ``R = max_i ||x_i||`` ("radius").
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
        The two labels as given; ``classes_[1]`` plays the role of ``y = +1``.
    n_features_in_ : int
    n_updates_ : int
        Number of updates (mistakes corrected), ``k`` in the convergence theorem.
    n_epochs_ : int
        Passes made, the final mistake-free pass included.
    converged_ : bool
        True if the last pass made no mistake (the training data are then separated).
    history_ : list of Update
        One entry per update: the sample, its epoch and visit, and ``coef``/``intercept`` after it.

    Notes
    -----
    Labels may be any two values (like scikit-learn); ``classes_[1]`` becomes ``y = +1`` and
    ``classes_[0]`` becomes ``y = -1``. A sample with score exactly 0 is a mistake, whatever its
    label; ``predict`` at a score of exactly 0 gives ``classes_[0]``. With ``shuffle=False`` the
    weights are those of the one-sample loop of the chapter, and those of
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

    def __init__(self, *, fit_intercept=True, bias_update="unit", shuffle=False, random_state=None,
                 max_epochs=1000):
        self.fit_intercept = fit_intercept
        self.bias_update = bias_update
        self.shuffle = shuffle
        self.random_state = random_state
        self.max_epochs = max_epochs

    def fit(self, X, y, coef_init=None, intercept_init=None):
        """Run the perceptron on ``(X, y)`` until a pass makes no mistake, or for ``max_epochs`` passes.

        Chapter 5, algorithm ``alg-perceptron-offset`` (its ``y R^2`` variant, or
        ``alg-perceptron-origin``, according to the parameters). ``coef_init`` and
        ``intercept_init`` are the starting weights ``w_0, b_0`` (default 0, as in the chapter).
        Returns self.
        """
        X, y = self._validate_fit_inputs(X, y, binary=True)
        y = np.where(y == self.classes_[1], 1.0, -1.0)  # labels y_i in {-1, +1}
        n = X.shape[0]
        w, b = self._start(X, coef_init, intercept_init)
        step = self._offset_step(X)  # what b moves by: 0 (through the origin), 1, or R^2
        rng = check_random_state(self.random_state)
        self.history_ = []
        for epoch in range(1, self.max_epochs + 1):
            order = rng.permutation(n) if self.shuffle else np.arange(n)
            X_e, y_e = (X[order], y[order]) if self.shuffle else (X, y)  # the samples in visiting order
            mistakes, i = 0, 0
            while (i := _next_mistake(X_e, y_e, w, b, i)) < n:  # the next i with y_i (w . x_i + b) <= 0
                w += y_e[i] * X_e[i]  # the update
                b += y_e[i] * step
                mistakes += 1
                self.history_.append(Update(int(order[i]), epoch, (epoch - 1) * n + i + 1, w.copy(), b))
                i += 1
            if mistakes == 0:  # a clean pass: every sample is on its side
                break
        self.n_epochs_, self.n_updates_, self.converged_ = epoch, len(self.history_), mistakes == 0
        self.coef_, self.intercept_ = self._keep(X, y, w, b)
        if not self.converged_:
            warn(f"{type(self).__name__} made mistakes in all {self.max_epochs} epochs (max_epochs); "
                 "the data may not be linearly separable")
        return self

    def _check_params(self):
        check_bool(self.fit_intercept, "fit_intercept")
        check_option(self.bias_update, "bias_update", _BIAS_UPDATES)
        check_bool(self.shuffle, "shuffle")
        check_random_state(self.random_state)
        check_positive(self.max_epochs, "max_epochs", integer=True)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # two classes: y in {-1, +1}
        return tags

    def _start(self, X, coef_init, intercept_init):
        w, b = check_weights(np.zeros(X.shape[1]) if coef_init is None else coef_init,
                             0.0 if intercept_init is None else intercept_init, n_features=X.shape[1])
        if not self.fit_intercept and b != 0:
            raise ValueError(f"intercept_init must be 0 (or None) when fit_intercept=False, got {b}")
        self._w0, self._b0 = w.copy(), b
        return w.copy(), b

    def _offset_step(self, X):
        if not self.fit_intercept:
            return 0.0
        return 1.0 if self.bias_update == "unit" else radius_squared(X)

    def _keep(self, X, y, w, b):
        """What the run returns: the plain perceptron keeps its last weights."""
        return w.copy(), float(b)

    def _weights_held(self):
        """Every ``(w, b)`` the run held: the start, then the weights after each update."""
        return [(self._w0, self._b0)] + [(u.coef, u.intercept) for u in self.history_]


class PocketPerceptron(Perceptron):
    """The perceptron that keeps "in its pocket" the weights with the lowest training error it held.

    Chapter 6, algorithm ``alg-pocket``. The run is that of :class:`Perceptron`; the answer is,
    among the starting weights and the weights after each update, the first with the lowest training
    error (boundary points count as mistakes). On data that are not separable the result has the
    lowest training error among all weights the run visited. Parameters as :class:`Perceptron`.

    Attributes
    ----------
    pocket_error_ : float
        Training error of the returned weights.
    pocket_update_ : int
        Number of updates after which the pocket weights were found (0: the starting weights).

    References
    ----------
    S. I. Gallant (1986). Optimal linear discriminants. *Proceedings of the 8th International
    Conference on Pattern Recognition*, 849-852; S. I. Gallant (1990). Perceptron-based learning
    algorithms. *IEEE Transactions on Neural Networks* 1(2), 179-191.
    """

    def _keep(self, X, y, w, b):
        candidates = self._weights_held()
        errors = [np.mean(y * (X @ w_k + b_k) <= 0) for w_k, b_k in candidates]
        self.pocket_update_ = int(np.argmin(errors))  # the first of the lowest
        self.pocket_error_ = float(errors[self.pocket_update_])
        w_best, b_best = candidates[self.pocket_update_]
        return w_best.copy(), float(b_best)


class AveragedPerceptron(Perceptron):
    """The perceptron whose answer is the average of its weights over every sample visit.

    Chapter 6, algorithm ``alg-averaged``. The run is that of :class:`Perceptron`; the answer is
    the average of ``(w, b)`` over all visits, each visit counting the weights in force after it.
    Weights that survive many visits dominate, which damps the cycling of the plain perceptron on
    data that are not separable. Parameters as :class:`Perceptron`.

    References
    ----------
    Y. Freund and R. E. Schapire (1999). Large margin classification using the perceptron
    algorithm. *Machine Learning* 37(3), 277-296.
    """

    def _keep(self, X, y, w, b):
        weights = self._weights_held()
        visits = self.n_epochs_ * X.shape[0]
        held = np.diff([1] + [u.visit for u in self.history_] + [visits + 1])  # visits each one lasted
        w_sum, b_sum = np.zeros_like(w), 0.0
        for (w_k, b_k), count in zip(weights, held):
            w_sum += count * w_k
            b_sum += count * b_k
        return w_sum / visits, b_sum / visits


def _next_mistake(X, y, w, b, i):
    """The first ``j >= i`` with ``y_j (w . x_j + b) <= 0``, or ``len(y)`` if there is none.

    The weights do not change until the next mistake, so the samples are tested a block at a
    time, with one matrix-vector product; the block doubles while it holds no mistake. The product
    is ``einsum``'s single-threaded loop: for blocks this small, starting threads costs more than
    the product.
    """
    size = 32
    while i < len(y):
        wrong = y[i:i + size] * (np.einsum("ij,j->i", X[i:i + size], w) + b) <= 0
        if wrong.any():
            return i + int(np.argmax(wrong))
        i, size = i + size, 2 * size
    return len(y)


def radius_squared(X):
    """``R^2 = max_i ||x_i||^2``, the squared radius of the data (chapter 5)."""
    return float(np.max(np.einsum("ij,ij->i", X, X)))


def mistake_bound(X, y, w, b=0.0, bias_update="unit", fit_intercept=True):
    """Novikoff's upper bound on the number of perceptron updates, for a given separator.

    Chapter 5, theorem ``thm-novikoff`` and its corollaries. For any ``(w, b)`` that separates
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
    check_bool(fit_intercept, "fit_intercept")
    margins = y * (X @ w + b)
    gamma_f = float(margins.min())
    if gamma_f <= 0:
        raise ValueError(
            f"(w, b) does not separate the data: min_i y_i (w . x_i + b) = {gamma_f:.6g} <= 0; "
            "the mistake bound needs a separating hyperplane"
        )
    r2 = radius_squared(X)
    if not fit_intercept:
        if b != 0:
            raise ValueError(f"b must be 0 when fit_intercept=False (a boundary through the origin), got {b}")
        return r2 * float(w @ w) / gamma_f**2
    if bias_update == "unit":
        return (1.0 + r2) * (float(w @ w) + b * b) / gamma_f**2
    if r2 == 0:
        raise ValueError("every x_i is the zero vector, so R = 0 and the 'radius' bound is undefined")
    return 2.0 * r2 * (float(w @ w) + b * b / r2) / gamma_f**2


def freund_schapire_bound(X, y, w, b=0.0, gamma=None, fit_intercept=True, bias_update="unit", n_epochs=1):
    """Freund and Schapire's mistake bound, valid for any data, separable or not.

    Chapter 6, the perceptron on data that are not separable. Theorem (Y. Freund and R. E.
    Schapire 1999, *Large margin classification using the perceptron algorithm*, Machine Learning
    37(3), theorem 2): let ``(x^(1), y^(1)), ..., (x^(T), y^(T))`` be any sequence with
    ``||x^(t)|| <= R``, ``u`` a unit vector and ``gamma > 0``; put
    ``d_t = max(0, gamma - y^(t) u . x^(t))`` (the deficits) and ``S = sqrt(sum_t d_t^2)``. Then the
    perceptron through the origin (``alg-perceptron-origin``),
    started from ``w = 0`` and run once along the sequence, makes at most

        ((R + S) / gamma)^2

    mistakes. ``S`` measures how far the points fall short of margin ``gamma`` along ``u``; for a
    ``u`` that separates with margin ``gamma`` it is 0 and the bound is Novikoff's
    (:func:`mistake_bound`). In chapter 6's notation, with the reference classifier ``v = u / gamma``, the
    hinge losses are ``xi_t = d_t / gamma``, their root sum of squares is ``Xi = S / gamma``, and the
    bound reads ``(R ||v|| + Xi)^2``.

    This function applies the theorem to :class:`Perceptron` run on ``(X, y)`` for ``n_epochs``
    passes, in any order (``shuffle=True`` included), started from ``w = 0, b = 0`` (not from
    ``coef_init``): the sequence is the data repeated ``n_epochs`` times, so its ``S`` is
    ``sqrt(n_epochs)`` times the one-pass ``S`` computed from ``X``, and the bound is on the total
    number of updates (``n_updates_``) made in the first ``n_epochs`` epochs. The geometry is the
    one in which the variant is the perceptron through the origin, as in :func:`mistake_bound`:

    * ``fit_intercept=False``: the points ``x_i``, ``u = w / ||w||`` (``b`` must be 0),
      ``R = max_i ||x_i||``;
    * ``bias_update="unit"`` (``alg-perceptron-offset``): the augmented points ``(1, x_i)``,
      ``u = (b, w) / ||(b, w)||``, ``R = max_i ||(1, x_i)||``;
    * ``bias_update="radius"`` (the ``b += y R^2`` variant): the points ``(x_i, R_x)`` with
      ``R_x = max_i ||x_i||``, ``u = (w, b / R_x) / ||(w, b / R_x)||``, ``R = sqrt(2) R_x``.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,) with labels in {-1, +1}
    w : array-like of shape (n_features,)
        The reference direction (normalised here; any nonzero scale gives the same bound).
    b : float, default=0.0
    gamma : float > 0, default=None
        The target margin. Default: the geometric margin of ``u`` (in the geometry above), which
        must then be positive (``(w, b)`` separates the data); with a ``(w, b)`` that does not
        separate, pass ``gamma``.
    fit_intercept : bool, default=True
    bias_update : {"unit", "radius"}, default="unit"
    n_epochs : int, default=1
        Number of passes the bound covers.

    Returns
    -------
    float

    Examples
    --------
    >>> X, y = [[1.0], [2.0], [-1.0], [0.5]], [1, 1, -1, -1]
    >>> round(freund_schapire_bound(X, y, w=[1.0], fit_intercept=False, gamma=0.5), 6)
    36.0
    """
    X = check_X(X)
    w, b = check_weights(w, b, n_features=X.shape[1])
    y = check_labels_pm1(y, X.shape[0])
    check_option(bias_update, "bias_update", _BIAS_UPDATES)
    check_bool(fit_intercept, "fit_intercept")
    check_positive(n_epochs, "n_epochs", integer=True)
    r2 = radius_squared(X)
    if not fit_intercept:
        if b != 0:
            raise ValueError(f"b must be 0 when fit_intercept=False (a boundary through the origin), got {b}")
        Z, u = X, w
    elif bias_update == "unit":
        Z, u = _augment(X), np.concatenate([[b], w])
    else:
        if r2 == 0:
            raise ValueError("every x_i is the zero vector, so R = 0 and the 'radius' bound is undefined")
        radius = np.sqrt(r2)
        Z, u = np.hstack([X, np.full((X.shape[0], 1), radius)]), np.concatenate([w, [b / radius]])
    norm = float(np.linalg.norm(u))
    if norm == 0:
        raise ValueError("(w, b) must not be zero: the bound needs a direction")
    u = u / norm
    margins = y * (Z @ u)
    if gamma is None:
        gamma = float(margins.min())
        if gamma <= 0:
            raise ValueError(
                f"(w, b) does not separate the data (smallest geometric margin {gamma:.6g} <= 0), so there "
                "is no default gamma: pass a target margin, e.g. gamma=0.1"
            )
    else:
        check_positive(gamma, "gamma")
    R = float(np.sqrt(radius_squared(Z)))
    D = float(np.sqrt(n_epochs * np.sum(np.maximum(0.0, gamma - margins) ** 2)))
    return ((R + D) / gamma) ** 2


# ---------------------------------------------------------------------------------------------
# Chapter 5 helpers: the separator behind the tightest bound, and experiments over many data sets
# ---------------------------------------------------------------------------------------------

def max_margin_separator(X, y, fit_intercept=True, intercept_penalty=0.0):
    """The hard-margin separator: minimise ``(||w||^2 + c b^2) / 2`` s.t. ``y_i (w . x_i + b) >= 1``.

    Chapter 5, equation ``(hard-margin)``. With ``intercept_penalty=0`` (the default) this is the
    hard-margin support vector machine: the separator of largest geometric margin ``1 / ||w||``.
    Other values of ``c`` give the separators that make the offset bounds of theorem
    ``thm-novikoff`` tightest: ``c = 1`` maximises the margin of the augmented vectors
    ``(1, x)`` (bound of ``alg-perceptron-offset``) and ``c = 1 / R^2`` minimises
    ``||w||^2 + b^2 / R^2`` (bound of the ``b += y R^2`` variant). With ``fit_intercept=False``
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
    check_nonnegative(intercept_penalty, "intercept_penalty")
    check_bool(fit_intercept, "fit_intercept")
    A = y[:, None] * (_augment(X) if fit_intercept else X)  # rows y_i (1, x_i)
    m = A.shape[1]
    start = _margin_one_point(A)
    if start is None:
        where = "" if fit_intercept else " through the origin"
        raise ValueError(f"the data are not linearly separable{where}: no (w, b) has y_i (w . x_i + b) >= 1")
    scale = np.ones(m)
    if fit_intercept:
        scale[0] = intercept_penalty
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
        return v[1:].copy(), float(v[0])
    return v.copy(), 0.0


def tightest_mistake_bound(X, y, bias_update="unit", fit_intercept=True):
    """The smallest value of :func:`mistake_bound` over all separators, and the separator giving it.

    Chapter 5, theorem ``thm-novikoff`` with the separator of equation ``(hard-margin)``: the bound
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
        r2 = radius_squared(X)
        if r2 == 0:
            raise ValueError("every x_i is the zero vector, so R = 0 and the 'radius' bound is undefined")
        penalty = 1.0 / r2
    w, b = max_margin_separator(X, y, fit_intercept=fit_intercept, intercept_penalty=penalty)
    bound = mistake_bound(X, y, w, b, bias_update=bias_update, fit_intercept=fit_intercept)
    return bound, (w, b)


def error_history(clf, X, y):
    """Training error of the weights after each update of a fitted perceptron.

    Chapter 6, algorithm ``alg-pocket``: the sequence whose running minimum the pocket algorithm
    keeps. Entry 0 is the error of the starting weights (``coef_init``, ``intercept_init``; by default
    ``w = 0, b = 0``, where every point is a mistake, since a score of 0 counts as one), entry ``k`` the
    error after update ``k``.

    Parameters
    ----------
    clf : fitted Perceptron (or a subclass); its ``history_`` is read
    X, y : the training data it was fitted on

    Returns
    -------
    ndarray of shape (n_updates + 1,)
    """
    check_is_fitted(clf, "history_")
    X = check_X(X, n_features=clf.n_features_in_)
    y = np.asarray(y)
    signs = np.where(y == clf.classes_[1], 1.0, -1.0)
    if signs.shape != (X.shape[0],):
        raise ValueError(f"y must have one label per row of X ({X.shape[0]}), got shape {y.shape}")
    return np.array([float(np.mean(signs * (X @ w + b) <= 0)) for w, b in clf._weights_held()])


def weights_by_epoch(clf):
    """The weights ``(w, b)`` in force at the end of each epoch of a fitted perceptron.

    Chapter 5, algorithm ``alg-perceptron-offset`` on data that are not separable: with a fixed
    order of visits the end-of-epoch weights eventually repeat, which is how the perceptron
    cycles instead of settling.

    Returns
    -------
    coef : ndarray of shape (n_epochs, n_features)
    intercept : ndarray of shape (n_epochs,)
    """
    check_is_fitted(clf, "history_")
    w, b = clf._weights_held()[0]   # the starting weights (coef_init, intercept_init; 0 by default)
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

    Chapter 5, theorem ``thm-novikoff`` checked empirically. For each ``margin`` a data set is drawn
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

    margins = np.atleast_1d(as_float_array(margins, "margins")).ravel()  # each checked by make_separable
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

    Chapter 5, algorithm ``alg-perceptron-offset`` with random orders: on separable data every
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
