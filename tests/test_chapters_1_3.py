"""Tests for what chapters 1-3 add to lincourse: unit_normal_form, training_error_landscape, the
chapter 1-3 explorers (readouts agree with the library), and every number the prose of chapters 1-3
quotes (recomputed here, so a changed data set or seed fails where the text went stale)."""


import nbformat
import numpy as np
import pytest

import lincourse as lc
from lincourse.explorers.geometry import DEMO_LABELS, DEMO_POINTS, unit_vector

CHAPTER_EXPLORERS = [lc.explorers.hyperplane, lc.explorers.point_distance, lc.explorers.dataset_margin,
                     lc.explorers.training_error]


# -- unit_normal_form (chapter 2, equation (unit-normal)) ---------------------------------------------
def test_unit_normal_form_example():
    u, c = lc.unit_normal_form([3.0, 4.0], -10.0)
    np.testing.assert_allclose(u, [0.6, 0.8])
    assert c == pytest.approx(-2.0)


def test_unit_normal_form_score_is_signed_distance(rng):
    X = rng.standard_normal((30, 4))
    w, b = rng.standard_normal(4), 1.3
    u, c = lc.unit_normal_form(w, b)
    assert np.linalg.norm(u) == pytest.approx(1.0)
    np.testing.assert_allclose(X @ u + c, lc.signed_distance(X, w, b))
    np.testing.assert_allclose(lc.predict(X, u, c), lc.predict(X, w, b))
    assert -c == pytest.approx(lc.distance_from_origin(w, b))


def test_unit_normal_form_rejects_zero_vector():
    with pytest.raises(ValueError):
        lc.unit_normal_form([0.0, 0.0], 1.0)


# -- training_error_landscape (chapter 3, equation (training-error)) ---------------------------------
def test_landscape_matches_training_error_pointwise(rng):
    X, y = lc.datasets.make_overlapping(25, separation=1.5, random_state=2)
    angles, offsets = np.arange(0, 360, 17.0), np.linspace(-2, 2, 9)
    grid = lc.training_error_landscape(X, y, angles, offsets)
    assert grid.shape == (offsets.size, angles.size)
    for j, b in enumerate(offsets):
        for k, a in enumerate(angles):
            assert grid[j, k] == lc.training_error(X, y, unit_vector(a), b)


def test_landscape_counts_boundary_points_as_mistakes():
    # The point (1, 0) lies on the line x1 = 1 (angle 0, b = -1) whatever its label.
    for label in (1, -1):
        grid = lc.training_error_landscape([[1.0, 0.0]], [label], [0.0], [-1.0])
        assert grid[0, 0] == 1.0


def test_landscape_is_piecewise_constant_with_values_k_over_n():
    X, y = lc.datasets.load_credit(return_X_y=True)
    Z = (X - X.mean(axis=0)) / X.std(axis=0)
    grid = lc.training_error_landscape(Z, y, np.arange(0, 360, 2.0), np.linspace(-2, 2, 81))
    np.testing.assert_allclose(grid * len(y), np.round(grid * len(y)))
    assert np.unique(grid).size <= len(y) + 1


def test_landscape_validates_inputs():
    with pytest.raises(ValueError, match="2 features"):
        lc.training_error_landscape(np.zeros((3, 3)), [1, -1, 1], [0.0], [0.0])
    with pytest.raises(ValueError):
        lc.training_error_landscape([[0.0, 0.0]], [2], [0.0], [0.0])


# -- explorers of chapters 1-3 ------------------------------------------------------------------------
@pytest.mark.parametrize("factory", CHAPTER_EXPLORERS, ids=lambda f: f.__name__)
def test_explorer_builds_without_arguments_and_a_move_changes_png_and_readout(factory):
    ex = factory()
    assert ex.caption and ex.title
    before = (ex.png, ex.readout)
    ex.set(angle=ex.values["angle"] + 90)
    assert ex.png != before[0] and ex.readout != before[1]


@pytest.mark.parametrize("factory", CHAPTER_EXPLORERS, ids=lambda f: f.__name__)
def test_explorer_sweeps_keep_fixed_axes(factory):
    """A full sweep of the angle renders every frame on unchanged axes (speed: see make bench)."""
    ex = factory()
    limits = ex.scene().limits
    frames = set()
    for angle in range(0, 360, 20):
        frames.add(ex.set(angle=angle).png)
        assert ex.scene().limits == limits
    assert len(frames) > 1


def test_hyperplane_scaling_w_and_b_together_leaves_predictions():
    """Scale invariance: (c w, c b) gives the same predictions and |b|/||w||, other scores."""
    ex = lc.explorers.hyperplane()
    readouts = [ex.set(angle=30, length=c, b=0.5 * c).readout.splitlines() for c in (0.5, 1.0, 3.0)]
    assert len({r[2] for r in readouts}) == 1  # the predictions line
    assert len({r[3] for r in readouts}) == 1  # |b|/||w|| and the side of the origin
    assert len({r[1] for r in readouts}) == 3  # the scores do change
    w = 3.0 * unit_vector(30)
    expected = lc.predict(DEMO_POINTS, w, 1.5)
    assert readouts[2][2].endswith("[" + ", ".join(f"{v:+d}" for v in expected) + "]")
    assert f"|b|/‖w‖ = {abs(lc.distance_from_origin(w, 1.5)):.3f}" in readouts[2][3]
    assert readouts[2][3].endswith("origin on the positive side")


def test_hyperplane_length_alone_does_not_rescale_b():
    """The length slider is ||w|| only: b stays what its slider says, so the boundary moves."""
    ex = lc.explorers.hyperplane()
    readouts = [ex.set(angle=30, length=c, b=0.5).readout.splitlines() for c in (0.5, 3.0)]
    assert all("b = +0.50" in r[0] for r in readouts)
    assert "= 1.000" in readouts[0][3] and "= 0.167" in readouts[1][3]
    assert readouts[0][2] != readouts[1][2]  # x(5) changes sides
    assert ex.set(angle=30, length=1.0, b=-0.5).readout.endswith("origin on the negative side")
    assert ex.set(angle=30, length=1.0, b=0.0).readout.endswith("origin on the boundary")


def test_point_distance_readout_matches_library():
    b = lc.explorers.geometry.POINT_DISTANCE_OFFSET
    ex = lc.explorers.point_distance().set(x1=1.0, x2=-2.0, angle=120)
    theta, x = unit_vector(120), np.array([1.0, -2.0])
    assert f"{lc.signed_distance(x, theta, b):+.3f}" in ex.readout
    foot = lc.project_onto_hyperplane(x, theta, b)
    assert f"({foot[0]:+.2f}, {foot[1]:+.2f})" in ex.readout


def test_dataset_margin_readout_matches_library():
    ex = lc.explorers.dataset_margin().set(angle=200, length=2.5, b=0.1)
    X, y = lc.datasets.make_separable(20, margin=0.25, random_state=3)
    w = 2.5 * unit_vector(200)
    assert f"functional margin min over i of y⁽ⁱ⁾ (w·x⁽ⁱ⁾ + b) = {lc.functional_margin(2.0 * X, y, w, 0.1):+.3f}" in ex.readout
    assert f"(functional margin)/‖w‖ = {lc.geometric_margin(2.0 * X, y, w, 0.1):+.3f}" in ex.readout
    assert "worst-classified point" in ex.readout  # this line misclassifies points: the ring is no "closest point"
    # the readout numbers the points from 1, as the text does: x⁽ᵏ⁾ is Python's X[k - 1]
    k = int(np.argmin(y * lc.decision_function(2.0 * X, w, 0.1)))
    index = "".join("⁰¹²³⁴⁵⁶⁷⁸⁹"[int(c)] for c in str(k + 1))
    assert f"x⁽{index}⁾ = ({2.0 * X[k, 0]:+.2f}, {2.0 * X[k, 1]:+.2f})" in ex.readout
    assert "closest point" in ex.set(angle=315, length=1.0, b=0.25).readout


def test_training_error_explorer_on_credit_matches_landscape():
    X, y = lc.datasets.load_credit(return_X_y=True)
    ex = lc.explorers.training_error(X, y, ("age", "salary"))
    Z = (X - X.mean(axis=0)) / X.std(axis=0)
    for angle, b in [(45, 0.0), (60, -0.5), (200, 1.0)]:
        ex.set(angle=angle, b=b)
        expected = lc.training_error_landscape(Z, y, [angle], [b])[0, 0]
        assert f"E_in = {expected:.3f}" in ex.readout


# -- best_line_on_grid (chapter 3, equation (training-error) minimised over a grid) ------------------
def test_best_line_on_grid_agrees_with_the_landscape():
    X, y = lc.datasets.make_overlapping(30, separation=1.5, random_state=4)
    angles, offsets = np.arange(0, 360, 10.0), np.linspace(-2, 2, 41)
    theta, b, e_in = lc.geometry.best_line_on_grid(X, y, angles, offsets)
    E = lc.training_error_landscape(X, y, angles, offsets)
    assert e_in == E.min() == lc.training_error(X, y, theta, b)
    assert np.linalg.norm(theta) == pytest.approx(1.0)
    assert b in offsets
    j, k = np.argwhere(E == E.min())[0]      # the first minimum, offsets outer
    np.testing.assert_allclose(theta, unit_vector(angles[k]))
    assert b == offsets[j]


def test_best_line_on_grid_finds_a_separator_when_the_grid_has_one():
    X, y = np.array([[1.0, 0.0], [2.0, 1.0], [-1.0, 0.0], [-2.0, -1.0]]), np.array([1, 1, -1, -1])
    theta, b, e_in = lc.geometry.best_line_on_grid(X, y, [0.0, 180.0], [0.0, 0.5])
    assert e_in == 0.0 and theta == pytest.approx([1.0, 0.0]) and b == 0.0


# -- numbers quoted in the prose of chapter 1 ----------------------------------------------------------
def test_chapter1_credit_counts_and_rule():
    X, y = lc.datasets.load_credit(return_X_y=True)
    assert X.shape == (40, 2) and np.sum(y == 1) == 28 and np.sum(y == -1) == 12
    np.testing.assert_allclose(lc.decision_function(X[:3], [0.5, 1.0], -75.0), [-2.3, 29.7, -41.7], atol=1e-9)


def test_chapter1_closest_point_exercise():
    theta, b = np.array([1.0, 2.0, 2.0]), 6.0
    p0 = -b * theta / (theta @ theta)
    np.testing.assert_allclose(p0, [-2 / 3, -4 / 3, -4 / 3])
    assert np.isclose(np.linalg.norm(p0), 2.0) and lc.distance_from_origin(theta, b) == -2.0
    multiplier = -2 * b / (theta @ theta)            # 2 x = lambda theta, in the solution
    assert multiplier == pytest.approx(-4 / 3) and np.allclose(multiplier / 2 * theta, p0)
    d_2 = lc.distance_from_origin(2 * theta, -3.0)   # the second plane, with its own theta
    assert d_2 == pytest.approx(0.5) and abs(-2.0 - d_2) == pytest.approx(2.5)   # the checked distance


def test_chapter1_explorer_numbers():
    u = unit_vector(30)
    proj = DEMO_POINTS @ u
    assert round(proj[4], 2) == -0.32 and round(proj[2], 2) == -0.12
    others = np.abs(np.delete(proj, [2, 4]))
    assert round(others.min(), 2) == 0.73
    assert f"{lc.distance_from_origin(3 * u, 0.5):+.3f}" == "-0.167"
    assert lc.predict(DEMO_POINTS[4:5], 0.5 * u, 0.5)[0] == 1 and lc.predict(DEMO_POINTS[4:5], 3 * u, 0.5)[0] == -1
    # the turn exercise's explanation: the kept points are those with |u.x| < 0.5
    kept = lc.predict(DEMO_POINTS, u, 0.5) == lc.predict(DEMO_POINTS, -u, 0.5)
    np.testing.assert_array_equal(kept, np.abs(proj) < 0.5)


# -- numbers quoted in the prose of chapter 2 ----------------------------------------------------------
def _chapter2_data():
    X, y, (w, b) = lc.datasets.make_separable(20, margin=0.25, random_state=3, return_separator=True)
    return 2.0 * X, y, w, 2.0 * b


def test_chapter2_margin_numbers():
    X, y, w, b = _chapter2_data()
    assert f"{lc.geometric_margin(X, y, w, b):.3f}" == "0.513"
    w_best, b_best = lc.max_margin_separator(X, y)
    gamma_d = lc.geometric_margin(X, y, w_best, b_best)
    assert f"{gamma_d:.4f}" == "0.5951"
    assert f"{gamma_d:.3f}" == "0.595" and f"{1 / np.linalg.norm(w_best):.4f}" == "0.5951"
    ex = lc.explorers.dataset_margin()
    r = ex.set(angle=45, length=1.0, b=0.0).readout
    assert "misclassifies 9 point(s)" in r and "-1.996" in r
    assert "+0.270" in ex.set(angle=300, length=1.0, b=0.0).readout
    u = unit_vector(315)
    g = lc.geometric_margin(X, y, u, 0.25)
    assert f"{g:.3f}" == "0.560" and lc.geometric_margin(X, y, w, b) < g < gamma_d
    # q-distance-scale and the scaled readouts: (1.68, 0.560) for the factor 3, 1.120 for the factor 2
    assert f"{lc.functional_margin(X, y, 2 * u, 0.5):.3f}" == "1.120"
    assert f"{lc.functional_margin(X, y, 3 * u, 0.75):.2f}" == "1.68"
    assert f"{lc.geometric_margin(X, y, 3 * u, 0.75):.3f}" == "0.560"
    assert f"{lc.geometric_margin(X, y, 3 * u, 0.75) / 3:.3f}" == "0.187"   # option B's slip


def test_chapter2_max_over_angles_and_hand_margins():
    X, y, w, b = _chapter2_data()
    a = np.deg2rad(np.arange(0, 360, 0.01))
    P = X @ np.array([np.cos(a), np.sin(a)])
    assert f"{(0.5 * (P[y == 1].min(axis=0) - P[y == -1].max(axis=0))).max():.4f}" == "0.5951"
    Xh, yh, th = np.array([[2.0, 1.0], [0.0, 0.0], [1.0, 0.5]]), np.array([1, -1, 1]), np.array([1.0, 1.0])
    np.testing.assert_allclose(th @ Xh.T - 1.0, [2.0, -1.0, 0.5])
    assert lc.functional_margin(Xh, yh, th, -1.0) == 0.5 and lc.functional_margin(Xh, yh, 2 * th, -2.0) == 1.0
    assert f"{lc.geometric_margin(Xh, yh, th, -1.0):.3f}" == f"{lc.geometric_margin(Xh, yh, 2 * th, -2.0):.3f}" == "0.354"


def test_chapter2_three_point_margin_exercise():
    a, c, x_neg = np.array([3.0, -1.0]), np.array([1.0, 3.0]), np.array([-1.0, -1.0])
    mu = (x_neg - a) @ (c - a) / ((c - a) @ (c - a))
    p = a + mu * (c - a)
    assert mu == pytest.approx(0.4) and np.allclose(p, [2.2, 0.6])
    w = p - x_neg
    m = lc.geometric_margin(np.vstack([a, c, x_neg]), [1, 1, -1], w, -w @ (p + x_neg) / 2)
    assert f"{m:.3f}" == "1.789" and m < 0.5 * np.linalg.norm(a - x_neg) == 2.0


def test_chapter2_point_explorer_numbers():
    b = lc.explorers.geometry.POINT_DISTANCE_OFFSET
    assert lc.signed_distance([0.5, 1.0], unit_vector(0), b) == pytest.approx(0.0)   # on the line x1 = 0.5
    ex = lc.explorers.point_distance()
    assert "(on the boundary)" in ex.set(x1=0.5, x2=1.0, angle=0).readout
    assert "(the other side)" in ex.set(x1=0.5, x2=-1.0, angle=45).readout


def test_chapter2_feature_stretch_changes_margins():
    X, y, w, b = _chapter2_data()
    s = np.array([1.0, 3.0])
    np.testing.assert_array_equal(lc.predict(X * s, w / s, b), lc.predict(X, w, b))
    assert lc.geometric_margin(X * s, y, w / s, b) > lc.geometric_margin(X, y, w, b)
    assert f"{lc.geometric_margin(X, y, w, b):.4f}" == "0.5129"            # quoted in the solution
    assert f"{lc.geometric_margin(X * s, y, w / s, b):.4f}" == "0.7584"
    wb, bb = lc.max_margin_separator(X, y)
    w3, b3 = lc.max_margin_separator(X * s, y)
    best3 = lc.geometric_margin(X * s, y, w3, b3)
    assert best3 > lc.geometric_margin(X, y, wb, bb)
    assert lc.geometric_margin(X * s, y, wb / s, bb) < best3 - 1e-3   # the image of the old best is not the new best


def test_chapter2_units_concept_check():
    # q-distance-units: x1 in a unit ten times smaller, theta = (1, 0) -> (0.1, 0), b = -1 kept
    X = np.array([[1.4, 0.3], [0.6, -2.0], [2.5, 1.0]])
    y = np.array([1, -1, 1])
    assert lc.geometric_margin(X, y, [1.0, 0.0], -1.0) == pytest.approx(0.4)
    Xs = X * np.array([10.0, 1.0])
    np.testing.assert_array_equal(lc.predict(Xs, [0.1, 0.0], -1.0), lc.predict(X, [1.0, 0.0], -1.0))
    assert lc.geometric_margin(Xs, y, [0.1, 0.0], -1.0) == pytest.approx(4.0)


def test_chapter1_augmented_and_threshold_tie():
    u = unit_vector(30)
    offset_form = lc.predict(DEMO_POINTS, u, -0.25)
    np.testing.assert_array_equal(lc.predict(lc.augment(DEMO_POINTS), np.r_[-0.25, u]), offset_form)
    # the threshold exercise's tie cases: sum w_j x_j = tau exactly is predicted -1
    assert lc.predict(lc.augment([[0.5, 0.5]]), np.r_[-1.0, 1.0, 1.0])[0] == -1
    assert lc.predict(lc.augment([[0.5, 0.5]]), np.r_[-0.5, -1.0, 2.0])[0] == -1


# -- numbers quoted in the prose of chapter 3 ----------------------------------------------------------
def _credit():
    X, y = lc.datasets.load_credit(return_X_y=True)
    return X, y, (X - X.mean(axis=0)) / X.std(axis=0)


def test_chapter3_rule_and_lp_numbers():
    X, y, _ = _credit()
    wrong = y * lc.decision_function(X, [0.5, 1.0], -75.0) <= 0
    assert wrong.sum() == 3 and lc.training_error(X, y, [0.5, 1.0], -75.0) == pytest.approx(0.075)
    assert not lc.is_linearly_separable(X, y) and lc.is_linearly_separable(X[~wrong], y[~wrong])
    r, yk = X[~wrong, 1] / X[~wrong, 0], y[~wrong]
    assert f"{r[yk == 1].min():.3f}" == "1.084" and f"{r[yk == -1].max():.3f}" == "1.857"
    assert f"{r[yk == 1].max():.3f}" == "5.885" and f"{r[yk == -1].min():.3f}" == "0.287"


def test_chapter3_crossing_segments_certificate_and_iris():
    X, y, _ = _credit()
    assert y[[31, 39, 4, 32]].tolist() == [1, 1, -1, -1]
    P1, P2, Q1, Q2 = X[[31, 39, 4, 32]]
    mu1, mu2 = np.linalg.solve(np.column_stack([P2 - P1, Q1 - Q2]), Q1 - P1)
    assert 0 < mu1 < 1 and 0 < mu2 < 1 and (f"{mu1:.3f}", f"{mu2:.3f}") == ("0.015", "0.160")
    # the certificate of the Going-further exercise: weights 1 - mu1, mu1, 1 - mu2, mu2 on the rows y_i (x_i, 1) sum to 0
    rows = y[[31, 39, 4, 32], None] * np.column_stack([X[[31, 39, 4, 32]], np.ones(4)])
    np.testing.assert_allclose(np.array([1 - mu1, mu1, 1 - mu2, mu2]) @ rows, 0.0, atol=1e-9)
    iris = lc.datasets.load_iris()
    keep = iris.target > 0
    yi = np.where(iris.target[keep] == 2, 1, -1)
    assert not lc.is_linearly_separable(iris.data[keep], yi)
    assert not lc.is_linearly_separable(iris.data[keep][:, 2:], yi)


def test_chapter3_explorer_and_landscape_numbers():
    X, y, Z = _credit()
    E = lc.training_error_landscape(Z, y, np.arange(0, 360, 1.0), np.linspace(-2, 2, 201))
    assert E.min() == pytest.approx(1 / 40)
    j, k = np.unravel_index(np.argmin(E), E.shape)
    assert k == 105
    assert lc.training_error_landscape(Z, y, [95], [0.5])[0, 0] == pytest.approx(1 / 40)
    assert lc.training_error_landscape(Z, y, [95], [0.0])[0, 0] == pytest.approx(6 / 40)   # "from 6/40 to 1/40"
    # the chapter gives the explorer the standardised features: its slider offset is its readout's offset
    ex = lc.explorers.training_error(Z, y, ("age (standardised)", "salary (standardised)"))
    for angle, b in [(95, 0.5), (90, -0.25), (105, -0.25)]:
        ex.set(angle=angle, b=b)
        assert f"offset = {b:+.4g}" in ex.readout
        assert f"E_in = {lc.training_error_landscape(Z, y, [angle], [b])[0, 0]:.3f}" in ex.readout
    # the exercise on one step: 9/40 at both angles, two points leave and two enter
    before = y * (Z @ unit_vector(90) - 0.25) <= 0
    after = y * (Z @ unit_vector(105) - 0.25) <= 0
    assert before.sum() == after.sum() == 9
    assert np.sum(before & ~after) == 2 and np.sum(~before & after) == 2
    # "the finite differences that are not 0 come from grid steps that straddle a region border"
    P = Z @ np.stack([unit_vector(a) for a in np.arange(0, 360, 1.0)]).T      # w . z_i, point by angle
    offsets = np.linspace(-2, 2, 201)
    jumps = np.argwhere(np.diff(E, axis=0) != 0)
    assert len(jumps) > 0
    for j, k in jumps:
        assert np.any((-P[:, k] >= offsets[j]) & (-P[:, k] <= offsets[j + 1]))


def test_chapter3_surrogate_averages_exercise():
    losses = lc.margin_losses([2.0, 0.5, 0.0, -1.0])
    assert [losses[k].mean() for k in ("zero-one", "hinge", "perceptron")] == [0.5, 0.875, 0.25]
    # the logistic column (bits) and its natural-log version quoted in the solution
    assert f"{losses['logistic'].mean():.3f}" == "0.940" and f"{np.log(2) * losses['logistic'].mean():.3f}" == "0.652"
    assert [f"{v:.3f}" for v in losses["logistic"]] == ["0.183", "0.684", "1.000", "1.895"]
    np.testing.assert_array_equal(losses["hinge"], [0.0, 0.5, 1.0, 2.0])


def test_chapter3_surrogate_minimisers_on_credit():
    """'the hinge minimiser that the LP solver returns makes the minimum 1/40; the logistic one makes two'."""
    from scipy.optimize import linprog
    X, y, _ = _credit()
    n = len(y)
    A = y[:, None] * np.column_stack([X, np.ones(n)])
    hinge = linprog(c=np.r_[np.zeros(3), np.full(n, 1 / n)], A_ub=-np.column_stack([A, np.eye(n)]),
                    b_ub=-np.ones(n), bounds=[(None, None)] * 3 + [(0, None)] * n, method="highs")
    assert hinge.status == 0 and f"{hinge.fun:.3f}" == "0.086"
    # (hinge-lp): the LP value is the mean hinge loss of the (w, b) it returns
    margins = y * lc.decision_function(X, hinge.x[:2], hinge.x[2])
    assert lc.margin_losses(margins)["hinge"].mean() == pytest.approx(hinge.fun)
    assert lc.training_error(X, y, hinge.x[:2], hinge.x[2]) == pytest.approx(1 / 40)
    logistic = lc.LogisticRegression().fit(X, y)
    assert lc.training_error(X, y, logistic.coef_, logistic.intercept_) == pytest.approx(2 / 40)


def test_chapter3_hand_exercise_and_boundary_check():
    X = np.array([[0.0, 0.0], [1.0, 0.0], [3.0, 0.0], [1.0, 1.0], [2.0, 1.0], [0.0, 4.0]])
    y = np.array([-1, -1, -1, 1, 1, 1])
    errors = [lc.training_error(X, y, [1.0, 1.0], b) for b in (-2.0, -3.0, -3.5)]
    np.testing.assert_allclose(errors, [2 / 6, 3 / 6, 2 / 6])
    # the solution's changes: from -2 to -3 only (2, 1) becomes a mistake, from -3 to -3.5 only (3, 0) stops being one
    mistakes = [y * lc.decision_function(X, [1.0, 1.0], b) <= 0 for b in (-2.0, -3.0, -3.5)]
    assert [X[i].tolist() for i in np.flatnonzero(mistakes[1] & ~mistakes[0])] == [[2.0, 1.0]] and not np.any(mistakes[0] & ~mistakes[1])
    assert [X[i].tolist() for i in np.flatnonzero(mistakes[1] & ~mistakes[2])] == [[3.0, 0.0]] and not np.any(mistakes[2] & ~mistakes[1])
    X1, y1 = np.array([[-2.0], [-1.0], [0.0], [1.0], [2.0]]), np.array([-1, -1, -1, 1, 1])
    assert lc.training_error(X1, y1, [1.0], 0.0) == pytest.approx(1 / 5)
    assert np.all(lc.predict(X1, [1.0], 0.0) == y1)


def test_chapter1_rule_disagreements():
    X, y, _ = _credit()
    assert int(np.sum(lc.predict(X, [0.5, 1.0], -75.0) != y)) == 3
    assert lc.predict(X[:1], [0.5, 1.0], -75.0)[0] == -1 and y[0] == 1


def test_chapter1_bank_rule_augmented():
    credit = lc.datasets.load_credit()
    w_aug = np.r_[-75.0, 0.5, 1.0]  # tau = 75, so w0 = -75
    assert np.array_equal(lc.predict(lc.augment(credit.data), w_aug), lc.predict(credit.data, [0.5, 1.0], -75.0))


def test_chapter2_origin_warmup_and_rho_of_the_origin():
    # q-distance-warmup-origin: the line 3 x1 + 4 x2 - 10 = 0 lies at |b|/||w|| = 2 from the origin
    assert abs(lc.signed_distance([0.0, 0.0], [3.0, 4.0], -10.0)) == pytest.approx(2.0)
    # rho(0) = b/||w|| (the text's one sentence), and q-distance-normal-form: (6, 8) has rho = 8
    assert lc.signed_distance([0.0, 0.0], [3.0, 4.0], -10.0) == pytest.approx(-10.0 / 5.0)
    assert lc.signed_distance([6.0, 8.0], [3.0, 4.0], -10.0) == pytest.approx(8.0)


def test_chapter3_ties_and_baseline():
    X, y, _ = _credit()
    def errors(c):
        return int(np.sum(y * lc.decision_function(X, [1.0, 0.0], -c) <= 0))
    assert [errors(c) for c in (32.5, 33.0, 33.5)] == [10, 13, 13]
    assert [errors(c) for c in (19.5, 20.0, 20.5)] == [12, 13, 12]
    np.testing.assert_array_equal(np.sort(y[X[:, 0] == 33]), [1, 1, 1])
    np.testing.assert_array_equal(np.sort(y[X[:, 0] == 20]), [-1, 1])
    assert np.sum(y == 1) == 28 and np.mean(y == -1) == pytest.approx(0.30)


# -- the chapter rules, for chapters 1-4 ---------------------------------------------------------------
import json  # noqa: E402
import re  # noqa: E402
from pathlib import Path  # noqa: E402

CHAPTERS_1_4 = ["01_hyperplanes", "02_signed_distance", "03_training_error", "04_generalisation"]
ROOT = Path(__file__).resolve().parents[1]


def _cells(stem):
    return json.loads((ROOT / "chapters" / f"{stem}.ipynb").read_text(encoding="utf-8"))["cells"]


@pytest.mark.parametrize("stem", CHAPTERS_1_4)
def test_chapter_exercises(stem):
    """The chapter rules (objectives practised, times, notes, sources): tests/test_chapter_rules.py, for every chapter."""
    import chapter_model as cm

    ch = cm.read(ROOT / "chapters" / f"{stem}.ipynb")
    exercises = [e for e in ch.exercises if not e.check]
    assert len(exercises) >= 4 and any(e.kind == "proof" for e in exercises)
    assert "lincourse.checks" not in json.dumps(_cells(stem))


def test_chapter2_foot_and_mirror_exercise():
    x, theta, b = np.array([3.0, -1.0, 2.0]), np.array([2.0, -1.0, 2.0]), -4.0
    delta = lc.signed_distance(x, theta, b)
    assert delta == pytest.approx(7 / 3)
    foot = lc.project_onto_hyperplane(x, theta, b)
    assert foot == pytest.approx([13 / 9, -2 / 9, 4 / 9])
    mirror = x - 2 * delta * theta / np.linalg.norm(theta)
    assert mirror == pytest.approx([-1 / 9, 5 / 9, -10 / 9])
    assert lc.signed_distance(mirror, theta, b) == pytest.approx(-7 / 3)


def test_chapter2_half_gap_check():
    # q-distance-half-gap: +1 points project to 3, 4, 7 and -1 points to -1, 0, 1 along u
    plus, minus = np.array([3.0, 4.0, 7.0]), np.array([-1.0, 0.0, 1.0])
    a_plus, a_minus = plus.min(), minus.max()
    b = -(a_plus + a_minus) / 2
    assert b == -2.0 and min((plus + b).min(), (-minus - b).min()) == 1.0 == (a_plus - a_minus) / 2
    # the slips: b = +2 gives a smaller margin, and 2 is the whole gap
    assert min((plus + 2.0).min(), (-minus - 2.0).min()) < 1.0 and a_plus - a_minus == 2.0


# the ASCII stand-ins the readouts once printed, where the text writes ‖w‖, w·x, ρ(x), y⁽ⁱ⁾, →, ≤, ε, ±
_STAND_INS = re.compile(r"\|\||w\.x|rho\(|min_i|y\(i\)|x\(i\)|->|<=|>=|\+-|\beps\b|\bnu\b|\^2|\bw3|\bq0")


@pytest.mark.parametrize("name", [n for n in lc.explorers.__all__ if n not in ("Explorer", "Param", "display_mode")])
def test_readouts_use_the_course_notation(name):
    """Every explorer's readout (at its defaults, and for chapter 2's margin at a separating and a
    misclassifying line) uses the notation of the text, in characters the PDF's monospaced font has."""
    ex = getattr(lc.explorers, name)()
    readouts = [ex.readout]
    if name == "dataset_margin":
        readouts += [ex.set(angle=315, length=1.0, b=0.25).readout, ex.set(angle=45, length=1.0, b=0.0).readout]
    if name == "curved_boundary":   # the readout with no boundary
        readouts.append(ex.set(w3=0.0, b=1.0).readout)
    for text in readouts:
        assert text.strip()
        assert not _STAND_INS.findall(text), text
    font = Path("/usr/share/fonts/opentype/freefont/FreeMono.otf")   # Sphinx's XeLaTeX \setmonofont
    if font.exists():
        from fontTools.ttLib import TTFont
        cmap = TTFont(font).getBestCmap()
        assert not {c for text in readouts for c in text if c != "\n" and ord(c) not in cmap}, readouts
