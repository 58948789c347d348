"""Hyperplanes, signed distances, margins and the training error.

Chapter 1 (*Hyperplanes and linear classifiers*), chapter 2 (*Signed distance and margins*) and
chapter 3 (*Training error and linear separability*) define every formula in this module; each
docstring names the chapter and the equation label it implements.

Conventions used throughout the course:

* a hyperplane is ``{x : w . x + b = 0}`` with normal vector ``w`` and offset ``b``;
* labels are ``y in {-1, +1}``;
* a point is classified ``+1`` when its score ``w . x + b`` is strictly positive, ``-1`` otherwise
  (a score of exactly 0 gives ``-1``, as in scikit-learn), and a training point with
  ``y (w . x + b) <= 0``, boundary points included, counts as a mistake.
"""

from __future__ import annotations

import numpy as np

from ._validation import as_float_array, check_labels_pm1, check_weights, check_X

__all__ = [
    "decision_function",
    "predict",
    "signed_distance",
    "distance_from_origin",
    "project_onto_hyperplane",
    "functional_margin",
    "geometric_margin",
    "augment",
    "training_error",
    "is_linearly_separable",
    "unit_normal_form",
    "training_error_landscape",
    "best_line_on_grid",
]


def _scores(X, w, b, nonzero=False):
    """Validate ``X, w, b`` and return ``(X w + b, single, w, b)``."""
    X, single = check_X(X, allow_1d=True)
    w, b = check_weights(w, b, n_features=X.shape[1], nonzero=nonzero)
    return X @ w + b, single, w, b


def _unwrap(values, single):
    return values[0].item() if single else values


def decision_function(X, w, b=0.0):
    """Score of each point, ``w . x + b``.

    Chapter 1, equation ``(score)``: the classifier's real-valued score, whose sign is the prediction.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features) or (n_features,)
        Points, one per row (or a single point).
    w : array-like of shape (n_features,)
        Normal vector of the hyperplane (the weights ``w`` of the chapters).
    b : float, default=0.0
        Offset (intercept).

    Returns
    -------
    ndarray of shape (n_samples,), or float for a single point.

    Examples
    --------
    >>> decision_function([[1.0, 2.0], [0.0, -1.0]], w=[1.0, 1.0], b=-1.0)
    array([ 2., -2.])
    """
    scores, single, _, _ = _scores(X, w, b)
    return _unwrap(scores, single)


def predict(X, w, b=0.0):
    """Predicted labels ``+1`` where ``w . x + b > 0`` and ``-1`` elsewhere.

    Chapter 1, equation ``(classifier-offset)``. A point exactly on the boundary (score 0) is
    assigned ``-1``, the convention scikit-learn uses; the training error still counts it as a
    mistake whatever its label (chapter 3).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features) or (n_features,)
    w : array-like of shape (n_features,)
    b : float, default=0.0

    Returns
    -------
    ndarray of int, shape (n_samples,), or int for a single point.

    Examples
    --------
    >>> predict([[1.0, 0.0], [0.0, 0.0], [-1.0, 0.0]], w=[1.0, 0.0])
    array([ 1, -1, -1])
    """
    scores, single, _, _ = _scores(X, w, b)
    return _unwrap(np.where(scores > 0, 1, -1), single)


def signed_distance(X, w, b=0.0):
    """Signed Euclidean distance from each point to the hyperplane ``w . x + b = 0``.

    Chapter 2, equation ``(signed-distance)``: ``(w . x + b) / ||w||``, positive on the side
    ``w`` points to. Unchanged when ``(w, b)`` is multiplied by any ``c > 0``.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features) or (n_features,)
    w : array-like of shape (n_features,), not the zero vector
    b : float, default=0.0

    Returns
    -------
    ndarray of shape (n_samples,), or float for a single point.

    Examples
    --------
    >>> signed_distance([[3.0, 4.0]], w=[3.0, 4.0], b=-5.0)
    array([4.])
    """
    scores, single, w, _ = _scores(X, w, b, nonzero=True)
    return _unwrap(scores / np.linalg.norm(w), single)


def distance_from_origin(w, b):
    """Signed distance from the origin to the hyperplane, ``-b / ||w||``.

    Chapter 1, equation ``(distance-from-origin)``: the hyperplane ``w . x + b = 0`` is the
    hyperplane ``w . x = 0`` moved by ``-b / ||w||`` along the unit normal ``w / ||w||``.

    Examples
    --------
    >>> distance_from_origin([3.0, 4.0], b=-10.0)
    2.0
    """
    w, b = check_weights(w, b, nonzero=True)
    return -b / float(np.linalg.norm(w))


def project_onto_hyperplane(X, w, b=0.0):
    """Foot of the perpendicular from each point to the hyperplane.

    Chapter 2, equation ``(foot)``: ``x - (w . x + b) / ||w||^2 * w``, the point of the
    hyperplane closest to ``x``.

    Returns
    -------
    ndarray of shape (n_samples, n_features), or (n_features,) for a single point.

    Examples
    --------
    >>> project_onto_hyperplane([2.0, 5.0], w=[0.0, 1.0], b=-1.0)
    array([2., 1.])
    """
    X, single = check_X(X, allow_1d=True)
    w, b = check_weights(w, b, n_features=X.shape[1], nonzero=True)
    feet = X - np.outer((X @ w + b) / (w @ w), w)
    return feet[0] if single else feet


def _margins(X, y, w, b):
    X = check_X(X)
    w, b = check_weights(w, b, n_features=X.shape[1])
    y = check_labels_pm1(y, X.shape[0])
    return y * (X @ w + b), w


def functional_margin(X, y, w, b=0.0):
    """Functional margin of a training set, ``min_i y_i (w . x_i + b)``.

    Chapter 2, equation ``(functional-margin)``. Positive exactly when ``(w, b)`` classifies every
    point correctly; it scales with ``(w, b)``.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,) with labels in {-1, +1}
    w : array-like of shape (n_features,)
    b : float, default=0.0

    Returns
    -------
    float

    Examples
    --------
    >>> functional_margin([[1.0, 1.0], [-1.0, -2.0]], [1, -1], w=[2.0, 0.0])
    2.0
    """
    margins, _ = _margins(X, y, w, b)
    return float(margins.min())


def geometric_margin(X, y, w, b=0.0):
    """Geometric margin of a training set, the functional margin divided by ``||w||``.

    Chapter 2, equation ``(geometric-margin)``. When positive it is the distance from the
    hyperplane to the closest training point; it does not change when ``(w, b)`` is scaled by
    ``c > 0``.

    Examples
    --------
    >>> geometric_margin([[1.0, 1.0], [-1.0, -2.0]], [1, -1], w=[2.0, 0.0])
    1.0
    """
    margins, w = _margins(X, y, w, b)
    if not np.any(w):
        raise ValueError("w must not be the zero vector: this quantity divides by ||w||")
    return float(margins.min() / np.linalg.norm(w))


def augment(X):
    """Prepend a column of ones: ``x -> (1, x_1, ..., x_d)``.

    Chapter 1, equation ``(augmented)``. With ``w' = (b, w)`` the score becomes ``w' . x' = w . x + b``,
    a classifier through the origin in one more dimension.

    Examples
    --------
    >>> augment([[2.0, 3.0]])
    array([[1., 2., 3.]])
    """
    X, single = check_X(X, allow_1d=True)
    Xa = _augment(X)
    return Xa[0] if single else Xa


def _augment(X):
    """:func:`augment` of a matrix already checked (the learners' ``fit`` and the functions below)."""
    return np.hstack([np.ones((X.shape[0], 1)), X])


def training_error(X, y, w, b=0.0):
    """Training error ``E_in``: the fraction of points with ``y_i (w . x_i + b) <= 0``.

    Chapter 3, equation ``(training-error)``: the average 0-1 loss, with points on the boundary
    counted as mistakes whatever their label.

    Examples
    --------
    >>> training_error([[1.0], [2.0], [-1.0], [0.0]], [1, 1, 1, -1], w=[1.0])
    0.5
    """
    margins, _ = _margins(X, y, w, b)
    return float(np.mean(margins <= 0))


def is_linearly_separable(X, y, return_separator=False):
    """Decide whether a finite training set is (strictly) linearly separable.

    Chapter 3, equation ``(separability-lp)``: the set is separable exactly when the linear
    program ``y_i (w . x_i + b) >= 1`` for all ``i`` is feasible, which a linear-programming
    solver decides in polynomial time. (A strict separator can always be rescaled so that its
    smallest functional margin is 1.)

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,) with labels in {-1, +1}
    return_separator : bool, default=False
        Also return a separating ``(w, b)`` (or ``None`` when there is none).

    Returns
    -------
    bool, or (bool, (w, b) or None)

    Examples
    --------
    >>> is_linearly_separable([[0, 0], [1, 1], [0, 1], [1, 0]], [-1, -1, 1, 1])  # XOR
    False
    """
    X = check_X(X)
    y = check_labels_pm1(y, X.shape[0])
    v = _margin_one_point(y[:, None] * _augment(X))  # rows y_i (1, x_i), unknowns (b, w)
    if not return_separator:
        return v is not None
    return v is not None, ((v[1:], float(v[0])) if v is not None else None)


def _margin_one_point(A):
    """A point ``v`` with ``A v >= 1`` (every row's margin at least 1), or None if there is none.

    Chapter 3, equation ``(separability-lp)``: with rows ``y_i (x_i, 1)`` (or ``y_i x_i`` through the
    origin) this is the feasibility linear program that decides separability.
    """
    from scipy.optimize import linprog

    n = A.shape[1]  # the number of unknowns: the entries of v
    result = linprog(np.zeros(n), A_ub=-A, b_ub=-np.ones(A.shape[0]), bounds=[(None, None)] * n, method="highs")
    return result.x if result.status == 0 else None


def unit_normal_form(w, b=0.0):
    """The same hyperplane with a unit normal: ``(w / ||w||, b / ||w||)``.

    Chapter 2, equation ``(unit-normal)``. In the plane this is the normal form of a line, the
    implicit equation ``a1 x1 + a2 x2 + a0 = 0`` with ``a1^2 + a2^2 = 1``; the score of a point under
    the returned pair is its signed distance to the hyperplane, equation ``(signed-distance)``.

    Parameters
    ----------
    w : array-like of shape (n_features,), not the zero vector
    b : float, default=0.0

    Returns
    -------
    u : ndarray of shape (n_features,), with ``||u|| = 1``
    c : float

    Examples
    --------
    >>> u, c = unit_normal_form([3.0, 4.0], b=-10.0)
    >>> u.tolist(), c
    ([0.6, 0.8], -2.0)
    """
    w, b = check_weights(w, b, nonzero=True)
    norm = float(np.linalg.norm(w))
    return w / norm, b / norm


def training_error_landscape(X, y, angles, offsets):
    """E_in of every line ``w . x + b = 0`` with ``w = (cos a, sin a)`` over a grid of ``(a, b)``.

    Chapter 3, equation ``(training-error)``, evaluated at once for all angles ``a`` (in degrees)
    and offsets ``b``: entry ``[j, k]`` is the training error of the unit normal at ``angles[k]``
    with offset ``offsets[j]`` (rows are offsets, so the array displays with ``imshow`` as an
    image whose horizontal axis is the angle). Since ``w`` is a unit vector, ``b`` is minus
    the signed distance of the line from the origin, equation ``(distance-from-origin)``.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,) with labels in {-1, +1}
    angles : array-like of shape (n_angles,)
        Directions of the normal vector, in degrees from the ``x_1`` axis.
    offsets : array-like of shape (n_offsets,)

    Returns
    -------
    ndarray of shape (n_offsets, n_angles), values in ``{0, 1/N, ..., 1}``.

    Examples
    --------
    >>> training_error_landscape([[1.0, 0.0], [-1.0, 0.0]], [1, -1], angles=[0, 180], offsets=[0.0, 2.0])
    array([[0. , 1. ],
           [0.5, 0.5]])
    """
    X = check_X(X)
    if X.shape[1] != 2:
        raise ValueError(f"X must have exactly 2 features (the angle parametrises a line), got {X.shape[1]}")
    y = check_labels_pm1(y, X.shape[0])
    a = np.deg2rad(np.atleast_1d(as_float_array(angles, "angles")))
    b = np.atleast_1d(as_float_array(offsets, "offsets"))
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError(f"angles and offsets must be 1-D sequences of numbers, got shapes {a.shape} and {b.shape}")
    projections = X @ np.vstack([np.cos(a), np.sin(a)])  # (n_samples, n_angles): w . x_i
    E = np.empty((b.size, a.size))
    for j, offset in enumerate(b):  # one offset at a time, so memory stays O(n_samples * n_angles)
        E[j] = np.mean(y[:, None] * (projections + offset) <= 0, axis=0)
    return E


def best_line_on_grid(X, y, angles, offsets):
    """The line of an (angle, offset) grid with the smallest training error, found by trying them all.

    Chapter 3, equation ``(training-error)`` minimised by exhaustive search over the grid of
    :func:`training_error_landscape`: unit normals ``w = (cos a, sin a)`` for ``a`` in
    ``angles`` (degrees) and offsets ``b`` in ``offsets``. When several lines of the grid share the
    smallest error, the first in the order of ``numpy.argmin`` on the landscape (offsets outer,
    angles inner) is returned. The search is only as fine as the grid: the result is the best
    *grid* line, and a line between grid values may do better.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,) with labels in {-1, +1}
    angles : array-like of shape (n_angles,)
    offsets : array-like of shape (n_offsets,)

    Returns
    -------
    w : ndarray of shape (2,), a unit vector
    b : float
    e_in : float, the training error of ``(w, b)`` on ``(X, y)``

    Examples
    --------
    >>> w, b, e_in = best_line_on_grid([[1.0, 0.0], [-1.0, 0.0]], [1, -1], [0, 90, 180], [-0.5, 0.0])
    >>> w.round(6).tolist(), b, e_in
    ([1.0, 0.0], -0.5, 0.0)
    """
    E = training_error_landscape(X, y, angles, offsets)
    j, k = np.unravel_index(np.argmin(E), E.shape)
    a = np.deg2rad(np.atleast_1d(np.asarray(angles, dtype=float))[k])
    b = float(np.atleast_1d(np.asarray(offsets, dtype=float))[j])
    return np.array([np.cos(a), np.sin(a)]), b, float(E[j, k])
