"""Logistic regression, binary and softmax, fitted by Newton's method or gradient descent.

Chapters 7-10 (*The logistic model and maximum likelihood*, *Fitting logistic regression, and when
the fit does not exist*, *Logistic regression in practice*, *Curved boundaries and several classes*)
define every formula here. The model is
``p = P(t = 1 | x) = sigmoid(w . x + b)``; fitting maximises the Bernoulli likelihood of the targets
``t_i in {0, 1}``, that is, minimises the mean cross-entropy. On the design ``X~`` (rows
``(1, x_i)``, :func:`lincourse.augment`) and the weights ``w~ = (b, w)``, its gradient is
``X~^T (p - t) / N`` and its Hessian ``X~^T S X~ / N`` with ``S = diag(p_i (1 - p_i))``
(:func:`lincourse.logistic_gradient`, :func:`lincourse.logistic_hessian`). ``_newton`` and
``_gradient_descent`` are the chapter's algorithms ``alg-newton`` and ``alg-gd``; the softmax model
of several classes goes through the same two loops.
"""

from __future__ import annotations

import functools

import numpy as np
import scipy.linalg
from threadpoolctl import ThreadpoolController

from ._base import LinearClassifier
from ._validation import SeparationWarning, check_bool, check_nonnegative, check_option, check_positive, warn
from .geometry import _augment
from .losses import _logistic_gradient, _logistic_hessian, _logistic_loss, _softmax, sigmoid, softmax
from .separation import _separation_after_fit

__all__ = ["LogisticRegression", "gradient_descent_path"]


class LogisticRegression(LinearClassifier):
    """Logistic regression (unpenalised, or with scikit-learn's L2 penalty), as in chapters 7-10.

    The model: chapter 7, equations ``(logistic-model)``, ``(cross-entropy)``, ``(gradient)``,
    ``(hessian)``. The fit: chapter 8, algorithms ``alg-newton`` and ``alg-gd``. More than two
    classes: chapter 10, equation ``(softmax)``.

    Parameters
    ----------
    solver : {"newton", "gd"}, default="newton"
        "newton": Newton's method with a backtracking line search (algorithm ``alg-newton``).
        "gd": gradient descent ``w <- w - learning_rate * gradient`` (algorithm ``alg-gd``).
    learning_rate : float, default=0.1
        Step size of gradient descent (not used by "newton").
    max_iter : int, default=100
        Upper limit on the number of iterations.
    tol : float, default=1e-10
        "newton": stop after the step whose Newton decrement has ``lambda^2 / 2 <= tol``, where
        ``lambda^2 = g^T H^{-1} g`` estimates twice how far the loss is above its minimum, in the same
        units whatever the units of the features. "gd": stop when every entry of the gradient is at
        most ``tol`` in size.
    fit_intercept : bool, default=True
        Learn an offset ``b`` (never penalised).
    C : float, default=inf
        Inverse penalty strength, with scikit-learn's meaning: the objective is
        ``||w||^2 / 2 + C * sum_i loss_i``, that is, the mean loss plus ``||w||^2 / (2 C N)``.
        ``C=inf`` is the plain maximum-likelihood fit.

    Attributes
    ----------
    classes_ : ndarray of shape (K,)
        Sorted labels, as given; for two classes ``classes_[1]`` is the class with ``t = 1``.
    coef_ : ndarray of shape (n_features,) for two classes, (K, n_features) otherwise
    intercept_ : float for two classes, ndarray of shape (K,) otherwise
        Several classes: coefficients that sum to 0 over the classes for each feature, and offsets
        that sum to 0 (see Notes).
    n_iter_ : int
        Iterations (steps) performed.
    loss_history_ : ndarray of shape (n_iter_ + 1,)
        The objective (mean cross-entropy, plus the penalty when ``C`` is finite) at the starting
        weights 0 and after every iteration.
    converged_ : bool
        True if the stopping rule was met and a minimiser exists.
    separation_ : str or None
        Two classes and ``C=inf``: "overlap", "quasi-complete" or "complete" (see
        :func:`lincourse.check_separation`); None otherwise.
    n_features_in_ : int

    Warns
    -----
    SeparationWarning
        With ``C=inf``, when the classes are completely or quasi-completely separated: the
        maximum-likelihood estimate does not exist (``converged_`` is then False).
    ConvergenceWarning
        When ``max_iter`` is reached before the stopping rule.

    Notes
    -----
    Labels may be any values (numbers, strings, booleans); several classes are fitted with the
    softmax model (for one binary model per class, use ``sklearn.multiclass.OneVsRestClassifier``).
    Newton's method does not depend on the units of the features (a column multiplied by ``c``
    gives coefficients divided by ``c``), and the computation keeps that property: the Newton
    system is scaled to a unit diagonal before it is solved.

    The softmax's probabilities do not change when one vector is added to every class's weights and
    one number to every class's offset, so the likelihood alone does not pick the weights: the
    parameters are not identified. The fit returns the representative whose coefficients sum to 0
    over the classes for each feature and whose offsets sum to 0, the convention of scikit-learn and
    glmnet, so that their parameters and lincourse's can be compared one to one. With a finite ``C``
    the penalised minimiser already has coefficients that sum to 0 (Zhu and Hastie), and only the
    unpenalised offsets need the convention; with ``C=inf`` both do. The probabilities are those of
    the minimiser the solver reached, unchanged.

    References
    ----------
    Ji Zhu and Trevor Hastie, "Classification of gene microarrays by penalized logistic regression",
    *Biostatistics* 5(3), 2004, pp. 427-443.

    Examples
    --------
    >>> X = [[0.0], [1.0], [2.0], [3.0], [4.0]]
    >>> clf = LogisticRegression().fit(X, [0, 0, 1, 0, 1])
    >>> clf.predict_proba([[2.0]]).round(3)
    array([[0.651, 0.349]])
    """

    def __init__(self, *, solver="newton", learning_rate=0.1, max_iter=100, tol=1e-10, fit_intercept=True,
                 C=np.inf):
        self.solver = solver
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.tol = tol
        self.fit_intercept = fit_intercept
        self.C = C

    def _check_params(self):
        check_option(self.solver, "solver", ("newton", "gd"),
                     fix="these are chapter 8's two algorithms; for lbfgs and the others use "
                         "sklearn.linear_model.LogisticRegression")
        check_positive(self.learning_rate, "learning_rate")
        check_positive(self.max_iter, "max_iter", integer=True)
        check_nonnegative(self.tol, "tol")
        check_bool(self.fit_intercept, "fit_intercept")
        check_positive(self.C, "C", allow_inf=True, fix="C=np.inf is the unpenalised fit, a smaller C a stronger penalty")

    def fit(self, X, y):
        """Fit the model to ``(X, y)`` by minimising the mean cross-entropy; returns self."""
        X, y = self._validate_fit_inputs(X, y, binary=False)
        X_design = _augment(X) if self.fit_intercept else X  # rows (1, x_i)
        penalty = np.full(X_design.shape[1], 0.0 if np.isinf(self.C) else 1.0 / (self.C * X.shape[0]))
        if self.fit_intercept:
            penalty[0] = 0.0  # the offset b is not penalised
        if self.classes_.size == 2:
            t = (y == self.classes_[1]).astype(float)
            problem = _Binary(X_design, t, penalty)
        else:
            T = (y[:, None] == self.classes_[None, :]).astype(float)
            problem = _Softmax(X_design, T, penalty)
        solve = _newton if self.solver == "newton" else _gradient_descent
        step = {} if self.solver == "newton" else {"learning_rate": self.learning_rate}
        with _one_blas_thread():
            v, self.n_iter_, losses, self.converged_ = solve(problem, self.max_iter, self.tol, **step)
            self._report(problem, v)
        self.loss_history_ = np.array(losses)
        W = problem.weights(v)  # shape (n_columns, K) or (n_columns,)
        if W.ndim == 2:
            # softmax: adding one vector to every class's weights changes no probability; return the
            # representative whose weights (and offsets) sum to 0 over the classes, as scikit-learn does
            W = W - W.mean(axis=1, keepdims=True)
        self.coef_, self.intercept_ = (W[1:].T, W[0]) if self.fit_intercept else (W.T, np.zeros(W.shape[1:]))
        if W.ndim == 1:
            self.intercept_ = float(self.intercept_)
        return self

    def _report(self, problem, v):
        """Set ``separation_`` and warn when no minimiser exists or the iterations ran out."""
        self.separation_ = None
        if np.isinf(self.C) and isinstance(problem, _Binary):
            self.separation_ = _separation_after_fit(problem.X, problem.t, v, problem.scores(v),
                                                     problem.last_curvature)
        elif np.isinf(self.C) and problem.saturated(v):
            self.separation_ = "complete"
        if self.separation_ not in (None, "overlap"):
            self.converged_ = False
            warn(f"LogisticRegression: the classes are {self.separation_}ly separated (a hyperplane has every "
                 f"point on its own side{' or on it' if self.separation_ == 'quasi-complete' else ''}), so the "
                 "maximum-likelihood estimate does not exist: the loss keeps decreasing as the coefficients grow "
                 f"without bound, and the coefficients returned are wherever the {self.n_iter_} iterations "
                 "stopped. Use a finite C (e.g. C=1.0) for a unique, finite model.", SeparationWarning)
        elif not self.converged_:
            warn(f"LogisticRegression(solver={self.solver!r}) stopped after {self.n_iter_} iterations "
                 f"(max_iter={self.max_iter}) before its stopping rule (tol={self.tol}) was met; raise max_iter"
                 + (" or the learning_rate" if self.solver == "gd" else ""))

    def predict_proba(self, X):
        """Class probabilities, shape (n_samples, K), columns in the order of ``classes_``.

        Two classes: ``[1 - sigmoid(s), sigmoid(s)]``; several: ``softmax(scores)``.
        """
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return np.column_stack([sigmoid(-scores), sigmoid(scores)])
        return softmax(scores)

    def predict_log_proba(self, X):
        """Logarithm of :meth:`predict_proba`."""
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))


@functools.cache
def _blas():
    """The threadpoolctl controller of numpy's and scipy's BLAS (made once: making it takes ~4 ms)."""
    return ThreadpoolController()


def _one_blas_thread():
    """Run the loop's products with ``X`` on one BLAS thread.

    The products of the course's sizes (up to ~10^5 rows, ~50 columns) are short, and on a machine
    whose cores are shared (a JupyterHub or Binder node, a laptop running the browser too) a second
    BLAS thread costs more than it brings: the product waits for it whenever the system has
    descheduled it, and after the product it keeps spinning on a core the next line needs. Measured
    on two cores (the 100,000 x 50 fit of ``tools/bench.py``, 11 fits each way): about half the time
    when other programs kept the cores busy, the same time (7 % less) when they were nearly idle.
    """
    return _blas().limit(limits=1, user_api="blas")


class _Model:
    """What the binary and the softmax model share: the scores ``X W`` of the last weights asked for.

    The loop asks for the objective at the weights it accepts, then for the gradient and the Hessian
    there: all three come from the one product with ``X`` (the kernels of :mod:`lincourse.losses`
    take the scores), computed once per point.
    """

    def scores(self, v):
        if self._v is None or not np.array_equal(v, self._v):
            self._v, self._S = v.copy(), self.X @ self.weights(v)
        return self._S


class _Binary(_Model):
    """The binary model on the design ``X`` with targets ``t``: objective, gradient, Hessian of ``w~``.

    The formulas are :func:`lincourse.logistic_loss`, :func:`lincourse.logistic_gradient` and
    :func:`lincourse.logistic_hessian`, through their kernels: ``fit`` has checked ``X`` and ``t``
    once, and the loop does not check them again on every iteration.
    """

    def __init__(self, X, t, penalty):
        self.X, self.t, self.penalty, self.start = X, t, penalty, np.zeros(X.shape[1])
        self._v = self._S = self.last_curvature = None

    def weights(self, w):
        return w

    def loss(self, w):
        return _logistic_loss(self.t, self.scores(w)) + 0.5 * self.penalty @ (w * w)

    def gradient(self, w):
        return _logistic_gradient(self.X, self.t, self.scores(w)) + self.penalty * w

    def hessian(self, w):
        self.last_curvature = _logistic_hessian(self.X, self.scores(w))  # reused by the separation check
        return self.last_curvature + np.diag(self.penalty)


class _Softmax(_Model):
    """The softmax model of ``K`` classes, its weights ``W`` (one column per class) flattened to a vector.

    Chapter 10, equation ``(softmax)``: ``P = softmax(X W)``, gradient ``X^T (P - T) / N``, and Hessian
    blocks ``X^T diag(P_a (1[a = c] - P_c)) X / N``. The softmax is unchanged by adding one vector to
    every class's weights, so the Hessian is singular; Newton's least-squares step of least norm takes
    no step along that direction of the scaled system (see ``_solve``), which does not keep the sums over
    the classes at 0 in the units of ``W``: ``fit`` then returns the representative whose sums are 0.
    """

    def __init__(self, X, T, penalty):
        self.X, self.T, self.penalty = X, T, np.tile(penalty, T.shape[1])
        self.start = np.zeros(X.shape[1] * T.shape[1])
        self._v = self._S = None

    def weights(self, v):
        return v.reshape(self.T.shape[1], self.X.shape[1]).T

    def loss(self, v):
        S = self.scores(v)
        return float(np.mean(np.logaddexp.reduce(S, axis=1) - np.sum(self.T * S, axis=1))) + 0.5 * self.penalty @ (v * v)

    def gradient(self, v):
        P = _softmax(self.scores(v))
        return (self.X.T @ (P - self.T) / len(self.X)).T.ravel() + self.penalty * v

    def hessian(self, v):
        P, K = _softmax(self.scores(v)), self.T.shape[1]
        blocks = [[(self.X * (P[:, a] * ((a == c) - P[:, c]))[:, None]).T @ self.X / len(self.X) for c in range(K)]
                  for a in range(K)]
        return np.block(blocks) + np.diag(self.penalty)

    def saturated(self, v):
        """Some class has probability 1 on its own samples and 0 on the others (to 1e-6): separated."""
        P = _softmax(self.scores(v))
        return any(np.all(np.abs(P[:, k] - self.T[:, k]) < 1e-6) for k in range(P.shape[1]))


def _newton(problem, max_iter, tol):
    """Newton's method with a backtracking line search: chapter 8, algorithm ``alg-newton``.

    Returns ``(w, n_iter, losses, converged)``; ``losses`` holds the objective of every iterate.
    """
    w = problem.start
    losses = [problem.loss(w)]
    for k in range(1, max_iter + 1):
        # 1. the gradient g and the Hessian H at w
        g, H = problem.gradient(w), problem.hessian(w)
        # 2. the Newton direction delta = H^-1 g, and the decrement lambda^2 = g . delta
        delta = _solve(H, g)
        decrement2 = float(g @ delta)
        # 3. backtracking: halve the step until the objective decreases enough (Armijo)
        alpha = 1.0
        while (loss := problem.loss(w - alpha * delta)) > losses[-1] - 1e-4 * alpha * decrement2:
            alpha /= 2
            if alpha < 2.0**-40:  # no decrease is possible in floating point: w cannot be improved
                return w, k - 1, losses, decrement2 / 2 <= tol
        w = w - alpha * delta
        losses.append(loss)
        # 4. stop when the decrement says the objective is within tol of its minimum
        if decrement2 / 2 <= tol:
            return w, k, losses, True
    return w, max_iter, losses, False


def _solve(H, g):
    """Solve ``H delta = g``, scaled to a unit diagonal so that the units of the columns cancel.

    The least-squares solution of minimum norm: a direction without curvature (a column that
    depends on the others, the softmax's shared vector) gets no step instead of a huge one.
    """
    d = 1.0 / np.sqrt(np.where(np.diag(H) > 0, np.diag(H), 1.0))
    z = scipy.linalg.lstsq(H * np.outer(d, d), g * d, cond=1e-13, lapack_driver="gelsy")[0]
    return d * z


def _gradient_descent(problem, max_iter, tol, learning_rate, path=None):
    """Gradient descent with a fixed step: chapter 8, algorithm ``alg-gd``.

    Returns ``(w, n_iter, losses, converged)``; every iterate is appended to ``path`` if given.
    """
    w = problem.start
    losses = [problem.loss(w)]
    for k in range(1, max_iter + 1):
        g = problem.gradient(w)
        w = w - learning_rate * g
        losses.append(problem.loss(w))
        if path is not None:
            path.append(w)
        if np.max(np.abs(g)) <= tol:
            return w, k, losses, True
    return w, max_iter, losses, False


def gradient_descent_path(X, y, learning_rate=0.1, n_iter=100, fit_intercept=True):
    """Every iterate of gradient descent on the mean cross-entropy of a binary logistic model.

    Chapter 8, algorithm ``alg-gd``: from ``w = 0, b = 0``, repeat
    ``(w, b) <- (w, b) - learning_rate * gradient``. These are the iterates of
    ``LogisticRegression(solver="gd", learning_rate=learning_rate, max_iter=n_iter, tol=0)`` (which
    keeps only the last one), recorded so that a figure can show the boundary at any iteration.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,), two classes; the larger label is the class with ``t = 1``
    learning_rate : float, default=0.1
    n_iter : int, default=100
    fit_intercept : bool, default=True

    Returns
    -------
    coefs : ndarray of shape (n_iter + 1, n_features)
        ``coefs[k]`` is ``w`` after ``k`` iterations (``coefs[0] = 0``).
    intercepts : ndarray of shape (n_iter + 1,)
    losses : ndarray of shape (n_iter + 1,)
        Mean cross-entropy at each iterate, like ``loss_history_``.

    Examples
    --------
    >>> coefs, intercepts, losses = gradient_descent_path([[0.0], [1.0], [2.0], [3.0], [4.0]], [0, 1, 0, 1, 1], 0.5, 3)
    >>> coefs.shape, losses.round(3).tolist()
    ((4, 1), [0.693, 0.58, 0.568, 0.562])
    """
    check_positive(n_iter, "n_iter", integer=True)
    clf = LogisticRegression(solver="gd", learning_rate=learning_rate, fit_intercept=fit_intercept)
    X, y = clf._validate_fit_inputs(X, y, binary=True)
    X_design = _augment(X) if fit_intercept else X
    problem = _Binary(X_design, (y == clf.classes_[1]).astype(float), np.zeros(X_design.shape[1]))
    path = [problem.start]
    _, _, losses, _ = _gradient_descent(problem, n_iter, -1.0, learning_rate, path=path)
    path = np.array(path)
    if fit_intercept:
        return path[:, 1:], path[:, 0], np.array(losses)
    return path, np.zeros(n_iter + 1), np.array(losses)
