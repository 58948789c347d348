"""Judging a probabilistic classifier: is it calibrated?

Chapter 9 (*Logistic regression in practice*) asks whether, among the points to which
a model gives a probability near ``q`` of the positive class, about a fraction ``q`` really are
positive (:func:`calibration_table`), and how sure a bin of a few points can make us
(:func:`wilson_interval`). ROC curves, splits, folds, scaling and cross-validation are
scikit-learn's (``sklearn.metrics.roc_curve``, ``sklearn.model_selection``, ``sklearn.preprocessing``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validation import as_float_array, check_option, check_positive, check_probabilities

__all__ = ["CalibrationTable", "calibration_table", "wilson_interval"]


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

    Chapter 9 (calibration). Returns ``(low, high)``, NaN where ``n = 0``. With ``z`` the standard
    normal quantile (the default gives 95 %), the interval is
    ``(k + z^2/2 -+ z sqrt(k (n - k) / n + z^2 / 4)) / (n + z^2)``
    (E. B. Wilson, *Probable inference, the law of succession, and statistical inference*, 1927).

    Examples
    --------
    >>> low, high = wilson_interval(2, 2)
    >>> round(float(low), 3), round(float(high), 3)
    (0.342, 1.0)
    """
    k, n = as_float_array(k, "k"), as_float_array(n, "n")
    if np.any((k < 0) | (k > n)):
        raise ValueError(f"k must lie between 0 and n (k successes out of n trials), got k={k.tolist()} and n={n.tolist()}")
    with np.errstate(invalid="ignore", divide="ignore"):
        centre = (k + z * z / 2) / (n + z * z)
        half = z / (n + z * z) * np.sqrt(np.maximum(k * (n - k) / n, 0.0) + z * z / 4)
        low = np.where(n > 0, np.clip(centre - half, 0.0, 1.0), np.nan)
        high = np.where(n > 0, np.clip(centre + half, 0.0, 1.0), np.nan)
    return low, high


def calibration_table(t, p, n_bins=5, strategy="uniform"):
    """Group predicted probabilities into bins and compare them with the outcomes.

    Chapter 9. A model is *calibrated* when, in every bin, the mean predicted probability
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
    t, p = as_float_array(t, "t"), check_probabilities(p, "p")
    if t.ndim != 1 or p.shape != t.shape:
        raise ValueError(f"t and p must be 1-D vectors of the same length, got shapes {t.shape} and {p.shape}; "
                         "for predict_proba's two columns, pass the second, predict_proba(X)[:, 1]")
    if t.size == 0:
        raise ValueError("t and p are empty; a calibration table needs at least one prediction")
    if np.any((t != 0) & (t != 1)):
        raise ValueError(f"t must contain only the outcomes 0 and 1, found {np.unique(t[(t != 0) & (t != 1)])[:6].tolist()}; "
                         "map labels y in {-1, +1} with t = (y + 1) / 2")
    check_positive(n_bins, "n_bins", integer=True)
    check_option(strategy, "strategy", ("uniform", "quantile"))
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
