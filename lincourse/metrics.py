"""Judging a probabilistic classifier: calibration, the ROC curve, and cross-validation.

Chapter 5 (*Logistic regression*, sections *A real data set* and *Choosing C*) asks whether,
among the points to which a model gives a probability near ``q`` of the positive class, about a
fraction ``q`` really are positive (:func:`calibration_table`); how the true-positive and
false-positive rates trade off as the threshold moves (:func:`roc_curve`, :func:`roc_auc`); and
which penalty ``C`` predicts held-out points best (:func:`cross_val_score`, with the folds of
:func:`lincourse.preprocessing.k_fold`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validation import _as_float_array, check_option, check_positive, check_X

__all__ = ["CalibrationTable", "calibration_table", "roc_curve", "roc_auc", "cross_val_score",
           "wilson_interval"]


@dataclass(frozen=True)
class CalibrationTable:
    """Per-bin counts, mean predicted probability and observed frequency of the positive class.

    ``low`` and ``high`` bound a 95 % Wilson score interval for the observed frequency of each bin:
    the range of true frequencies that the bin's count is consistent with. A bin of a handful of
    points has a wide interval and supports no claim about calibration.

    ``str(table)`` is a fixed-width text table, one row per bin (empty bins show ``-``).
    """

    edges: np.ndarray
    count: np.ndarray
    mean_predicted: np.ndarray
    observed: np.ndarray
    low: np.ndarray
    high: np.ndarray

    def __str__(self):
        lines = ["bin                  n   mean p   observed   95% interval"]
        last = len(self.count) - 1
        for j, (lo, hi, n, p, o, a, b) in enumerate(zip(self.edges[:-1], self.edges[1:], self.count,
                                                        self.mean_predicted, self.observed, self.low, self.high)):
            span = f"[{lo:.3f}, {hi:.3f}{']' if j == last else ')'}"  # the last bin is closed
            if n == 0:
                lines.append(f"{span} {n:4d}        -          -              -")
            else:
                lines.append(f"{span} {n:4d}   {p:6.3f}     {o:6.3f}   [{a:.3f}, {b:.3f}]")
        return "\n".join(lines)


def wilson_interval(k, n, z=1.959963984540054):
    """Wilson score interval for a proportion: ``k`` successes out of ``n`` trials.

    Chapter 5 (calibration). Returns ``(low, high)``, NaN where ``n = 0``. With ``z`` the standard
    normal quantile (the default gives 95 %), the interval is
    ``(k + z^2/2 -+ z sqrt(k (n - k) / n + z^2 / 4)) / (n + z^2)``
    (E. B. Wilson, *Probable inference, the law of succession, and statistical inference*, 1927).

    Examples
    --------
    >>> low, high = wilson_interval(2, 2)
    >>> round(float(low), 3), round(float(high), 3)
    (0.342, 1.0)
    """
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        centre = (k + z * z / 2) / (n + z * z)
        half = z / (n + z * z) * np.sqrt(np.maximum(k * (n - k) / n, 0.0) + z * z / 4)
        low = np.where(n > 0, np.clip(centre - half, 0.0, 1.0), np.nan)
        high = np.where(n > 0, np.clip(centre + half, 0.0, 1.0), np.nan)
    return low, high


def calibration_table(t, p, n_bins=5, strategy="uniform"):
    """Group predicted probabilities into bins and compare them with the outcomes.

    Chapter 5. A model is *calibrated* when, in every bin, the mean predicted probability
    ``mean_predicted`` is close to the fraction ``observed`` of positive outcomes. Each bin also
    gets a 95 % Wilson interval for its observed fraction (:func:`wilson_interval`), so that a
    bin of a few points is seen to prove nothing.

    Parameters
    ----------
    t : array-like of shape (n_samples,)
        Outcomes in {0, 1} (1 = the class whose probability is predicted).
    p : array-like of shape (n_samples,)
        Predicted probabilities ``P(t = 1 | x)`` in [0, 1].
    n_bins : int, default=5
    strategy : {"uniform", "quantile"}, default="uniform"
        ``"uniform"``: the bins ``[0, 1/n), [1/n, 2/n), ..., [(n-1)/n, 1]``. ``"quantile"``: edges
        at the quantiles of ``p``, so that the bins hold about equally many points (scikit-learn's
        ``calibration_curve`` with the same strategy uses the same bins).

    Returns
    -------
    CalibrationTable
        ``edges`` (n_bins + 1,), ``count`` (n_bins,) ints, ``mean_predicted``, ``observed``, ``low``
        and ``high`` (n_bins,), NaN for empty bins.

    Examples
    --------
    >>> table = calibration_table([0, 0, 1, 1], [0.1, 0.3, 0.7, 0.9], n_bins=2)
    >>> table.count.tolist(), table.mean_predicted.tolist(), table.observed.tolist()
    ([2, 2], [0.2, 0.8], [0.0, 1.0])
    """
    t = _as_float_array(t, "t")
    p = _as_float_array(p, "p")
    check_positive(n_bins, "n_bins", integer=True)
    check_option(strategy, "strategy", ("uniform", "quantile"))
    if t.ndim != 1 or p.shape != t.shape:
        raise ValueError(f"t and p must be 1-D vectors of the same length, got shapes {t.shape} and {p.shape}")
    if t.size == 0:
        raise ValueError("t and p are empty; a calibration table needs at least one prediction")
    if np.any((t != 0) & (t != 1)):
        raise ValueError("t must contain only the outcomes 0 and 1 (map labels y in {-1, +1} with t = (y + 1) / 2)")
    if np.any((p < 0) | (p > 1)):
        raise ValueError("p must contain probabilities in [0, 1]")
    if strategy == "uniform":
        edges = np.linspace(0.0, 1.0, n_bins + 1)
        which = np.minimum((p * n_bins).astype(int), n_bins - 1)
    else:
        edges = np.percentile(p, np.linspace(0.0, 100.0, n_bins + 1))
        which = np.searchsorted(edges[1:-1], p)
    count = np.bincount(which, minlength=n_bins)
    positives = np.bincount(which, weights=t, minlength=n_bins)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_predicted = np.bincount(which, weights=p, minlength=n_bins) / count
        observed = positives / count
    low, high = wilson_interval(positives, count)
    return CalibrationTable(edges, count, mean_predicted, observed, low, high)


def _binary_targets(t, scores):
    t = _as_float_array(t, "t")
    scores = _as_float_array(scores, "scores")
    if t.ndim != 1 or scores.shape != t.shape:
        raise ValueError(f"t and scores must be 1-D vectors of the same length, got shapes {t.shape} and "
                         f"{scores.shape}")
    if np.any((t != 0) & (t != 1)):
        raise ValueError("t must contain only the outcomes 0 and 1 (map labels y in {-1, +1} with t = (y + 1) / 2)")
    if not (np.any(t == 1) and np.any(t == 0)):
        raise ValueError("t must contain both outcomes 0 and 1: a rate of true or false positives needs both")
    return t, scores


def roc_curve(t, scores):
    """The receiver operating characteristic: true- against false-positive rate, for every threshold.

    Chapter 5 (section *The ROC curve*). Predicting positive when ``score >= threshold`` gives the
    false-positive rate ``FPR = #{score >= threshold, t = 0} / #{t = 0}`` and the true-positive
    rate ``TPR = #{score >= threshold, t = 1} / #{t = 1}``. The thresholds are the distinct
    scores, from the largest down, preceded by ``+inf`` (nothing predicted positive), so the
    curve runs from (0, 0) to (1, 1). Any increasing transform of the scores (probabilities
    instead of scores, say) gives the same curve.

    Parameters
    ----------
    t : array-like of shape (n_samples,)
        Outcomes in {0, 1}, both present.
    scores : array-like of shape (n_samples,)
        Larger means more likely ``t = 1``.

    Returns
    -------
    fpr, tpr, thresholds : ndarrays of shape (n_distinct_scores + 1,)
        The same as scikit-learn's ``roc_curve(t, scores, drop_intermediate=False)``.

    Examples
    --------
    >>> fpr, tpr, thr = roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr.tolist(), tpr.tolist()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    """
    t, scores = _binary_targets(t, scores)
    order = np.argsort(-scores, kind="stable")
    s, tt = scores[order], t[order]
    last = np.r_[np.flatnonzero(np.diff(s) != 0), s.size - 1]  # last index of each distinct score
    tp = np.cumsum(tt)[last]
    fp = (last + 1) - tp
    fpr = np.r_[0.0, fp / fp[-1]]
    tpr = np.r_[0.0, tp / tp[-1]]
    return fpr, tpr, np.r_[np.inf, s[last]]


def roc_auc(t, scores):
    """Area under the ROC curve (trapezoidal rule): the probability that a random positive scores
    higher than a random negative, ties counting one half.

    Chapter 5 (section *The ROC curve*). 1 for scores that rank every positive above every
    negative, 0.5 for scores unrelated to the outcome.

    Examples
    --------
    >>> roc_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    """
    fpr, tpr, _ = roc_curve(t, scores)
    return float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2))


def cross_val_score(estimator, X, y, n_splits=5, scoring="accuracy", standardize=False, random_state=None,
                    stratify=True):
    """Score an estimator on ``n_splits`` held-out folds, each time fitting it on the other folds.

    Chapter 5 (section *Choosing C by cross-validation*). The rows are split by
    :func:`lincourse.preprocessing.k_fold`; for fold ``j`` a fresh copy of ``estimator`` (same
    parameters) is fitted on the other folds and scored on fold ``j``. With ``standardize=True``
    a :class:`~lincourse.preprocessing.Standardizer` is fitted on the training folds only and
    applied to both, so nothing about the held-out fold leaks into the fit.

    Parameters
    ----------
    estimator : a lincourse classifier (``get_params``, ``fit``, ``decision_function``)
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,), two classes
    n_splits : int, default=5
    scoring : {"accuracy", "log_loss"}, default="accuracy"
        ``"accuracy"``: fraction of the fold classified correctly (larger is better).
        ``"log_loss"``: mean cross-entropy on the fold, computed from the scores (smaller is better).
    standardize : bool, default=False
    random_state : int, numpy Generator or None
    stratify : bool, default=True

    Returns
    -------
    ndarray of shape (n_splits,)
        One score per fold.

    Examples
    --------
    >>> from lincourse.logistic import LogisticRegression
    >>> X = np.r_[np.linspace(-2, 1, 10), np.linspace(-1, 2, 10)][:, None]; y = np.r_[[0] * 10, [1] * 10]
    >>> cross_val_score(LogisticRegression(C=1.0), X, y, n_splits=5, random_state=0).shape
    (5,)
    """
    from .losses import logistic_loss
    from .preprocessing import Standardizer, k_fold

    check_option(scoring, "scoring", ("accuracy", "log_loss"))
    X = check_X(X)
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise ValueError(f"y must be a 1-D vector with one label per row of X ({X.shape[0]}), got shape {y.shape}")
    classes = np.unique(y)
    if classes.size != 2:
        raise ValueError(f"cross_val_score needs exactly two classes in y, got {classes.tolist()}")
    scores = []
    for train, test in k_fold(y, n_splits=n_splits, random_state=random_state, stratify=stratify):
        X_train, X_test = X[train], X[test]
        if standardize:
            scaler = Standardizer().fit(X_train)
            X_train, X_test = scaler.transform(X_train), scaler.transform(X_test)
        model = type(estimator)(**estimator.get_params()).fit(X_train, y[train])
        if scoring == "accuracy":
            scores.append(model.score(X_test, y[test]))
        else:
            signs = np.where(y[test] == model.classes_[1], 1.0, -1.0)
            scores.append(logistic_loss(signs, model.decision_function(X_test)))
    return np.array(scores, dtype=float)
