"""Chapters 1-3 formulas: scores, predictions, distances, margins, training error, separability."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import lincourse as lc

finite = st.floats(-10, 10, allow_nan=False, allow_infinity=False)


def nonzero_vectors(d):
    return arrays(float, d, elements=finite).filter(lambda w: np.linalg.norm(w) > 1e-3)


def test_decision_function_and_predict_by_hand():
    X = [[1.0, 2.0], [0.0, -1.0], [1.0, 0.0]]
    np.testing.assert_array_equal(lc.decision_function(X, [1.0, 1.0], -1.0), [2.0, -2.0, 0.0])
    # a score of exactly 0 predicts -1, as scikit-learn does
    np.testing.assert_array_equal(lc.predict(X, [1.0, 1.0], -1.0), [1, -1, -1])


def test_single_point_returns_scalars():
    assert lc.decision_function([1.0, 2.0], [1.0, 1.0]) == 3.0
    assert lc.predict([1.0, 2.0], [1.0, 1.0]) == 1
    assert lc.signed_distance([3.0, 4.0], [3.0, 4.0], -5.0) == pytest.approx(4.0)
    np.testing.assert_allclose(lc.project_onto_hyperplane([2.0, 5.0], [0.0, 1.0], -1.0), [2.0, 1.0])


def test_signed_distance_and_origin_distance():
    w, b = np.array([3.0, 4.0]), -10.0
    assert lc.distance_from_origin(w, b) == pytest.approx(2.0)
    # the origin is at signed distance b/||w|| = -(distance of the boundary from the origin)
    assert lc.signed_distance([0.0, 0.0], w, b) == pytest.approx(-2.0)


def test_sklearn_decision_function_agrees():
    from sklearn.linear_model import LogisticRegression

    X, y = lc.datasets.make_overlapping(50, d=3, random_state=0)
    clf = LogisticRegression().fit(X, y)
    np.testing.assert_allclose(lc.decision_function(X, clf.coef_[0], clf.intercept_[0]), clf.decision_function(X))
    np.testing.assert_array_equal(lc.predict(X, clf.coef_[0], clf.intercept_[0]), clf.predict(X))


@given(nonzero_vectors(3), finite, st.floats(0.01, 100), arrays(float, (5, 3), elements=finite))
def test_scaling_changes_no_prediction_and_no_signed_distance(w, b, c, X):
    np.testing.assert_array_equal(lc.predict(X, c * w, c * b), lc.predict(X, w, b))
    np.testing.assert_allclose(lc.signed_distance(X, c * w, c * b), lc.signed_distance(X, w, b), rtol=1e-9, atol=1e-9)
    assert lc.distance_from_origin(c * w, c * b) == pytest.approx(lc.distance_from_origin(w, b), rel=1e-9, abs=1e-12)


@given(nonzero_vectors(2), finite, arrays(float, (4, 2), elements=finite))
def test_foot_lies_on_the_hyperplane_and_distance_is_its_length(w, b, X):
    feet = lc.project_onto_hyperplane(X, w, b)
    scale = 1 + np.abs(X).max() * np.abs(w).max() + abs(b)
    np.testing.assert_allclose(feet @ w + b, 0.0, atol=1e-9 * scale)
    np.testing.assert_allclose(np.linalg.norm(X - feet, axis=1), np.abs(lc.signed_distance(X, w, b)), rtol=1e-7,
                               atol=1e-9 * scale)
    # w is orthogonal to the boundary: the difference of two points on it is orthogonal to w
    d = feet[0] - feet[1]
    assert abs(d @ w) <= 1e-8 * scale * (1 + np.abs(d).max())


@given(nonzero_vectors(2), finite, st.floats(0.01, 100))
def test_margins_scale_as_stated(w, b, c):
    X, y = lc.datasets.make_separable(20, margin=0.1, random_state=1)
    f, g = lc.functional_margin(X, y, w, b), lc.geometric_margin(X, y, w, b)
    assert lc.functional_margin(X, y, c * w, c * b) == pytest.approx(c * f, rel=1e-9, abs=1e-9)
    assert lc.geometric_margin(X, y, c * w, c * b) == pytest.approx(g, rel=1e-9, abs=1e-9)
    assert g == pytest.approx(f / np.linalg.norm(w), rel=1e-9, abs=1e-12)


def test_true_separator_has_the_promised_margin():
    X, y, (w, b) = lc.datasets.make_separable(200, d=4, margin=0.15, random_state=2, return_separator=True)
    assert lc.geometric_margin(X, y, w, b) >= 0.15
    assert lc.training_error(X, y, w, b) == 0.0


def test_training_error_counts_boundary_points_as_mistakes():
    X = [[1.0], [2.0], [-1.0], [0.0], [0.0]]
    assert lc.training_error(X, [1, 1, 1, -1, 1], [1.0]) == pytest.approx(3 / 5)
    # equivalent form: mean of [y != predict] except on the boundary, where both labels are mistakes
    X, y = lc.datasets.make_overlapping(100, random_state=3)
    w, b = np.array([1.0, -0.5]), 0.2
    assert lc.training_error(X, y, w, b) == pytest.approx(np.mean(lc.predict(X, w, b) != y))


def test_augment_gives_the_same_scores():
    X, _ = lc.datasets.make_overlapping(10, d=3, random_state=4)
    w, b = np.array([0.5, -1.0, 2.0]), 0.7
    Xa = lc.augment(X)
    np.testing.assert_array_equal(Xa[:, 0], 1.0)
    np.testing.assert_allclose(Xa @ np.r_[b, w], lc.decision_function(X, w, b))


def test_is_linearly_separable():
    X, y = lc.datasets.make_xor()
    assert not lc.is_linearly_separable(X, y)
    X, y = lc.datasets.make_separable(100, d=3, margin=0.01, random_state=5)
    ok, (w, b) = lc.is_linearly_separable(X, y, return_separator=True)
    assert ok and lc.training_error(X, y, w, b) == 0.0
    Xi, yi = lc.datasets.load_iris(return_X_y=True)
    setosa_versicolor = yi < 2
    assert lc.is_linearly_separable(Xi[setosa_versicolor], np.where(yi[setosa_versicolor] == 0, 1, -1))
    versicolor_virginica = yi > 0
    assert not lc.is_linearly_separable(Xi[versicolor_virginica], np.where(yi[versicolor_virginica] == 1, 1, -1))


@pytest.mark.parametrize(
    "call, exc, words",
    [
        (lambda: lc.signed_distance([[1.0, 2.0]], [0.0, 0.0]), ValueError, "zero vector"),
        (lambda: lc.distance_from_origin([0.0, 0.0], 1.0), ValueError, "zero vector"),
        (lambda: lc.geometric_margin([[1.0, 2.0]], [1], [0.0, 0.0]), ValueError, "zero vector"),
        (lambda: lc.decision_function([[1.0, 2.0]], [1.0, 2.0, 3.0]), ValueError, "features"),
        (lambda: lc.decision_function([[1.0, np.nan]], [1.0, 2.0]), ValueError, "NaN"),
        (lambda: lc.decision_function([[1.0, 2.0]], [1.0, np.inf]), ValueError, "infinity"),
        (lambda: lc.decision_function(np.empty((0, 2)), [1.0, 2.0]), ValueError, "0 sample"),
        (lambda: lc.decision_function([[[1.0]]], [1.0]), ValueError, "dim 3"),
        (lambda: lc.decision_function("abc", [1.0]), ValueError, "string to float"),
        (lambda: lc.decision_function([["a", "b"]], [1.0, 1.0]), ValueError, "string to float"),
        (lambda: lc.decision_function([[1.0, 2.0]], [1.0, 2.0], b=[1.0, 2.0]), ValueError, "scalar"),
        (lambda: lc.decision_function([[1.0], [1.0, 2.0]], [1.0]), ValueError, "inhomogeneous"),
        (lambda: lc.training_error([[1.0]], [0], [1.0]), ValueError, r"only -1 and 1.*y = 2 \* t - 1"),
        (lambda: lc.functional_margin([[1.0], [2.0]], [1], [1.0]), ValueError, "one entry per sample"),
        (lambda: lc.training_error([[1.0]], [[1]], [1.0]), ValueError, "vector"),
    ],
)
def test_bad_input_messages(call, exc, words):
    with pytest.raises(exc, match=words):
        call()
