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
    assert lc.logistic_loss(y, s) == pytest.approx(lc.cross_entropy(t, lc.sigmoid(s)), rel=1e-7, abs=1e-12)


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
    with pytest.raises(ValueError, match=r"-1 and \+1"):
        lc.logistic_loss([0, 1], [0.0, 1.0])
