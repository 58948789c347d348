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
        w, b, e_in = lc.best_line_on_grid(X_tr, y_tr, angles, offsets)
        results.append([e_in, lc.training_error(X_ho, y_ho, w, b),
                        lc.training_error(X_tr, y_tr, [1.0, 0.0], 0.0), lc.training_error(X_ho, y_ho, [1.0, 0.0], 0.0)])
    return np.array(results)


def test_heldout_experiment_numbers(heldout_results):
    r = heldout_results
    assert f"{r[0, 0]:.3f}" == "0.125" and f"{r[0, 1]:.3f}" == "0.230"
    assert [f"{r[:, k].mean():.4f}" for k in range(4)] == ["0.1075", "0.2066", "0.1762", "0.1590"]
    se = math.sqrt(norm.cdf(-1) * (1 - norm.cdf(-1)) / 800)
    assert f"{r[:, 2].mean() - norm.cdf(-1):.4f}" == "0.0176" and f"{se:.4f}" == "0.0129"
    assert f"{(r[:, 2].mean() - norm.cdf(-1)) / se:.1f}" == "1.4"
    assert np.sum(r[:, 0] < r[:, 1]) == 19 and np.sum(r[:, 2] < r[:, 3]) == 8   # 'every blue dot but one'
    assert f"{norm.cdf(-1):.3f}" == "0.159"
    assert 360 * 241 == 86_760
    # 'on 40 points they produce at most 1,562 different labellings': Cover's count 2 sum_{k<=2} C(N-1, k)
    assert 40 ** 2 - 40 + 2 == 2 * sum(math.comb(39, k) for k in range(3)) == 1562
    assert f"{math.sqrt(0.2 * 0.8 / 960):.3f}" == "0.013"


def test_bounds_quoted():
    assert f"{math.sqrt(math.log(2 / 0.05) / (2 * 960)):.4f}" == "0.0438"
    eps = math.sqrt(math.log(2 * 360 * 241 / 0.05) / (2 * 40))
    assert f"{eps:.3f}" == "0.434" and f"{0.125 + eps:.3f}" == "0.559"
    assert math.ceil(math.log(2 / 0.05) / (2 * 0.05 ** 2)) == 738
    assert f"{math.log(2 / 0.05) / (2 * 0.05 ** 2):.1f}" == "737.8"
    # the third reason the guarantee is wider: Hoeffding's constant against the normal one
    assert f"{math.sqrt(math.log(40) / 2):.2f}" == "1.36" and f"{1.96 * 0.5:.2f}" == "0.98"

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
    assert len(grids["n"]) >= 13 and len(grids["eps"]) >= 13
    assert 100 in grids["n"] and 500 in grids["n"] and 0.09 in grids["eps"] and 0.05 in grids["eps"]
    for n in grids["n"]:
        nu = losses[: HOEFFDING_SAMPLES * int(n)].reshape(HOEFFDING_SAMPLES, int(n)).mean(axis=1)
        for eps in grids["eps"][::4]:
            outside = np.mean(np.abs(nu - norm.cdf(-1)) > eps)
            readout = ex.set(n=n, eps=eps).readout
            assert f"|ν - E_out| > ε: {outside:.3f}" in readout
            assert f"2 exp(-2ε²n): {2 * math.exp(-2 * eps ** 2 * n):.3f}" in readout
            assert outside <= 2 * math.exp(-2 * eps ** 2 * n)


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
            w, b, e_in = lc.best_line_on_grid(X_tr, y_tr, angles, offsets)
            gaps.append(lc.training_error(X_ho, y_ho, w, b) - e_in)
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
        errors = [lc.training_error(Xv, yv, w, 0.0) for w in candidates]
        k = int(np.argmin(errors))
        pairs.append((errors[k], lc.training_error(Xt, yt, candidates[k], 0.0)))
    val, test = np.array(pairs).T
    assert np.mean(test - val) > 0.02 and np.sum(test > val) >= 15
    assert f"{np.mean(test - val):.3f}" == "0.036"
    assert f"{math.sqrt(math.log(2 * 12 / 0.05) / (2 * 40)):.2f}" == "0.28"
    # 'it is at most 0.05 only for n >= 1235, as the cell prints'
    assert math.ceil(math.log(2 * 12 / 0.05) / (2 * 0.05 ** 2)) == 1235


def test_hoeffding_explorer_concept_check():
    """q-hoeffding-explorer: at n = 100, eps = 0.05 (grid positions of the explorer) the bound is 1.21 > 1."""
    assert f"{2 * math.exp(-2 * 0.05 ** 2 * 100):.2f}" == "1.21"


def test_learning_curve(heldout_results):
    """The figure's right panel: 'the gap shrinks from 0.151 at N = 20 to 0.019 at N = 320'; E_in rises and the
    held-out error falls, both towards Phi(-1)."""
    angles, offsets = np.arange(0, 360, 1.0), np.linspace(-3, 3, 241)

    def means(N):
        rows = []
        for r in range(20):
            X_all, y_all = lc.datasets.make_gaussian_classes(1000, random_state=r)
            X_tr, X_ho, y_tr, y_ho = train_test_split(X_all, y_all, train_size=N, test_size=1000 - N, random_state=r)
            w, b, e_in = lc.best_line_on_grid(X_tr, y_tr, angles, offsets)
            rows.append([e_in, lc.training_error(X_ho, y_ho, w, b)])
        return np.mean(rows, axis=0)

    sizes = [20, 40, 80, 160, 320]
    curve = np.array([heldout_results[:, :2].mean(axis=0) if N == 40 else means(N) for N in sizes])
    np.testing.assert_allclose(means(40), heldout_results[:, :2].mean(axis=0))   # train_size=40 is the same split
    gaps = curve[:, 1] - curve[:, 0]
    assert (f"{gaps[0]:.3f}", f"{gaps[-1]:.3f}") == ("0.151", "0.019")
    assert np.all(np.diff(curve[:, 0]) > 0) and np.all(np.diff(curve[:, 1]) < 0) and np.all(np.diff(gaps) < 0)
    assert np.all(curve[:, 0] < norm.cdf(-1)) and np.all(curve[:, 1] > norm.cdf(-1))


def test_tradeoff_table(heldout_results):
    """The approximation-generalisation table: two constants, 12 lines through the origin, the grid (N = 40)."""
    normals = np.column_stack([np.cos(np.deg2rad(np.arange(0, 360, 30))), np.sin(np.deg2rad(np.arange(0, 360, 30)))])
    rows = []
    for r in range(20):
        X_all, y_all = lc.datasets.make_gaussian_classes(1000, random_state=r)
        X_tr, X_ho, y_tr, y_ho = train_test_split(X_all, y_all, train_size=40, test_size=960, random_state=r)
        s = 1 if np.mean(y_tr == 1) >= 0.5 else -1
        assert np.mean(y_tr != s) == min(np.mean(y_tr != 1), np.mean(y_tr != -1))   # ERM over the two constants
        k = int(np.argmin([lc.training_error(X_tr, y_tr, w, 0.0) for w in normals]))
        rows.append([np.mean(y_tr != s), np.mean(y_ho != s),
                     lc.training_error(X_tr, y_tr, normals[k], 0.0), lc.training_error(X_ho, y_ho, normals[k], 0.0)])
    m = np.mean(rows, axis=0)
    grid = heldout_results[:, :2].mean(axis=0)
    assert [f"{v:.4f}" for v in (*m, *grid)] == ["0.4437", "0.5020", "0.1600", "0.1751", "0.1075", "0.2066"]
    eps = {M: math.sqrt(math.log(2 * M / 0.05) / 80) for M in (2, 12, 86_760)}
    bound = [m[0] + eps[2], m[2] + eps[12], grid[0] + eps[86_760]]
    assert [f"{v:.3f}" for v in bound] == ["0.678", "0.438", "0.541"] and np.argmin(bound) == 1
    assert m[3] < grid[1] and m[3] < m[1]   # the middle class is best on new points
    # q-generalisation-tradeoff: a finer grid of a million lines
    assert f"{eps[86_760]:.3f}" == "0.434" and f"{math.sqrt(math.log(2e6 / 0.05) / 80):.3f}" == "0.468"


def test_vc_dimension_proof_and_why_pi_replaces_m():
    """Going further: {0, e_1, ..., e_d} is shattered with b = y_0/2, w_j = y_j - y_0/2; Radon's partition of d + 2
    points gives a labelling no line realises; the VC bound is 4 Pi(2N) exp(-eps^2 N / 8) = delta solved for eps."""
    for d in (1, 2, 3, 4):
        points = np.vstack([np.zeros(d), np.eye(d)])
        for labels in itertools.product([-1, 1], repeat=d + 1):
            y = np.array(labels, dtype=float)
            b, w = y[0] / 2, y[1:] - y[0] / 2
            scores = points @ w + b
            assert np.all(scores != 0) and np.all(np.sign(scores) == y)
    rng = np.random.default_rng(0)
    for d in (1, 2, 3):
        X = rng.normal(size=(d + 2, d))
        lam = np.linalg.svd(np.column_stack([np.ones(d + 2), X]).T)[2][-1]   # a null vector of the augmented points
        assert abs(lam.sum()) < 1e-9
        I, J = lam > 0, ~(lam > 0)
        p_I, p_J = lam[I] @ X[I] / lam[I].sum(), -lam[J] @ X[J] / -lam[J].sum()
        np.testing.assert_allclose(p_I, p_J, atol=1e-9)
        assert not lc.is_linearly_separable(X, np.where(I, 1, -1))   # the Radon labelling is lost
    # the step N eps^2 >= 2 ln 4 of the sketch: otherwise 4 exp(-eps^2 N / 8) > 1
    assert 2 * math.exp(-2 * math.log(4)) <= 0.5 and 4 * math.exp(-2 * math.log(4) / 8) > 1
    N, delta, Pi = 1000, 0.05, sum(math.comb(2000, i) for i in range(4))
    eps = math.sqrt(8 / N * math.log(4 * Pi / delta))
    assert 4 * Pi * math.exp(-eps ** 2 * N / 8) == pytest.approx(delta)


def test_hoeffding_explorer_fraction_below_the_bound_at_every_slider_setting():
    """'At every setting of this explorer the observed fraction stays below the bound': every live slider
    position (n from 20 to 500 in steps of 20, eps from 0.01 to 0.25 in steps of 0.01), not only the player's."""
    from lincourse.explorers.geometry import HOEFFDING_SAMPLES

    X, y = lc.datasets.make_gaussian_classes(HOEFFDING_SAMPLES * 500, random_state=0)
    losses = (y * lc.decision_function(X, [1.0, 0.0], 0.0) <= 0).astype(float)
    for n in range(20, 501, 20):
        nu = losses[: HOEFFDING_SAMPLES * n].reshape(HOEFFDING_SAMPLES, n).mean(axis=1)
        for eps in np.round(np.arange(0.01, 0.2501, 0.01), 2):
            assert np.mean(np.abs(nu - norm.cdf(-1)) > eps) < 2 * math.exp(-2 * eps ** 2 * n), (n, eps)


def test_plotting_helpers_of_the_figure():
    """lc.plotting.plot_error_pairs and plot_learning_curve draw what the figure's alt text describes."""
    fig, (ax, ax2) = lc.plotting.new_figure(10.0, 4.4, ncols=2)
    pairs = {"chosen": ([0.1, 0.05], [0.2, 0.3]), "fixed": ([0.2, 0.15], [0.16, 0.15])}
    artists = lc.plotting.plot_error_pairs(ax, pairs, best=0.159)
    assert len(artists) == 5 and ax.get_xlim() == (0.0, 0.4) and ax.get_ylim() == (0.0, 0.4)
    np.testing.assert_allclose(artists[0].get_offsets(), [[0.1, 0.2], [0.05, 0.3]])
    assert [t.get_text() for t in ax.legend().get_texts()] == ["chosen", "fixed", "held-out error = $E_{in}$"]
    artists = lc.plotting.plot_learning_curve(ax2, [20, 40, 80], [0.07, 0.1, 0.12], [0.22, 0.2, 0.18], best=0.159)
    assert ax2.get_xscale() == "log" and [t.get_text() for t in ax2.get_xticklabels()] == ["20", "40", "80"]
    np.testing.assert_allclose(artists[1].get_ydata(), [0.22, 0.2, 0.18])
    np.testing.assert_allclose(artists[2].get_ydata(), [0.07, 0.1, 0.12])
    assert lc.plotting.figure_to_png(fig)[:4] == b"\x89PNG"
