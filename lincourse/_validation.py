"""One validation path for every public function of lincourse.

Each public function calls these helpers once, at its boundary, and assumes clean arrays afterwards.
Every message names the argument and says what was expected, so the reader knows the fix.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np

__all__ = [
    "ConvergenceWarning",
    "NotFittedError",
    "SeparationWarning",
    "check_X",
    "check_X_y",
    "check_labels",
    "check_weights",
    "check_labels_pm1",
    "check_option",
    "check_positive",
    "check_fitted",
    "check_random_state",
    "warn_not_converged",
]


class ConvergenceWarning(UserWarning):
    """An iterative learner stopped at its iteration limit before its stopping rule was met."""


class SeparationWarning(ConvergenceWarning):
    """The classes are (completely or quasi-completely) separated: the maximum-likelihood logistic
    regression does not exist, and the coefficients grow without bound (chapter 5)."""


class NotFittedError(ValueError, AttributeError):
    """An estimator was asked to predict before :meth:`fit` was called."""


def _as_float_array(value, name):
    """``value`` as a float64 array, from anything numeric that numpy or pandas users pass.

    Accepted: numbers, (nested) lists, numpy arrays of bool, integer or float dtype, numpy arrays of
    dtype object holding numbers, pandas DataFrames and Series (bool, integer, float and the
    nullable Int64 / Float64 / boolean columns). Refused, with the fix: sparse matrices, strings,
    ragged lists, missing values, complex numbers, non-finite entries.
    """
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be numeric array-like, got {type(value).__name__} {value!r}")
    if _is_sparse(value):
        raise TypeError(
            f"{name} is a sparse matrix ({type(value).__name__}); lincourse works with dense arrays. "
            f"Convert it with {name}.toarray() (it then holds every entry, zeros included)"
        )
    if _is_pandas(value):
        value = _pandas_to_numpy(value, name)
    try:
        arr = np.asarray(value)
    except ValueError as exc:  # ragged lists and the like
        raise ValueError(
            f"{name} must be a rectangular numeric array (every row the same length), got a ragged "
            f"sequence ({exc}); pad or drop the short rows"
        ) from None
    if arr.dtype == object:
        arr = _object_to_float(arr, name)
    elif arr.dtype.kind == "c":
        raise ValueError(f"Complex data not supported: {name} must be real numbers, got dtype {arr.dtype}; use "
                         f"{name}.real if the imaginary parts are 0")
    elif arr.dtype.kind in "USa":
        raise TypeError(f"{name} must be numeric, got text (dtype {arr.dtype}); convert the strings to numbers "
                        f"first, e.g. {name}.astype(float), or encode categories as 0/1 columns")
    elif arr.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be numeric (bool, int or float), got dtype {arr.dtype}; convert it to "
                        "numbers first")
    arr = arr.astype(float, copy=False)
    # A finite sum proves every entry finite without a temporary array; only if it is not (NaN, inf,
    # or an overflow of huge but finite values) are the entries checked one by one.
    with np.errstate(over="ignore", invalid="ignore"):
        finite_sum = np.isfinite(arr.sum())
    if not finite_sum and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinity (NaN: a missing value); remove or impute those "
                         "entries first")
    return arr


def _is_sparse(value):
    return type(value).__module__.startswith("scipy.sparse") or (
        hasattr(value, "toarray") and hasattr(value, "nnz"))


def _is_pandas(value):
    return type(value).__module__.startswith("pandas") and hasattr(value, "to_numpy")


def _pandas_to_numpy(value, name):
    """A pandas DataFrame or Series as a float array; missing values become NaN (refused later)."""
    dtypes = value.dtypes if hasattr(value, "columns") else {getattr(value, "name", None): value.dtype}
    items = dtypes.items() if hasattr(dtypes, "items") else []
    bad = [column for column, dtype in items
           if getattr(dtype, "kind", "O") not in "biuf" and not _numeric_object_column(value, column)]
    if bad:
        kinds = ", ".join(f"{column!r} ({dtypes[column]})" for column in bad[:5])
        raise TypeError(
            f"{name} has columns that are not numeric: {kinds}; convert them to numbers, e.g. "
            "pandas.get_dummies for categories, or drop them"
        )
    return value.to_numpy(dtype=float, na_value=np.nan)


def _numeric_object_column(value, column):
    series = value[column] if hasattr(value, "columns") else value
    if series.dtype != object:
        return False
    return all(isinstance(v, (numbers.Real, np.bool_)) for v in series.to_numpy())


def _object_to_float(arr, name):
    """An array of dtype object whose entries are numbers (int, float, bool, numpy scalars)."""
    flat = arr.ravel()
    for v in flat:
        if isinstance(v, (np.ndarray, list, tuple)):
            raise ValueError(
                f"{name} must be a rectangular numeric array (every row the same length); got a ragged "
                "sequence; pad or drop the short rows"
            )
        if not isinstance(v, (numbers.Real, np.bool_)):
            what = "missing values (None)" if v is None else f"{type(v).__name__} values such as {v!r}"
            raise TypeError(
                f"{name} must contain only numbers, but it has {what}; convert them to numbers first "
                f"(missing values: remove or impute them)"
            )
    return arr.astype(float)


def check_X(X, name="X", n_features=None, allow_1d=False):
    """Return ``X`` as a finite float array of shape ``(n_samples, n_features)``.

    With ``allow_1d=True`` a single point of shape ``(n_features,)`` is accepted and returned as a
    one-row matrix; the second return value then says whether the input was a single point.
    """
    X = _as_float_array(X, name)
    single = False
    if X.ndim == 1 and allow_1d:
        X, single = X[None, :], True
    if X.ndim != 2:
        expected = "(n_samples, n_features) or (n_features,)" if allow_1d else "(n_samples, n_features)"
        hint = (f"; Reshape your data: {name}.reshape(1, -1) if it is one sample, {name}.reshape(-1, 1) if it is "
                "one feature") if X.ndim == 1 else ""
        raise ValueError(f"{name} must have shape {expected}, got an array of shape {X.shape}{hint}")
    if X.shape[0] == 0:
        raise ValueError(f"{name} is empty: it needs at least one sample (row), got shape {X.shape}")
    if X.shape[1] == 0:
        raise ValueError(f"{name} has no features (columns), got shape {X.shape}")
    if n_features is not None and X.shape[1] != n_features:
        raise ValueError(
            f"{name} has {X.shape[1]} features but {n_features} were expected "
            "(the length of the weight vector, or the number of features seen in fit)"
        )
    return (X, single) if allow_1d else X


def check_weights(w, b=0.0, n_features=None, nonzero=False):
    """Return ``(w, b)`` as a finite 1-D float vector and a float.

    ``nonzero=True`` rejects ``w = 0``, for the formulas that divide by ``||w||``.
    """
    w = _as_float_array(w, "w")
    if w.ndim != 1:
        raise ValueError(f"w must be a 1-D vector of shape (n_features,), got shape {w.shape}")
    if w.size == 0:
        raise ValueError("w is empty: it needs one weight per feature")
    if n_features is not None and w.size != n_features:
        raise ValueError(f"w has {w.size} entries but X has {n_features} features; they must match")
    b_arr = _as_float_array(b, "b")
    if b_arr.size != 1:
        raise ValueError(f"b must be a scalar (the offset), got an array of shape {b_arr.shape}")
    if nonzero and not np.any(w):
        raise ValueError("w must not be the zero vector: this quantity divides by ||w||")
    return w, float(b_arr.reshape(()))


def check_labels_pm1(y, n_samples, name="y"):
    """Return labels as a float vector with entries in {-1, +1}, one per sample."""
    y = _as_float_array(y, name)
    if y.ndim != 1:
        raise ValueError(f"{name} must be a 1-D vector of labels, got shape {y.shape}")
    if y.size != n_samples:
        raise ValueError(f"{name} has {y.size} labels but X has {n_samples} samples; they must match")
    bad = np.setdiff1d(np.unique(y), [-1.0, 1.0])
    if bad.size:
        raise ValueError(
            f"{name} must contain only the labels -1 and +1 (this formula multiplies by y), "
            f"found {_fmt(bad)}; map {{0, 1}} labels with y = 2 * t - 1"
        )
    return y


def check_X_y(X, y, min_classes=2, max_classes=2):
    """Validate a training set: ``X`` as in :func:`check_X`, ``y`` 1-D of matching length.

    Returns ``X``, ``y`` (1-D, the labels as given: numbers stay numbers, strings stay strings)
    and ``classes`` (sorted unique labels), after checking that the number of classes lies in
    ``[min_classes, max_classes]`` (``None``: no upper limit).
    """
    X = check_X(X)
    if y is None:
        raise ValueError("this estimator requires y to be passed, but the target y is None: call fit(X, y) "
                         "with one label per row of X")
    y = check_labels(y)
    if y.dtype.kind == "f" and np.any(y != np.round(y)):
        raise ValueError(
            f"y looks continuous (non-integer values such as {_fmt(y[y != np.round(y)], 3)}), but a classifier "
            "needs class labels; for a regression target use a regression model, or turn the values into "
            "classes first (e.g. y > threshold)"
        )
    if y.shape[0] != X.shape[0]:
        raise ValueError(f"y has {y.shape[0]} labels but X has {X.shape[0]} samples; they must match")
    classes = np.unique(y)
    if classes.size < min_classes or (max_classes is not None and classes.size > max_classes):
        want = f"exactly {min_classes}" if min_classes == max_classes else f"at least {min_classes}"
        got = f"{classes.size} class" + ("" if classes.size == 1 else "es")
        raise ValueError(f"y must contain {want} classes, got {got}: {_fmt(classes)}")
    return X, y, classes


def check_labels(y, name="y"):
    """Class labels as a 1-D numpy array that keeps their type (numbers, strings, bools).

    pandas Series (nullable Int64, boolean and categorical ones included) and lists are accepted;
    missing labels and labels of mixed types (numbers and strings) are refused.
    """
    if isinstance(y, (str, bytes)):
        raise TypeError(f"{name} must be array-like of labels, got {type(y).__name__}")
    if _is_sparse(y):
        raise TypeError(f"{name} is a sparse matrix; pass the labels as a dense 1-D array, e.g. "
                        f"{name}.toarray().ravel()")
    if _is_pandas(y):
        if bool(np.asarray(y.isna()).any()):
            raise ValueError(f"{name} has missing labels (NA); every sample needs a label: drop those rows")
        numpy_dtype = getattr(y.dtype, "numpy_dtype", None)  # nullable Int64, Float64, boolean
        y = y.to_numpy(dtype=numpy_dtype) if numpy_dtype is not None else y.to_numpy()
    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        y = y.ravel()
    if y.ndim != 1:
        raise ValueError(f"{name} must be a 1-D vector of labels, got shape {y.shape}")
    if y.dtype.kind == "f" and not np.all(np.isfinite(y)):
        raise ValueError(f"{name} contains NaN or infinity; every sample needs a label")
    if y.dtype == object:
        if any(v is None or (isinstance(v, float) and not np.isfinite(v)) for v in y):
            raise ValueError(f"{name} has missing labels (None or NaN); every sample needs a label: drop those rows")
        try:
            np.unique(y)
        except TypeError:
            kinds = sorted({type(v).__name__ for v in y})
            raise TypeError(
                f"{name} mixes labels of different types ({', '.join(kinds)}), which cannot be ordered; "
                f"use one type, e.g. {name} = numpy.asarray({name}).astype(str)"
            ) from None
        if all(isinstance(v, (numbers.Number, np.bool_)) for v in y):
            y = np.array(y.tolist())  # numbers of dtype object: their numeric dtype (1 and 6 stay 1 and 6)
    return y


def check_option(value, name, options):
    """Check that ``value`` is one of the strings in ``options``."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be one of {_fmt_options(options)}, got {value!r}")
    if value not in options:
        raise ValueError(f"{name} must be one of {_fmt_options(options)}, got {value!r}")
    return value


def check_positive(value, name, integer=False, allow_inf=False):
    """Check that ``value`` is a positive number (a positive integer with ``integer=True``)."""
    kind = numbers.Integral if integer else numbers.Real
    if isinstance(value, bool) or not isinstance(value, kind):
        what = "an integer" if integer else "a number"
        raise TypeError(f"{name} must be {what} > 0, got {value!r} of type {type(value).__name__}")
    if not (value > 0) or (not allow_inf and not np.isfinite(value)):
        raise ValueError(f"{name} must be > 0{'' if allow_inf else ' and finite'}, got {value!r}")
    return value


def check_fitted(estimator, attribute="coef_"):
    """Raise :class:`NotFittedError` if ``estimator`` has not been fitted."""
    if not hasattr(estimator, attribute):
        raise NotFittedError(
            f"This {type(estimator).__name__} instance is not fitted yet; call fit(X, y) before using it"
        )


def check_random_state(random_state):
    """Turn ``None``, an int or a Generator into a :class:`numpy.random.Generator`."""
    if random_state is None or isinstance(random_state, (numbers.Integral, np.random.SeedSequence)):
        if isinstance(random_state, bool):
            raise TypeError("random_state must be None, an int or a numpy Generator, got a bool")
        return np.random.default_rng(random_state)
    if isinstance(random_state, np.random.Generator):
        return random_state
    raise TypeError(f"random_state must be None, an int or a numpy Generator, got {random_state!r}")


def warn_not_converged(message):
    """Issue a :class:`ConvergenceWarning` attributed to the user's call site."""
    warnings.warn(message, ConvergenceWarning, stacklevel=3)


def _fmt(values, limit=6):
    values = list(np.asarray(values).tolist())
    shown = ", ".join(repr(v) for v in values[:limit])
    return f"[{shown}{', ...' if len(values) > limit else ''}]"


def _fmt_options(options):
    return ", ".join(repr(o) for o in options)
