"""The one validation path of lincourse: every input is checked once, at the public edge.

Where the checks happen:

* an estimator's ``fit`` calls ``self._validate_fit_inputs(X, y)`` (:mod:`lincourse._base`), which
  checks the parameters given to ``__init__`` (``_check_params``, built from the ``check_*``
  functions below) and the data (scikit-learn's public :func:`sklearn.utils.validation.validate_data`);
  ``predict`` and ``decision_function`` check ``X`` the same way against the fitted model;
* a public function (``lincourse.signed_distance``, ``lincourse.logistic_gradient``, ...) checks its
  arguments with the ``check_*`` functions below, then calls its numerical kernel;
* the kernels (private functions such as ``lincourse.losses._logistic_gradient``, and the loops of
  the learners, ``_newton``, ``_gradient_descent``, ``_next_mistake``) check nothing: they receive clean
  float64 arrays of the right shapes, so an iteration pays only for its arithmetic.

Arrays go through :func:`sklearn.utils.check_array` (float64, finite, dense), so lincourse accepts and
refuses exactly what a scikit-learn estimator does, with its messages. What is the course's own is
checked here: labels in {-1, +1} where a formula multiplies by ``y``, targets in {0, 1} where it uses
``t``, probabilities in [0, 1], a weight vector of the right length. A message names the argument,
says what was wrong and what to do instead, e.g. "t must contain only 0 and 1, found [-1.0]; map
{-1, +1} labels y with t = (y + 1) / 2". A bad parameter raises :class:`InvalidParameterError`.

Warnings go through :func:`warn`, which points them at the reader's own line.
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
    "InvalidParameterError",
    "NotFittedError",
    "SeparationWarning",
    "as_float_array",
    "check_X",
    "check_weights",
    "check_labels_pm1",
    "check_targets01",
    "check_two_classes",
    "check_probabilities",
    "check_option",
    "check_bool",
    "check_positive",
    "check_nonnegative",
    "check_random_state",
    "warn",
]


class SeparationWarning(UserWarning):
    """The classes are (completely or quasi-completely) separated: the maximum-likelihood logistic
    regression does not exist, and the coefficients grow without bound (chapter 8).

    Not a :class:`ConvergenceWarning` (a solver that stopped at its iteration limit): the solver did
    what it could, the estimate itself does not exist, so silencing convergence warnings does not
    silence this one."""


class InvalidParameterError(ValueError, TypeError):
    """A parameter of the wrong type or out of its range.

    Both a ``ValueError`` and a ``TypeError``, as scikit-learn's own parameter errors are, so that code
    written against scikit-learn's estimators catches lincourse's too."""


# ---------------------------------------------------------------------------------------------
# Arrays
# ---------------------------------------------------------------------------------------------

def _finite_float64(value):
    """``value`` itself as an array when it already is float64 (an array or a float) and finite, else None.

    The common case, inside a slider step or a learner's loop: it needs none of scikit-learn's general
    checks (each about 0.2 ms), which still see every other input and word its errors.
    """
    if isinstance(value, float) or (type(value) is np.ndarray and value.dtype == np.float64):
        array = np.asarray(value)
        if array.size and np.isfinite(array).all():
            return array
    return None


def as_float_array(value, name):
    """``value`` (a number or array-like of any shape) as a finite float64 array."""
    fast = _finite_float64(value)
    if fast is not None:
        return fast
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be numeric (a number or an array of numbers), got the {type(value).__name__} "
                        f"{value!r}; convert text with float()")
    return check_array(value, dtype=np.float64, ensure_2d=False, allow_nd=True, ensure_min_samples=0,
                       input_name=name)


def check_X(X, name="X", n_features=None, allow_1d=False):
    """Return ``X`` as a finite float array of shape ``(n_samples, n_features)``.

    With ``allow_1d=True`` a single point of shape ``(n_features,)`` is accepted and returned as a
    one-row matrix; the second return value then says whether the input was a single point.
    """
    single = allow_1d and np.ndim(X) == 1
    fast = _finite_float64(X)
    if fast is not None and fast.ndim == (1 if single else 2) and fast.size:
        X = fast.reshape(1, -1).copy() if single else fast
    else:
        X = check_array([X] if single else X, dtype=np.float64, input_name=name)
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


def check_two_classes(y, n_samples, name="y"):
    """Labels of exactly two classes, any two values: ``(signs, classes)``, the larger class as ``+1``."""
    y = np.asarray(y)
    if y.ndim != 1 or y.size != n_samples:
        raise ValueError(f"{name} must be a vector with one label per sample ({n_samples}), got shape {y.shape}")
    classes = np.unique(y)
    if classes.size != 2:
        raise ValueError(f"{name} must contain exactly 2 classes, got {classes.size}: {classes[:6]}; "
                         "this question is about two classes (compare one class with the rest for more)")
    return np.where(y == classes[1], 1.0, -1.0), classes


def check_probabilities(p, name="p"):
    """``p`` as a float array of probabilities, every entry in [0, 1]."""
    p = as_float_array(p, name)
    if np.any((p < 0) | (p > 1)):
        raise ValueError(f"{name} must contain probabilities in [0, 1], found {p[(p < 0) | (p > 1)][:6].tolist()}; "
                         "pass predict_proba's values, not scores (sigmoid turns a score into a probability)")
    return p


# ---------------------------------------------------------------------------------------------
# Parameters (of the estimators and of the public functions)
# ---------------------------------------------------------------------------------------------

def check_option(value, name, options, fix=""):
    """Check that ``value`` is one of the strings in ``options`` (``fix``: advice added to the message)."""
    if not isinstance(value, str) or value not in options:
        raise InvalidParameterError(f"{name} must be one of {', '.join(map(repr, options))}, got {value!r}"
                                    + (f"; {fix}" if fix else ""))
    return value


def check_bool(value, name):
    """Check that ``value`` is True or False."""
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidParameterError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def check_positive(value, name, integer=False, allow_inf=False, fix=""):
    """Check that ``value`` is a number > 0: finite unless ``allow_inf``, an integer with ``integer=True``."""
    kind = numbers.Integral if integer else numbers.Real
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, kind) or not (0 < value <= np.inf) or (
            value == np.inf and not allow_inf):
        what = "an integer >= 1" if integer else f"a {'' if allow_inf else 'finite '}number > 0"
        raise InvalidParameterError(f"{name} must be {what}, got {value!r}"
                                    + (f" of type {type(value).__name__}" if not isinstance(value, kind) else "")
                                    + (f"; {fix}" if fix else ""))
    return value


def check_nonnegative(value, name):
    """Check that ``value`` is a finite number >= 0."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real) or not (0 <= value < np.inf):
        raise InvalidParameterError(f"{name} must be a finite number >= 0, got {value!r}")
    return value


def check_random_state(random_state):
    """``None``, an int >= 0 or a :class:`numpy.random.Generator`, as a Generator (the course's seeds)."""
    if isinstance(random_state, (bool, np.bool_)) or not (
            random_state is None or isinstance(random_state, np.random.Generator)
            or (isinstance(random_state, numbers.Integral) and random_state >= 0)):
        raise InvalidParameterError(f"random_state must be None, an int >= 0 (a seed) or a numpy Generator, "
                                    f"got {random_state!r}")
    return np.random.default_rng(random_state)


# ---------------------------------------------------------------------------------------------
# Warnings
# ---------------------------------------------------------------------------------------------

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
