"""What every linear classifier in lincourse shares: scores and predictions from ``coef_`` and ``intercept_``.

The learners are scikit-learn estimators (:class:`~sklearn.base.BaseEstimator`,
:class:`~sklearn.base.ClassifierMixin`): ``get_params``, ``set_params``, ``clone``, ``score``, pipelines,
grid searches and cross-validation work as for scikit-learn's own. One difference, for the course's
formulas: with two classes ``coef_`` is a vector of shape ``(n_features,)`` and ``intercept_`` a
float, so that they go straight into the functions of :mod:`lincourse.geometry` (scikit-learn keeps
shape ``(1, n_features)``); with ``K > 2`` classes they have shapes ``(K, n_features)`` and ``(K,)``.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

__all__ = ["LinearClassifier"]


class LinearClassifier(ClassifierMixin, BaseEstimator):
    """``decision_function`` and ``predict`` from ``coef_``, ``intercept_`` and ``classes_``."""

    def _check_params(self):
        """Check the parameters given to ``__init__`` (each learner lists its own, with the functions of
        :mod:`lincourse._validation`); raise :class:`~lincourse._validation.InvalidParameterError`."""
        raise NotImplementedError

    def _validate_fit_inputs(self, X, y, binary):
        """The edge of ``fit``, its one validation: the parameters (``_check_params``), then ``X`` as
        finite floats and ``y`` as given. Sets ``classes_`` (sorted) and ``n_features_in_``; from here on
        ``fit`` and the loops it calls assume clean arrays."""
        self._check_params()
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if self.classes_.size < 2:
            raise ValueError(f"y must contain at least 2 classes to learn a boundary, got 1 class: {self.classes_}; "
                             "the training data need examples of every class the model should tell apart")
        if binary and self.classes_.size > 2:
            raise ValueError(f"Only binary classification is supported. The type of the target is multiclass "
                             f"({self.classes_.size} classes); use OneVsRestClassifier({type(self).__name__}()) "
                             "from sklearn.multiclass for several classes.")
        return X, y

    def decision_function(self, X):
        """Scores ``X @ coef_ + intercept_``: shape (n_samples,) for two classes, else (n_samples, K).

        For two classes a positive score means ``classes_[1]``; a score of exactly 0 means
        ``classes_[0]`` (chapter 1's convention, shared with scikit-learn).
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return X @ self.coef_.T + self.intercept_

    def predict(self, X):
        """Predicted class labels, taken from ``classes_`` (a score of 0 predicts ``classes_[0]``)."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]
