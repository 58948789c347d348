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


scales = st.sampled_from([1e-200, 1e-100, 1e-20, 1e-8, 1.0, 1e8, 1e20, 1e38, 1e40, 1e100, 1e200])


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), scale=scales, n=st.integers(2, 40), d=st.integers(1, 5),
       rule=st.sampled_from(["unit", "radius", "origin"]), integer=st.booleans())
def test_same_updates_as_the_plain_loop_at_every_scale(seed, scale, n, d, rule, integer):
    rng = np.random.default_rng(seed)
    # small integers give exact ties (scores of exactly 0); normals give generic data
    X = (rng.integers(-2, 3, size=(n, d)) if integer else rng.normal(size=(n, d))) * scale
    y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    y[0], y[-1] = -1.0, 1.0
    _check_same(X, y, bias_update="unit" if rule == "origin" else rule, fit_intercept=rule != "origin",
                max_epochs=8)


@pytest.mark.filterwarnings("error::RuntimeWarning")  # no overflow or underflow warning reaches the user
@pytest.mark.parametrize("scale", [1e-300, 1e-200, 1e38, 1e40, 1e154, 1e200, 1e300])
def test_extreme_scales_separable(scale):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 3))
    y = np.where(X @ [1.0, -2.0, 0.5] > 0, 1.0, -1.0)
    _check_same(X * scale, y, max_epochs=20)
    _check_same(X * scale, y, fit_intercept=False, max_epochs=20)


def test_long_runs_use_blocks_and_stay_exact():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(5000, 8))
    y = np.where(X @ rng.normal(size=8) + 0.3 * rng.normal(size=5000) > 0, 1.0, -1.0)
    _check_same(X, y, max_epochs=5)
    _check_same(X + 1e6, y, max_epochs=3)


def test_near_ties_are_decided_by_the_one_sample_test():
    # margins of order 1e-16 relative: the block product and the one-sample dot may round differently
    rng = np.random.default_rng(2)
    base = rng.normal(size=(200, 6))
    X = np.vstack([base, base + 1e-15 * rng.normal(size=base.shape)])
    y = np.where(rng.random(400) < 0.5, -1.0, 1.0)
    _check_same(X, y, max_epochs=10)


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


@pytest.mark.parametrize("d", [4, 8, 17])
def test_rounding_ties_where_the_block_product_and_the_one_sample_dot_disagree(d):
    # rows are permutations of (1, 2^-53, -1, 0, ...): the exact score with w = 1 is 2^-53, and
    # depending on the order of summation a dot product returns 0 or 2^-53. The one-sample test
    # decides, whatever the matrix-vector product of a block says.
    rng = np.random.default_rng(d)
    base = [1.0, 2.0**-53, -1.0] + [0.0] * (d - 3)
    X = np.array([rng.permutation(base) for _ in range(300)] + [np.zeros(d)])
    y = np.ones(301)
    y[-1] = -1.0  # a zero row: always a mistake, and an update that changes nothing
    for start in (np.ones(d), -np.ones(d)):
        w, b, updates, _, _ = plain_perceptron(X, y, 0.0, 1, w0=start)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", lc.ConvergenceWarning)
            clf = lc.Perceptron(fit_intercept=False, max_epochs=1).fit(X, y, coef_init=start)
        assert [u.index for u in clf.history_] == [u[0] for u in updates]
        np.testing.assert_array_equal(clf.coef_, w)
