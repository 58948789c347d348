"""Chapter 4: the perceptron rule, its variants, the mistake bound, and scikit-learn agreement."""

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import lincourse as lc


def textbook_perceptron(X, y, bias_step, max_epochs=1000):
    """The one-sample-at-a-time loop of chapter 4, written as plainly as possible."""
    w, b, k = np.zeros(X.shape[1]), 0.0, 0
    for _ in range(max_epochs):
        mistakes = 0
        for x_i, y_i in zip(X, y):
            if y_i * (np.dot(w, x_i) + b) <= 0:
                w = w + y_i * x_i
                b = b + y_i * bias_step
                k += 1
                mistakes += 1
        if mistakes == 0:
            break
    return w, b, k


def sklearn_perceptron(X, y, fit_intercept=True):
    from sklearn.linear_model import Perceptron

    clf = Perceptron(shuffle=False, eta0=1, penalty=None, alpha=0, max_iter=1000, tol=None,
                     fit_intercept=fit_intercept)
    return clf.fit(X, y)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_identical_to_sklearn(seed, fit_intercept):
    X, y = lc.datasets.make_separable(150, d=4, margin=0.05, random_state=seed)
    if not fit_intercept:  # separable through the origin: use the augmented data
        X = lc.augment(X)
    ours = lc.Perceptron(fit_intercept=fit_intercept).fit(X, y)
    theirs = sklearn_perceptron(X, y, fit_intercept)
    np.testing.assert_array_equal(ours.coef_, theirs.coef_.ravel())
    assert ours.intercept_ == theirs.intercept_[0]
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


def test_identical_to_sklearn_with_default_tolerance():
    # the exact configuration: scikit-learn's default tol stops after the weights stop changing
    from sklearn.linear_model import Perceptron

    X, y = lc.datasets.make_separable(300, d=3, margin=0.05, random_state=11)
    theirs = Perceptron(shuffle=False, eta0=1, penalty=None, alpha=0).fit(X, y)
    ours = lc.Perceptron().fit(X, y)
    assert ours.converged_
    np.testing.assert_array_equal(ours.coef_, theirs.coef_.ravel())


@pytest.mark.parametrize("bias_update, step", [("unit", None), ("radius", "R2")])
def test_identical_to_the_textbook_loop(bias_update, step):
    rng = np.random.default_rng(0)
    X = rng.integers(-5, 6, size=(120, 3)).astype(float)  # integer data: every score is exact
    y = np.where(X @ [1.0, -2.0, 0.5] + 0.5 > 0, 1, -1)
    bias_step = 1.0 if step is None else float(np.max(np.sum(X * X, axis=1)))
    w, b, k = textbook_perceptron(X, y, bias_step)
    clf = lc.Perceptron(bias_update=bias_update).fit(X, y)
    np.testing.assert_array_equal(clf.coef_, w)
    assert clf.intercept_ == b and clf.n_updates_ == k


def test_attributes_and_history():
    X, y = lc.datasets.make_separable(60, margin=0.1, random_state=3)
    clf = lc.Perceptron().fit(X, y)
    assert clf.converged_ and clf.n_updates_ == len(clf.history_) > 0
    last = clf.history_[-1]
    np.testing.assert_array_equal(last.coef, clf.coef_)
    assert last.intercept == clf.intercept_
    # replaying the history reproduces every step of the rule
    w, b = np.zeros(2), 0.0
    for update in clf.history_:
        x_i, y_i = X[update.index], y[update.index]
        assert y_i * (w @ x_i + b) <= 0  # it was a mistake
        w, b = w + y_i * x_i, b + y_i
        np.testing.assert_array_equal(update.coef, w)
        assert update.intercept == b
    assert clf.n_epochs_ == clf.history_[-1].epoch + 1  # the final clean pass is counted
    assert lc.training_error(X, y, clf.coef_, clf.intercept_) == 0.0
    assert clf.score(X, y) == 1.0


def test_fit_returns_self_and_any_two_labels():
    X, y = lc.datasets.make_separable(40, margin=0.1, random_state=4)
    labels = np.where(y > 0, "spam", "ham")
    clf = lc.Perceptron()
    assert clf.fit(X, labels) is clf
    np.testing.assert_array_equal(clf.classes_, ["ham", "spam"])
    assert clf.score(X, labels) == 1.0


def test_shuffle_is_deterministic_given_random_state():
    X, y = lc.datasets.make_separable(200, margin=0.02, random_state=5)
    a = lc.Perceptron(shuffle=True, random_state=1).fit(X, y)
    b = lc.Perceptron(shuffle=True, random_state=1).fit(X, y)
    c = lc.Perceptron(shuffle=True, random_state=2).fit(X, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert a.converged_ and c.converged_
    assert not np.array_equal(a.coef_, c.coef_)


@given(st.integers(0, 10_000), st.floats(0.02, 0.3), st.sampled_from(["unit", "radius"]), st.booleans())
def test_never_exceeds_the_mistake_bound(seed, margin, bias_update, shuffle):
    X, y, (w, b) = lc.datasets.make_separable(60, d=3, margin=margin, random_state=seed, return_separator=True)
    clf = lc.Perceptron(bias_update=bias_update, shuffle=shuffle, random_state=seed).fit(X, y)
    assert clf.converged_
    assert clf.n_updates_ <= lc.mistake_bound(X, y, w, b, bias_update=bias_update)


@given(st.integers(0, 10_000), st.floats(0.05, 0.3))
def test_mistake_bound_through_the_origin(seed, margin):
    X, y, (w, b) = lc.datasets.make_separable(50, d=3, margin=margin, random_state=seed, return_separator=True)
    Xa = lc.augment(X)  # separable through the origin in one more dimension by (b, w)
    clf = lc.Perceptron(fit_intercept=False).fit(Xa, y)
    assert clf.n_updates_ <= lc.mistake_bound(Xa, y, np.r_[b, w], 0.0, fit_intercept=False)


def test_mistake_bound_formulas_by_hand():
    X = np.array([[2.0, 0.0], [-1.0, 0.0]])
    y = np.array([1, -1])
    # through the origin: R = 2, gamma = 1
    assert lc.mistake_bound(X, y, [1.0, 0.0], fit_intercept=False) == pytest.approx(4.0)
    # unit: R'^2 = 1 + 4, ||(b, w)||^2 = 1 + 0.25, gamma_F = min(2.5, 0.5) = 0.5
    assert lc.mistake_bound(X, y, [1.0, 0.0], b=0.5) == pytest.approx(5 * 1.25 / 0.25)
    # radius: 2 R^2 (||w||^2 + b^2/R^2) / gamma_F^2
    assert lc.mistake_bound(X, y, [1.0, 0.0], b=0.5, bias_update="radius") == pytest.approx(
        2 * 4 * (1 + 0.25 / 4) / 0.25)


def test_mistake_bound_rejects_non_separators():
    X, y = lc.datasets.make_xor()
    with pytest.raises(ValueError, match="does not separate"):
        lc.mistake_bound(X, y, [1.0, 1.0], -1.0)
    with pytest.raises(ValueError, match="b must be 0"):
        lc.mistake_bound([[1.0], [-1.0]], [1, -1], [1.0], b=0.1, fit_intercept=False)


def test_non_separable_stops_with_a_warning():
    X, y = lc.datasets.make_xor()
    with pytest.warns(lc.ConvergenceWarning, match="max_epochs"):
        clf = lc.Perceptron(max_epochs=25).fit(X, y)
    assert not clf.converged_ and clf.n_epochs_ == 25
    assert lc.training_error(X, y, clf.coef_, clf.intercept_) > 0


def test_pocket_keeps_the_best_weights():
    Xi, yi = lc.datasets.load_iris(return_X_y=True)
    mask = yi > 0
    X, y = Xi[mask][:, 2:], np.where(yi[mask] == 2, 1, -1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lc.ConvergenceWarning)
        plain = lc.Perceptron(max_epochs=50).fit(X, y)
        pocket = lc.PocketPerceptron(max_epochs=50).fit(X, y)
    errors = [lc.training_error(X, y, u.coef, u.intercept) for u in plain.history_]
    assert pocket.pocket_error_ == pytest.approx(min(errors))
    assert lc.training_error(X, y, pocket.coef_, pocket.intercept_) == pytest.approx(pocket.pocket_error_)
    assert pocket.pocket_error_ <= lc.training_error(X, y, plain.coef_, plain.intercept_)


def test_averaged_equals_the_mean_of_visited_weights():
    X, y = lc.datasets.make_separable(30, margin=0.05, random_state=7)
    avg = lc.AveragedPerceptron().fit(X, y)
    # recompute by brute force: the weights in force after each of the n * epochs visits
    w, b, total_w, total_b, visits = np.zeros(2), 0.0, np.zeros(2), 0.0, 0
    for _ in range(avg.n_epochs_):
        for x_i, y_i in zip(X, y):
            if y_i * (w @ x_i + b) <= 0:
                w, b = w + y_i * x_i, b + y_i
            total_w, total_b, visits = total_w + w, total_b + b, visits + 1
    np.testing.assert_allclose(avg.coef_, total_w / visits)
    assert avg.intercept_ == pytest.approx(total_b / visits)


@pytest.mark.parametrize(
    "params, exc, words",
    [
        ({"max_epochs": 0}, ValueError, "max_epochs"),
        ({"max_epochs": -3}, ValueError, "max_epochs"),
        ({"max_epochs": 2.5}, TypeError, "max_epochs"),
        ({"bias_update": "huge"}, ValueError, "bias_update"),
        ({"random_state": "seed"}, TypeError, "random_state"),
    ],
)
def test_bad_parameters(params, exc, words):
    X, y = lc.datasets.make_separable(10, random_state=0)
    with pytest.raises(exc, match=words):
        lc.Perceptron(**params).fit(X, y)


def test_bad_data_and_unfitted():
    with pytest.raises(ValueError, match="Only binary classification"):
        lc.Perceptron().fit([[0.0], [1.0], [2.0]], [0, 1, 2])
    with pytest.raises(ValueError, match="at least 2 classes"):
        lc.Perceptron().fit([[0.0], [1.0]], [1, 1])
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        lc.Perceptron().fit([[0.0], [1.0]], [1, -1, 1])
    with pytest.raises(lc.NotFittedError, match="not fitted"):
        lc.Perceptron().predict([[0.0]])
    clf = lc.Perceptron().fit([[0.0, 1.0], [1.0, 0.0]], [1, -1])
    with pytest.raises(ValueError, match="features"):
        clf.predict([[0.0, 1.0, 2.0]])


def _adversarial(case):
    """Data on which the single-precision screen is least sure of itself."""
    rng = np.random.default_rng(0)
    if case == "small integers":  # many scores exactly 0
        X = rng.integers(-2, 3, size=(800, 4)).astype(float)
        return X, np.where(X[:, 0] + X[:, 1] > 0, 1, -1)
    if case == "dynamic range":  # features from 1e-8 to 1e8
        X = rng.normal(size=(800, 6)) * np.array([1e8, 1, 1e-8, 1e4, 1e-4, 1])
        return X, np.where(X @ np.ones(6) > 0, 1, -1)
    if case == "tiny margins":  # every point within 1e-12 of a hyperplane
        w0 = rng.normal(size=5)
        X = rng.normal(size=(800, 5))
        X -= np.outer(X @ w0 / (w0 @ w0), w0)
        X += np.outer(rng.choice([-1, 1], 800) * 1e-12, w0)
        return X, np.where(X @ w0 > 0, 1, -1)
    X, y = lc.datasets.make_separable(800, d=5, margin=0.05, random_state=3)
    return X + 1e6, y  # a large common offset


@pytest.mark.parametrize("case", ["small integers", "dynamic range", "tiny margins", "offset"])
@pytest.mark.parametrize("bias_update", ["unit", "radius"])
def test_screen_never_changes_a_decision_on_adversarial_data(case, bias_update):
    X, y = _adversarial(case)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lc.ConvergenceWarning)
        clf = lc.Perceptron(bias_update=bias_update, max_epochs=15).fit(X, y)
    step = 1.0 if bias_update == "unit" else float(np.max(np.sum(X * X, axis=1)))
    w, b, k = textbook_perceptron(X, y, step, max_epochs=15)
    np.testing.assert_array_equal(clf.coef_, w)
    assert clf.intercept_ == b and clf.n_updates_ == k


def test_error_history_and_weights_by_epoch_start_from_coef_init():
    from lincourse.perceptron import error_history, weights_by_epoch

    X = np.array([[1.0, 0.0], [2.0, 1.0], [-1.0, 0.5], [-2.0, -1.0]])
    y = np.array([1, 1, -1, -1])
    clf = lc.Perceptron().fit(X, y, coef_init=[1.0, 0.0])   # separates already: no update
    assert clf.n_updates_ == 0
    np.testing.assert_array_equal(error_history(clf, X, y), [0.0])
    coefs, intercepts = weights_by_epoch(clf)
    np.testing.assert_array_equal(coefs, [[1.0, 0.0]])
    np.testing.assert_array_equal(intercepts, [0.0])
    start = lc.Perceptron().fit(X, y, coef_init=[1.0, 0.0], intercept_init=-1.5)
    assert error_history(start, X, y)[0] == 0.25   # w = (1, 0), b = -1.5 errs on (1, 0) only
