"""Preparing data for a fit: a seeded train/test split, k folds, and a standardiser.

Chapter 5 (*Logistic regression*) uses them on the breast-cancer data: the held-out points are set
aside first, and the standardiser learns its means and standard deviations from the training
points only, so that nothing about the test set leaks into the model. The folds of :func:`k_fold`
serve cross-validation (:func:`lincourse.metrics.cross_val_score`), which chooses the penalty ``C``.
"""

from __future__ import annotations

import numpy as np

from ._validation import NotFittedError, check_positive, check_random_state, check_X

__all__ = ["train_test_split", "k_fold", "Standardizer"]


def train_test_split(X, y, test_size=0.3, random_state=None, stratify=False):
    """Split ``(X, y)`` at random into a training part and a held-out test part.

    Chapter 5 (section *A real data set*). The rows are permuted with
    ``numpy.random.default_rng(random_state)``, so a given seed always gives the same split.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    test_size : float in (0, 1) or int, default=0.3
        Fraction of the samples (rounded to the nearest integer), or number of samples, held out.
    random_state : int, numpy Generator or None
    stratify : bool, default=False
        Hold out the same fraction of every class (each class is permuted and split separately),
        so that both parts have the class proportions of ``y``.

    Returns
    -------
    X_train, X_test, y_train, y_test : ndarrays

    Examples
    --------
    >>> X = np.arange(20.0).reshape(10, 2); y = np.array([0, 1] * 5)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=0)
    >>> X_train.shape, X_test.shape
    ((8, 2), (2, 2))
    """
    X = check_X(X)
    y = np.asarray(y)
    n = X.shape[0]
    if y.ndim != 1 or y.shape[0] != n:
        raise ValueError(f"y must be a 1-D vector with one label per row of X ({n}), got shape {y.shape}")
    rng = check_random_state(random_state)
    count = isinstance(test_size, (int, np.integer)) and not isinstance(test_size, bool)
    if count:
        if not 0 < test_size < n:
            raise ValueError(f"test_size must lie between 1 and {n - 1} samples, got {test_size}")
        fraction = test_size / n
    else:
        if not 0.0 < float(test_size) < 1.0:
            raise ValueError(f"test_size must be a fraction in (0, 1) or a number of samples, got {test_size}")
        fraction = float(test_size)
    groups = [np.flatnonzero(y == c) for c in np.unique(y)] if stratify else [np.arange(n)]
    test = []
    for group in groups:
        chosen = rng.permutation(group)
        k = int(test_size) if (count and not stratify) else int(round(fraction * group.size))
        test.append(chosen[:k])
    test = np.sort(np.concatenate(test))
    train = np.setdiff1d(np.arange(n), test)
    if test.size == 0 or train.size == 0:
        raise ValueError("the split leaves one part empty; choose a test_size between 0 and 1")
    return X[train], X[test], y[train], y[test]


def k_fold(y, n_splits=5, random_state=None, stratify=True):
    """Split the indices ``0, ..., n - 1`` into ``n_splits`` folds; yield ``(train, test)`` for each.

    Chapter 5 (section *Choosing C by cross-validation*). Every index is in exactly one test
    fold; the folds differ in size by at most one (per class, with ``stratify=True``, which deals
    the rows of each class out to the folds in turn after a seeded shuffle, so every fold has
    about the class proportions of ``y``). Deterministic given ``random_state``.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        The labels (only their number, and their classes if ``stratify``, are used).
    n_splits : int, default=5
        At least 2 and at most the number of samples (of the smallest class, if ``stratify``).
    random_state : int, numpy Generator or None
    stratify : bool, default=True

    Yields
    ------
    train, test : ndarrays of sorted indices

    Examples
    --------
    >>> folds = list(k_fold([0, 0, 0, 1, 1, 1], n_splits=3, random_state=0))
    >>> [len(test) for _, test in folds], sorted(int(i) for _, test in folds for i in test)
    ([2, 2, 2], [0, 1, 2, 3, 4, 5])
    """
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"y must be a 1-D vector of labels, got shape {y.shape}")
    check_positive(n_splits, "n_splits", integer=True)
    n = y.shape[0]
    groups = [np.flatnonzero(y == c) for c in np.unique(y)] if stratify else [np.arange(n)]
    smallest = min((g.size for g in groups), default=0)
    if n_splits < 2 or n_splits > smallest:
        what = "the smallest class" if stratify else "the data"
        raise ValueError(f"n_splits must lie between 2 and the number of samples of {what} ({smallest}), "
                         f"got {n_splits}")
    rng = check_random_state(random_state)
    fold_of = np.empty(n, dtype=int)
    offset = 0
    for group in groups:
        fold_of[rng.permutation(group)] = (np.arange(group.size) + offset) % n_splits
        offset += group.size  # the next class continues the deal, so the fold sizes stay balanced
    for j in range(n_splits):
        yield np.flatnonzero(fold_of != j), np.flatnonzero(fold_of == j)


class Standardizer:
    """Shift and scale each feature to mean 0 and standard deviation 1, with statistics from ``fit``.

    Chapter 5. ``fit`` learns ``mean_`` and ``scale_`` (the standard deviation, or 1 for a
    constant feature) from the data it is given, the training set; ``transform`` applies
    ``(x - mean_) / scale_`` to any data, test points included, with those same numbers.

    Attributes
    ----------
    mean_ : ndarray of shape (n_features,)
    scale_ : ndarray of shape (n_features,)
    n_features_in_ : int

    Examples
    --------
    >>> s = Standardizer().fit([[1.0, 10.0], [3.0, 10.0]])
    >>> s.mean_.tolist(), s.scale_.tolist()
    ([2.0, 10.0], [1.0, 1.0])
    >>> s.transform([[5.0, 12.0]]).tolist()
    [[3.0, 2.0]]
    """

    def fit(self, X, y=None):
        """Learn the mean and standard deviation of each column of ``X``; returns self."""
        X = check_X(X)
        self.mean_ = X.mean(axis=0)
        std = X.std(axis=0)
        self.scale_ = np.where(std > 0, std, 1.0)
        self.n_features_in_ = X.shape[1]
        return self

    def transform(self, X):
        """``(X - mean_) / scale_`` with the statistics learned by :meth:`fit`."""
        if not hasattr(self, "mean_"):
            raise NotFittedError("This Standardizer instance is not fitted yet; call fit(X_train) first")
        X = check_X(X, n_features=self.n_features_in_)
        return (X - self.mean_) / self.scale_

    def fit_transform(self, X, y=None):
        """``fit(X)`` then ``transform(X)``."""
        return self.fit(X).transform(X)

    def inverse_transform(self, Z):
        """Undo :meth:`transform`: ``Z * scale_ + mean_``."""
        if not hasattr(self, "mean_"):
            raise NotFittedError("This Standardizer instance is not fitted yet; call fit(X_train) first")
        Z = check_X(Z, name="Z", n_features=self.n_features_in_)
        return Z * self.scale_ + self.mean_

    def __repr__(self):
        return "Standardizer()"
