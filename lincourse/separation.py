"""Does the maximum-likelihood logistic regression exist? Complete and quasi-complete separation.

Chapter 8 (*Fitting logistic regression, and when the fit does not exist*), section on separable data.
The unpenalised logistic loss has a minimiser, and exactly one, if and only if

* no nonzero ``(w, b)`` has ``y_i (w . x_i + b) >= 0`` for every ``i`` (the two classes *overlap*), and
* the design ``[1, X]`` (``X`` without an intercept) has full column rank

(A. Albert and J. A. Anderson 1984, *On the existence of maximum likelihood estimates in logistic
regression models*, Biometrika 71(1); T. J. Santner and D. E. Duffy 1986, *A note on A. Albert and
J. A. Anderson's conditions for the existence of maximum likelihood estimates in logistic regression
models*, Biometrika 73(3)). When such a direction exists the loss keeps decreasing along it and the
coefficients grow without bound: the data are *completely separated* if some direction has every
``y_i (w . x_i + b) > 0``, *quasi-completely separated* if the best direction leaves some points tied
on its boundary.

Both questions are linear programs, solved with HiGHS (:func:`scipy.optimize.linprog`), the same
solver as the separability test of chapter 3 (:func:`lincourse.is_linearly_separable`).
"""

from __future__ import annotations

from typing import NamedTuple, Optional

import numpy as np

from ._validation import check_bool, check_two_classes, check_X
from .geometry import _augment, _margin_one_point

__all__ = ["SeparationResult", "check_separation"]

#: A point whose margin along the direction is at most this, relative to ``sum_j |a_ij v_j|`` (the
#: size of the terms that make it up), counts as tied (on the boundary). HiGHS solves to a
#: feasibility tolerance of about 1e-9 on the scaled problem, so ties are decided at 1e-7.
TIE_TOLERANCE = 1e-7


class SeparationResult(NamedTuple):
    """What :func:`check_separation` found (chapter 8)."""

    status: str
    """"complete", "quasi-complete" or "overlap"."""
    direction: Optional[tuple]
    """``(w, b)`` with ``y_i (w . x_i + b) >= 0`` for every ``i`` and ``||(w, b)|| = 1``; None for
    "overlap"."""
    n_separated: int
    """Points with a strictly positive margin along ``direction`` (0 for "overlap")."""
    n_tied: int
    """Points with a zero margin along ``direction`` (0 for "overlap")."""
    full_rank: bool
    """The design ``[1, X]`` (``X`` without intercept) has full column rank."""
    mle_exists: bool
    """``status == "overlap" and full_rank``: the maximum-likelihood estimate exists and is unique."""


def check_separation(X, y, fit_intercept=True):
    """Decide whether two classes are completely separated, quasi-completely separated, or overlap.

    Chapter 8, the existence theorem for the maximum-likelihood estimate of logistic regression:
    *the maximum-likelihood estimate exists and is unique iff no nonzero (w, b) has
    y_i (w.x_i + b) >= 0 for every i, and the design has full column rank* (Albert and Anderson
    1984, Santner and Duffy 1986). This function decides both conditions.

    With ``a_i = y_i (x_i, 1)`` (``y_i x_i`` without intercept) and the columns scaled by their
    largest absolute value (so that the answer does not depend on the units of the features):

    1. *complete separation*: the linear program ``a_i . v >= 1`` for every ``i`` is feasible
       (chapter 3, equation ``(separability-lp)``);
    2. otherwise *quasi-complete separation*: the linear program
       ``maximise sum_i a_i . v  subject to  a_i . v >= 0,  -1 <= v_j <= 1`` has a positive optimum
       (K. Konis 2007, *Linear programming algorithms for detecting separated data in binary
       logistic regression models*, DPhil thesis, Oxford). Its solution is a direction along
       which every point has a margin ``>= 0`` and some a margin ``> 0``; the points with margin
       0 are the tied ones. The direction is then projected so that the tied margins are 0 to
       rounding;
    3. otherwise the classes *overlap*.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Two classes, any two values; the larger (``sorted(set(y))[1]``) plays ``+1``, as in the
        estimators.
    fit_intercept : bool, default=True
        Directions ``(w, b)`` with an offset; if False, ``b = 0`` (boundaries through the origin).

    Returns
    -------
    SeparationResult
        ``status`` in {"complete", "quasi-complete", "overlap"}; ``direction`` ``(w, b)`` with
        ``y_i (w . x_i + b) >= 0`` for every ``i`` and ``||(w, b)|| = 1`` (None for "overlap");
        ``n_separated`` and ``n_tied``, the points with positive and zero margin along it;
        ``full_rank``; ``mle_exists``.

    Notes
    -----
    Tolerances: the linear programs run with HiGHS's primal and dual feasibility tolerances set to
    1e-10 on the scaled problem; a point is tied when its margin is at most ``TIE_TOLERANCE``
    (1e-7) times ``sum_j |a_ij v_j|``; a direction is accepted only if, computed in double
    precision on the scaled data, no margin is below ``-TIE_TOLERANCE`` times that size. Column rank
    is decided by :func:`numpy.linalg.matrix_rank` (singular values relative to the largest, at
    its default tolerance) on the scaled design.

    Examples
    --------
    >>> check_separation([[-1.0], [0.0], [0.0], [1.0]], [-1, -1, 1, 1]).status
    'quasi-complete'
    >>> check_separation([[0.0], [1.0], [2.0], [3.0]], [0, 1, 0, 1]).mle_exists
    True
    """
    X = check_X(X)
    signs, _ = check_two_classes(y, X.shape[0])
    check_bool(fit_intercept, "fit_intercept")
    return _separation(_augment(X) if fit_intercept else X, signs, fit_intercept)


def _separation(design, signs, fit_intercept):
    """:func:`check_separation` on a checked design (``[1, X]`` if ``fit_intercept``) and labels ``signs`` in {-1, +1}."""
    scale = np.max(np.abs(design), axis=0)
    scale[scale == 0] = 1.0
    scaled = design / scale
    full_rank = bool(np.linalg.matrix_rank(scaled) == scaled.shape[1])
    A = signs[:, None] * scaled

    status, v = "overlap", None
    start = _margin_one_point(A)
    if start is not None and _acceptable(A, start, strict=True):
        status, v = "complete", start
    else:
        v = _konis_direction(A)
        if v is not None:
            status = "quasi-complete"
    if v is None:
        return SeparationResult("overlap", None, 0, 0, full_rank, full_rank)

    size = np.abs(A) @ np.abs(v)
    tied = A @ v <= TIE_TOLERANCE * size
    if status == "quasi-complete" and np.any(tied):
        # Project v onto the directions orthogonal to the tied rows: their margins become 0 to
        # rounding while the others move by at most the LP's tolerance.
        projected = v - np.linalg.lstsq(A[tied], A[tied] @ v, rcond=None)[0]
        if _acceptable(A, projected, strict=False) and np.any(A @ projected > TIE_TOLERANCE * size):
            v = projected
            size = np.abs(A) @ np.abs(v)
            tied = A @ v <= TIE_TOLERANCE * size
    direction = v / scale  # back to the units of X: (w, b) . (x, 1) = v . (x, 1) / scale
    norm = float(np.linalg.norm(direction))
    direction = direction / norm + 0.0  # + 0.0: no negative zeros in what is printed
    if fit_intercept:
        w, b = direction[1:].copy(), float(direction[0])
    else:
        w, b = direction.copy(), 0.0
    n_tied = int(np.sum(tied))
    return SeparationResult(status, (w, b), len(A) - n_tied, n_tied, full_rank, False)


def _acceptable(A, v, strict):
    """Whether ``A v >= 0`` (``> 0`` with ``strict``) holds in double precision, to the tie tolerance."""
    margins = A @ v
    size = np.abs(A) @ np.abs(v)
    if strict:
        return bool(np.all(margins > TIE_TOLERANCE * size))
    return bool(np.all(margins >= -TIE_TOLERANCE * size))


def _konis_direction(A):
    """A direction ``v`` with ``A v >= 0`` and ``A v != 0``, or None (Konis's linear program)."""
    from scipy.optimize import linprog

    m = A.shape[1]
    result = linprog(
        -A.sum(axis=0),
        A_ub=-A,
        b_ub=np.zeros(A.shape[0]),
        bounds=[(-1.0, 1.0)] * m,
        method="highs",
        options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10},
    )
    if result.status != 0:
        return None
    v = result.x
    margins = A @ v
    size = np.abs(A) @ np.abs(v)
    if not np.any(margins > TIE_TOLERANCE * size) or not _acceptable(A, v, strict=False):
        return None
    return v


def _separation_after_fit(X, t, w, s, H=None):
    """"overlap", "quasi-complete" or "complete" for an unpenalised fit on the design ``X`` ending at ``w``.

    Chapter 8. ``LogisticRegression.fit`` calls it with its checked design ``X``, targets ``t`` in
    {0, 1}, final weights ``w``, their scores ``s = X w`` and the last Hessian ``H = X^T S X / N``
    its solver computed (at any weights: the proof below only uses ``p_i (1 - p_i) <= 1/4``, which
    holds at every weight vector), or None to compute it at ``s``. A cheap proof that the classes
    overlap comes first, from the gradient at ``w``; only when it fails (probabilities near 0 or 1,
    a large gradient) do the linear programs of :func:`check_separation` decide.

    The proof: with ``y_i = 2 t_i - 1``, ``a_i = y_i x_i`` and ``lambda_i = |p_i - t_i| > 0``, the
    gradient is ``g = -A^T lambda / N``. A separating direction, a unit ``v`` with ``A v >= 0``,
    would give ``N ||g|| >= lambda^T A v >= min(lambda) ||A v|| >= min(lambda) sigma_min``, with
    ``sigma_min`` the smallest singular value of ``X``, and ``sigma_min^2 >= 4 N mu`` for the
    smallest eigenvalue ``mu`` of the Hessian ``X^T S X / N`` (every ``p_i (1 - p_i) <= 1/4``).
    So ``N ||g|| < min(lambda) sigma_min`` (rounding allowed for generously) proves that no
    separating direction exists and that ``X`` has full rank: the maximum-likelihood estimate exists.
    """
    from .losses import _logistic_gradient, _logistic_hessian, _sigmoid

    n, p = X.shape
    u = 2.0**-53  # the unit roundoff of double precision
    margins = (2 * t - 1) * s
    lam = _sigmoid(-margins)  # |p_i - t_i|
    g = _logistic_gradient(X, t, s)
    if H is None:
        H = _logistic_hessian(X, s)
    g_error = 2 * n * u * float(lam @ np.sqrt(np.einsum("ij,ij->i", X, X))) / n
    mu = float(np.linalg.eigvalsh(H)[0]) - 4 * p * u * float(np.abs(H).sum())
    if mu > 0 and n * (np.linalg.norm(g) + g_error) < lam.min() * np.sqrt(4 * n * mu):
        return "overlap"
    return _separation(X, 2 * t - 1, fit_intercept=False).status
