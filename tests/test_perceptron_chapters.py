"""Chapter 4 additions: the maximum-margin separator, the tightest bound, the experiment helpers,
the explorers and static figures, and the self-checks of the exercises."""

import warnings

import numpy as np
import pytest
from matplotlib.figure import Figure

import lincourse as lc
from lincourse.checks import check
from lincourse.explorers import perceptron as figures
from lincourse.perceptron import (error_history, max_margin_separator, mistake_experiment, perceptron_orders,
                                  tightest_mistake_bound, weights_by_epoch)

svm = pytest.importorskip("sklearn.svm")


# -- maximum-margin separator ------------------------------------------------------------------

@pytest.mark.parametrize("seed,d", [(0, 2), (1, 2), (2, 3), (3, 5)])
def test_max_margin_separator_matches_sklearn_svc(seed, d):
    X, y = lc.datasets.make_separable(60, d=d, margin=0.05, random_state=seed)
    w, b = max_margin_separator(X, y)
    ref = svm.SVC(kernel="linear", C=1e10, tol=1e-8).fit(X, y)
    np.testing.assert_allclose(w, ref.coef_.ravel(), rtol=1e-3, atol=1e-3)
    assert b == pytest.approx(ref.intercept_[0], rel=1e-3, abs=1e-3)
    assert np.min(y * (X @ w + b)) == pytest.approx(1.0)


def test_max_margin_separator_on_iris_matches_sklearn():
    iris = lc.datasets.load_iris()
    mask = iris.target < 2
    X, y = iris.data[mask], np.where(iris.target[mask] == 1, 1, -1)
    w, b = max_margin_separator(X, y)
    ref = svm.SVC(kernel="linear", C=1e10, tol=1e-8).fit(X, y)
    np.testing.assert_allclose(w, ref.coef_.ravel(), rtol=1e-3, atol=1e-3)
    assert 1 / np.linalg.norm(w) == pytest.approx(1 / np.linalg.norm(ref.coef_), rel=1e-4)


def test_max_margin_by_hand():
    w, b = max_margin_separator([[2.0, 0.0], [0.0, 0.0]], [1, -1])
    np.testing.assert_allclose(w, [1.0, 0.0], atol=1e-6)
    assert b == pytest.approx(-1.0, abs=1e-6)
    # through the origin: the best unit normal of two symmetric points is the axis itself
    w, b = max_margin_separator([[1.0, 1.0], [-1.0, -1.0]], [1, -1], fit_intercept=False)
    np.testing.assert_allclose(w, [0.5, 0.5], atol=1e-6)
    assert b == 0.0


def test_intercept_penalty_one_is_the_origin_problem_on_augmented_data():
    X, y = lc.datasets.make_separable(40, margin=0.1, random_state=4)
    w, b = max_margin_separator(X, y, intercept_penalty=1.0)
    w_aug, _ = max_margin_separator(lc.augment(X), y, fit_intercept=False)
    np.testing.assert_allclose(np.r_[b, w], w_aug, rtol=1e-4, atol=1e-5)


def test_max_margin_separator_rejects_bad_input():
    X, y = lc.datasets.make_xor()
    with pytest.raises(ValueError, match="not linearly separable"):
        max_margin_separator(X, y)
    with pytest.raises(ValueError, match="through the origin"):
        max_margin_separator([[1.0], [2.0]], [1, -1], fit_intercept=False)
    with pytest.raises(ValueError, match="intercept_penalty"):
        max_margin_separator([[1.0], [-1.0]], [1, -1], intercept_penalty=-1.0)


# -- bounds ------------------------------------------------------------------------------------

@pytest.mark.parametrize("rule", ["unit", "radius"])
def test_tightest_bound_is_below_any_other_separator_bound(rule):
    X, y, (w, b) = lc.datasets.make_separable(80, margin=0.05, random_state=6, return_separator=True)
    best, (wb, bb) = tightest_mistake_bound(X, y, rule)
    assert best == pytest.approx(lc.mistake_bound(X, y, wb, bb, bias_update=rule))
    assert best <= lc.mistake_bound(X, y, w, b, bias_update=rule) * (1 + 1e-9)
    fit = lc.Perceptron(bias_update=rule).fit(X, y)
    assert best <= lc.mistake_bound(X, y, fit.coef_, fit.intercept_, bias_update=rule) * (1 + 1e-9)
    assert fit.n_updates_ <= best


def test_tightest_bound_through_origin_equals_r_over_gamma_squared():
    X = np.array([[-2, -2], [2, 0], [-2, 0], [0, -2], [1, -2], [-1, 0]], dtype=float)
    y = np.array([1, 1, -1, 1, 1, -1])
    bound, (w, _) = tightest_mistake_bound(X, y, fit_intercept=False)
    gamma = lc.geometric_margin(X, y, w)
    assert bound == pytest.approx((np.max(np.linalg.norm(X, axis=1)) / gamma) ** 2)
    assert bound == pytest.approx(26.0, rel=1e-6)


def test_mistake_experiment_never_violates_the_bound():
    margins = np.random.default_rng(0).uniform(0.01, 0.3, 40)
    for rule in ("unit", "radius"):
        res = mistake_experiment(margins, n_samples=60, d=3, bias_update=rule, random_state=1)
        assert res.n_updates.shape == (40,) and res.n_updates.dtype.kind == "i"
        assert np.all(res.n_updates <= res.bound_tightest)
        assert np.all(res.bound_tightest <= res.bound_true * (1 + 1e-9))
        assert np.all(res.gamma >= res.margin - 1e-12)
        assert np.all(res.n_epochs >= 1)


def test_mistake_experiment_is_reproducible_and_can_skip_the_tightest_bound():
    a = mistake_experiment([0.1, 0.2], random_state=3, tightest=False)
    b = mistake_experiment([0.1, 0.2], random_state=3, tightest=False)
    np.testing.assert_array_equal(a.n_updates, b.n_updates)
    assert np.all(np.isnan(a.bound_tightest))


# -- runs --------------------------------------------------------------------------------------

def test_perceptron_orders_converge_to_different_separators():
    X, y = lc.datasets.make_separable(40, margin=0.05, random_state=2)
    runs = perceptron_orders(X, y, random_states=range(4))
    assert runs.converged.all()
    assert np.all(runs.geometric_margin > 0)
    directions = runs.coef / np.linalg.norm(runs.coef, axis=1, keepdims=True)
    assert np.ptp(directions[:, 0]) > 1e-3  # not all the same separator
    again = perceptron_orders(X, y, random_states=range(4))
    np.testing.assert_array_equal(runs.coef, again.coef)


def test_error_history_and_pocket_agree():
    iris = lc.datasets.load_iris()
    mask = iris.target > 0
    X, y = iris.data[mask], np.where(iris.target[mask] == 2, 1, -1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lc.ConvergenceWarning)
        plain = lc.Perceptron(max_epochs=50).fit(X, y)
        pocket = lc.PocketPerceptron(max_epochs=50).fit(X, y)
    errors = error_history(plain, X, y)
    assert errors.shape == (plain.n_updates_ + 1,)
    assert errors[0] == 1.0
    assert errors[-1] == pytest.approx(1 - plain.score(X, y))
    assert errors.min() == pytest.approx(pocket.pocket_error_)


def test_weights_by_epoch_shows_xor_cycling():
    X, y = lc.datasets.make_xor()
    with pytest.warns(lc.ConvergenceWarning):
        clf = lc.Perceptron(max_epochs=7).fit(X, y)
    coefs, intercepts = weights_by_epoch(clf)
    assert coefs.shape == (7, 2) and intercepts.shape == (7,)
    assert np.all(coefs == 0) and np.all(intercepts == 0)


def test_weights_by_epoch_ends_with_the_final_weights():
    X, y = lc.datasets.make_separable(30, margin=0.05, random_state=1)
    clf = lc.Perceptron().fit(X, y)
    coefs, intercepts = weights_by_epoch(clf)
    assert coefs.shape[0] == clf.n_epochs_
    np.testing.assert_array_equal(coefs[-1], clf.coef_)
    assert intercepts[-1] == clf.intercept_


def test_helpers_need_a_fitted_perceptron():
    with pytest.raises(lc.NotFittedError):
        weights_by_epoch(lc.Perceptron())
    with pytest.raises(lc.NotFittedError):
        error_history(lc.Perceptron(), [[1.0]], [1])


# -- explorers and figures ---------------------------------------------------------------------

def _sweep(ex, name, values):
    """Move one slider through ``values``; every move gives a PNG (speed is measured by make bench)."""
    readouts = set()
    for v in values:
        ex.set(**{name: v})
        assert ex.png.startswith(b"\x89PNG")
        readouts.add(ex.readout)
    return readouts


def test_perceptron_steps_explorer():
    ex = lc.explorers.perceptron_steps()
    assert ex.caption and ex.params[0].name == "k"
    n = int(ex.params[0].max)
    limits = [(a.get_xlim(), a.get_ylim()) for a in ex.ax]
    for k in (1, n // 2, n):
        ex.set(k=k)
        assert f"update {k} of {n}" in ex.readout
        assert ex.png.startswith(b"\x89PNG")
    assert [(a.get_xlim(), a.get_ylim()) for a in ex.ax] == limits  # fixed axes
    # the gain printed is ||x||^2 + 1, and every step is a mistake before the update
    ex.set(k=2)
    assert "(mistake)" in ex.readout
    assert len(_sweep(ex, "k", list(range(1, n + 1)))) == n  # one distinct readout per update


def test_perceptron_steps_rejects_3d_data():
    X, y = lc.datasets.make_separable(10, d=3, random_state=0)
    with pytest.raises(ValueError, match="2-D"):
        figures.perceptron_steps(X, y)


def test_margin_updates_explorer():
    ex = lc.explorers.margin_updates()
    assert ex.caption
    ex.set(margin=0.3)
    assert "requested margin = 0.30" in ex.readout and "actual margin of the true separator" in ex.readout
    assert ex.readout.splitlines()[1].startswith("updates made = ")  # the exercise's solution reads this line
    assert "largest margin of these data (maximum-margin separator) = 0.331" in ex.readout
    values = np.round(np.arange(0.02, 0.401, 0.02), 2)
    assert len(_sweep(ex, "margin", values)) > 1


def test_margin_sweep_obeys_the_bound():
    for run in figures.margin_sweep():
        assert run["n_updates"] <= run["bound_tightest"] <= run["bound_true"] * (1 + 1e-9)
        # the margin the data have is at least the one requested, and no separator beats the largest
        assert run["margin"] - 1e-9 <= run["actual_margin"] <= run["max_margin"] * (1 + 1e-6)


def test_chapter4_count_checks_are_exact(capsys):
    from lincourse.checks import check
    assert check("ex-perceptron-xor-feature", 29) is True
    assert check("ex-perceptron-xor-feature", 29.04) is False


def test_static_figures_are_figures():
    res = mistake_experiment([0.1, 0.2, 0.3], random_state=0)
    X, y = lc.datasets.make_separable(20, margin=0.1, random_state=0)
    runs = perceptron_orders(X, y, range(3))
    figs = [figures.plot_bound_check(res, title="t"),
            figures.plot_updates_vs_margin([0.1, 0.2], [5.0, 3.0], [100.0, 25.0]),
            figures.plot_orders(X, y, runs, separator=max_margin_separator(X, y)),
            figures.plot_error_histories({"a": np.array([1.0, 0.5, 0.2]), "b": np.array([1.0, 0.5, 0.5])})]
    for fig in figs:
        assert isinstance(fig, Figure)
        assert lc.plotting.figure_to_png(fig).startswith(b"\x89PNG")


# -- self-checks -------------------------------------------------------------------------------

def test_chapter4_checks(capsys):
    def perceptron_origin(X, y, max_epochs=100):
        w = np.zeros(np.shape(X)[1])
        for _ in range(max_epochs):
            mistakes = 0
            for x_i, y_i in zip(np.asarray(X, float), y):
                if y_i * (w @ x_i) <= 0:
                    w += y_i * x_i
                    mistakes += 1
            if not mistakes:
                break
        return w

    assert check("ex-perceptron-gain", 24.5) is True
    assert check("ex-perceptron-gain", 14.0) is False
    assert check("ex-perceptron-learning-rate", {"weights"}) is True
    assert check("ex-perceptron-learning-rate", {"weights", "number of updates"}) is False
    assert check("ex-perceptron-from-scratch", perceptron_origin) is True
    assert check("ex-perceptron-from-scratch", lambda X, y, max_epochs=100: np.zeros(np.shape(X)[1])) is False
    assert check("ex-perceptron-freund-schapire", 36) is True      # R = 2, D = 1, gamma = 0.5
    assert check("ex-perceptron-freund-schapire", 16) is False     # (R / gamma)^2: the deficit forgotten
    assert check("ex-perceptron-margin-steps", [0.18]) is True
    assert check("ex-perceptron-xor-feature", 29) is True
    assert check("ex-perceptron-xor-feature", ...) is None
    out = capsys.readouterr().out
    assert out.count("Correct.") == 6
