"""Data sets for the course: shipped CSV files and seeded generators.

Nothing is downloaded: the real data sets live in ``lincourse/datasets/data`` (sources and licences
in its README). The generators use :func:`numpy.random.default_rng` and are deterministic given
``random_state``.

* :func:`load_credit` - the credit-approval example of chapters 1 and 3 (synthetic; age, salary).
* :func:`load_iris` - chapters 3, 5, 6 and 10 (setosa vs versicolor is separable, versicolor vs
  virginica is not).
* :func:`load_breast_cancer` - chapter 9's real data set.
* :func:`make_separable`, :func:`make_overlapping`, :func:`make_xor` - chapters 2 to 8 and 10.
* :func:`make_gaussian_classes` - chapters 4 and 7: two Gaussian classes with one shared covariance,
  whose exact posterior is a logistic model.
"""

from __future__ import annotations

import csv
from importlib import resources

import numpy as np

from .._validation import check_positive, check_random_state

__all__ = ["Bunch", "load_credit", "load_iris", "load_breast_cancer", "make_separable", "make_overlapping",
           "make_xor", "make_gaussian_classes"]


class Bunch(dict):
    """A dict whose keys are also attributes (``data.X`` as well as ``data["X"]``), as in scikit-learn."""

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None

    def __dir__(self):
        return list(self.keys())


def _read_csv(name):
    with resources.files(__package__).joinpath("data", name).open() as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def _load(name, label_map, return_X_y, descr):
    header, rows = _read_csv(name)
    data = np.array([[float(v) for v in row[:-1]] for row in rows])
    raw = [row[-1] for row in rows]
    names = list(label_map)
    target = np.array([label_map[v] for v in raw])
    if return_X_y:
        return data, target
    return Bunch(data=data, target=target, feature_names=header[:-1], target_names=np.array(names),
                 DESCR=descr)


def load_iris(return_X_y=False):
    """Fisher's Iris data: 150 flowers, 4 measurements in cm, 3 species (targets 0, 1, 2).

    Targets: 0 setosa, 1 versicolor, 2 virginica, 50 of each. Used in chapter 3 (setosa vs
    versicolor is linearly separable, versicolor vs virginica is not), chapters 5, 6 and 10.

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(data, target)`` instead of a :class:`Bunch` with ``data``, ``target``,
        ``feature_names``, ``target_names`` and ``DESCR``.

    Examples
    --------
    >>> X, y = load_iris(return_X_y=True)
    >>> X.shape, np.bincount(y).tolist()
    ((150, 4), [50, 50, 50])
    """
    return _load("iris.csv", {"setosa": 0, "versicolor": 1, "virginica": 2}, return_X_y,
                 "Fisher (1936) Iris data, UCI doi:10.24432/C56C76, CC BY 4.0.")


def load_breast_cancer(return_X_y=False):
    """Wisconsin diagnostic breast-cancer data: 569 tumours, 30 features, targets 0/1.

    Targets: 0 malignant (212), 1 benign (357), the coding scikit-learn uses. Chapter 9 fits
    logistic regression to it after standardising the features.

    Examples
    --------
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> X.shape, np.bincount(y).tolist()
    ((569, 30), [212, 357])
    """
    return _load("breast_cancer.csv", {"malignant": 0, "benign": 1}, return_X_y,
                 "Breast Cancer Wisconsin (Diagnostic), Wolberg, Street and Mangasarian (1995), "
                 "UCI doi:10.24432/C5DW2B, CC BY 4.0.")


def load_credit(return_X_y=False):
    """The synthetic credit-approval example of chapter 3: age (years), salary (thousands), decision.

    Forty invented applicants, approved (``+1``) or declined (``-1``). The decisions follow
    ``salary + 0.5 * age > 75`` except for three applicants near that line, so the data are not
    linearly separable. The file is written by ``tools/make_credit_data.py`` from a fixed seed.

    Examples
    --------
    >>> credit = load_credit()
    >>> credit.data.shape, credit.feature_names
    ((40, 2), ['age', 'salary'])
    """
    header, rows = _read_csv("credit.csv")
    data = np.array([[float(v) for v in row[:-1]] for row in rows])
    target = np.array([int(row[-1]) for row in rows])
    if return_X_y:
        return data, target
    return Bunch(data=data, target=target, feature_names=header[:-1],
                 target_names=np.array(["declined", "approved"]),
                 DESCR="Synthetic credit-approval data (age in years, salary in thousands); labels -1/+1.")


def make_separable(n_samples=100, d=2, margin=0.1, random_state=None, return_separator=False):
    """Random linearly separable data with a guaranteed geometric margin.

    Points are drawn uniformly from the cube ``[-1, 1]^d``; a random unit normal ``w*`` and an
    offset ``b*`` with ``|b*| <= 0.2`` define the true boundary; points closer to it than
    ``margin`` are redrawn, and each point is labelled ``sign(w* . x + b*)``. So ``(w*, b*)``
    separates the data with geometric margin at least ``margin`` (chapters 3 and 4).

    Parameters
    ----------
    n_samples : int, default=100
    d : int, default=2
        Number of features.
    margin : float, default=0.1
        Minimum distance from the true boundary; must lie in (0, 0.5].
    random_state : int, numpy Generator or None
    return_separator : bool, default=False
        Also return the true ``(w*, b*)``.

    Returns
    -------
    X : ndarray of shape (n_samples, d)
    y : ndarray of shape (n_samples,), labels in {-1, +1}, both present
    (w, b) : the true separator, if ``return_separator``

    Examples
    --------
    >>> X, y, (w, b) = make_separable(50, margin=0.2, random_state=0, return_separator=True)
    >>> bool(np.min(y * (X @ w + b)) >= 0.2)
    True
    """
    check_positive(n_samples, "n_samples", integer=True)
    check_positive(d, "d", integer=True)
    check_positive(margin, "margin")
    if margin > 0.5:
        raise ValueError(f"margin must be at most 0.5 (points live in [-1, 1]^d), got {margin}")
    if n_samples < 2:
        raise ValueError(f"n_samples must be at least 2 so that both classes appear, got {n_samples}")
    rng = check_random_state(random_state)
    w = rng.standard_normal(d)
    w /= np.linalg.norm(w)
    b = float(rng.uniform(-0.2, 0.2))
    X = np.empty((0, d))
    for _ in range(1000):  # acceptance is at least ~1/3 for margin <= 0.5, so this ends quickly
        cand = rng.uniform(-1.0, 1.0, size=(2 * n_samples, d))
        X = np.vstack([X, cand[np.abs(cand @ w + b) >= margin]])
        y = np.where(X[:n_samples] @ w + b > 0, 1, -1)
        if X.shape[0] >= n_samples and np.unique(y).size == 2:
            break
    else:  # pragma: no cover - astronomically unlikely
        raise RuntimeError("could not draw points of both classes; try a smaller margin")
    X = X[:n_samples]
    return (X, y, (w, b)) if return_separator else (X, y)


def make_overlapping(n_samples=100, d=2, separation=2.0, random_state=None):
    """Two Gaussian classes that overlap: not linearly separable in general.

    Class ``+1`` ~ N(mu, I) and class ``-1`` ~ N(-mu, I) with ``mu = (separation / 2) e_1``, half the
    samples in each class (chapters 3 and 5). The smaller ``separation``, the more overlap.

    Returns
    -------
    X : ndarray of shape (n_samples, d)
    y : ndarray of shape (n_samples,), labels in {-1, +1}

    Examples
    --------
    >>> X, y = make_overlapping(10, random_state=0)
    >>> X.shape, int(y.sum())
    ((10, 2), 0)
    """
    check_positive(n_samples, "n_samples", integer=True)
    check_positive(d, "d", integer=True)
    check_positive(separation, "separation")
    if n_samples < 2:
        raise ValueError(f"n_samples must be at least 2 so that both classes appear, got {n_samples}")
    rng = check_random_state(random_state)
    y = np.where(np.arange(n_samples) < (n_samples + 1) // 2, 1, -1)
    mu = np.zeros(d)
    mu[0] = separation / 2.0
    X = rng.standard_normal((n_samples, d)) + y[:, None] * mu
    return X, y


def make_xor(n_per_corner=1, noise=0.0, random_state=None):
    """The XOR pattern: ``+1`` at (0, 1) and (1, 0), ``-1`` at (0, 0) and (1, 1); never separable.

    With ``n_per_corner > 1`` each corner gets that many points, jittered by Gaussian ``noise``.

    Examples
    --------
    >>> X, y = make_xor()
    >>> X.tolist(), y.tolist()
    ([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]], [-1, 1, 1, -1])
    """
    check_positive(n_per_corner, "n_per_corner", integer=True)
    if noise < 0:
        raise ValueError(f"noise must be >= 0, got {noise}")
    rng = check_random_state(random_state)
    corners = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    labels = np.array([-1, 1, 1, -1])
    X = np.repeat(corners, n_per_corner, axis=0)
    y = np.repeat(labels, n_per_corner)
    if noise > 0:
        X = X + noise * rng.standard_normal(X.shape)
    return X, y


def make_gaussian_classes(n_samples=1000, mean0=(-1.0, 0.0), mean1=(1.0, 0.0), cov=None, prior1=0.5,
                          random_state=None, return_posterior=False):
    """Two Gaussian classes with one shared covariance matrix: the posterior is exactly logistic.

    Chapter 7, proposition ``prop-gaussian-logistic``. Each label is ``+1`` with probability
    ``prior1`` (else ``-1``); given the label, ``x ~ N(mean1, cov)`` or ``x ~ N(mean0, cov)``.
    By Bayes' rule ``P(y = +1 | x) = sigmoid(w . x + b)`` with

    ``w = cov^{-1} (mean1 - mean0)``,
    ``b = (mean0 . cov^{-1} mean0 - mean1 . cov^{-1} mean1) / 2 + log(prior1 / (1 - prior1))``.

    Parameters
    ----------
    n_samples : int, default=1000
    mean0, mean1 : array-like of shape (d,)
        The class means (class ``-1`` and class ``+1``).
    cov : array-like of shape (d, d), default=None
        Symmetric positive definite; the identity if None.
    prior1 : float in (0, 1), default=0.5
    random_state : int, numpy Generator or None
    return_posterior : bool, default=False
        Also return the exact posterior's ``(w, b)``.

    Returns
    -------
    X : ndarray of shape (n_samples, d)
    y : ndarray of shape (n_samples,), labels in {-1, +1}
    (w, b) : the weights of the exact posterior, if ``return_posterior``

    Examples
    --------
    >>> X, y, (w, b) = make_gaussian_classes(5, cov=[[2.0, 0.0], [0.0, 1.0]], random_state=0,
    ...                                      return_posterior=True)
    >>> X.shape, w.tolist(), b
    ((5, 2), [1.0, 0.0], 0.0)
    """
    check_positive(n_samples, "n_samples", integer=True)
    mean0 = np.asarray(mean0, dtype=float)
    mean1 = np.asarray(mean1, dtype=float)
    if mean0.ndim != 1 or mean0.shape != mean1.shape:
        raise ValueError(f"mean0 and mean1 must be vectors of the same length, got shapes {mean0.shape} and "
                         f"{mean1.shape}")
    d = mean0.size
    cov = np.eye(d) if cov is None else np.asarray(cov, dtype=float)
    if cov.shape != (d, d) or not np.allclose(cov, cov.T):
        raise ValueError(f"cov must be a symmetric ({d}, {d}) matrix, got shape {cov.shape}")
    try:
        L = np.linalg.cholesky(cov)
    except np.linalg.LinAlgError:
        raise ValueError("cov must be positive definite (a covariance with no zero-variance direction)") from None
    if isinstance(prior1, bool) or not 0.0 < float(prior1) < 1.0:
        raise ValueError(f"prior1 must be a probability strictly between 0 and 1, got {prior1!r}")
    rng = check_random_state(random_state)
    y = np.where(rng.random(n_samples) < prior1, 1, -1)
    X = rng.standard_normal((n_samples, d)) @ L.T + np.where(y[:, None] > 0, mean1, mean0)
    if not return_posterior:
        return X, y
    w = np.linalg.solve(cov, mean1 - mean0)
    b = 0.5 * float(mean0 @ np.linalg.solve(cov, mean0) - mean1 @ np.linalg.solve(cov, mean1))
    b += float(np.log(prior1 / (1.0 - prior1)))
    return X, y, (w, b)
