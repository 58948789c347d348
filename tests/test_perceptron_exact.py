"""The learners of chapter 4 against the plain one-sample loop written out here; the
Freund-Schapire bound; starting weights."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lincourse as lc


def plain_perceptron(X, y, step, max_epochs, w0=None, b0=0.0, orders=None):
    """Chapter 4's algorithm block, one sample at a time; returns (w, b, updates, sums, visits)."""
    n, d = X.shape
    w = np.zeros(d) if w0 is None else np.array(w0, dtype=float)
    b = float(b0)
    updates, sum_w, sum_b, visits = [], np.zeros(d), 0.0, 0
    for epoch in range(max_epochs):
        order = range(n) if orders is None else orders[epoch]
        mistakes = 0
        for i in order:
            if y[i] * (X[i] @ w + b) <= 0:
                w += y[i] * X[i]
                b += y[i] * step
                mistakes += 1
                updates.append((int(i), w.copy(), b))
            sum_w += w
            sum_b += b
            visits += 1
        if mistakes == 0:
            break
    return w, b, updates, sum_w / visits, sum_b / visits


def _fit(cls, X, y, **params):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lc.ConvergenceWarning)
        return cls(**params).fit(X, y)


def _check_same(X, y, bias_update="unit", fit_intercept=True, max_epochs=30):
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):  # the reference loop, as written
        step = 0.0 if not fit_intercept else (1.0 if bias_update == "unit" else float(np.max(np.einsum("ij,ij->i", X, X))))
        w, b, updates, avg_w, avg_b = plain_perceptron(X, y, step, max_epochs)
    clf = _fit(lc.Perceptron, X, y, bias_update=bias_update, fit_intercept=fit_intercept, max_epochs=max_epochs)
    assert clf.n_updates_ == len(updates)
    assert [u.index for u in clf.history_] == [u[0] for u in updates]
    np.testing.assert_array_equal(clf.coef_, w)
    assert clf.intercept_ == b
    for mine, theirs in zip(clf.history_, updates):
        np.testing.assert_array_equal(mine.coef, theirs[1])
        assert mine.intercept == theirs[2]
    averaged = _fit(lc.AveragedPerceptron, X, y, bias_update=bias_update, fit_intercept=fit_intercept,
                    max_epochs=max_epochs)
    np.testing.assert_allclose(averaged.coef_, avg_w, rtol=1e-12, atol=0)


def _course_data_sets():
    """Every data set the course trains a perceptron on, with labels in {-1, +1}."""
    ds = lc.datasets
    iris = ds.load_iris()
    cancer_X, cancer_y = ds.load_breast_cancer(return_X_y=True)
    credit_X, credit_y = ds.load_credit(return_X_y=True)
    sets = {
        "iris setosa-versicolor": (iris.data[:100], np.where(iris.target[:100] == 0, -1.0, 1.0)),
        "iris versicolor-virginica": (iris.data[50:], np.where(iris.target[50:] == 1, -1.0, 1.0)),
        "breast cancer": (cancer_X, np.where(cancer_y == 1, 1.0, -1.0)),
        "credit": (credit_X, np.where(credit_y == credit_y.max(), 1.0, -1.0)),
        "xor": ds.make_xor(),
        "overlapping": ds.make_overlapping(200, random_state=0),
    }
    for seed, margin in ((0, 0.05), (4, 0.1), (13, 0.08)):
        sets[f"separable {seed}"] = ds.make_separable(100, margin=margin, random_state=seed)
    return {name: (np.asarray(X, dtype=float), np.asarray(y, dtype=float)) for name, (X, y) in sets.items()}


@pytest.mark.parametrize("rule", ["unit", "radius", "origin"])
@pytest.mark.parametrize("name", list(_course_data_sets()))
def test_same_updates_as_the_plain_loop_on_every_course_data_set(name, rule):
    X, y = _course_data_sets()[name]
    _check_same(X, y, bias_update="unit" if rule == "origin" else rule, fit_intercept=rule != "origin",
                max_epochs=20)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([2, 10, 1000]), n=st.integers(2, 300),
       d=st.integers(1, 6), rule=st.sampled_from(["unit", "radius", "origin"]))
def test_same_updates_as_the_plain_loop_on_integer_data(seed, size, n, d, rule):
    # integer data: every score is an exact integer, so any order of summation gives it (ties included)
    rng = np.random.default_rng(seed)
    X = rng.integers(-size, size + 1, size=(n, d)).astype(float)
    y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    y[0], y[-1] = -1.0, 1.0
    _check_same(X, y, bias_update="unit" if rule == "origin" else rule, fit_intercept=rule != "origin",
                max_epochs=8)


def test_long_runs_search_in_blocks():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(5000, 8))
    y = np.where(X @ rng.normal(size=8) + 0.3 * rng.normal(size=5000) > 0, 1.0, -1.0)
    _check_same(X, y, max_epochs=5)


def test_shuffle_is_the_plain_loop_in_the_drawn_orders():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 2))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] > 0.1, 1.0, -1.0)
    clf = lc.Perceptron(shuffle=True, random_state=7).fit(X, y)
    gen = np.random.default_rng(7)
    orders = [gen.permutation(60) for _ in range(clf.n_epochs_)]
    w, b, updates, _, _ = plain_perceptron(X, y, 1.0, clf.n_epochs_, orders=orders)
    np.testing.assert_array_equal(clf.coef_, w)
    assert clf.intercept_ == b and clf.n_updates_ == len(updates)


def test_coef_init_and_intercept_init():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(50, 3))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    w0, b0 = np.array([0.5, -1.0, 2.0]), 0.25
    clf = lc.Perceptron().fit(X, y, coef_init=w0, intercept_init=b0)
    w, b, updates, _, _ = plain_perceptron(X, y, 1.0, 1000, w0=w0, b0=b0)
    np.testing.assert_array_equal(clf.coef_, w)
    assert clf.intercept_ == b and clf.converged_
    np.testing.assert_array_equal(w0, [0.5, -1.0, 2.0])  # not modified
    # starting at a separator: no update at all
    sep = lc.Perceptron().fit(X, y, coef_init=[1.0, 0.0, 0.0])
    assert sep.n_updates_ == 0 and sep.coef_.tolist() == [1.0, 0.0, 0.0]
    pocket = lc.PocketPerceptron().fit(X, y, coef_init=[1.0, 0.0, 0.0])
    assert pocket.pocket_error_ == 0.0 and pocket.coef_.tolist() == [1.0, 0.0, 0.0]
    with pytest.raises(ValueError, match="3 features"):
        lc.Perceptron().fit(X, y, coef_init=[1.0, 2.0])
    with pytest.raises(ValueError, match="intercept_init"):
        lc.Perceptron(fit_intercept=False).fit(X, y, intercept_init=1.0)


def test_freund_schapire_examples():
    X, y = [[1.0], [2.0], [-1.0], [0.5]], [1, 1, -1, -1]
    assert lc.freund_schapire_bound(X, y, w=[1.0], fit_intercept=False, gamma=0.5) == pytest.approx(36.0)
    assert lc.freund_schapire_bound(X, y, w=[1.0], fit_intercept=False, gamma=0.5, n_epochs=4) == pytest.approx(
        ((2 + 2) / 0.5) ** 2)
    with pytest.raises(ValueError, match="pass a target margin"):
        lc.freund_schapire_bound(X, y, w=[1.0], fit_intercept=False)
    # separable: equals Novikoff's bound with the default gamma
    X2, y2 = [[2.0, 1.0], [1.0, 3.0], [-1.0, -1.0], [-2.0, 1.0]], [1, 1, -1, -1]
    for rule in ("unit", "radius"):
        assert lc.freund_schapire_bound(X2, y2, [1.0, 1.0], 0.0, bias_update=rule) == pytest.approx(
            lc.mistake_bound(X2, y2, [1.0, 1.0], 0.0, bias_update=rule))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), epochs=st.integers(1, 6), rule=st.sampled_from(["unit", "radius", "origin"]),
       gamma=st.floats(0.01, 2.0), shuffle=st.booleans())
def test_freund_schapire_bound_holds_on_non_separable_data(seed, epochs, rule, gamma, shuffle):
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(5, 40)), int(rng.integers(1, 4))
    X = rng.normal(size=(n, d)) * rng.uniform(0.1, 10)
    y = np.where(X @ rng.normal(size=d) + rng.normal(size=n) > 0, 1.0, -1.0)
    y[0], y[1] = -1.0, 1.0
    w, b = rng.normal(size=d), float(rng.normal())
    fit_intercept = rule != "origin"
    clf = _fit(lc.Perceptron, X, y, max_epochs=epochs, fit_intercept=fit_intercept,
               bias_update="unit" if rule == "origin" else rule, shuffle=shuffle, random_state=seed)
    bound = lc.freund_schapire_bound(X, y, w, b if fit_intercept else 0.0, gamma=gamma, fit_intercept=fit_intercept,
                                     bias_update="unit" if rule == "origin" else rule, n_epochs=clf.n_epochs_)
    assert clf.n_updates_ <= bound
