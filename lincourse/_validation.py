"""One validation path for the public functions of lincourse, built on scikit-learn's.

Arrays go through :func:`sklearn.utils.check_array` (float64, finite, dense), so a function of
lincourse accepts and refuses exactly what a scikit-learn estimator does, with its messages. The
estimators themselves call :func:`sklearn.utils.validation.validate_data`. What is the course's own
is checked here: labels in {-1, +1} where a formula multiplies by ``y``, targets in {0, 1} where it
uses ``t``, a weight vector of the right length. Warnings go through :func:`warn`, which points
them at the reader's own line.
"""

from __future__ import annotations

import numbers
import sys
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.utils import check_array

__all__ = [
    "ConvergenceWarning",
    "NotFittedError",
    "SeparationWarning",
    "as_float_array",
    "check_X",
    "check_weights",
    "check_labels_pm1",
    "check_targets01",
    "check_option",
    "check_positive",
    "check_random_state",
    "warn",
]


class SeparationWarning(UserWarning):
    """The classes are (completely or quasi-completely) separated: the maximum-likelihood logistic
    regression does not exist, and the coefficients grow without bound (chapter 8).

    Not a :class:`ConvergenceWarning` (a solver that stopped at its iteration limit): the solver did
    what it could, the estimate itself does not exist, so silencing convergence warnings does not
    silence this one."""


def _clean(value):
    """A float64 array with finite entries needs no conversion: inner loops pass these.

    A finite sum proves every entry finite without a temporary array; only if it is not (NaN, inf,
    or an overflow of huge finite values) are the entries checked one by one."""
    if type(value) is not np.ndarray or value.dtype != np.float64:
        return False
    with np.errstate(over="ignore", invalid="ignore"):
        return bool(np.isfinite(value.sum()) or np.isfinite(value).all())


def as_float_array(value, name):
    """``value`` (a number or array-like of any shape) as a finite float64 array."""
    if _clean(value):
        return value
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be numeric array-like, got {type(value).__name__} {value!r}")
    return check_array(value, dtype=np.float64, ensure_2d=False, allow_nd=True, ensure_min_samples=0,
                       input_name=name)


def check_X(X, name="X", n_features=None, allow_1d=False):
    """Return ``X`` as a finite float array of shape ``(n_samples, n_features)``.

    With ``allow_1d=True`` a single point of shape ``(n_features,)`` is accepted and returned as a
    one-row matrix; the second return value then says whether the input was a single point.
    """
    single = allow_1d and np.ndim(X) == 1
    if not (_clean(X) and X.ndim == 2 and X.size):
        X = check_array([X] if single else X, dtype=np.float64, input_name=name)
    elif single:
        X = X[None, :]
    if n_features is not None and X.shape[1] != n_features:
        raise ValueError(f"{name} has {X.shape[1]} features but {n_features} were expected "
                         "(the length of the weight vector, or the number of features seen in fit)")
    return (X, single) if allow_1d else X


def check_weights(w, b=0.0, n_features=None, nonzero=False):
    """Return ``(w, b)`` as a finite 1-D float vector and a float (``nonzero``: refuse ``w = 0``)."""
    w = as_float_array(w, "w")
    if w.ndim != 1 or w.size == 0:
        raise ValueError(f"w must be a non-empty 1-D vector of shape (n_features,), got shape {w.shape}")
    if n_features is not None and w.size != n_features:
        raise ValueError(f"w has {w.size} entries but X has {n_features} features; they must match")
    b = as_float_array(b, "b")
    if b.size != 1:
        raise ValueError(f"b must be a scalar (the offset), got an array of shape {b.shape}")
    if nonzero and not np.any(w):
        raise ValueError("w must not be the zero vector: this quantity divides by ||w||")
    return w, float(b.reshape(()))


def _check_vector(values, n_samples, name, allowed, fix):
    values = as_float_array(values, name)
    if values.ndim != 1 or values.size != n_samples:
        raise ValueError(f"{name} must be a vector with one entry per sample ({n_samples}), got shape {values.shape}")
    bad = np.setdiff1d(np.unique(values), allowed)
    if bad.size:
        raise ValueError(f"{name} must contain only {' and '.join(map(str, allowed))}, found {bad[:6].tolist()}; {fix}")
    return values


def check_labels_pm1(y, n_samples, name="y"):
    """Labels as a float vector with entries in {-1, +1} (the formulas multiply by ``y``)."""
    return _check_vector(y, n_samples, name, [-1, 1], "map {0, 1} targets t with y = 2 * t - 1")


def check_targets01(t, n_samples, name="t"):
    """Targets as a float vector with entries in {0, 1} (chapters 7-9's ``t``)."""
    return _check_vector(t, n_samples, name, [0, 1], "map {-1, +1} labels y with t = (y + 1) / 2")


def check_option(value, name, options):
    """Check that ``value`` is one of the strings in ``options``."""
    if not isinstance(value, str) or value not in options:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, options))}, got {value!r}")
    return value


def check_positive(value, name, integer=False):
    """Check that ``value`` is a finite number > 0 (an integer with ``integer=True``)."""
    kind = numbers.Integral if integer else numbers.Real
    if isinstance(value, bool) or not isinstance(value, kind) or not (0 < value < np.inf):
        raise ValueError(f"{name} must be a finite {'integer' if integer else 'number'} > 0, got {value!r}")
    return value


def check_random_state(random_state):
    """``None``, an int or a :class:`numpy.random.Generator` as a Generator (the course's seeds)."""
    if isinstance(random_state, bool) or not (
            random_state is None or isinstance(random_state, (numbers.Integral, np.random.Generator))):
        raise ValueError(f"random_state must be None, an int or a numpy Generator, got {random_state!r}")
    return np.random.default_rng(random_state)


_LIBRARIES = ("lincourse", "sklearn", "joblib")


def warn(message, category=ConvergenceWarning):
    """Issue a warning at the reader's own line: the first caller outside lincourse and scikit-learn.

    A warning from ``fit`` then names the notebook cell (or script line) that called ``fit``, also
    when the call went through ``cross_val_score`` or a ``Pipeline``.
    """
    frame, level = sys._getframe(1), 2
    while frame is not None and frame.f_globals.get("__name__", "").split(".")[0] in _LIBRARIES:
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)
