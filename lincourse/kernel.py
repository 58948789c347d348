"""The kernel perceptron: the perceptron with offset on mapped points ``phi(x)``, run through a kernel.

Chapter 10 (*Curved boundaries and several classes*), algorithm ``alg-kernel-perceptron``: from
``w = 0, b = 0`` every update adds ``y_i phi(x_i)`` to ``w`` and ``y_i`` to ``b``, so after any run
``w = sum_j alpha_j y_j phi(x_j)`` and ``b = sum_j alpha_j y_j`` (equation ``(perceptron-dual)``),
where ``alpha_j`` counts the mistakes made on sample ``j``. The score of ``x`` is then
``sum_j alpha_j y_j (kappa(x_j, x) + 1)``: the run needs the points only through the kernel
``kappa(x, z) = phi(x) . phi(z)``. The kernels themselves are scikit-learn's
(:func:`sklearn.metrics.pairwise.polynomial_kernel`, :func:`~sklearn.metrics.pairwise.rbf_kernel`).
"""

from __future__ import annotations

import numpy as np
from sklearn.metrics.pairwise import polynomial_kernel, rbf_kernel
from sklearn.utils.validation import check_is_fitted, validate_data

from ._base import LinearClassifier
from ._validation import check_option, check_positive, warn

__all__ = ["KernelPerceptron", "gaussian_kernel", "quadratic_kernel"]

_KERNELS = ("quadratic", "gaussian", "precomputed")


def quadratic_kernel(A, B):
    """``kappa(x, z) = (1 + x . z)^2 - 1`` for every row ``x`` of ``A`` and ``z`` of ``B``: shape (len(A), len(B)).

    Chapter 10, equation ``(poly-kernel)`` without its constant 1: the perceptron's offset already
    plays the part of the constant feature of ``phi``.
    """
    return polynomial_kernel(A, B, degree=2, gamma=1.0, coef0=1.0) - 1.0


def gaussian_kernel(A, B, width=1.0):
    """``kappa(x, z) = exp(-||x - z||^2 / (2 width^2))`` for every row ``x`` of ``A`` and ``z`` of ``B``.

    Chapter 10, the Gaussian kernel of width ``omega`` (scikit-learn's ``rbf_kernel`` with
    ``gamma = 1 / (2 width^2)``).
    """
    check_positive(width, "width")
    return rbf_kernel(A, B, gamma=1.0 / (2.0 * width ** 2))


class KernelPerceptron(LinearClassifier):
    """The kernel perceptron of chapter 10 (algorithm ``alg-kernel-perceptron``), for two classes.

    Parameters
    ----------
    kernel : {"quadratic", "gaussian", "precomputed"} or callable, default="quadratic"
        "quadratic": :func:`quadratic_kernel`; "gaussian": :func:`gaussian_kernel` of width ``width``;
        "precomputed": ``fit`` receives the kernel matrix ``G`` of the training points, ``G[j, i] =
        kappa(x_j, x_i)``, and ``decision_function`` a matrix with one row per new point and one column
        per training point; a callable ``kappa(A, B)`` returns the matrix of ``kappa(a, z)`` for the
        rows ``a`` of ``A`` and ``z`` of ``B``.
    width : float, default=1.0
        The width ``omega`` of the Gaussian kernel (used by "gaussian" only).
    max_epochs : int, default=1000
        Upper limit on the number of passes over the training points.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels, sorted; ``classes_[1]`` is ``y = +1``.
    alpha_ : ndarray of shape (n_samples,)
        The number of mistakes made on each training point over the whole run.
    dual_coef_ : ndarray of shape (n_samples,)
        ``alpha_j y_j``: the score of ``x`` is ``sum_j dual_coef_[j] (kappa(x_j, x) + 1)``.
    n_updates_, n_epochs_ : int
        Updates made, and passes over the data.
    converged_ : bool
        True if the last pass made no mistake.
    n_features_in_ : int

    Notes
    -----
    A point with score exactly 0 is a mistake, whatever its label, and ``predict`` gives it
    ``classes_[0]``: the conventions of :class:`lincourse.Perceptron`. With the linear kernel
    ``kappa(x, z) = x . z`` the run is that of ``Perceptron()``, update for update.

    References
    ----------
    M. A. Aizerman, E. M. Braverman and L. I. Rozonoer (1964). Theoretical foundations of the
    potential function method in pattern recognition learning. *Automation and Remote Control* 25,
    821-837.

    Examples
    --------
    >>> X, y = [[-1.0], [0.0], [1.0]], [1, -1, 1]
    >>> clf = KernelPerceptron().fit(X, y)
    >>> clf.alpha_, clf.predict(X)
    (array([1, 3, 1]), array([ 1, -1,  1]))
    """

    def __init__(self, kernel="quadratic", *, width=1.0, max_epochs=1000):
        self.kernel = kernel
        self.width = width
        self.max_epochs = max_epochs

    def fit(self, X, y):
        """Run the kernel perceptron until a pass over the points makes no mistake, or for ``max_epochs``.

        Chapter 10, algorithm ``alg-kernel-perceptron``. Returns self.
        """
        X, y = self._validate_fit_inputs(X, y, binary=True)
        y = np.where(y == self.classes_[1], 1, -1)  # labels y_i in {-1, +1}
        G = self._kernel_matrix(X, X)  # G[j, i] = kappa(x_j, x_i)
        n = len(y)
        alpha = np.zeros(n, dtype=int)
        for epoch in range(1, self.max_epochs + 1):
            mistakes = 0
            for i in range(n):
                if y[i] * np.sum(alpha * y * (G[:, i] + 1)) <= 0:  # a mistake, a score of 0 included
                    alpha[i] += 1
                    mistakes += 1
            if mistakes == 0:  # a pass without a mistake: every point is on its side
                break
        self.alpha_, self.dual_coef_ = alpha, alpha * y
        self.n_epochs_, self.n_updates_, self.converged_ = epoch, int(alpha.sum()), mistakes == 0
        self.X_fit_ = X
        if not self.converged_:
            warn(f"KernelPerceptron made mistakes in all {self.max_epochs} epochs (max_epochs); the mapped points "
                 "may not be linearly separable")
        return self

    def decision_function(self, X):
        """Scores ``sum_j alpha_j y_j (kappa(x_j, x) + 1)`` of the rows ``x`` of ``X``: shape (n_samples,).

        A positive score means ``classes_[1]``. With ``kernel="precomputed"``, ``X[k, j]`` is
        ``kappa(x_j, x)`` for the ``k``-th new point ``x`` and the ``j``-th training point ``x_j``.
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        if self.kernel == "precomputed":
            K = X
            if K.shape[1] != len(self.alpha_):
                raise ValueError(f"with kernel='precomputed', X must have one column per training point "
                                 f"({len(self.alpha_)}), got {K.shape[1]}")
        else:
            K = self._kernel_matrix(X, self.X_fit_)  # K[k, j] = kappa(x_k, x_j), symmetric kernels
        return (K + 1) @ self.dual_coef_

    def _check_params(self):
        if not callable(self.kernel):
            check_option(self.kernel, "kernel", _KERNELS, fix="or pass a function kappa(A, B) that returns the "
                                                              "matrix of kappa(a, z) for the rows a of A and z of B")
        check_positive(self.width, "width")
        check_positive(self.max_epochs, "max_epochs", integer=True)

    def _kernel_matrix(self, A, B):
        if self.kernel == "precomputed":
            if A.shape[0] != A.shape[1]:
                raise ValueError(f"with kernel='precomputed', fit needs the square kernel matrix of the training "
                                 f"points, got shape {A.shape}")
            return A
        if self.kernel == "quadratic":
            return quadratic_kernel(A, B)
        if self.kernel == "gaussian":
            return gaussian_kernel(A, B, self.width)
        return np.asarray(self.kernel(A, B), dtype=np.float64)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        tags.input_tags.pairwise = self.kernel == "precomputed"
        return tags
