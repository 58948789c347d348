"""Logistic regression: binary, one-vs-rest and softmax, fitted by Newton's method or gradient descent.

Chapter 5 (*Logistic regression*) defines every formula here. The model is
``P(t = 1 | x) = sigmoid(w . x + b)``; fitting maximises the Bernoulli likelihood of the labels,
that is, minimises the mean cross-entropy

    E(w, b) = (1/N) sum_i [log(1 + exp(s_i)) - t_i s_i],    s_i = w . x_i + b,

whose gradient is ``X~^T (p - t) / N`` and Hessian ``X~^T S X~ / N`` with ``S = diag(p_i (1 - p_i))``
and ``X~`` the data with a column of ones for the intercept (equations ``(gradient)``, ``(hessian)``).
"""

from __future__ import annotations

import numpy as np

from ._base import LinearClassifierMixin, blas_threads
from ._validation import (
    SeparationWarning,
    check_fitted,
    check_option,
    check_positive,
    check_X_y,
    warn_not_converged,
)
from .losses import sigmoid, softmax

__all__ = ["LogisticRegression", "gradient_descent_path"]

_SOLVERS = ("newton", "gd")
_MULTI = ("auto", "ovr", "softmax")


class LogisticRegression(LinearClassifierMixin):
    """Unregularised (or L2-regularised) logistic regression, as in chapter 5.

    Chapter 5, equations ``(logistic-model)``, ``(cross-entropy)``, ``(gradient)``,
    ``(hessian)``, algorithms ``alg-gd`` and ``alg-newton``; ``(softmax)`` for several classes.

    Parameters
    ----------
    solver : {"newton", "gd"}, default="newton"
        "newton": Newton's method with a backtracking line search (algorithm ``alg-newton``).
        "gd": gradient descent ``w <- w - learning_rate * gradient`` (algorithm ``alg-gd``).
    learning_rate : float, default=0.1
        Step size of gradient descent (ignored by "newton").
    max_iter : int, default=100
        Upper limit on the number of iterations.
    tol : float, default=1e-10
        "gd": stop when the largest entry of the gradient falls to ``tol`` or below. "newton":
        stop after the step whose Newton decrement satisfies ``lambda^2 / 2 <= tol``, where
        ``lambda^2 = g^T H^{-1} g`` (``lambda^2 / 2`` estimates how far the loss is above its
        minimum, in the same units whatever the units of the features). Near the minimum a
        Newton step squares the error, so the weights returned are accurate to about machine
        precision when the minimiser is well determined.
    fit_intercept : bool, default=True
        Learn an offset ``b`` (not penalised when ``C`` is finite).
    multi_class : {"auto", "ovr", "softmax"}, default="auto"
        With more than two classes: "ovr" fits one binary classifier per class against the rest;
        "softmax" fits the multinomial model. "auto" means softmax. Two classes always give the
        single binary model.
    C : float, default=inf
        Inverse regularisation strength with scikit-learn's meaning: the objective is
        ``||w||^2 / 2 + C * sum_i loss_i``, i.e. the mean loss plus ``||w||^2 / (2 C N)``.
        ``C=inf`` is the plain maximum-likelihood fit.
    n_threads : int or None, default=1
        Threads the linear-algebra library (BLAS) may use during ``fit``. One thread is the
        fastest on a shared machine (a JupyterHub or Binder node) and on course-size data; None
        leaves the library's own setting.

    Attributes
    ----------
    classes_ : ndarray of shape (K,)
        Sorted labels; for two classes ``classes_[1]`` is the class whose probability is modelled.
    coef_ : ndarray of shape (n_features,) for two classes, (K, n_features) otherwise
    intercept_ : float for two classes, ndarray of shape (K,) otherwise
    n_iter_ : int, or ndarray of shape (K,) for one-vs-rest
        Iterations (steps) performed.
    loss_history_ : ndarray of shape (n_iter_ + 1,), or a list of K of them for one-vs-rest
        Mean training cross-entropy (without the penalty term) of the starting weights and of
        every iterate, each computed exactly from that iterate.
    converged_ : bool
        True if the stopping rule was met before ``max_iter`` and a minimiser exists.
    separation_ : str or None (a list of them for one-vs-rest)
        With ``C=inf``, binary and one-vs-rest: "overlap", "quasi-complete" or "complete"
        (see :func:`lincourse.check_separation`); None when ``C`` is finite or for softmax.
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
    Labels may be {0, 1}, {-1, +1} or any values. With ``y in {-1, +1}`` the same loss reads
    ``(1/N) sum_i log(1 + exp(-y_i s_i))`` (:func:`lincourse.logistic_loss`).

    Newton's method does not depend on the units of the features: multiplying a column by ``c``
    divides its Newton iterates by ``c``. The computation keeps that property in floating point:
    every column is first multiplied by a power of two (exactly, in binary) that brings its
    largest entry between 1/2 and 1, and the Newton system is solved after scaling it to a unit
    diagonal (Cholesky; the minimum-norm least-squares solution when the Hessian is singular to
    working precision, as with a column that depends on the others).

    Examples
    --------
    >>> X = [[0.0], [1.0], [2.0], [3.0]]
    >>> clf = LogisticRegression().fit(X, [0, 1, 0, 1])
    >>> clf.predict_proba([[1.5]]).round(3)
    array([[0.5, 0.5]])
    """

    def __init__(self, solver="newton", learning_rate=0.1, max_iter=100, tol=1e-10, fit_intercept=True,
                 multi_class="auto", C=np.inf, n_threads=1):
        self.solver = solver
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.tol = tol
        self.fit_intercept = fit_intercept
        self.multi_class = multi_class
        self.C = C
        self.n_threads = n_threads

    def fit(self, X, y):
        """Fit the model to ``(X, y)``; returns self."""
        X, y, self.classes_ = check_X_y(X, y, max_classes=None)
        check_option(self.solver, "solver", _SOLVERS)
        check_option(self.multi_class, "multi_class", _MULTI)
        check_positive(self.learning_rate, "learning_rate")
        check_positive(self.max_iter, "max_iter", integer=True)
        check_positive(self.tol, "tol")
        check_positive(self.C, "C", allow_inf=True)
        n, d = X.shape
        k = self.classes_.size
        with blas_threads(self.n_threads):
            # Newton runs on columns scaled by powers of two (see Notes); gradient descent, which
            # does depend on the units, on the data as given.
            Xd, scale = _design(X, self.fit_intercept, scaled=self.solver == "newton")
            penalty = np.zeros(Xd.shape[1]) if np.isinf(self.C) else scale**2 / (self.C * n)
            if self.fit_intercept:
                penalty[-1] = 0.0  # the intercept is not penalised
            if k == 2:
                t = (y == self.classes_[1]).astype(float)
                v, self.n_iter_, self.loss_history_, self.converged_, self.separation_ = \
                    self._binary(Xd, t, penalty)
                coef = (v * scale)[:, None]  # scores X~ v = [X, 1] (scale * v)
            elif self.multi_class == "ovr":
                fits = [self._binary(Xd, (y == c).astype(float), penalty) for c in self.classes_]
                coef = np.column_stack([f[0] for f in fits]) * scale[:, None]
                self.n_iter_ = np.array([f[1] for f in fits])
                self.loss_history_ = [f[2] for f in fits]
                self.converged_ = all(f[3] for f in fits)
                self.separation_ = [f[4] for f in fits]
            else:
                T = (y[:, None] == self.classes_[None, :]).astype(float)
                V, self.n_iter_, self.loss_history_, self.converged_ = self._softmax(Xd, T, penalty)
                coef = V * scale[:, None]
                self.separation_ = None
        if self.fit_intercept:
            self.coef_, self.intercept_ = coef[:-1].T.copy(), coef[-1].copy()
        else:
            self.coef_, self.intercept_ = coef.T.copy(), np.zeros(coef.shape[1:])
        if k == 2:
            self.coef_, self.intercept_ = self.coef_[0], float(self.intercept_[0])
        self.n_features_in_ = d
        return self

    def predict_proba(self, X):
        """Class probabilities, shape (n_samples, K), columns in the order of ``classes_``.

        Two classes: ``[1 - sigmoid(s), sigmoid(s)]``. Softmax: ``softmax(scores)``. One-vs-rest:
        the K sigmoids, divided by their sum so that each row sums to 1 (as scikit-learn does).
        """
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return np.column_stack([sigmoid(-scores), sigmoid(scores)])
        if self._is_ovr():
            P = sigmoid(scores)
            return P / P.sum(axis=1, keepdims=True)
        return softmax(scores)

    def predict_log_proba(self, X):
        """Logarithm of :meth:`predict_proba`."""
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def _is_ovr(self):
        check_fitted(self)
        return self.classes_.size > 2 and self.multi_class == "ovr"

    # -- the binary model ------------------------------------------------------------------------
    def _binary(self, X, t, penalty):
        """Minimise the penalised mean cross-entropy of one binary model on the design ``X``.

        Returns ``(w, n_iter, losses, converged, separation)``.
        """
        y = 2.0 * t - 1.0
        hessian = None
        if self.solver == "gd":
            w, n_iter, losses, converged = _gradient_descent(X, y, penalty, self.learning_rate, self.max_iter, self.tol)
        else:
            w, n_iter, losses, converged, hessian = _newton(X, y, penalty, self.max_iter, self.tol)
        separation = None
        if not np.any(penalty):
            separation = _separation_status(X, y, w, hessian)
            if separation != "overlap":
                warnings_text = (
                    f"LogisticRegression: the two classes are {separation}ly separated (a hyperplane has "
                    "every point on its own side{}), so the maximum-likelihood estimate does not exist: the "
                    "loss keeps decreasing as the coefficients grow without bound, and the coefficients "
                    "returned are wherever the iterations stopped (after {} iterations). Use a finite C "
                    "(e.g. C=1.0) for a unique, finite model."
                ).format("" if separation == "complete" else " or on it", n_iter)
                _warn(warnings_text, SeparationWarning)
                return w, n_iter, losses, False, separation
        if not converged:
            warn_not_converged(
                f"LogisticRegression(solver={self.solver!r}) stopped after {n_iter} iterations "
                f"(max_iter={self.max_iter}) before reaching tol={self.tol}"
            )
        return w, n_iter, losses, converged, separation

    # -- softmax -----------------------------------------------------------------------------------
    def _softmax(self, X, T, penalty):
        """Newton's method (or gradient descent) on the softmax cross-entropy; returns
        ``(W, n_iter, losses, converged)``."""
        n, p = X.shape
        K = T.shape[1]
        W = np.zeros((p, K))

        def evaluate(W):
            S = X @ W
            top = S.max(axis=1, keepdims=True)
            E = np.exp(S - top)
            total = E.sum(axis=1, keepdims=True)
            loss = float(np.mean(top[:, 0] + np.log(total[:, 0]) - np.sum(T * S, axis=1)))
            return loss, E / total, loss + 0.5 * float(np.sum(penalty[:, None] * W * W))

        loss, P, f = evaluate(W)
        losses, converged, it = [loss], False, 0
        for it in range(1, int(self.max_iter) + 1):
            G = X.T @ (P - T) / n + penalty[:, None] * W
            if self.solver == "gd":
                W = W - self.learning_rate * G
                loss, P, f = evaluate(W)
                losses.append(loss)
                if np.max(np.abs(G)) <= self.tol:
                    converged = True
                    break
                continue
            H = np.empty((K * p, K * p))
            for a in range(K):
                for c in range(a, K):
                    block = (X * (P[:, a] * ((a == c) - P[:, c]))[:, None]).T @ X / n
                    if a == c:
                        block += np.diag(penalty)
                    H[a * p:(a + 1) * p, c * p:(c + 1) * p] = block
                    H[c * p:(c + 1) * p, a * p:(a + 1) * p] = block.T
            # The softmax is unchanged by adding one vector to every class's weights, so H is
            # singular; the least-squares (minimum-norm) step keeps the class weights summing to 0.
            step = np.linalg.lstsq(H, G.T.reshape(-1), rcond=None)[0].reshape(K, p).T
            decrement2 = float(np.sum(G * step))
            alpha, found = 1.0, False
            while alpha > 2.0**-40:
                candidate = evaluate(W - alpha * step)
                if candidate[2] <= f - 1e-4 * alpha * decrement2:
                    found = True
                    break
                alpha /= 2
            if not found:
                converged = decrement2 / 2 <= self.tol
                break
            W = W - alpha * step
            loss, P, f = candidate
            losses.append(loss)
            if decrement2 / 2 <= self.tol:
                converged = True
                break
        saturated = [k for k in range(K) if np.all(P[T[:, k] > 0.5, k] > 1 - 1e-6) and np.all(P[T[:, k] < 0.5, k] < 1e-6)]
        if not np.any(penalty) and saturated:
            names = ", ".join(repr(self.classes_[k].item()) for k in saturated)
            _warn(
                f"LogisticRegression stopped after {it} iterations: class(es) {names} appear linearly "
                "separated from the others, so the maximum-likelihood estimate does not exist (the loss "
                "keeps decreasing as the weights grow without bound). Use a finite C (e.g. C=1.0) for "
                "finite weights.", SeparationWarning)
            converged = False
        elif not converged:
            warn_not_converged(
                f"LogisticRegression(solver={self.solver!r}) stopped after {it} iterations "
                f"(max_iter={self.max_iter}) before reaching tol={self.tol}"
            )
        return W, it, np.array(losses), converged


def _warn(message, category):
    import warnings

    warnings.warn(message, category, stacklevel=4)


def _design(X, fit_intercept, scaled):
    """The design ``X~ = [X, 1]`` (or ``X``), and the column scale ``c`` with ``X~ = [X, 1] * c``.

    With ``scaled=True`` every column of ``X`` is multiplied by the power of two ``c_j`` that
    brings its largest absolute entry into [1/2, 1): exact in binary floating point, so the
    weights of the scaled problem are those of the original times ``1 / c_j``, exactly.
    """
    n, d = X.shape
    scale = np.ones(d + int(fit_intercept))
    if scaled:
        # the largest |entry| of each column, a block of rows at a time (numpy reduces a
        # row-major array down its columns slowly, and np.abs(X) would copy X whole)
        top = np.max([np.max(np.abs(X[i:i + 4096]), axis=0) for i in range(0, n, 4096)], axis=0)
        exponent = np.frexp(np.where(top > 0, top, 1.0))[1]
        scale[:d] = np.ldexp(1.0, -exponent)
    Xd = np.empty((n, d + int(fit_intercept)))
    np.multiply(X, scale[:d], out=Xd[:, :d])
    if fit_intercept:
        Xd[:, d] = 1.0
    return Xd, scale


def _loss_terms(s, y):
    """Mean loss ``(1/N) sum log(1 + exp(-y_i s_i))`` and ``sigmoid(-y_i s_i)`` for every ``i``.

    With the margin ``m = y s``: ``log(1 + e^-m) = log(1 + e^-|m|) + max(-m, 0)`` and
    ``sigmoid(-m) = e^-|m| / (1 + e^-|m|)`` (``m >= 0``) or ``1 / (1 + e^-|m|)`` (``m < 0``): no
    overflow, and full relative accuracy even where the probability is close to 0 or 1.
    """
    m = y * s
    e = np.exp(-np.abs(m))
    loss = float(np.mean(np.log1p(e) + np.maximum(-m, 0.0)))
    q = np.where(m >= 0, e, 1.0) / (1.0 + e)
    return loss, q


def _newton(X, y, penalty, max_iter, tol):
    """Newton's method for the binary model, as chapter 5's algorithm ``alg-newton``.

    ``X`` is the (scaled) design, ``y`` the labels in {-1, +1}. Returns
    ``(w, n_iter, losses, converged, H)``, ``H`` the last Hessian computed (the separation test
    reuses it).
    """
    n, p = X.shape
    w = np.zeros(p)
    s = np.zeros(n)
    work = np.empty_like(X)  # room for the weighted rows of each Hessian, allocated once
    loss, q = _loss_terms(s, y)
    f = loss  # the penalised objective (w = 0: no penalty)
    losses, converged, k = [loss], False, 0
    for k in range(1, int(max_iter) + 1):
        # gradient (X~^T (p - t) / N, with p - t = -y sigmoid(-y s)) and Hessian (X~^T S X~ / N)
        g = X.T @ (-y * q) / n + penalty * w
        H = _hessian(X, q, out=work) + np.diag(penalty)
        delta = _solve_newton_system(H, g)  # H delta = g
        decrement2 = float(g @ delta)  # lambda^2 = g^T H^-1 g
        # backtracking line search (Armijo): halve alpha until the loss decreases enough
        alpha = 1.0
        while alpha > 2.0**-40:
            w_new = w - alpha * delta
            s_new = X @ w_new
            loss_new, q_new = _loss_terms(s_new, y)
            f_new = loss_new + 0.5 * float(penalty @ (w_new * w_new))
            if f_new <= f - 1e-4 * alpha * decrement2:
                break
            alpha /= 2
        else:  # no decrease is possible in floating point: the loss cannot go lower
            converged = decrement2 / 2 <= tol
            k -= 1
            break
        w, s, loss, q, f = w_new, s_new, loss_new, q_new, f_new
        losses.append(loss)
        if decrement2 / 2 <= tol:  # the Newton decrement was small: this step was the last
            converged = True
            break
    return w, k, np.array(losses), converged, H


def _hessian(X, q, out=None):
    """``X~^T S X~ / N`` with ``S = diag(p_i (1 - p_i))``, where ``p_i (1 - p_i) = q_i (1 - q_i)``.

    Computed as ``B^T B / N`` with ``B = S^(1/2) X~`` (written into ``out`` if given)."""
    root = np.sqrt(q * (1.0 - q))
    B = np.multiply(X, root[:, None], out=out)
    return (B.T @ B) / X.shape[0]


def _solve_newton_system(H, g):
    """Solve ``H delta = g`` for a positive semi-definite ``H``, independently of the units.

    The system is scaled to a unit diagonal (``D H D z = D g``, ``delta = D z``, ``D`` the inverse
    square roots of the diagonal) and solved by Cholesky; if a Cholesky pivot is below 1e-7 of the
    largest (a condition number above about 1e14: a column depends on the others, or every
    probability is 0 or 1) the minimum-norm least-squares solution is used instead, so that
    rounding never becomes a huge step along a direction with no curvature.
    """
    diag = np.diag(H).copy()
    root = np.sqrt(np.where(diag > 0, diag, 1.0))
    Hs = H / root[:, None] / root[None, :]
    gs = g / root
    try:
        L = np.linalg.cholesky(Hs)
    except np.linalg.LinAlgError:
        L = None
    if L is None or np.min(np.diag(L)) <= 1e-7 * np.max(np.diag(L)):
        return np.linalg.lstsq(Hs, gs, rcond=1e-13)[0] / root
    from scipy.linalg import solve_triangular

    return solve_triangular(L, solve_triangular(L, gs, lower=True), lower=True, trans="T") / root


def _gradient_descent(X, y, penalty, learning_rate, max_iter, tol, record=False):
    """Gradient descent for the binary model, as chapter 5's algorithm ``alg-gd``.

    Returns ``(w, n_iter, losses, converged)``, and with ``record=True`` every iterate as well.
    """
    n, p = X.shape
    w = np.zeros(p)
    loss, q = _loss_terms(np.zeros(n), y)
    losses, path, converged, k = [loss], [w], False, 0
    for k in range(1, int(max_iter) + 1):
        g = X.T @ (-y * q) / n + penalty * w  # equation (gradient)
        w = w - learning_rate * g
        loss, q = _loss_terms(X @ w, y)
        losses.append(loss)
        path.append(w)
        if not record and np.max(np.abs(g)) <= tol:
            converged = True
            break
    if record:
        return np.array(path), np.array(losses)
    return w, k, np.array(losses), converged


def _separation_status(X, y, w, hessian=None):
    """"overlap", "quasi-complete" or "complete" for the unpenalised fit ending at ``w``.

    A cheap certificate first. With ``a_i = y_i x~_i`` and ``lambda_i = sigmoid(-y_i s_i) > 0``,
    the gradient is ``g = -A^T lambda / N``. If some unit ``v`` had ``A v >= 0`` (a separating
    direction), then ``lambda^T A v = -N g . v <= N ||g||`` while
    ``lambda^T A v >= min(lambda) sum_i (A v)_i >= min(lambda) ||A v|| >= min(lambda) sigma_min``,
    ``sigma_min`` the smallest singular value of ``X~``. So
    ``N ||g|| < min(lambda) sigma_min`` proves that no separating direction exists and that
    ``X~`` has full rank: the maximum-likelihood estimate exists (Stiemke's alternative, the
    gradient being the positive combination ``A^T lambda``). ``sigma_min^2`` is at least
    ``N lambda_min(H) / max_i h_i`` for a Hessian ``H = X~^T diag(h) X~ / N`` computed at any
    point (since ``X~^T diag(h) X~ <= max(h) X~^T X~``), and every ``h_i = p_i (1 - p_i) <= 1/4``:
    Newton's method passes the Hessian of its last iteration (``hessian``), so none is computed
    here; otherwise it is computed at ``w``, with its own ``max(h)``. Rounding in ``g``
    and in ``lambda_min(H)`` is allowed for generously (factors of ``n u`` and ``p u``). If the
    certificate fails (probabilities near 0 or 1, a large gradient), the linear programs of
    :func:`lincourse.check_separation` decide.
    """
    n, p = X.shape
    _, q = _loss_terms(X @ w, y)
    g = X.T @ (-y * q) / n
    u = 2.0**-53
    row_size = np.sqrt(np.einsum("ij,ij->i", X, X))
    g_error = 2 * n * u * float(q @ row_size) / n
    if hessian is None:
        H, h_max = _hessian(X, q), float(np.max(q * (1.0 - q)))
    else:
        H, h_max = hessian, 0.25
    eig_min = float(np.linalg.eigvalsh(H)[0]) - 4 * p * u * float(np.abs(H).sum())
    if eig_min > 0 and h_max > 0:
        sigma_min = np.sqrt(n * eig_min / h_max)
        if n * (np.linalg.norm(g) + g_error) < q.min() * sigma_min:
            return "overlap"
    from .separation import check_separation

    return check_separation(X, y, fit_intercept=False).status


def gradient_descent_path(X, y, learning_rate=0.1, n_iter=100, fit_intercept=True):
    """Every iterate of gradient descent on the mean cross-entropy of a binary logistic model.

    Chapter 5, algorithm ``alg-gd``: from ``w = 0, b = 0``, repeat
    ``(w, b) <- (w, b) - learning_rate * gradient``, the gradient being equation ``(gradient)``.
    These are the iterates of ``LogisticRegression(solver="gd", learning_rate=learning_rate,
    max_iter=n_iter)`` (which keeps only the last one), recorded so that a figure can show the
    boundary at any iteration. It never stops early and never warns.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,), two classes; ``max(y)`` is the positive class
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
    >>> coefs, intercepts, losses = gradient_descent_path([[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1], 1.0, 3)
    >>> coefs.shape, losses.round(3).tolist()
    ((4, 1), [0.693, 0.545, 0.506, 0.471])
    """
    X, y, classes = check_X_y(X, y)
    check_positive(learning_rate, "learning_rate")
    check_positive(n_iter, "n_iter", integer=True)
    d = X.shape[1]
    Xd, _ = _design(X, fit_intercept, scaled=False)
    signs = np.where(y == classes[1], 1.0, -1.0)
    path, losses = _gradient_descent(Xd, signs, np.zeros(Xd.shape[1]), learning_rate, n_iter, 0.0, record=True)
    coefs = path[:, :d]
    intercepts = path[:, d] if fit_intercept else np.zeros(n_iter + 1)
    return coefs, intercepts, losses
