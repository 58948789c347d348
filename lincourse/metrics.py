"""What a predicted probability means: a calibration table by probability bins.

Chapter 5 (*Logistic regression*, section *A real data set*) asks whether, among the test points
to which a model gives a probability near ``q`` of the positive class, about a fraction ``q``
really are positive.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validation import _as_float_array, check_positive

__all__ = ["CalibrationTable", "calibration_table"]


@dataclass(frozen=True)
class CalibrationTable:
    """Per-bin counts, mean predicted probability and observed frequency of the positive class.

    ``str(table)`` is a fixed-width text table, one row per bin (empty bins show ``-``).
    """

    edges: np.ndarray
    count: np.ndarray
    mean_predicted: np.ndarray
    observed: np.ndarray

    def __str__(self):
        lines = ["bin            n   mean p   observed"]
        for lo, hi, n, p, o in zip(self.edges[:-1], self.edges[1:], self.count, self.mean_predicted,
                                   self.observed):
            if n == 0:
                lines.append(f"[{lo:.2f}, {hi:.2f}) {n:4d}        -          -")
            else:
                lines.append(f"[{lo:.2f}, {hi:.2f}) {n:4d}   {p:6.3f}     {o:6.3f}")
        return "\n".join(lines)


def calibration_table(t, p, n_bins=5):
    """Group predicted probabilities into equal-width bins and compare them with the outcomes.

    Chapter 5. A model is *calibrated* when, in every bin, the mean predicted probability
    ``mean_predicted`` is close to the fraction ``observed`` of positive outcomes.

    Parameters
    ----------
    t : array-like of shape (n_samples,)
        Outcomes in {0, 1} (1 = the class whose probability is predicted).
    p : array-like of shape (n_samples,)
        Predicted probabilities ``P(t = 1 | x)`` in [0, 1].
    n_bins : int, default=5
        The bins are ``[0, 1/n), [1/n, 2/n), ..., [(n-1)/n, 1]`` (the last one closed).

    Returns
    -------
    CalibrationTable
        ``edges`` (n_bins + 1,), ``count`` (n_bins,) ints, ``mean_predicted`` and ``observed``
        (n_bins,), NaN for empty bins.

    Examples
    --------
    >>> table = calibration_table([0, 0, 1, 1], [0.1, 0.3, 0.7, 0.9], n_bins=2)
    >>> table.count.tolist(), table.mean_predicted.tolist(), table.observed.tolist()
    ([2, 2], [0.2, 0.8], [0.0, 1.0])
    """
    t = _as_float_array(t, "t")
    p = _as_float_array(p, "p")
    check_positive(n_bins, "n_bins", integer=True)
    if t.ndim != 1 or p.shape != t.shape:
        raise ValueError(f"t and p must be 1-D vectors of the same length, got shapes {t.shape} and {p.shape}")
    if np.any((t != 0) & (t != 1)):
        raise ValueError("t must contain only the outcomes 0 and 1 (map labels y in {-1, +1} with t = (y + 1) / 2)")
    if np.any((p < 0) | (p > 1)):
        raise ValueError("p must contain probabilities in [0, 1]")
    edges = np.linspace(0.0, 1.0, n_bins + 1)
    which = np.minimum((p * n_bins).astype(int), n_bins - 1)
    count = np.bincount(which, minlength=n_bins)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_predicted = np.bincount(which, weights=p, minlength=n_bins) / count
        observed = np.bincount(which, weights=t, minlength=n_bins) / count
    return CalibrationTable(edges, count, mean_predicted, observed)
