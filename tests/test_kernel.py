"""The kernel perceptron (chapter 10): the perceptron with offset on phi(x), run through a kernel."""

import warnings

import numpy as np
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

import lincourse as lc


def _phi2(X):
    """The explicit features of (1 + x.z)^2 - 1 on the plane (the constant feature left out)."""
    r = np.sqrt(2.0)
    return np.column_stack([r * X[:, 0], r * X[:, 1], X[:, 0] ** 2, X[:, 1] ** 2, r * X[:, 0] * X[:, 1]])


def test_the_dual_run_is_the_perceptron_on_the_mapped_points():
    X, y = lc.datasets.make_xor(n_per_corner=5, noise=0.2, random_state=0)
    primal = lc.Perceptron().fit(_phi2(X), y)
    dual = lc.KernelPerceptron().fit(X, y)
    assert dual.converged_ and primal.converged_
    assert dual.n_updates_ == primal.n_updates_ == len(primal.history_)
    counts = np.bincount([u.index for u in primal.history_], minlength=len(y))
    np.testing.assert_array_equal(dual.alpha_, counts)
    w = (dual.dual_coef_[:, None] * _phi2(X)).sum(axis=0)   # w = sum_j alpha_j y_j phi(x_j), b = sum_j alpha_j y_j
    np.testing.assert_allclose(w, primal.coef_, atol=1e-12)
    assert dual.dual_coef_.sum() == pytest.approx(primal.intercept_)
    grid = np.random.default_rng(1).uniform(-2, 2, size=(50, 2))
    np.testing.assert_allclose(dual.decision_function(grid), primal.decision_function(_phi2(grid)), atol=1e-9)


def test_a_linear_kernel_gives_the_linear_perceptron():
    X, y = lc.datasets.make_separable(40, margin=0.2, random_state=3)
    dual = lc.KernelPerceptron(kernel=lambda A, B: A @ B.T).fit(X, y)
    primal = lc.Perceptron().fit(X, y)
    assert dual.n_updates_ == primal.n_updates_
    np.testing.assert_array_equal(dual.predict(X), primal.predict(X))


def test_precomputed_and_named_kernels_agree():
    X, y = lc.datasets.make_xor(n_per_corner=4, noise=0.3, random_state=2)
    new = np.random.default_rng(0).uniform(-1, 1, size=(7, 2))
    named = lc.KernelPerceptron(kernel="gaussian", width=0.7).fit(X, y)
    G = lc.gaussian_kernel(X, X, 0.7)
    pre = lc.KernelPerceptron(kernel="precomputed").fit(G, y)
    np.testing.assert_array_equal(named.alpha_, pre.alpha_)
    np.testing.assert_allclose(named.decision_function(new), pre.decision_function(lc.gaussian_kernel(new, X, 0.7)))
    d2 = ((X[0] - X[1]) ** 2).sum()
    assert G[0, 1] == pytest.approx(np.exp(-d2 / (2 * 0.7 ** 2)))
    assert lc.quadratic_kernel(X[:1], X[1:2])[0, 0] == pytest.approx((1 + X[0] @ X[1]) ** 2 - 1)


def test_three_points_on_a_line_by_hand():
    """x = -1, 0, 1 with labels +1, -1, +1 and kappa(x, z) = (1 + xz)^2 - 1 = 2xz + x^2 z^2."""
    clf = lc.KernelPerceptron().fit([[-1.0], [0.0], [1.0]], [1, -1, 1])
    # epoch 1: three mistakes; epoch 2: x = 0 has score 1; epoch 3: x = 0 has score 0, a mistake; epoch 4 clean
    np.testing.assert_array_equal(clf.alpha_, [1, 3, 1])
    assert (clf.n_epochs_, clf.n_updates_) == (4, 5)
    # score of z: sum_j alpha_j y_j (kappa(x_j, z) + 1) = (-2z + z^2 + 1) - 3 + (2z + z^2 + 1) = 2 z^2 - 1
    assert clf.decision_function([[0.5]])[0] == pytest.approx(-0.5)
    assert clf.decision_function([[np.sqrt(0.5)]])[0] == pytest.approx(0.0, abs=1e-12)


def test_errors_say_what_was_wrong():
    with pytest.raises(ValueError, match="Only binary classification"):
        lc.KernelPerceptron().fit(np.eye(3), [0, 1, 2])
    with pytest.raises(ValueError, match="square kernel matrix"):
        lc.KernelPerceptron(kernel="precomputed").fit(np.ones((3, 2)), [0, 1, 1])
    with pytest.warns(lc.ConvergenceWarning, match="max_epochs"):
        lc.KernelPerceptron(kernel=lambda A, B: A @ B.T, max_epochs=3).fit(*lc.datasets.make_xor())


@parametrize_with_checks([lc.KernelPerceptron(max_epochs=20), lc.KernelPerceptron(kernel="gaussian", max_epochs=20)])
def test_sklearn_estimator_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lc.ConvergenceWarning)
        check(estimator)
