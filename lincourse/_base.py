"""What every linear classifier in lincourse shares: scores, predictions and accuracy.

A fitted estimator has ``coef_`` and ``intercept_`` and ``classes_``. For two classes ``coef_`` is a
vector of shape ``(n_features,)`` and ``intercept_`` a float, so that they can be handed straight to
the functions of :mod:`lincourse.geometry` (scikit-learn keeps shape ``(1, n_features)`` instead);
for ``K > 2`` classes they have shapes ``(K, n_features)`` and ``(K,)``.
"""

from __future__ import annotations

import contextlib
import numbers

import numpy as np

from ._validation import check_fitted, check_labels, check_X

__all__ = ["LinearClassifierMixin", "blas_threads"]

_CONTROLLER = None


def blas_threads(n_threads):
    """Context manager: the linear-algebra library (BLAS) uses at most ``n_threads`` threads inside.

    ``None`` leaves the library's setting alone. The estimators' ``fit`` run inside it, with
    ``n_threads=1`` by default: on a machine whose other cores are busy (a shared JupyterHub or
    Binder node) threads that wait for each other are slower than one, and course-size data are
    too small to gain from more.
    """
    if n_threads is None:
        return contextlib.nullcontext()
    if isinstance(n_threads, bool) or not isinstance(n_threads, numbers.Integral) or n_threads < 1:
        raise ValueError(f"n_threads must be a positive integer or None, got {n_threads!r}")
    global _CONTROLLER
    if _CONTROLLER is None:  # finding the loaded libraries takes a while: once per session
        import scipy.linalg  # noqa: F401  (scipy's BLAS too must be loaded before the controller looks)
        from threadpoolctl import ThreadpoolController

        _CONTROLLER = ThreadpoolController()
    return _CONTROLLER.limit(limits=int(n_threads), user_api="blas")


class LinearClassifierMixin:
    """``decision_function``, ``predict`` and ``score`` from ``coef_``, ``intercept_``, ``classes_``."""

    def decision_function(self, X):
        """Scores ``X @ coef_ + intercept_``: shape (n_samples,) for two classes, else (n_samples, K).

        For two classes a positive score means ``classes_[1]``; a score of exactly 0 means
        ``classes_[0]`` (chapter 1's convention, shared with scikit-learn).
        """
        check_fitted(self)
        X = check_X(X, n_features=self.n_features_in_)
        return X @ self.coef_.T + self.intercept_

    def predict(self, X):
        """Predicted class labels, taken from ``classes_``."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]

    def score(self, X, y):
        """Accuracy: the fraction of samples whose predicted label equals ``y``."""
        y = check_labels(y)
        predictions = self.predict(X)
        if y.shape != predictions.shape:
            raise ValueError(f"y must have shape {predictions.shape} to match X, got {y.shape}")
        return float(np.mean(predictions == y))

    def __repr__(self):
        params = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"{type(self).__name__}({params})"

    def get_params(self, deep=True):
        """Constructor parameters, as scikit-learn's ``get_params``."""
        import inspect

        names = inspect.signature(type(self).__init__).parameters
        return {name: getattr(self, name) for name in names if name != "self"}

    def set_params(self, **params):
        """Set constructor parameters, as scikit-learn's ``set_params``; returns self."""
        valid = self.get_params()
        for name, value in params.items():
            if name not in valid:
                raise ValueError(f"{name!r} is not a parameter of {type(self).__name__}; valid: {sorted(valid)}")
            setattr(self, name, value)
        return self
