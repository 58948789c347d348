"""Chapters 5 and 6 (the perceptron): the maximum-margin separator, the tightest bound, the experiment
helpers, the explorers and static figures, and every number the chapters' prose quotes."""

import warnings
from pathlib import Path

import nbformat
import numpy as np
import pytest
from matplotlib.figure import Figure

import lincourse as lc
from lincourse.explorers import perceptron as figures
from lincourse.perceptron import (error_history, max_margin_separator, mistake_bound, mistake_experiment,
                                  perceptron_orders, tightest_mistake_bound, weights_by_epoch)

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
    ex.set(margin=0.2)
    assert "requested margin = 0.20" in ex.readout and "margin of the true separator" in ex.readout
    assert "largest margin of these data (maximum-margin separator) = 0.207" in ex.readout
    values = np.round(np.arange(0.02, 0.2601, 0.02), 2)
    assert len(values) >= 13  # the website's player needs at least 13 positions
    assert len(_sweep(ex, "margin", values)) == len(values)


def test_margin_updates_numbers_come_from_mistake_experiment():
    ex = lc.explorers.margin_updates()
    for m in (0.02, 0.1, 0.2):
        res = mistake_experiment([m], n_samples=60, random_state=4)
        readout = ex.set(margin=m).readout
        assert f"updates made = {res.n_updates[0]} in {res.n_epochs[0]} epochs" in readout
        assert f"tightest bound = {res.bound_tightest[0]:.1f}" in readout
        assert res.n_updates[0] <= res.bound_tightest[0] <= res.bound_true[0] * (1 + 1e-9)


def test_static_figures_are_figures():
    res = mistake_experiment([0.1, 0.2, 0.3], random_state=0)
    X, y = lc.datasets.make_separable(20, margin=0.1, random_state=0)
    runs = perceptron_orders(X, y, range(3))
    figs = [figures.plot_bound_check(res, title="t"),
            figures.plot_proof_geometry(lc.augment(X), y, _run_weights(X, y), _unit_separator(X, y)),
            figures.plot_orders(X, y, runs, separator=max_margin_separator(X, y)),
            figures.plot_error_histories({"a": np.array([1.0, 0.5, 0.2]), "b": np.array([1.0, 0.5, 0.5])})]
    for fig in figs:
        assert isinstance(fig, Figure)
        assert lc.plotting.figure_to_png(fig).startswith(b"\x89PNG")




def _run_weights(X, y):
    run = lc.Perceptron().fit(X, y)
    return np.vstack([np.zeros(X.shape[1] + 1), [np.r_[u.intercept, u.coef] for u in run.history_]])


def _unit_separator(X, y):
    w = tightest_mistake_bound(lc.augment(X), y, fit_intercept=False)[1][0]
    return w / np.linalg.norm(w)


def test_plot_proof_geometry_needs_a_separator():
    X, y = lc.datasets.make_separable(20, margin=0.1, random_state=0)
    with pytest.raises(ValueError, match="must separate"):
        figures.plot_proof_geometry(lc.augment(X), y, _run_weights(X, y), -_unit_separator(X, y))


# -- the numbers the chapters quote --------------------------------------------------------------

CHAPTERS = Path(__file__).resolve().parents[1] / "chapters"


def _prose(name):
    """The markdown of a chapter (statements, prose and solutions), where the quoted numbers live."""
    nb = nbformat.read(CHAPTERS / name, as_version=4)
    return "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")


def _cells(name):
    """The sources of a chapter's code cells."""
    return [c.source for c in nbformat.read(CHAPTERS / name, as_version=4).cells if c.cell_type == "code"]


def _quoted(name, *texts):
    prose = _prose(name)
    for text in texts:
        assert text in prose, f"{name} no longer says {text!r}"


def _said6(*texts):
    """Chapter 6 still says each text, whatever its line breaks."""
    prose = " ".join(_prose("06_perceptron_nonseparable.ipynb").split())
    for text in texts:
        assert " ".join(text.split()) in prose, f"chapter 6 no longer says {text!r}"


X6 = np.array([[-2, -2], [2, 0], [-2, 0], [0, -2], [1, -2], [-1, 0]], dtype=float)
y6 = np.array([1, 1, -1, 1, 1, -1])


def test_chapter5_six_point_run():
    toy = lc.Perceptron(fit_intercept=False).fit(X6, y6)
    assert [u.index for u in toy.history_] == [0, 1, 2, 0, 1]        # update 3 spoils x[0], update 4 corrects it
    np.testing.assert_array_equal(toy.history_[2].coef, [2.0, -2.0])
    assert X6[0] @ toy.history_[2].coef == 0
    bound, (w, _) = tightest_mistake_bound(X6, y6, fit_intercept=False)
    assert round(bound, 1) == 26.0 and np.allclose(w, [1.0, -1.5], atol=1e-6)
    assert lc.mistake_bound(X6, y6, toy.coef_, fit_intercept=False) == pytest.approx(40.0)
    _quoted("05_perceptron.ipynb", "Update 3 above is", "$(2, -2)$", "only guarantee at most 40 updates",
            "$w = (1, -1.5)$", "$x^{(1)}$ and $x^{(6)}$")
    # the support vectors: functional margin exactly 1 at x[0] and x[5] only
    margins = y6 * (X6 @ np.array([1.0, -1.5]))
    assert np.flatnonzero(np.isclose(margins, 1.0)).tolist() == [0, 5]


def test_chapter5_explorer_run():
    X, y = lc.datasets.make_separable(30, margin=0.08, random_state=13)
    run = lc.Perceptron().fit(X, y)
    counts = np.bincount([u.index for u in run.history_], minlength=len(y))
    assert (counts.argmax(), counts.max(), run.n_updates_) == (14, 7, 15)
    _quoted("05_perceptron.ipynb", "$x^{(15)}$, is corrected 7 times")
    # the cosine between w'_k and the generating separator drops at several updates (only its lower bound rises)
    _, _, (w, b) = lc.datasets.make_separable(30, margin=0.08, random_state=13, return_separator=True)
    u = np.r_[b, w] / np.linalg.norm(np.r_[b, w])
    coefs = np.array([np.r_[h.intercept, h.coef] for h in run.history_])
    cos = coefs @ u / np.linalg.norm(coefs, axis=1)
    assert np.sum(np.diff(cos) < 0) >= 3
    _quoted("05_perceptron.ipynb", "the cosine goes down at several updates")
    gamma, r = np.min(y * (lc.augment(X) @ u)), np.max(np.linalg.norm(lc.augment(X), axis=1))
    assert (round(float((r / gamma) ** 2), 1), round(tightest_mistake_bound(X, y)[0], 1)) == (313.2, 156.8)
    _quoted("05_perceptron.ipynb", "$k = (R/\\gamma)^2 = 313.2$; this run stops after 15 updates")


def test_chapter5_by_hand_run():
    X = np.array([[2, 1], [0, -1], [-1, -2], [-2, -2]], dtype=float)
    run = lc.Perceptron().fit(X, [1, 1, -1, -1])
    assert run.n_updates_ == 4 and run.intercept_ == 2 and run.coef_.tolist() == [3.0, 1.0]
    _quoted("05_perceptron.ipynb", "$[b, w_{[1]}, w_{[2]}] = [2, 3, 1]$", "after 4 updates", "at once at $[0, 0, 0]$")
    # the bound of the offset corollary for the separator the run found
    w, b, y = run.coef_, run.intercept_, np.array([1, 1, -1, -1])
    margins = y * (X @ w + b)
    assert margins.tolist() == [9, 1, 3, 6] and np.max(np.sum(X ** 2, axis=1)) == 8 and w @ w + b ** 2 == 14
    assert mistake_bound(X, y, w, b) == 126   # the corollary's bound, as lincourse computes it
    # the exercise's separator (2, 1), b = 2
    w, b = np.array([2.0, 1.0]), 2.0
    assert (y * (X @ w + b)).tolist() == [7, 1, 2, 4] and w @ w + b ** 2 == 9 and mistake_bound(X, y, w, b) == 81
    _quoted("05_perceptron.ipynb", "are 7, 1, 2 and 4", "$R^2 = \\lVert x^{(4)}\\rVert^2 = 8$",
            "$\\lVert w\\rVert^2 + b^2 = 5 + 4 = 9$", "at most $(1 + 8) \\cdot 9 / 1^2 = 81$ updates; the run by hand made 4",
            "$w = (3, 1)$ and $b = 2$, allow 126")


def _iris_setosa_versicolor():
    iris = lc.datasets.load_iris()
    mask = iris.target < 2
    return iris.data[mask], np.where(iris.target[mask] == 1, 1, -1)


def test_chapter5_iris_centring():
    """The input-space forms of the offset bound with the maximum-margin separator, raw and centred."""
    X, y = _iris_setosa_versicolor()
    numbers = []
    for Z in (X, X - X.mean(axis=0)):
        w, b = max_margin_separator(Z, y)
        w, b = w / np.linalg.norm(w), b / np.linalg.norm(w)              # unit w*: its margin is gamma_D
        R, gamma_d = float(np.max(np.linalg.norm(Z, axis=1))), float(np.min(y * (Z @ w + b)))
        assert abs(b) < R                                                # the offset of the best boundary
        bound = (1 + R ** 2) * (1 + b ** 2) / gamma_d ** 2
        assert bound == pytest.approx(mistake_bound(Z, y, w, b), rel=1e-9)   # cor-novikoff-offset, as lincourse has it
        assert tightest_mistake_bound(Z, y)[0] <= bound <= ((1 + R ** 2) / gamma_d) ** 2
        numbers.append((round(R, 2), round(abs(b), 2), round(gamma_d, 3), round(bound, 2),
                        round(((1 + R ** 2) / gamma_d) ** 2, 1), lc.Perceptron().fit(Z, y).n_updates_))
    assert numbers == [(9.14, 1.19, 0.818, 304.15, 10677.6, 5), (2.63, 0.34, 0.818, 13.26, 94.1, 2)]
    _quoted("05_perceptron.ipynb", "leaves $\\gamma_D$ at 0.818 cm", "$R$ from 9.14 cm to 2.63 cm",
            "from 1.19 cm to 0.34 cm", "falls from 304.15 to 13.26", "from 10677.6 to 94.1", "from 5 updates to 2")


def test_chapter5_two_offset_rules_on_iris():
    """Going further: the tightest bounds and the b += y R^2 rule, raw and centred."""
    X, y = _iris_setosa_versicolor()
    rows = []
    for Z in (X, X - X.mean(axis=0)):
        w, b = max_margin_separator(Z, y)
        for rule in ("unit", "radius"):
            rows.append((round(tightest_mistake_bound(Z, y, bias_update=rule)[0], 2),
                         round(mistake_bound(Z, y, w, b, bias_update=rule), 2),
                         lc.Perceptron(bias_update=rule).fit(Z, y).n_updates_))
        # the two bounds of the maximum-margin separator differ by (1 - R^2)(1 - b*^2) / gamma_D^2
        n = np.linalg.norm(w)
        R, bu, g = float(np.max(np.linalg.norm(Z, axis=1))), b / n, 1 / n
        diff = mistake_bound(Z, y, w, b) - mistake_bound(Z, y, w, b, bias_update="radius")
        assert diff == pytest.approx((1 - R ** 2) * (1 - bu ** 2) / g ** 2, rel=1e-9)
    assert rows == [(150.54, 304.15, 5), (253.7, 254.0, 23), (13.17, 13.26, 2), (21.09, 21.09, 2)]
    _quoted("05_perceptron.ipynb", "(254.00\nagainst 304.15), though its run makes 23 updates against 5",
            "(21.09 against 13.26)", "falls from 150.54 to\n13.17")
    _quoted("05_perceptron.ipynb", "smallest bound: the tightest bound (Going further) is 150.54")


def test_chapter5_bounds_depend_on_the_unit():
    """Going further: (novikoff-input) and the tightest bound with the iris features in dm, cm and mm."""
    X, y = _iris_setosa_versicolor()
    rows = {}
    for name, Z in (("raw", X), ("centred", X - X.mean(axis=0))):
        for unit, scale in (("dm", 0.1), ("cm", 1.0), ("mm", 10.0)):
            w, b = max_margin_separator(scale * Z, y)
            n = np.linalg.norm(w)
            R, gamma_d = float(np.max(np.linalg.norm(scale * Z, axis=1))), 1 / n
            bound = mistake_bound(scale * Z, y, w, b)
            assert bound >= max(1.0, R ** 2) / gamma_d ** 2 >= (R / gamma_d) ** 2 * (1 - 1e-12)   # the core's lower bound
            rows[name, unit] = (round(bound, 1), round(tightest_mistake_bound(scale * Z, y)[0], 1))
    assert [rows["centred", u][0] for u in ("dm", "cm", "mm")] == [160.2, 13.3, 132.5]
    assert rows["raw", "cm"] == (304.1, 150.5) and rows["raw", "mm"] == (17692.3, 151.2)
    _quoted("05_perceptron.ipynb", "160.2 in dm, 13.3 in cm and 132.5 in mm",
            "from 304.1 in cm to 17692.3 in mm", "from 150.5 to 151.2")


def test_chapter5_online_to_batch_holds_on_average():
    """ex-perceptron-online-to-batch: over one pass, the mean error of the weights in force is at most (R/gamma)^2/N."""
    rng = np.random.default_rng(0)
    w_star, gamma, N, reps = np.array([0.6, 0.8]), 0.1, 200, 200

    def draw(n):   # points of the unit disc at margin at least gamma from the line w*.x = 0
        X = rng.uniform(-1, 1, size=(4 * n, 2))
        X = X[(np.linalg.norm(X, axis=1) <= 1) & (np.abs(X @ w_star) >= gamma)][:n]
        return X, np.sign(X @ w_star)

    Xt, yt = draw(20_000)                                    # a large sample stands in for E_out
    errors = []
    for _ in range(reps):
        X, y = draw(N)
        w, mean_error = np.zeros(2), 0.0
        for x_t, y_t in zip(X, y):
            mean_error += np.mean(yt * (Xt @ w) <= 0) / N      # E_out of the weights in force before the visit
            if y_t * (w @ x_t) <= 0:
                w = w + y_t * x_t
        errors.append(mean_error)
    assert np.mean(errors) <= (1 / gamma) ** 2 / N


def test_chapter5_online_to_batch_is_a_core_proof_exercise():
    """Chapter 10's core cites it: it must stay a core exercise of chapter 5."""
    import chapter_model as cm

    ch = cm.read(CHAPTERS / "05_perceptron.ipynb")
    e = ch.exercise("ex-perceptron-online-to-batch")
    assert e.core is True and not e.going_further and e.kind == "proof"


def test_chapter5_updates_over_the_margin_grid():
    grid = np.round(np.arange(0.02, 0.2601, 0.02), 2)
    counts = [int(mistake_experiment([m], n_samples=60, random_state=4).n_updates[0]) for m in grid]
    assert counts == [37, 29, 27, 27, 23, 17, 15, 10, 10, 13, 9, 7, 5]
    assert (counts[8], counts[9]) == (10, 13) and list(grid[8:10]) == [0.18, 0.2]   # not monotone
    _quoted("05_perceptron.ipynb", "from 37 to 5, but not monotonically (10 at 0.18, 13 at 0.20)")
    same = [lc.datasets.make_separable(60, margin=m, random_state=4) for m in (0.06, 0.08)]
    assert all(np.array_equal(a, b) for a, b in zip(*same))
    first = [mistake_experiment([m], n_samples=60, random_state=4) for m in (0.06, 0.08)]
    assert first[0].bound_tightest[0] == first[1].bound_tightest[0]      # the experiment draws the same points too
    _quoted("05_perceptron.ipynb", "The requested margins 0.06 and 0.08 draw the same points")


def test_chapter5_random_experiment():
    margins = np.random.default_rng(2024).uniform(0.01, 0.3, size=20)
    res = mistake_experiment(margins, n_samples=60, d=2, random_state=1)
    share = res.n_updates / res.bound_tightest
    assert np.all(share <= 1)
    assert (round(100 * np.median(share), 1), round(100 * share.max(), 1)) == (6.6, 16.6)
    assert round(float(np.median(res.bound_true / res.bound_tightest)), 2) == 1.2
    _quoted("05_perceptron.ipynb", "6.6 % of the tightest bound", "more than 16.6 %", "only 1.20 times")


def test_chapter5_orders():
    X, y = lc.datasets.make_separable(40, margin=0.05, random_state=2)
    runs = perceptron_orders(X, y, random_states=range(20))
    assert (runs.n_updates.min(), runs.n_updates.max()) == (7, 15)
    assert round(tightest_mistake_bound(X, y)[0], 1) == 94.1
    six = perceptron_orders(X, y, random_states=range(6))
    assert np.all(six.geometric_margin < 1 / np.linalg.norm(max_margin_separator(X, y)[0]))
    _quoted("05_perceptron.ipynb", "from 7 to 15 against a tightest bound of 94.1")
    forty = perceptron_orders(X, y, random_states=range(40)).n_updates
    assert round(float(forty[:20].mean()), 1) == 10.6
    running = np.maximum.accumulate(forty)
    assert list(running) == [11] * 13 + [13] * 4 + [15] * 23       # a plateau of 13 schedules, then 13, then 15
    assert round(float(tightest_mistake_bound(X, y)[0] / forty.max()), 1) == 6.3
    _quoted("05_perceptron.ipynb", "not the mean (10.6 here", "sat at 11 for the first 13 schedules, rose to 13 at the 14th and to 15 at the 18th",
            "(this one lasted 13 schedules)", "the largest count is 1/6.3 of the bound")


def test_chapter5_basis_vectors_attain_the_bound():
    for d in (2, 5, 20):
        signs = np.where(np.arange(d) % 2 == 0, 1, -1)
        X = signs[:, None] * np.eye(d)
        assert lc.Perceptron(fit_intercept=False).fit(X, signs).n_updates_ == d
        assert tightest_mistake_bound(X, signs, fit_intercept=False)[0] == pytest.approx(d, rel=1e-6)


def _versicolor_virginica():
    iris = lc.datasets.load_iris()
    mask = iris.target > 0
    return iris.data[mask], np.where(iris.target[mask] == 2, 1, -1)


def _quietly(cls, X, y, **params):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lc.ConvergenceWarning)
        return cls(**params).fit(X, y)


def test_chapter6_pocket_averaged_and_the_optimum():
    X, y = _versicolor_virginica()
    errors = {cls: round(1 - _quietly(cls, X, y, max_epochs=1000).score(X, y), 2)
              for cls in (lc.Perceptron, lc.PocketPerceptron, lc.AveragedPerceptron)}
    assert list(errors.values()) == [0.05, 0.02, 0.04]
    mistake_rule = [round(float(np.mean(y * (X @ m.coef_ + m.intercept_) <= 0)), 2)
                    for m in (_quietly(cls, X, y, max_epochs=1000)
                              for cls in (lc.Perceptron, lc.PocketPerceptron, lc.AveragedPerceptron))]
    assert mistake_rule == [0.05, 0.02, 0.04]                 # the chapter prints E_in by the mistake rule
    plain = _quietly(lc.Perceptron, X, y, max_epochs=1000)
    norms = [np.linalg.norm(np.r_[u.coef, u.intercept]) for u in plain.history_]
    assert round(max(n for n, u in zip(norms, plain.history_) if u.epoch <= 100)) == 113
    assert round(max(norms)) == 378                          # a running maximum, quoted after the printout
    assert sum(u.epoch <= 100 for u in plain.history_) == 242 and plain.n_updates_ == 3195
    _said6("is 113 after 242 updates and 378 after 3195")
    centred = X - X.mean(axis=0)
    averaged = [round(float(np.mean(y * (Z @ m.coef_ + m.intercept_) <= 0)), 2)
                for Z in (centred, X) for m in [_quietly(lc.AveragedPerceptron, Z, y, max_epochs=100)]]
    assert averaged == [0.02, 0.09]
    _said6("has training error 0.02 centred and 0.09 raw")
    history = error_history(_quietly(lc.Perceptron, X, y, max_epochs=1000), X, y)
    assert (round(history[100:].min(), 2), round(history[100:].max(), 2)) == (0.02, 0.5)
    # removing one point leaves separable data, and the whole set is not separable: the optimum is 1/N
    assert not lc.is_linearly_separable(X, y)
    one_out = [i for i in range(len(y)) if lc.is_linearly_separable(np.delete(X, i, axis=0), np.delete(y, i))]
    assert one_out == [33, 83] and len(y) == 100              # printed from 1: points 34 and 84
    _said6("one linear program per point (100 here)")
    _said6("between 0.02 and 0.50 even after update 100", "its final value, 0.05",
            "with error 0.02", "ends at 0.04", "The optimum is 0.01, below the pocket's 0.02")


def test_chapter6_the_average_need_not_separate_separable_data():
    fails_average = fails_last = 0
    for seed in range(50):
        X, y = lc.datasets.make_separable(30, margin=0.02, random_state=seed)
        fails_average += lc.AveragedPerceptron().fit(X, y).score(X, y) < 1
        fails_last += lc.Perceptron().fit(X, y).score(X, y) < 1
    assert (fails_average, fails_last) == (15, 0)
    _said6("On 50 separable data sets of 30 points",
            "need not separate even separable data")


def test_chapter6_centring_helps_the_pocket():
    X, y = _versicolor_virginica()
    Xc = X - X.mean(axis=0)
    centred = _quietly(lc.PocketPerceptron, Xc, y, max_epochs=100)
    epoch = centred.history_[centred.pocket_update_ - 1].epoch
    assert (round(centred.pocket_error_, 2), centred.pocket_update_, epoch) == (0.01, 40, 12)
    # the pocket of a shorter run is the running best of the first epochs: 12 is the fewest epochs that reach 0.01
    assert _quietly(lc.PocketPerceptron, Xc, y, max_epochs=11).pocket_error_ > 0.015
    assert _quietly(lc.PocketPerceptron, Xc, y, max_epochs=12).pocket_error_ == pytest.approx(0.01)
    raw = _quietly(lc.PocketPerceptron, X, y, max_epochs=1000)
    assert round(raw.pocket_error_, 2) == 0.02
    for n, err in ((100, 0.03), (12, 0.50)):                    # the same budgets, raw
        assert round(_quietly(lc.PocketPerceptron, X, y, max_epochs=n).pocket_error_, 2) == err
    for Z, err in ((Xc, 0.01), (X, 0.02)):                       # five random schedules of 100 epochs
        assert all(round(_quietly(lc.PocketPerceptron, Z, y, max_epochs=100, shuffle=True, random_state=s).pocket_error_,
                         2) == err for s in range(5))
    _said6("holds an optimal classifier from epoch 12 on",
            "still at 0.02 after 1000 epochs", "its error is 0.03, and 0.50 after\n12 epochs",
            "the pocket reaches 0.01 in all five; raw, it stays at 0.02 in all\nfive")


def test_chapter6_freund_schapire_numbers():
    X, y = _versicolor_virginica()
    gammas = np.geomspace(1e-3, 1e4, 85)                       # the chapter's grid
    pocket = _quietly(lc.PocketPerceptron, X, y, max_epochs=1000)
    plain = _quietly(lc.Perceptron, X, y, max_epochs=1000)

    def bound(n):
        return min(lc.freund_schapire_bound(X, y, pocket.coef_, pocket.intercept_, gamma=g, n_epochs=n) for g in gammas)

    assert bound(1) > len(y)                                    # "above N = 100"
    # the one-epoch bound falls towards N as gamma grows: the grid's smallest value is at its upper end
    one = [lc.freund_schapire_bound(X, y, pocket.coef_, pocket.intercept_, gamma=g, n_epochs=1) for g in gammas]
    assert int(np.argmin(one)) == len(gammas) - 1 and round(bound(1), 2) == 100.01
    assert [round(bound(n)) for n in (10, 100, 1000)] == [970, 4655, 25784]
    assert round(bound(1000) / 1000, 1) == 25.8 and round(plain.n_updates_ / 1000, 1) == 3.2   # per epoch
    assert [round(bound(n) / n, 1) for n in (10, 100, 1000)] == [97.0, 46.5, 25.8]   # per epoch, falling
    best = [min(gammas, key=lambda g: lc.freund_schapire_bound(X, y, pocket.coef_, pocket.intercept_, gamma=g,
                                                              n_epochs=n)) for n in (10, 100, 1000)]
    assert [round(float(g), 2) for g in best] == [1.78, 0.56, 0.32]   # a longer run takes a longer v
    _said6("Per epoch it falls (97, 46.5, 25.8)", "the best target margin falls from 1.78 to 0.32")
    far = [lc.freund_schapire_bound(X, y, pocket.coef_, pocket.intercept_, gamma=g, n_epochs=1) for g in (1e5, 1e6, 1e9)]
    assert all(len(y) < v for v in far) and far[0] > far[1] > far[2] and far[2] == pytest.approx(len(y), rel=1e-6)
    assert round(bound(1000) / plain.n_updates_) == 8           # "about 8 times the updates made"
    Xf, yf = np.array([[1.5], [-1.0], [0.5], [-2.0], [0.5]]), np.array([1, -1, -1, -1, 1])
    value = lc.freund_schapire_bound(Xf, yf, w=[1.0], fit_intercept=False, gamma=1.0)
    assert value == pytest.approx((2 + np.sqrt(2.5)) ** 2) and round(value, 1) == 12.8
    assert _quietly(lc.Perceptron, Xf, yf, fit_intercept=False, max_epochs=1).n_updates_ == 2
    best = min(lc.freund_schapire_bound(Xf, yf, w=[1.0], fit_intercept=False, gamma=g)
               for g in np.geomspace(1e-2, 1e4, 401))
    assert round(best, 4) == 4.9998                         # below 5 visits, yet 4 mistakes allowed
    grid = np.geomspace(1e-2, 1e4, 401)
    values = [lc.freund_schapire_bound(Xf, yf, w=[1.0], fit_intercept=False, gamma=g) for g in grid]
    assert round(float(grid[np.argmin(values)])) == 133 and round(1 / float(grid[np.argmin(values)]), 4) == 0.0075
    assert min(lc.freund_schapire_bound(Xf, yf, w=[-1.0], fit_intercept=False, gamma=g) for g in grid) > 5
    _said6("(near $v \\approx 0.0075$, a target margin of about 133)", "its bound never goes below 5")
    _said6("above\n$N = 100$", "25.8 mistakes per epoch, against 3.2 made",
            "\\approx 12.8", "2 mistakes", "the bound tends\nto 5", "4.9998 (near", "still allows 4 mistakes in 5")


def test_chapter6_hinge_form_against_squared_form():
    X, y = _versicolor_virginica()
    targets = np.geomspace(1e-3, 1e4, 85)                      # the chapter's grid of target margins
    pocket = _quietly(lc.PocketPerceptron, X, y, max_epochs=1000)
    Z = lc.augment(X)
    u = np.r_[pocket.intercept_, pocket.coef_] / np.linalg.norm(np.r_[pocket.intercept_, pocket.coef_])
    R, m = np.max(np.linalg.norm(Z, axis=1)), y * (Z @ u)
    for r, (squared, summed) in {10: (970.3, 989.5), 100: (4654.9, 4489.8), 1000: (25784.3, 23591.9)}.items():
        fs = min(lc.freund_schapire_bound(X, y, pocket.coef_, pocket.intercept_, gamma=t, n_epochs=r) for t in targets)
        # (R ||v|| + H)^2 with v = u / t, written out: the library's gamma is the target margin t = 1 / ||v||
        H = np.array([np.sqrt(r * np.sum(np.maximum(0.0, 1.0 - m / t) ** 2)) for t in targets])
        assert fs == pytest.approx(np.min((R / targets + H) ** 2))
        L = r * np.array([np.sum(np.maximum(0.0, 1.0 - m / t)) for t in targets])
        hinge = np.min(L + R / targets * np.sqrt(L) + (R / targets) ** 2)
        assert (round(fs, 1), round(float(hinge), 1)) == (squared, summed)
    _said6("over 10 epochs the squared hinge losses give the smaller bound, over 100 and 1000 epochs their sum does")
    # per tenfold of epochs: squared 970.3 -> 4654.9 -> 25784.3, summed 989.5 -> 4489.8 -> 23591.9
    assert [round(b / a, 1) for a, b in ((970.3, 4654.9), (4654.9, 25784.3), (989.5, 4489.8), (4489.8, 23591.9))] \
        == [4.8, 5.5, 4.5, 5.3]
    _said6("the squared form grows about 4.8 and then 5.5 times, the summed form about 4.5 and then 5.3 times")


def test_chapter6_freund_schapire_bound_with_a_doubly_labelled_point_on_the_hyperplane():
    # the point 0 carries both labels; the others sit at margin R = 2: at gamma = R the bound is (1 + sqrt 2)^2
    X, y = np.array([[2.0], [0.0], [0.0], [-2.0], [2.0], [-2.0]]), np.array([1, 1, -1, -1, 1, -1])
    value = lc.freund_schapire_bound(X, y, w=[1.0], fit_intercept=False, gamma=2.0)
    assert value == pytest.approx((1 + np.sqrt(2)) ** 2) and round(value, 1) == 5.8
    _said6("With $\\lVert v\\rVert = 1/R$ the bound is then $(1 + \\sqrt 2)^2 \\approx 5.8$, however many other points")


def test_chapter6_criterion_and_xor():
    toy = lc.Perceptron(fit_intercept=False).fit(X6, y6)
    weights = [np.zeros(2)] + [u.coef for u in toy.history_]
    assert [float(np.sum(np.maximum(0.0, -y6 * (X6 @ w)))) for w in weights] == [0, 10, 0, 0, 0, 0]
    X, y = lc.datasets.make_xor()
    run = lc.Perceptron().fit(np.column_stack([X, X[:, 0] * X[:, 1]]), y)
    assert run.n_updates_ == 29
    assert np.bincount([u.index for u in run.history_], minlength=4).tolist() == [10, 7, 7, 5]
    _said6("jumps to 10 after the first update", "three more updates follow")


# -- the exercises: their records accept the worked answers, and each is declared -----------------

@pytest.mark.parametrize("key, right, wrongs", [
    ("ex-perceptron-by-hand", [2, 3, 1], [[0, 0, 0], [3, 1, 2], [1, 3, 2]]),
    ("q-perceptron-augmented", "A", ["B", "C"]),
    ("ex-perceptron-tightest", 26, [40, np.sqrt(26)]),
    ("q-perceptron-scaling", "B", ["A", "C"]),
    ("q-perceptron-centring", "B", ["A", "C", "D"]),
    ("q-perceptron-warmup-augmented", "A", ["B", "C"]),
    ("q-perceptron-warmup-margin", "A", ["B", "C"]),
    ("q-perceptron-margin-update", "B", ["A", "C"]),
    ("ex-perceptron-hand-bound", 81, [72, 45, 1.65, 34.5]),
    ("ex-perceptron-lower-bound", 30, [44, 6]),
    ("q-perceptron-online", "A", ["B", "C"]),
    ("ex-perceptron-orders", 15, [9, 11]),
    ("q-nonseparable-warmup-bound", "B", ["A", "C"]),
    ("q-nonseparable-warmup-losses", "A", ["B", "C"]),
    ("q-perceptron-nonseparable", "B", ["A", "C"]),
    ("q-pocket-guarantee", "A", ["B", "C"]),
    ("q-averaged-separable", "B", ["A", "C"]),
    ("ex-pocket-centring", 12, [40]),
    ("ex-perceptron-freund-schapire", 12.8, [4, 16, 6.25]),
    ("ex-perceptron-learning-rate", {"weights"}, [{"weights", "number of updates"}]),
    ("ex-perceptron-xor-feature", 29, [28]),
    ("q-perceptron-lp", "B", ["A", "C"]),
    ("q-perceptron-logistic", "B", ["A", "C"]),
])
def test_exercise_records_accept_the_solutions(key, right, wrongs, capsys):
    from lincourse.exercises import check
    verdict = check(key, right)
    assert verdict is not None and bool(verdict)               # a Verdict equal to True
    assert check(key, ...) is None
    for wrong in wrongs:
        verdict = check(key, wrong)
        assert verdict is not None and not verdict            # a Verdict equal to False, not a form error
    out = capsys.readouterr().out
    assert "Correct." in out


@pytest.mark.parametrize("name", ["05_perceptron.ipynb", "06_perceptron_nonseparable.ipynb"])
def test_each_chapter_declares_its_exercises(name):
    """Objectives practised: tests/test_chapter_rules.py, for every chapter."""
    import chapter_model as cm

    ch = cm.read(CHAPTERS / name)
    assert len(ch.objectives) >= 3 and len(ch.exercises) >= 8
    assert all(e.declaration is not None for e in ch.exercises)


@pytest.mark.parametrize("name", ["05_perceptron.ipynb", "06_perceptron_nonseparable.ipynb"])
def test_chapters_are_stored_executed(name):
    nb = nbformat.read(CHAPTERS / name, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code" and "lincourse-setup" not in c.metadata.get("tags", [])]
    assert all(c.execution_count for c in code), f"{name} is not stored executed (run tools/execute_notebooks.py)"


def test_chapter6_two_points_on_a_line_need_about_4_q_squared_updates():
    counts = []
    for q in (2, 5, 10, 20, 50, 100):
        run = lc.Perceptron(max_epochs=100_000).fit(np.array([[q], [q - 1.0]]), np.array([1, -1]))
        assert run.converged_ and run.n_updates_ >= q and abs(run.intercept_) >= q
        counts.append(run.n_updates_)
    assert counts == [13, 85, 365, 1525, 9805, 39605]
    assert counts == [(2 * q - 1) ** 2 + 4 for q in (2, 5, 10, 20, 50, 100)]   # Going further's closed form
    _said6("$(2q - 1)^2 + 4$ updates")
    assert (round(counts[0] / 4, 2), round(counts[-1] / 100 ** 2, 2)) == (3.25, 3.96)
    _said6("it needs at least $q$ updates", "The counts, 13, 85, 365, 1525, 9805 and 39605, are far above $q$",
           "rises from 3.25 to 3.96")


def test_nonseparable_explorer_readout_is_the_training_error_and_its_running_minimum():
    import warnings

    from lincourse.explorers import nonseparable_steps

    ex = nonseparable_steps()
    X, y = lc.datasets.make_overlapping(24, separation=1.5, random_state=7)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lc.ConvergenceWarning)
        run = lc.Perceptron(max_epochs=6).fit(X, y)
    errors = [lc.training_error(X, y, u.coef, u.intercept) for u in run.history_]
    for k in (1, 10, len(errors)):
        ex.sliders["k"].value = k
        assert f"training error now {errors[k - 1]:.3f}; best so far {min(errors[:k]):.3f}" in ex.readout
    with pytest.raises(ValueError, match="separable"):
        nonseparable_steps(*lc.datasets.make_separable(20, margin=0.2, random_state=0))


def test_chapter5_radius_changes_little_over_the_slider():
    radii = [float(np.max(np.linalg.norm(lc.augment(lc.datasets.make_separable(60, margin=float(m), random_state=4)[0]),
                                         axis=1))) for m in np.round(np.arange(0.02, 0.2601, 0.02), 2)]
    assert 1.5 < min(radii) and max(radii) < 1.7                  # "$R$ changes little" on the explorer's grid
    _quoted("05_perceptron.ipynb", "neither bound rises as the margin grows ($R$ changes little)")


def test_chapter5_scaling_changes_the_mistakes_with_an_offset():
    iris = lc.datasets.load_iris()
    X, y = iris.data[iris.target < 2], np.where(iris.target[iris.target < 2] == 1, 1, -1)
    Z = X - X.mean(axis=0)
    counts = [lc.Perceptron().fit(c * D, y).n_updates_ for D in (X, Z) for c in (1, 10)]
    assert counts == [5, 5, 2, 1]
    _quoted("05_perceptron.ipynb", "2 updates on $x$ and 1 on $10x$", "to give the same 5\nupdates on both")


def test_chapter6_cycling_norm_stays_bounded():
    X, y = lc.datasets.make_overlapping(24, separation=1.5, random_state=7)
    run = _quietly(lc.Perceptron, X, y, max_epochs=2000)
    norms = [np.linalg.norm(np.r_[u.intercept, u.coef]) for u in run.history_]
    assert run.n_updates_ == 13550 and round(max(norms), 2) == 3.85 and int(np.argmax(norms)) + 1 == 6
    assert max(norms) < 0.01 * np.sqrt(run.n_updates_) * np.max(np.linalg.norm(lc.augment(X), axis=1))
    assert round(float(np.sqrt(run.n_updates_) * np.max(np.linalg.norm(lc.augment(X), axis=1))), 1) == 402.6
    _said6("the norm never exceeds 3.85 (reached at update 6)", "allows 402.6 by the end")


def test_chapter6_plain_loop_matches_the_library():
    X, y = _versicolor_virginica()
    ns = {"np": np}
    exec(next(c for c in _cells("06_perceptron_nonseparable.ipynb") if c.startswith("def pocket_and_average")), ns)
    (pw, pb), (aw, ab) = ns["pocket_and_average"](X, y)
    pocket, average = (_quietly(cls, X, y, max_epochs=1000) for cls in (lc.PocketPerceptron, lc.AveragedPerceptron))
    np.testing.assert_allclose(np.r_[pw, pb], np.r_[pocket.coef_, pocket.intercept_])
    np.testing.assert_allclose(np.r_[aw, ab], np.r_[average.coef_, average.intercept_])
