"""Logistic regression: binary, one-vs-rest and softmax, fitted by Newton's method or gradient descent.

Chapter 5 (*Logistic regression*) defines every formula here. The model is
``P(t = 1 | x) = sigmoid(w . x + b)``; fitting maximises the Bernoulli likelihood of the labels,
that is, minimises the mean cross-entropy

    L(w, b) = (1/N) sum_i [log(1 + exp(s_i)) - t_i s_i],    s_i = w . x_i + b,

whose gradient is ``X~^T (p - t) / N`` and Hessian ``X~^T S X~ / N`` with ``S = diag(p_i (1 - p_i))``
and ``X~`` the data with a column of ones for the intercept.
"""

from __future__ import annotations

import contextlib

import numpy as np

from ._base import LinearClassifierMixin
from ._validation import (
    check_fitted,
    check_option,
    check_positive,
    check_X,
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
        "newton": Newton's method with a backtracking line search (the exact maximum-likelihood
        weights, to ``tol``). "gd": gradient descent ``w <- w - learning_rate * gradient``.
    learning_rate : float, default=0.1
        Step size of gradient descent (ignored by "newton").
    max_iter : int, default=100
        Upper limit on the number of iterations.
    tol : float, default=1e-8
        "gd": stop when the largest entry of the gradient falls to ``tol`` or below. "newton":
        stop when the estimated distance to the optimum, the last step times ``rate / (1 - rate)``
        with ``rate`` the observed contraction of successive steps (at most 1/2), falls to
        ``tol * (1 + max|w|)`` or below.
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

    Attributes
    ----------
    classes_ : ndarray of shape (K,)
        Sorted labels; for two classes ``classes_[1]`` is the class whose probability is modelled.
    coef_ : ndarray of shape (n_features,) for two classes, (K, n_features) otherwise
    intercept_ : float for two classes, ndarray of shape (K,) otherwise
    n_iter_ : int, or ndarray of shape (K,) for one-vs-rest
        Iterations performed.
    loss_history_ : ndarray of shape (n_iter_ + 1,), or a list of K of them for one-vs-rest
        Mean training cross-entropy before the first iteration and after each one (without the
        penalty term). On large binary problems (see Notes) the entries of the single-precision
        iterations are computed from single-precision scores and are approximate (to about 1e-5
        on badly scaled data); the last entry is always the exact loss of the returned weights.
    converged_ : bool
        True if the stopping rule was met before ``max_iter``.
    n_features_in_ : int

    Notes
    -----
    Labels may be {0, 1}, {-1, +1} or any values. With ``y in {-1, +1}`` the same loss reads
    ``(1/N) sum_i log(1 + exp(-y_i s_i))`` (:func:`lincourse.logistic_loss`).

    On linearly separable data the unregularised likelihood has no maximum: the loss tends to 0
    as ``||w||`` grows. The fit then stops at ``max_iter`` (or when the loss underflows) with a
    :class:`~lincourse.ConvergenceWarning`; finite ``C`` or a small ``max_iter`` (early stopping)
    gives finite weights.

    On the course's data sets ``solver="newton"`` is Newton's method exactly as chapter 5 writes
    it. A binary problem (or one-vs-rest subproblem) with at least ``2 * 8192`` samples is solved
    more cheaply: the Hessian is estimated from an evenly spaced subsample of about 8192 rows (a
    Newton step then costs ``N p`` plus a fixed ``8192 p^2`` instead of ``N p^2``), and the first
    iterations run on a float32 copy of ``X`` (half the size of ``X``, made once per fit and
    shared by the one-vs-rest subproblems). Only double-precision iterations, with the exact
    gradient, may stop, and they stop by the same rule (on the size of the steps) as on small
    data, at the same optimum.

    Examples
    --------
    >>> X = [[0.0], [1.0], [2.0], [3.0]]
    >>> clf = LogisticRegression().fit(X, [0, 1, 0, 1])
    >>> clf.predict_proba([[1.5]]).round(3)
    array([[0.5, 0.5]])
    """

    def __init__(self, solver="newton", learning_rate=0.1, max_iter=100, tol=1e-8, fit_intercept=True,
                 multi_class="auto", C=np.inf):
        self.solver = solver
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.tol = tol
        self.fit_intercept = fit_intercept
        self.multi_class = multi_class
        self.C = C

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
        Xa = _Design(X, self.fit_intercept)  # X with a column of ones, without copying X
        penalty = np.ones(Xa.shape[1])
        if self.fit_intercept:
            penalty[-1] = 0.0
        penalty *= 0.0 if np.isinf(self.C) else 1.0 / (self.C * n)

        k = self.classes_.size
        if k == 2:
            t = (y == self.classes_[1]).astype(float)
            W, self.n_iter_, self.loss_history_, self.converged_ = self._solve(Xa, t[:, None], penalty, False)
            coef = W[:, 0]
        elif self.multi_class == "ovr":
            results = [self._solve(Xa, (y == c).astype(float)[:, None], penalty, False) for c in self.classes_]
            coef = np.column_stack([r[0][:, 0] for r in results])
            self.n_iter_ = np.array([r[1] for r in results])
            self.loss_history_ = [r[2] for r in results]
            self.converged_ = all(r[3] for r in results)
        else:
            T = (y[:, None] == self.classes_[None, :]).astype(float)
            coef, self.n_iter_, self.loss_history_, self.converged_ = self._solve(Xa, T, penalty, True)

        if self.fit_intercept:
            self.coef_, self.intercept_ = coef[:-1].T.copy(), coef[-1].copy()
        else:
            self.coef_, self.intercept_ = coef.T.copy(), np.zeros(coef.shape[1:])
        if k == 2:
            self.intercept_ = float(self.intercept_)
        self.n_features_in_ = d
        return self

    def predict_proba(self, X):
        """Class probabilities, shape (n_samples, K), columns in the order of ``classes_``.

        Two classes: ``[1 - sigmoid(s), sigmoid(s)]``. Softmax: ``softmax(scores)``. One-vs-rest:
        the K sigmoids, divided by their sum so that each row sums to 1 (as scikit-learn does).
        """
        scores = self.decision_function(X)
        if scores.ndim == 1:
            p = sigmoid(scores)
            return np.column_stack([1.0 - p, p])
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

    # -- the optimisation ------------------------------------------------------------------------
    def _solve(self, Xa, T, penalty, multinomial):
        """Minimise the penalised mean cross-entropy; returns (W, n_iter, losses, converged).

        ``T`` is (n, 1) binary targets or (n, K) one-hot targets (``multinomial=True``).
        """
        n, p = Xa.shape
        W = np.zeros((p, T.shape[1]))
        objective = _Objective(Xa, T, penalty, multinomial)
        if self.solver == "newton":
            objective.use_single_precision()  # large binary problems only (see _Objective)
        f, losses, converged = objective.value(W), [objective.loss], False
        it, previous = 0, None
        for it in range(1, int(self.max_iter) + 1):
            G = objective.gradient(W)
            if self.solver == "gd":
                W = W - self.learning_rate * G
                f = objective.value(W)
                losses.append(objective.loss)
                if np.max(np.abs(G)) <= self.tol:
                    converged = True
                    break
                continue
            step = objective.newton_step(W, G)
            found = _armijo(objective, W, f, G, step, 10 if objective.single else 40)
            if found is None and objective.single:  # single precision too coarse to see a decrease
                f = objective.use_double_precision(W)
                losses[-1] = objective.loss
                previous = None
                G = objective.gradient(W)
                step = objective.newton_step(W, G)
                found = _armijo(objective, W, f, G, step)
            if found is None:  # no decrease is possible in floating point: the loss has stalled
                objective.value(W)
                losses.append(objective.loss)
                break
            W, f, alpha = found
            losses.append(objective.loss)
            # Distance still to go: for an iteration contracting by a factor rate < 1 per step it is
            # about moved * rate / (1 - rate); rate is estimated from the last two steps and capped
            # at 1/2, so the estimate is never larger than the step just taken.
            moved = alpha * float(np.max(np.abs(step)))
            ratio = moved / previous if previous else None  # None after the first step
            rate, previous = (0.5 if ratio is None else min(0.5, ratio)), moved
            scale = 1.0 + np.max(np.abs(W))
            if objective.single:  # never stop on single-precision gradients
                # Double precision takes over once the steps are small, or once they stop
                # shrinking (single-precision rounding may be what is left of the gradient).
                if moved <= objective.SINGLE_UNTIL * scale or (ratio is not None and ratio > 0.5):
                    f = objective.use_double_precision(W)
                    losses[-1] = objective.loss
                    previous = None  # contraction rates are measured afresh in double precision
                continue
            if moved * rate / (1.0 - rate) <= self.tol * scale:
                converged = True
                break
        if objective.single:  # stopped by max_iter before the switch: the exact loss at the end
            objective.use_double_precision(W)
            losses[-1] = objective.loss
        if np.isinf(self.C) and objective.separated:
            warn_not_converged(
                f"LogisticRegression(solver={self.solver!r}) stopped after {it} iterations: the training "
                "data are linearly separable, so the maximum-likelihood weights do not exist (the loss "
                "decreases towards 0 as ||w|| grows). Use a finite C, or fewer iterations (early "
                "stopping), for finite weights"
            )
            converged = False
        elif np.isinf(self.C) and multinomial and objective.saturated_classes(W):
            names = ", ".join(repr(self.classes_[k].item()) for k in objective.saturated_classes(W))
            warn_not_converged(
                f"LogisticRegression(solver={self.solver!r}) stopped after {it} iterations: class(es) "
                f"{names} appear linearly separable from the others, so the maximum-likelihood weights "
                "do not exist (the loss keeps decreasing as the weights grow; the fit stopped where the "
                "decrease fell below floating-point resolution). Use a finite C for finite weights"
            )
            converged = False
        elif not converged:
            warn_not_converged(
                f"LogisticRegression(solver={self.solver!r}) stopped after {it} iterations "
                f"(max_iter={self.max_iter}) before reaching tol={self.tol}"
            )
        return W, it, np.array(losses), converged


class _Design:
    """The design matrix ``X~ = [X, 1]`` (or ``X`` without intercept), used without building it.

    Products with ``X~`` are computed from ``X`` and the intercept row of the weights, so the
    column of ones is never built; ``rows(idx)`` materialises a few rows when needed.
    """

    def __init__(self, X, fit_intercept):
        self.X, self.fit_intercept = X, fit_intercept
        self.shape = (X.shape[0], X.shape[1] + int(fit_intercept))
        # The float32 copy of X, once a pass has filled it: shared by the one-vs-rest subproblems
        # of one fit. False if X does not fit in float32.
        self.X32 = None

    def rows(self, index=slice(None)):
        X = self.X[index]
        return np.hstack([X, np.ones((X.shape[0], 1))]) if self.fit_intercept else X


class _Objective:
    """Penalised mean cross-entropy of a linear model and its derivatives (chapter 5).

    One pass over the data at weights ``W`` gives the scores ``X~ W``, the loss and the gradient
    ``X~^T (P - T) / N`` together (see ``_evaluate``); they are kept for the last weights
    evaluated, so the value, the gradient and the Hessian at the same weights cost one pass.
    """

    #: From twice this many rows on, the Hessian of the binary model is estimated from an evenly
    #: spaced subsample of about this many rows (sub-sampled Newton; see newton_step).
    HESSIAN_ROWS = 8_192
    #: Subsample Hessians are pooled across iterations once the relative step is below this.
    POOL_BELOW = 1e-2
    #: The data are visited in blocks of about this many bytes, small enough that a block read
    #: for the scores is still in the processor's cache when it is read again for the gradient.
    BLOCK_BYTES = 1 << 21
    #: Newton on a large binary problem (one with a sub-sampled Hessian) starts on a float32
    #: copy of X, whose passes move half the bytes. Far from the optimum a gradient with
    #: single-precision rounding steers about as well as an exact one. Double precision takes
    #: over once the relative step falls to this (or the steps stop shrinking, or the line search
    #: fails), and only double-precision iterations may stop.
    SINGLE_UNTIL = 1e-4

    def __init__(self, Xa, T, penalty, multinomial):
        self.Xa, self.T, self.penalty, self.multinomial = Xa, T, penalty, multinomial
        self.n = Xa.shape[0]
        self._W = None
        self._S = np.empty((self.n, T.shape[1]))
        self._signs = None if multinomial else 2.0 * T[:, 0] - 1.0
        self.stride = max(1, self.n // self.HESSIAN_ROWS)
        self._iteration, self._last_step, self._pool = 0, None, None
        self.single, self._X32, self._X32_filled = False, None, False

    def use_single_precision(self):
        """Evaluate on a float32 copy of X from now on (large binary problems only)."""
        if not self.multinomial and self.stride > 1 and self.Xa.X32 is not False:
            self._X32_filled = self.Xa.X32 is not None
            self._X32 = self.Xa.X32 if self._X32_filled else np.empty(self.Xa.X.shape, dtype=np.float32)
            self._S32 = np.empty((self.n, 1), dtype=np.float32)
            self._signs32 = self._signs.astype(np.float32)
            self.single, self._W = True, None

    def use_double_precision(self, W):
        """Evaluate on X itself from now on; returns the exact value at ``W``."""
        self.single, self._W, self._X32 = False, None, None
        return self.value(W)

    def _evaluate(self, W):
        """Scores, mean loss and gradient of the mean loss at ``W``, in one pass over ``X``.

        The rows are taken a block at a time (``_block``): the block's scores ``X_b W``, its
        residuals ``P_b - T_b``, then its share ``X_b^T (P_b - T_b)`` of the gradient, so each
        block of ``X`` is read from memory once, not twice (it is still in the cache when the
        gradient needs it). The blocks are added in a fixed order, so the result depends only on
        ``W`` and the data.
        """
        if W is self._W:
            return
        X = self._X32 if self.single else self.Xa.X
        n, d = X.shape
        rows = max(256, self.BLOCK_BYTES // (X.itemsize * d))
        G = np.zeros((self.Xa.shape[1], self.T.shape[1]))
        start = not np.any(W)  # every score is 0 at the starting point
        loss, separated, rsum = 0.0, True, 0.0
        Wx = W.astype(X.dtype, copy=False)
        shift = Wx[d] if self.Xa.fit_intercept else 0.0
        fill = self.single and not self._X32_filled
        with np.errstate(over="ignore", invalid="ignore") if fill else contextlib.nullcontext():
            for lo in range(0, n, rows):
                if fill:  # the float32 copy is made block by block, by the pass that first needs it
                    np.copyto(X[lo:lo + rows], self.Xa.X[lo:lo + rows], casting="same_kind")
                block_loss, block_separated, block_rsum = self._block(X, Wx[:d], shift, lo, min(lo + rows, n), G, start)
                loss += block_loss
                separated = separated and block_separated
                rsum += block_rsum
        if fill and not (np.isfinite(G).all() and np.isfinite(rsum)):
            # X is beyond float32's range (an entry rounded to infinity): stay in double precision
            self.single, self._X32, self.Xa.X32 = False, None, False
            return self._evaluate(W)
        if fill:
            self.Xa.X32 = X
        if self.Xa.fit_intercept:
            G[d] = rsum
        self._W, self._G, self.loss, self.separated = W, G / n, loss / n, separated
        self._X32_filled = self._X32_filled or fill

    def _block(self, X, W, shift, lo, hi, G, start):
        """Rows ``lo:hi`` of ``X`` (the data or its float32 copy), with the feature weights ``W``
        and ``shift`` (the intercept) added to every score: store their scores and add their share of ``N`` times the gradient of
        the feature weights to ``G``. Returns their shares of ``N`` times the loss and of the sum
        of residuals (the intercept's gradient), and whether all of them are strictly on their
        own side (a margin > 0)."""
        Xb, Sb, Tb = X[lo:hi], self._scores_buffer()[lo:hi], self.T[lo:hi]
        if start:
            Sb.fill(0.0)
        elif Sb.shape[1] == 1:  # a matrix-vector product, which BLAS does faster than a gemm
            np.matmul(Xb, W[:, 0], out=Sb[:, 0])
            Sb += shift
        else:
            np.matmul(Xb, W, out=Sb)
            Sb += shift
        if self.multinomial:
            Smax = Sb.max(axis=1, keepdims=True)
            E = np.exp(Sb - Smax)
            total = E.sum(axis=1, keepdims=True)
            loss = float(np.sum(Smax[:, 0] + np.log(total[:, 0]) - np.sum(Tb * Sb, axis=1)))
            R = E / total - Tb
            top2 = np.partition(Sb, -2, axis=1)[:, -2:]  # the two largest scores, in order
            separated = bool(np.all(np.argmax(Sb, axis=1) == np.argmax(Tb, axis=1))
                             and np.all(top2[:, 1] > top2[:, 0]))
            G[:X.shape[1]] += Xb.T @ R
            return loss, separated, R.sum(axis=0)
        # With the sign y = 2t - 1 and the margin m = y s: the loss is log(1 + e^-|m|) - min(m, 0)
        # and the residual p - t is -y sigmoid(-m); the same e = e^-|m| gives both (one
        # exponential per sample). Computed in the precision of X.
        y = (self._signs32 if X.dtype == np.float32 else self._signs)[lo:hi]
        m = Sb[:, 0] * y
        e = np.exp(-np.abs(m))
        work = np.log1p(e)
        loss = float(work.sum(dtype=float)) - float(np.minimum(m, 0.0, out=work).sum(dtype=float))
        separated = bool(m.min() > 0)
        np.add(e, 1.0, out=work)
        np.reciprocal(work, out=work)        # 1 / (1 + e)
        np.multiply(e, work, out=e)          # e / (1 + e)
        np.copyto(e, work, where=m < 0)      # sigmoid(-m)
        e *= y
        np.negative(e, out=e)                # p - t
        G[:X.shape[1], 0] += e @ Xb
        return loss, separated, float(e.sum(dtype=float))

    def _scores_buffer(self):
        return self._S32 if self.single else self._S

    def value(self, W):
        """Penalised mean loss at ``W`` (``self.loss`` is the mean cross-entropy alone)."""
        self._evaluate(W)
        return self.loss + 0.5 * float(np.sum(self.penalty[:, None] * W * W))

    def gradient(self, W):
        self._evaluate(W)
        return self._G + self.penalty[:, None] * W

    def _scores(self, W):
        self._evaluate(W)
        return self._scores_buffer()

    def saturated_classes(self, W, eps=1e-6):
        """Classes whose predicted probability is within ``eps`` of 1 on all their samples and of 0
        on all others: the sign that the weights grew along a direction separating that class."""
        P = softmax(self._scores(W))
        own = self.T > 0.5
        return [k for k in range(P.shape[1])
                if np.all(P[own[:, k], k] > 1 - eps) and np.all(P[~own[:, k], k] < eps)]

    def _binary_hessian(self, S):
        """``X~^T diag(p (1 - p)) X~ / N``, exact or from every k-th row (k = self.stride).

        Successive iterations use successive offsets (rows 0, k, 2k, ...; then 1, k + 1, ...).
        Once the steps are small the weights, and so the Hessian, barely change between
        iterations, so the subsample Hessians of those iterations are pooled: after k of them the
        estimate uses every row. ``S`` are the current scores (single-precision ones during the
        single-precision iterations, where ``p (1 - p)`` underflows to 0 beyond ``|s|`` of about
        100 instead of about 745).
        """
        k = self.stride
        offset = self._iteration % k
        self._iteration += 1
        e = np.exp(-np.abs(S[offset::k, 0]))
        root = np.sqrt(e) / (1.0 + e)  # sqrt(p (1 - p)) with p = sigmoid(s), e = exp(-|s|)
        d, p = self.Xa.X.shape[1], self.Xa.shape[1]
        # H = B^T B with B = diag(root) X~ on the rows taken, in double precision and from X
        # itself even while the gradients use the float32 copy: rounding X to float32 would move
        # the small eigenvalues of an ill-conditioned Hessian (say, features with a large common
        # offset), and with them the Newton direction.
        B = np.empty((root.shape[0], p))
        B[:, :d] = self.Xa.X[offset::k]
        if p > d:  # the intercept's column
            B[:, d] = 1.0
        B *= root.astype(float, copy=False)[:, None]
        H = B.T @ B
        if k > 1 and self._last_step is not None and self._last_step < self.POOL_BELOW and self._pool is not None:
            self._pool = (self._pool[0] + H, self._pool[1] + root.shape[0])
        else:
            self._pool = (H, root.shape[0])
        return self._pool[0] / self._pool[1]

    def newton_step(self, W, G):
        """Solve ``H step = G`` (least squares where H is singular).

        The binary Hessian ``X~^T S X~ / N`` costs ``N p^2``. With at least ``2 HESSIAN_ROWS``
        rows it is estimated from every k-th row (k = N // HESSIAN_ROWS), which costs
        ``N p^2 / k`` (see ``_binary_hessian``); the gradient of the double-precision iterations
        is exact, so those iterations settle only where the exact gradient vanishes, at the
        maximum-likelihood weights (sub-sampled Newton: Byrd, Chin, Neveitt and Nocedal, SIAM J.
        Optim. 21(3), 2011). On the course's data sets the Hessian is exact and this is Newton's
        method as written in chapter 5.
        """
        S = self._scores(W)
        n = self.n
        p = self.Xa.shape[1]
        if not self.multinomial:
            H = self._binary_hessian(S) + np.diag(self.penalty)
            if self.single:
                # Single-precision rounding puts a little gradient where the Hessian has (nearly)
                # no curvature, as along a dependent column; adding 1e-3 of its diagonal (which
                # respects the scale of every feature) keeps that from becoming a huge step and
                # changes the other steps little (these iterations only bring the weights near
                # the optimum).
                H = H + np.diag(1e-3 * np.diag(H))
            step = _solve_psd(H, G[:, 0])[:, None]
            self._last_step = float(np.max(np.abs(step))) / (1.0 + float(np.max(np.abs(W))))
            return step
        P = softmax(S)
        Xa = self.Xa.rows()
        K = P.shape[1]
        H = np.empty((K * p, K * p))
        for a in range(K):
            for c in range(a, K):
                weights = P[:, a] * ((a == c) - P[:, c])
                block = (Xa * weights[:, None]).T @ Xa / n
                if a == c:
                    block += np.diag(self.penalty)
                H[a * p:(a + 1) * p, c * p:(c + 1) * p] = block
                H[c * p:(c + 1) * p, a * p:(a + 1) * p] = block.T
        # The softmax is unchanged by adding one vector to every class's weights, so H is singular;
        # the least-squares (minimum-norm) step keeps the class weights summing to zero.
        step = np.linalg.lstsq(H, G.T.reshape(-1), rcond=None)[0]
        return step.reshape(K, p).T


def _armijo(objective, W, f, G, step, halvings=40):
    """Backtracking line search along ``-step``: the first ``alpha = 1, 1/2, 1/4, ...`` with
    sufficient decrease (Armijo), as ``(W_new, f_new, alpha)``; None if ``halvings`` tries find
    none."""
    slope = float(np.sum(G * step))
    alpha = 1.0
    for _ in range(halvings):
        W_new = W - alpha * step
        f_new = objective.value(W_new)
        if f_new <= f - 1e-4 * alpha * slope:
            return W_new, f_new, alpha
        alpha /= 2
    return None


def _solve_psd(H, g):
    """Solve ``H x = g`` for a positive semi-definite ``H``: by Cholesky when ``H`` is safely
    positive definite, otherwise the least-squares (minimum-norm) solution. A Cholesky factor
    with a pivot below 1e-7 of the largest (a condition number above about 1e14, as when a column
    of X depends on the others) would turn rounding into a huge step along the null space."""
    try:
        L = np.linalg.cholesky(H)
    except np.linalg.LinAlgError:
        L = None
    if L is None or np.min(np.diag(L)) <= 1e-7 * np.max(np.diag(L)):
        return np.linalg.lstsq(H, g, rcond=1e-13)[0]
    return np.linalg.solve(L.T, np.linalg.solve(L, g))


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
    n, d = X.shape
    Xa = _Design(X, fit_intercept)
    T = (y == classes[1]).astype(float)[:, None]
    objective = _Objective(Xa, T, np.zeros(Xa.shape[1]), False)
    W = np.zeros((Xa.shape[1], 1))
    path, losses = [W[:, 0]], [objective.value(W)]
    for _ in range(int(n_iter)):
        W = W - learning_rate * objective.gradient(W)
        path.append(W[:, 0])
        losses.append(objective.value(W))
    path = np.array(path)
    coefs = path[:, :d]
    intercepts = path[:, d] if fit_intercept else np.zeros(n_iter + 1)
    return coefs, intercepts, np.array(losses)
