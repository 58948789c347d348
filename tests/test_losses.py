"""Chapter 5 losses: stable sigmoid, softmax and cross-entropy."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import lincourse as lc


def test_sigmoid_values_and_extremes():
    assert lc.sigmoid(0.0) == 0.5
    with np.errstate(over="raise"):
        out = lc.sigmoid(np.array([-1e6, -800.0, 800.0, 1e6]))
    np.testing.assert_array_equal(out, [0.0, 0.0, 1.0, 1.0])
    assert isinstance(lc.sigmoid(1.0), float)


@given(arrays(float, 10, elements=st.floats(-700, 700)))
def test_sigmoid_symmetry_and_log_odds(z):
    np.testing.assert_allclose(lc.sigmoid(z) + lc.sigmoid(-z), 1.0, atol=1e-15)
    mid = np.abs(z) < 10  # beyond, 1 - p has lost most of its digits
    p = lc.sigmoid(z[mid])
    np.testing.assert_allclose(np.log(p / (1 - p)), z[mid], atol=1e-6)


def test_sigmoid_matches_scipy():
    from scipy.special import expit

    z = np.linspace(-50, 50, 1001)
    np.testing.assert_allclose(lc.sigmoid(z), expit(z), rtol=1e-15)


def test_softmax_rows_and_shift_invariance():
    Z = np.array([[1.0, 2.0, 3.0], [1000.0, 0.0, -1000.0]])
    P = lc.softmax(Z)
    np.testing.assert_allclose(P.sum(axis=1), 1.0)
    np.testing.assert_allclose(lc.softmax(Z + 5.0), P)
    assert np.all(np.isfinite(P))


def test_cross_entropy_by_hand_and_against_sklearn():
    from sklearn.metrics import log_loss

    t = np.array([1, 0, 1, 1])
    p = np.array([0.9, 0.2, 0.6, 0.99])
    expected = -np.mean(t * np.log(p) + (1 - t) * np.log(1 - p))
    assert lc.cross_entropy(t, p) == pytest.approx(expected)
    assert lc.cross_entropy(t, p) == pytest.approx(log_loss(t, p))
    P = np.array([[0.7, 0.2, 0.1], [0.1, 0.1, 0.8]])
    assert lc.cross_entropy([0, 2], P) == pytest.approx(-np.mean(np.log([0.7, 0.8])))
    assert lc.cross_entropy([0, 2], P) == pytest.approx(log_loss([0, 2], P, labels=[0, 1, 2]))


def test_cross_entropy_is_finite_at_certain_mistakes():
    value = lc.cross_entropy([1, 0], [0.0, 1.0])
    assert np.isfinite(value) and value > 700


@given(arrays(float, 8, elements=st.floats(-10, 10)), arrays(np.int64, 8, elements=st.sampled_from([-1, 1])))
def test_logistic_loss_equals_cross_entropy(s, y):
    t = (y + 1) / 2
    assert lc.logistic_loss(t, s) == pytest.approx(lc.cross_entropy(t, lc.sigmoid(s)), rel=1e-7, abs=1e-12)


def test_bad_input():
    with pytest.raises(ValueError, match="0 and 1"):
        lc.cross_entropy([2, 0], [0.5, 0.5])
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        lc.cross_entropy([1, 0], [1.5, 0.5])
    with pytest.raises(ValueError, match="shape"):
        lc.cross_entropy([1, 0, 1], [0.5, 0.5])
    with pytest.raises(ValueError, match="class indices"):
        lc.cross_entropy([3, 0], [[0.5, 0.5], [0.5, 0.5]])
    with pytest.raises(ValueError, match="NaN"):
        lc.sigmoid([np.nan])
    with pytest.raises(TypeError, match="numeric"):
        lc.sigmoid("x")
    with pytest.raises(ValueError, match=r"only 0 and 1.*t = \(y \+ 1\) / 2"):
        lc.logistic_loss([-1, 1], [0.0, 1.0])


# -- the 0-1 loss and its surrogates against the margin (chapter 3, equation (margin-losses)) --------
def test_margin_losses_values_at_the_boundary_and_around():
    losses = lc.losses.margin_losses([-1.0, 0.0, 0.5, 1.0, 2.0])
    np.testing.assert_array_equal(losses["zero-one"], [1, 1, 0, 0, 0])  # m = 0 is a mistake
    np.testing.assert_array_equal(losses["perceptron"], [1, 0, 0, 0, 0])
    np.testing.assert_array_equal(losses["hinge"], [2, 1, 0.5, 0, 0])
    np.testing.assert_allclose(losses["logistic"], np.log2(1 + np.exp([1.0, 0.0, -0.5, -1.0, -2.0])))
    assert lc.losses.margin_losses(0.0) == {"zero-one": 1.0, "perceptron": 0.0, "hinge": 1.0, "logistic": 1.0}


def test_margin_losses_logistic_is_chapter_5_loss_in_bits():
    s = np.linspace(-5, 5, 11)
    for y in (1, -1):
        per_point = lc.losses.margin_losses(y * s)["logistic"]
        assert np.mean(per_point) * np.log(2) == pytest.approx(lc.logistic_loss(np.full(s.size, (y + 1) / 2), s))


@given(arrays(float, 20, elements=st.floats(-1e6, 1e6)))
def test_margin_losses_bounds_and_convexity(m):
    with np.errstate(over="raise"):
        losses = lc.losses.margin_losses(m)
    zero_one = losses["zero-one"]
    assert np.all(losses["hinge"] >= zero_one)
    assert np.all(losses["logistic"] >= zero_one)
    assert np.all(np.isfinite(losses["logistic"])) and np.all(losses["logistic"] >= 0)
    assert np.all(losses["logistic"][m < 700] > 0)  # positive everywhere, until exp(-m) underflows
    # the perceptron loss is below the 0-1 loss on (-1, 0]: no upper bound
    assert np.all(losses["perceptron"][(m > -1) & (m <= 0)] < 1)
    # convexity of the surrogates: the value at a midpoint is at most the mean of the two values
    a, b = m[:10], m[10:]
    mid = lc.losses.margin_losses((a + b) / 2)
    ends = [lc.losses.margin_losses(a), lc.losses.margin_losses(b)]
    for name in ("perceptron", "hinge", "logistic"):
        assert np.all(mid[name] <= (ends[0][name] + ends[1][name]) / 2 + 1e-9 * (1 + np.abs(a) + np.abs(b)))


def test_margin_losses_zero_one_is_the_training_error_term():
    X, y = lc.datasets.load_credit(return_X_y=True)
    w, b = np.array([0.5, 1.0]), -75.0
    m = y * lc.decision_function(X, w, b)
    assert np.mean(lc.losses.margin_losses(m)["zero-one"]) == lc.training_error(X, y, w, b)


def test_plot_margin_losses_draws_every_loss_with_a_label():
    m = np.linspace(-3, 3, 61)
    fig, ax = lc.plotting.new_figure()
    artists = lc.plotting.plot_margin_losses(ax, m, lc.losses.margin_losses(m))
    labels = [a.get_label() for a in artists if not a.get_label().startswith("_")]
    assert len(labels) == 4 and any("hinge" in label for label in labels)
    assert ax.get_xlim() == (-3.0, 3.0)
    assert len(lc.plotting.figure_to_png(fig)) > 1000
