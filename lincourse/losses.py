"""Losses: the 0-1 loss and its surrogates, the sigmoid, the softmax and the cross-entropy, without overflow.

Chapter 7 (*The logistic model and maximum likelihood*) defines the sigmoid and the cross-entropy,
chapter 10 (*Curved boundaries and several classes*) the softmax; :func:`margin_losses`, the 0-1 loss
and its three surrogates as functions of the margin, is what chapter 3 (*Training error and linear
separability*) plots side by side.
"""

from __future__ import annotations

import numpy as np

from ._validation import as_float_array, check_probabilities, check_targets01, check_weights, check_X
from .geometry import augment  # noqa: F401  (the examples' design)

__all__ = ["margin_losses", "sigmoid", "softmax", "cross_entropy", "logistic_loss", "logistic_gradient",
           "logistic_hessian"]


def margin_losses(margins):
    """The 0-1 loss and three surrogates of it, as functions of the margin ``m = y (w . x + b)``.

    Chapter 3, equation ``(margin-losses)``, the loss of one point with margin ``m``:

    * ``"zero-one"``: ``1`` if ``m <= 0`` else ``0``, the term of equation ``(training-error)`` (a point
      on the boundary, ``m = 0``, is a mistake);
    * ``"perceptron"``: ``max(0, -m)``, whose sum over the mistakes is chapter 6's perceptron
      criterion;
    * ``"hinge"``: ``max(0, 1 - m)``, the perceptron loss moved one unit to the right;
    * ``"logistic"``: ``log2(1 + exp(-m))``, the logistic loss in bits: chapter 7's
      ``log(1 + exp(-m))`` divided by ``log 2``, so that it equals 1 at ``m = 0``. Computed as
      ``logaddexp(0, -m) / log(2)``, without overflow.

    The hinge and the logistic loss in bits are at least the 0-1 loss at every margin; the
    perceptron loss is not (it is 0 at ``m = 0``, where the 0-1 loss is 1). The three surrogates
    are convex in ``m``, the 0-1 loss is not.

    Parameters
    ----------
    margins : float or array-like

    Returns
    -------
    dict
        ``{"zero-one", "perceptron", "hinge", "logistic"}`` mapped to arrays of the shape of
        ``margins`` (floats for a scalar).

    Examples
    --------
    >>> for name, loss in margin_losses([-1.0, 0.0, 1.0]).items():
    ...     print(f"{name:10s}", np.round(loss, 4))
    zero-one   [1. 1. 0.]
    perceptron [1. 0. 0.]
    hinge      [2. 1. 0.]
    logistic   [1.8946 1.     0.4519]
    """
    m = as_float_array(margins, "margins")
    losses = {
        "zero-one": (m <= 0).astype(float),
        "perceptron": np.maximum(0.0, -m) + 0.0,  # + 0.0: no negative zeros
        "hinge": np.maximum(0.0, 1.0 - m) + 0.0,
        "logistic": np.logaddexp(0.0, -m) / np.log(2.0),
    }
    return {name: (loss.item() if loss.ndim == 0 else loss) for name, loss in losses.items()}


def sigmoid(z):
    """The logistic function ``sigma(z) = 1 / (1 + exp(-z))``.

    Chapter 7, equation ``(sigmoid)``. Evaluated as ``exp(z) / (1 + exp(z))`` for negative ``z``
    so that no ``exp`` overflows; the result lies in ``[0, 1]`` and never is NaN.

    Parameters
    ----------
    z : float or array-like

    Returns
    -------
    float or ndarray of the same shape

    Examples
    --------
    >>> sigmoid([-1000.0, 0.0, 1000.0])
    array([0. , 0.5, 1. ])
    """
    out = _sigmoid(as_float_array(z, "z"))
    return out.item() if out.ndim == 0 else out


# The kernels below compute the formulas on arrays that are already clean (float64, finite, the right
# shapes), and from the scores s = X w rather than from w: the public functions check their arguments
# once, compute the scores and call them; the loops of lincourse.logistic, whose arrays fit has checked,
# call them on every iteration with the scores they already hold.

def _sigmoid(z):
    e = np.exp(-np.abs(z))  # at most 1: no overflow
    return np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def _logistic_loss(t, s):
    return float(np.mean(np.logaddexp(0.0, -(2.0 * t - 1.0) * s)))


def _logistic_gradient(X, t, s):
    y = 2.0 * t - 1.0
    residual = -y * _sigmoid(-y * s)  # p - t: -sigmoid(-s) where t = 1, sigmoid(s) where t = 0
    return X.T @ residual / X.shape[0]


_ROWS = 2048  # rows of X per block of the Hessian's sum: a block of S^(1/2) X stays in the cache


def _logistic_hessian(X, s):
    e = np.exp(-np.abs(s))  # sigmoid(s) and sigmoid(-s) are 1 / (1 + e) and e / (1 + e), in some order
    root = np.sqrt(1.0 / (1.0 + e) * (e / (1.0 + e)))  # S^(1/2): p (1 - p) = sigmoid(s) sigmoid(-s)
    # X^T S X = B^T B with B = S^(1/2) X, summed over blocks of rows (the same sum, without a copy of X)
    H = np.zeros((X.shape[1], X.shape[1]))
    for start in range(0, X.shape[0], _ROWS):
        B = X[start:start + _ROWS] * root[start:start + _ROWS, None]
        H += B.T @ B
    return H / X.shape[0]


def _softmax(Z):
    E = np.exp(Z - Z.max(axis=1, keepdims=True))
    return E / E.sum(axis=1, keepdims=True)


def softmax(Z):
    """Row-wise softmax ``exp(z_k) / sum_j exp(z_j)``.

    Chapter 10, equation ``(softmax)``. Each row is shifted by its maximum first, which changes
    nothing mathematically and keeps every ``exp`` at most 1.

    Parameters
    ----------
    Z : array-like of shape (n_samples, n_classes)

    Returns
    -------
    ndarray of shape (n_samples, n_classes), rows summing to 1.

    Examples
    --------
    >>> softmax([[0.0, 0.0], [1000.0, 0.0]])
    array([[0.5, 0.5],
           [1. , 0. ]])
    """
    Z = as_float_array(Z, "Z")
    if Z.ndim != 2:
        raise ValueError(f"Z must have shape (n_samples, n_classes), got shape {Z.shape}; "
                         "for a single row of scores z, pass [z]")
    return _softmax(Z)


def cross_entropy(t, p):
    """Mean cross-entropy between targets ``t`` and predicted probabilities ``p``.

    Chapter 7, equation ``(cross-entropy)``:
    ``-(1/N) sum_i [t_i log p_i + (1 - t_i) log(1 - p_i)]`` for binary targets ``t_i in {0, 1}``
    and ``p_i = P(t_i = 1)``; chapter 10, equation ``(softmax-cross-entropy)``,
    ``-(1/N) sum_i log p_{i, t_i}``, when ``p`` has one column per class and ``t`` holds class
    indices ``0..K-1``.

    A probability of exactly 0 for an observed outcome has infinite loss; to stay finite the
    logarithms are taken of ``max(p, tiny)`` with ``tiny`` the smallest positive double, so the
    loss of a single sample is at most about 708. To avoid that floor altogether, compute the
    loss from scores with :func:`logistic_loss` or ``LogisticRegression``, which never round a
    probability first.

    Parameters
    ----------
    t : array-like of shape (n_samples,)
        Targets in {0, 1} (binary) or class indices (multiclass).
    p : array-like of shape (n_samples,) or (n_samples, n_classes)
        Probabilities in [0, 1]; rows sum to 1 in the multiclass case.

    Returns
    -------
    float

    Examples
    --------
    >>> round(cross_entropy([1, 0], [0.9, 0.2]), 6)
    0.164252
    """
    t = as_float_array(t, "t")
    p = check_probabilities(p, "p")
    if t.ndim != 1 or t.size == 0:
        raise ValueError(f"t must be a non-empty 1-D vector of targets, got shape {t.shape}")
    if p.ndim not in (1, 2) or p.shape[0] != t.size:
        raise ValueError(f"p must have shape ({t.size},) or ({t.size}, n_classes), got shape {p.shape}")
    tiny = np.finfo(float).tiny
    if p.ndim == 1:
        t = check_targets01(t, t.size)
        logp, log1mp = np.log(np.maximum(p, tiny)), np.log(np.maximum(1.0 - p, tiny))
        return float(-np.mean(t * logp + (1.0 - t) * log1mp))
    k = p.shape[1]
    if np.any((t != np.round(t)) | (t < 0) | (t >= k)):
        raise ValueError(f"t must contain class indices 0..{k - 1} when p has {k} columns, found "
                         f"{np.unique(t[(t != np.round(t)) | (t < 0) | (t >= k)])[:6].tolist()}; "
                         "number the classes 0..K-1 in the order of p's columns")
    picked = p[np.arange(t.size), t.astype(int)]
    return float(-np.mean(np.log(np.maximum(picked, tiny))))


def logistic_loss(t, scores):
    """Mean logistic loss of targets ``t`` in {0, 1} given scores ``s``: the cross-entropy from scores.

    Chapter 7, equation ``(cross-entropy)`` written with the scores: with ``p_i = sigmoid(s_i)``,
    ``-(1/N) sum_i [t_i log p_i + (1 - t_i) log(1 - p_i)] = (1/N) sum_i log(1 + exp(-y_i s_i))``,
    ``y_i = 2 t_i - 1``. Computed as ``logaddexp(0, -y s)``, exact for any score (no probability is
    rounded to 0 or 1 first, as :func:`cross_entropy` must).

    Examples
    --------
    >>> round(logistic_loss([1, 0], [2.0, -1.0]), 6)
    0.220095
    """
    s = as_float_array(scores, "scores")
    if s.ndim != 1 or s.size == 0:
        raise ValueError(f"scores must be a non-empty 1-D vector, got shape {s.shape}")
    t = check_targets01(t, s.size)
    return _logistic_loss(t, s)


def logistic_gradient(X, t, w):
    """Gradient of the mean logistic loss: ``X^T (p - t) / N`` with ``p = sigmoid(X w)``.

    Chapter 7, equation ``(gradient)``. ``X`` is the design: pass ``augment(X)`` (rows
    ``(1, x_i)``) and ``w = (b, w_1, ..., w_d)`` for a model with an offset, whose gradient's first
    entry is then ``(1/N) sum_i (p_i - t_i)``. ``p_i - t_i`` is computed as ``-sigmoid(-s_i)`` where
    ``t_i = 1``, so it keeps its full precision when ``p_i`` is close to ``t_i``.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_columns)
    t : array-like of shape (n_samples,), targets in {0, 1}
    w : array-like of shape (n_columns,)

    Returns
    -------
    ndarray of shape (n_columns,)

    Examples
    --------
    >>> logistic_gradient(augment([[1.0, 2.0], [-1.0, 0.5]]), [1, 0], [0.0, 0.0, 0.0]).tolist()
    [0.0, -0.5, -0.375]
    """
    X = check_X(X)
    w, _ = check_weights(w, n_features=X.shape[1])
    t = check_targets01(t, X.shape[0])
    return _logistic_gradient(X, t, X @ w)


def logistic_hessian(X, w):
    """Hessian of the mean logistic loss: ``X^T S X / N`` with ``S = diag(p_i (1 - p_i))``.

    Chapter 7, equation ``(hessian)``. ``X`` is the design, as in :func:`logistic_gradient`. The
    Hessian does not depend on the targets, and it is positive semi-definite, which makes the loss
    convex.

    Returns
    -------
    ndarray of shape (n_columns, n_columns)

    Examples
    --------
    >>> logistic_hessian(augment([[1.0], [-1.0]]), [0.0, 0.0]).tolist()
    [[0.25, 0.0], [0.0, 0.25]]
    """
    X = check_X(X)
    w, _ = check_weights(w, n_features=X.shape[1])
    return _logistic_hessian(X, X @ w)
