"""Chapter 4 (generalisation): every number its prose and solutions quote, recomputed, so that a changed
data set, seed or split fails here where the text went stale."""

import itertools
import math

import numpy as np
import pytest
from scipy.stats import norm
from sklearn.model_selection import train_test_split

import lincourse as lc


@pytest.fixture(scope="module")
def heldout_results():
    """The held-out experiment of section sec-heldout-experiment, as the chapter runs it."""
    angles, offsets = np.arange(0, 360, 1.0), np.linspace(-3, 3, 241)
    results = []
    for r in range(20):
        X_all, y_all = lc.datasets.make_gaussian_classes(1000, random_state=r)
        X_tr, X_ho, y_tr, y_ho = train_test_split(X_all, y_all, test_size=960, random_state=r)
        theta, b, e_in = lc.best_line_on_grid(X_tr, y_tr, angles, offsets)
        results.append([e_in, lc.training_error(X_ho, y_ho, theta, b),
                        lc.training_error(X_tr, y_tr, [1.0, 0.0], 0.0), lc.training_error(X_ho, y_ho, [1.0, 0.0], 0.0)])
    return np.array(results)


def test_heldout_experiment_numbers(heldout_results):
    r = heldout_results
    assert f"{r[0, 0]:.3f}" == "0.125" and f"{r[0, 1]:.3f}" == "0.230"
    assert [f"{r[:, k].mean():.4f}" for k in range(4)] == ["0.1075", "0.2066", "0.1762", "0.1590"]
    se = math.sqrt(norm.cdf(-1) * (1 - norm.cdf(-1)) / 800)
    assert f"{r[:, 2].mean() - norm.cdf(-1):.4f}" == "0.0176" and f"{se:.4f}" == "0.0129"
    assert f"{(r[:, 2].mean() - norm.cdf(-1)) / se:.1f}" == "1.4"
    assert np.sum(r[:, 0] < r[:, 1]) == 19
    assert f"{norm.cdf(-1):.3f}" == "0.159"
    assert 360 * 241 == 86_760  # "some 87,000 candidates"
    assert f"{math.sqrt(0.2 * 0.8 / 960):.3f}" == "0.013"


def test_bounds_quoted():
    assert f"{math.sqrt(math.log(2 / 0.05) / (2 * 960)):.4f}" == "0.0438"
    eps = math.sqrt(math.log(2 * 360 * 241 / 0.05) / (2 * 40))
    assert f"{eps:.3f}" == "0.434" and f"{0.125 + eps:.3f}" == "0.559"
    assert math.ceil(math.log(2 / 0.05) / (2 * 0.05 ** 2)) == 738
    assert f"{math.log(2 / 0.05) / (2 * 0.05 ** 2):.1f}" == "737.8"

    def sauer(n, d=3):
        return sum(math.comb(n, i) for i in range(d + 1))
    assert sauer(40) == 10701 and sauer(4) == 15
    vc = [math.sqrt(8 / n * math.log(4 * sauer(2 * n) / 0.05)) for n in (40, 10_000)]
    assert vc[0] > 1 and f"{vc[1]:.3f}" == "0.161"
    # the shape paragraph: Sauer's sum is at most N^d_VC + 1; Cover's count N^2 - N + 2 for lines
    assert all(sauer(n) <= n ** 3 + 1 for n in range(1, 200))
    assert [n * n - n + 2 for n in (3, 4)] == [8, 14] and [sauer(n) for n in (3, 4)] == [8, 15]
    assert all(n * n - n + 2 < sauer(n) for n in range(4, 200))


def test_vc_bound_exercise():
    """The solution of ex-generalisation-vc-bound: N = 1000, delta = 0.05."""
    m_2n = sum(math.comb(2000, i) for i in range(4))
    assert m_2n == 1 + 2000 + 1_999_000 + 1_331_334_000
    assert f"{m_2n:.2e}" == "1.33e+09" and f"{4 * m_2n / 0.05:.2e}" == "1.07e+11"
    assert f"{math.log(4 * m_2n / 0.05):.1f}" == "25.4" and round(math.log(2 * 360 * 241 / 0.05)) == 15
    vc = math.sqrt(8 / 1000 * math.log(4 * m_2n / 0.05))
    grid = math.sqrt(math.log(2 * 360 * 241 / 0.05) / (2 * 1000))
    assert (f"{vc:.3f}", f"{grid:.3f}") == ("0.451", "0.087") and vc > 0.3 and round(vc / grid) == 5
    assert (8 / 1000) / (1 / (2 * 1000)) == 16


def test_shattering_counts():
    labellings = list(itertools.product([-1, 1], repeat=3))
    triangle = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    collinear = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]])
    assert sum(lc.is_linearly_separable(triangle, np.array(l)) for l in labellings) == 8
    assert sum(lc.is_linearly_separable(collinear, np.array(l)) for l in labellings) == 6
    corners = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    lifted = np.column_stack([corners, corners[:, 0] * corners[:, 1]])
    four = list(itertools.product([-1, 1], repeat=4))
    assert sum(lc.is_linearly_separable(corners, np.array(l)) for l in four) < 15
    assert sum(lc.is_linearly_separable(lifted, np.array(l)) for l in four) == 16


def test_triangle_solution_lines():
    tri = np.array([[0.0, 0.0], [2.0, 1.0], [1.0, 3.0]])
    lines = [((1, 1), 1), ((1, 1), -5), ((-1, -1), 1), ((1, 1), -1),
             ((1, -1), -0.5), ((-1, 1), 0.5), ((-1, 1), -1), ((1, -1), 1)]
    scores = [lc.decision_function(tri, np.array(t, dtype=float), b) for t, b in lines]
    assert len({tuple(np.sign(s)) for s in scores}) == 8 and all(np.all(s != 0) for s in scores)
    expected = [[1, 4, 5], [-5, -2, -1], [1, -2, -3], [-1, 2, 3],
                [-0.5, 0.5, -2.5], [0.5, -0.5, 2.5], [-1, -2, 1], [1, 2, -1]]
    for s, e in zip(scores, expected):   # the table of the solution
        np.testing.assert_allclose(s, e)


def test_hoeffding_explorer_readout_and_bound_on_every_player_position():
    from lincourse.explorers._player import player_grids
    from lincourse.explorers.geometry import HOEFFDING_SAMPLES

    ex = lc.explorers.geometry.hoeffding()
    X, y = lc.datasets.make_gaussian_classes(HOEFFDING_SAMPLES * 500, random_state=0)
    losses = (y * lc.decision_function(X, [1.0, 0.0], 0.0) <= 0).astype(float)
    grids = player_grids(ex)
    assert len(grids["K"]) >= 13 and len(grids["eps"]) >= 13
    for K in grids["K"]:
        nu = losses[: HOEFFDING_SAMPLES * int(K)].reshape(HOEFFDING_SAMPLES, int(K)).mean(axis=1)
        for eps in grids["eps"][::4]:
            outside = np.mean(np.abs(nu - norm.cdf(-1)) > eps)
            readout = ex.set(K=K, eps=eps).readout
            assert f"> eps: {outside:.3f}" in readout
            assert f"2 exp(-2 eps^2 K): {2 * math.exp(-2 * eps ** 2 * K):.3f}" in readout
            assert outside <= 2 * math.exp(-2 * eps ** 2 * K)


def test_inner_point_labellings():
    inner = np.array([[0.0, 0.0], [3.0, 0.0], [0.0, 3.0], [1.0, 1.0]])
    four = list(itertools.product([-1, 1], repeat=4))
    lost = [l for l in four if not lc.is_linearly_separable(inner, np.array(l))]
    assert sorted(lost) == [(-1, -1, -1, 1), (1, 1, 1, -1)]
    assert len(four) - len(lost) == 14 and sum(math.comb(4, i) for i in range(4)) == 15


def test_optimism_and_n_experiment():
    """The solution of ex-generalisation-optimism: 'from about 0.09 to about 0.01', ratios 7.3 and 2.5."""
    def mean_gap(N):
        angles, offsets = np.arange(0, 360, 4.0), np.linspace(-3, 3, 61)
        gaps = []
        for r in range(20):
            X_all, y_all = lc.datasets.make_gaussian_classes(1000, random_state=r)
            X_tr, X_ho, y_tr, y_ho = train_test_split(X_all, y_all, train_size=N, test_size=600, random_state=r)
            theta, b, e_in = lc.best_line_on_grid(X_tr, y_tr, angles, offsets)
            gaps.append(lc.training_error(X_ho, y_ho, theta, b) - e_in)
        return np.array(gaps)

    a40, a400 = mean_gap(40), mean_gap(400)
    g40, g400 = a40.mean(), a400.mean()
    se = [g.std(ddof=1) / math.sqrt(len(g)) for g in (a40, a400)]
    assert (f"{se[0]:.4f}", f"{se[1]:.4f}") == ("0.0151", "0.0044")
    # 'between about 4.5 and 13 within one standard error of each mean'
    assert round((g40 - se[0]) / (g400 + se[1]), 1) == 4.5 and round((g40 + se[0]) / (g400 - se[1])) == 13
    sauer = lambda n: sum(math.comb(n, i) for i in range(4))
    assert [f"{math.sqrt(8 / N * math.log(4 * sauer(2 * N) / 0.05)):.2f}" for N in (40, 400)] == ["1.77", "0.67"]
    assert (f"{g40:.3f}", f"{g400:.3f}", f"{g40 / g400:.1f}") == ("0.090", "0.012", "7.3")
    assert round(g40, 2) == 0.09 and round(g400, 2) == 0.01
    shape = [math.sqrt(3 * math.log(N) / N) for N in (40, 400)]
    assert (f"{shape[0]:.3f}", f"{shape[1]:.3f}", f"{shape[0] / shape[1]:.1f}") == ("0.526", "0.212", "2.5")


def test_validation_optimism_experiment():
    """The validation-vs-test exercise: 12 lines through the origin, chosen on 40 points, judged on 10000."""
    angles = np.deg2rad(np.arange(0, 360, 30))
    candidates = np.column_stack([np.cos(angles), np.sin(angles)])
    pairs = []
    for seed in range(20):
        Xv, yv = lc.datasets.make_gaussian_classes(40, random_state=seed)
        Xt, yt = lc.datasets.make_gaussian_classes(10000, random_state=1000 + seed)
        errors = [lc.training_error(Xv, yv, theta, 0.0) for theta in candidates]
        k = int(np.argmin(errors))
        pairs.append((errors[k], lc.training_error(Xt, yt, candidates[k], 0.0)))
    val, test = np.array(pairs).T
    assert np.mean(test - val) > 0.02 and np.sum(test > val) >= 15
    assert f"{np.mean(test - val):.3f}" == "0.036"
    assert f"{math.sqrt(math.log(2 * 12 / 0.05) / (2 * 40)):.2f}" == "0.28"
    # 'it falls below 0.05 only for K above about 1,250' (the cell prints 1235)
    assert math.ceil(math.log(2 * 12 / 0.05) / (2 * 0.05 ** 2)) == 1235


def test_hoeffding_explorer_concept_check():
    """q-hoeffding-explorer: at K = 100, eps = 0.05 (grid positions of the explorer) the bound is 1.21 > 1."""
    assert f"{2 * math.exp(-2 * 0.05 ** 2 * 100):.2f}" == "1.21"
