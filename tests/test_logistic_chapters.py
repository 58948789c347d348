"""The logistic-regression chapters (7-9): gradient and Hessian, the gradient-descent path, the calibration
table, the explorers and figures; and the chapters themselves: every number the prose quotes is recomputed here,
each chapter is one lecture with varied exercises (objectives practised: tests/test_chapter_rules.py)."""

import warnings

import numpy as np
import nbformat
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from sklearn.multiclass import OneVsRestClassifier

import lincourse as lc
from lincourse.explorers import logistic as lx

finite = st.floats(-3, 3, allow_nan=False, allow_infinity=False)


# -- logistic_gradient / logistic_hessian (on the design [1, X] and the weights (b, w)) ---------------
@given(arrays(float, (6, 2), elements=finite), arrays(float, 3, elements=finite))
def test_gradient_matches_central_differences(X, v):
    Xd, t, h = lc.augment(X), np.array([1.0, 0, 1, 0, 1, 0]), 1e-6
    g = lc.logistic_gradient(Xd, t, v)

    def loss(v_):
        return lc.logistic_loss(t, Xd @ v_)

    numeric = [(loss(v + h * e) - loss(v - h * e)) / (2 * h) for e in np.eye(3)]
    assert np.allclose(g, numeric, atol=1e-6)


@given(arrays(float, (5, 3), elements=finite), arrays(float, 4, elements=finite))
def test_hessian_is_symmetric_psd_and_matches_the_gradient(X, v):
    Xd, t, h = lc.augment(X), np.array([1.0, 0, 1, 1, 0]), 1e-6
    H = lc.logistic_hessian(Xd, v)
    assert H.shape == (4, 4) and np.allclose(H, H.T)
    assert np.linalg.eigvalsh(H).min() >= -1e-12
    for j in range(4):
        e = np.eye(4)[j]
        column = (lc.logistic_gradient(Xd, t, v + h * e) - lc.logistic_gradient(Xd, t, v - h * e)) / (2 * h)
        assert np.allclose(H[:, j], column, atol=1e-5)


def test_gradient_is_the_formula_and_zero_at_the_fit():
    X, y = lx.demo_data()
    Xd, t, v = lc.augment(X), (y + 1) / 2, np.array([0.1, 0.3, -0.2])
    p = lc.sigmoid(Xd @ v)
    assert np.allclose(lc.logistic_gradient(Xd, t, v), Xd.T @ (p - t) / len(t))
    assert np.allclose(lc.logistic_hessian(Xd, v), Xd.T @ np.diag(p * (1 - p)) @ Xd / len(t))
    model = lc.LogisticRegression().fit(X, y)
    g = lc.logistic_gradient(Xd, t, np.r_[model.intercept_, model.coef_])
    assert np.max(np.abs(g)) < 1e-8  # the minimiser is a stationary point
    with pytest.raises(ValueError, match="only 0 and 1.*t = \\(y \\+ 1\\) / 2"):
        lc.logistic_gradient(Xd, y, v)
    with pytest.raises(ValueError, match="features"):
        lc.logistic_hessian(Xd, [0.0, 0.0])


def test_gradient_keeps_its_precision_where_p_is_close_to_t():
    # p - t = -sigmoid(-s) for t = 1: about -e^-40 at s = 40, where sigmoid(40) - 1 would round to 0
    g = lc.logistic_gradient([[1.0]], [1.0], [40.0])
    assert g[0] == pytest.approx(-np.exp(-40.0), rel=1e-12)


# -- gradient_descent_path ----------------------------------------------------------------------------
@pytest.mark.parametrize("lr", [0.1, 1.0, 10.0])
def test_path_ends_where_the_estimator_ends(lr):
    X, y = lx.demo_data()
    coefs, intercepts, losses = lc.gradient_descent_path(X, y, learning_rate=lr, n_iter=30)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lc.ConvergenceWarning)
        model = lc.LogisticRegression(solver="gd", learning_rate=lr, max_iter=30, tol=1e-300).fit(X, y)
    assert coefs.shape == (31, 2) and intercepts.shape == (31,) and losses.shape == (31,)
    assert np.allclose(coefs[-1], model.coef_) and np.isclose(intercepts[-1], model.intercept_)
    assert np.allclose(losses, model.loss_history_)
    assert np.all(coefs[0] == 0) and np.isclose(losses[0], np.log(2))


def test_path_without_intercept_and_validation():
    X, y = lx.demo_data()
    coefs, intercepts, _ = lc.gradient_descent_path(X, y, 1.0, 5, fit_intercept=False)
    assert np.all(intercepts == 0)
    with pytest.raises(ValueError, match="learning_rate"):
        lc.gradient_descent_path(X, y, learning_rate=-1.0)
    with pytest.raises(ValueError, match="n_iter"):
        lc.gradient_descent_path(X, y, n_iter=2.5)


# -- calibration table ---------------------------------------------------------------------------------
def test_calibration_table_counts_and_means():
    t = np.array([0, 0, 1, 1, 1, 0])
    p = np.array([0.05, 0.15, 0.55, 0.95, 1.0, 0.9])
    table = lc.calibration_table(t, p, n_bins=5)
    assert table.count.tolist() == [2, 0, 1, 0, 3]
    assert np.isclose(table.mean_predicted[4], (0.95 + 1.0 + 0.9) / 3)
    assert np.isclose(table.observed[4], 2 / 3)
    assert np.isnan(table.observed[1])
    text = str(table)
    assert text.splitlines()[0].startswith("bin") and len(text.splitlines()) == 6 and "-" in text.splitlines()[2]


def test_calibration_table_agrees_with_sklearn():
    from sklearn.calibration import calibration_curve

    rng = np.random.default_rng(3)
    p = rng.random(500)
    t = (rng.random(500) < p).astype(int)
    table = lc.calibration_table(t, p, n_bins=10)
    prob_true, prob_pred = calibration_curve(t, p, n_bins=10, strategy="uniform")
    keep = table.count > 0
    assert np.allclose(table.observed[keep], prob_true) and np.allclose(table.mean_predicted[keep], prob_pred)


@pytest.mark.parametrize("t, p, match", [([0, 2], [0.1, 0.2], "outcomes 0 and 1"),
                                         ([0, 1], [0.1, 1.2], "probabilities"),
                                         ([0, 1], [0.1], "same length")])
def test_calibration_table_validates(t, p, match):
    with pytest.raises(ValueError, match=match):
        lc.calibration_table(t, p)


# -- explorers and figures ----------------------------------------------------------------------------
EXPLORERS = [lc.explorers.sigmoid_fit, lc.explorers.probability_field, lc.explorers.gradient_descent]


@pytest.mark.parametrize("factory", EXPLORERS)
def test_explorer_has_caption_and_fixed_limits(factory):
    """Random slider moves keep the axes fixed (speed is measured by make bench, not asserted)."""
    ex = factory()
    assert ex.caption and ex.title
    ex.png
    limits = ex.scene().limits
    rng = np.random.default_rng(0)
    for _ in range(15):
        values = {p.name: p.min + (p.max - p.min) * rng.random() for p in ex.params}
        ex.set(**values)
        assert ex.png.startswith(b"\x89PNG")
        assert ex.scene().limits == limits


def test_sigmoid_fit_readout_reports_the_cross_entropy():
    ex = lc.explorers.sigmoid_fit().set(w=1.1, b=-0.2)
    s = 1.1 * lx.DEMO_1D_X - 0.2
    assert f"mean cross-entropy = {lc.logistic_loss((lx.DEMO_1D_Y + 1) / 2, s):.4f}" in ex.readout
    model = lc.LogisticRegression().fit(lx.DEMO_1D_X[:, None], lx.DEMO_1D_Y)
    assert f"w* = {model.coef_[0]:+.3f}" in ex.readout
    assert "none" in ex.set(w=0.0).readout


def test_probability_field_updates_its_cached_image():
    ex = lc.explorers.probability_field()
    image = ex.ax.images[0]
    ex.set(w1=2.0, w2=0.0, b=0.0)
    data = np.asarray(image.get_array())
    assert len(ex.ax.images) == 1 and ex.ax.images[0] is image
    assert data[:, -1].mean() > 0.9 and data[:, 0].mean() < 0.1  # p near 1 on the right, near 0 on the left


def test_gradient_descent_explorer_follows_the_path():
    ex = lc.explorers.gradient_descent()
    X, y = lx.demo_data()
    coefs, intercepts, losses = lc.gradient_descent_path(X, y, 10.0 ** 0.5, 100)
    ex.set(log_lr=0.5, iteration=37)
    assert f"loss now = {losses[37]:.4f}" in ex.readout
    assert f"w = ({coefs[37][0]:+.3f}, {coefs[37][1]:+.3f})" in ex.readout
    assert "increased the loss: 0" in ex.set(log_lr=0.0, iteration=100).readout
    assert "increased the loss: 0" not in ex.set(log_lr=1.5, iteration=100).readout


def test_static_figures_build():
    X_sep, y_sep = lc.datasets.make_separable(30, margin=0.2, random_state=0)
    models = {"C = 1": lc.LogisticRegression(C=1.0).fit(X_sep, y_sep)}
    iris = lc.datasets.load_iris()
    X, y = iris.data[:, 2:], iris.target
    ovr = OneVsRestClassifier(lc.LogisticRegression(C=10.0)).fit(X, y)
    soft = lc.LogisticRegression(C=10.0).fit(X, y)
    table = lc.calibration_table([0, 1, 1], [0.2, 0.7, 0.9])
    figures = [lx.sigmoid_figure(),
               lx.loss_curves_figure({"a": [0.7, 0.5, 0.45]}, minimum=0.4), lx.loss_curves_figure({"a": [0.7, 0.5]}),
               lx.separable_figure(X_sep, y_sep, models),
               lx.multiclass_figure(ovr, soft, X, y, (0.5, 7.5), (-0.5, 3.0), iris.target_names, resolution=50),
               lx.calibration_figure(table)]
    for fig in figures:
        assert lc.plotting.figure_to_png(fig)[:4] == b"\x89PNG"
    # the reliability diagram draws each bin's 95 % interval
    bars = figures[-1].axes[0].collections[0].get_segments()
    assert [tuple(np.round(seg[:, 1], 6)) for seg in bars] == [
        tuple(np.round((lo, hi), 6)) for lo, hi, n in zip(table.low, table.high, table.count) if n > 0]


def test_ovr_claims_counts_positive_scores():
    iris = lc.datasets.load_iris()
    X, y = iris.data[:, 2:], iris.target
    ovr = OneVsRestClassifier(lc.LogisticRegression(C=10.0)).fit(X, y)
    claims = lx.ovr_claims(ovr, X)
    assert np.array_equal(claims, (ovr.decision_function(X) > 0).sum(axis=1))
    assert claims.min() == 0 and claims.max() >= 2  # both kinds of ambiguity occur on Iris


# -- calibration intervals, ROC curve, k folds, cross-validation, Gaussian classes -----------------------
def test_calibration_quantile_bins_agree_with_sklearn():
    from sklearn.calibration import calibration_curve

    rng = np.random.default_rng(4)
    p = rng.random(400) ** 3                        # skewed towards 0, so uniform bins would be uneven
    t = (rng.random(400) < p).astype(int)
    table = lc.calibration_table(t, p, n_bins=5, strategy="quantile")
    prob_true, prob_pred = calibration_curve(t, p, n_bins=5, strategy="quantile")
    assert table.count.tolist() == [80] * 5
    assert np.allclose(table.observed, prob_true) and np.allclose(table.mean_predicted, prob_pred)
    with pytest.raises(ValueError, match="strategy"):
        lc.calibration_table(t, p, strategy="equal")


@pytest.mark.parametrize("k, n", [(0, 2), (2, 2), (1, 3), (7, 40), (33, 34), (500, 1000)])
def test_wilson_interval_matches_scipy(k, n):
    from scipy.stats import binomtest

    from lincourse.metrics import wilson_interval

    low, high = wilson_interval(k, n)
    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert np.isclose(low, ci.low, atol=1e-12) and np.isclose(high, ci.high, atol=1e-12)


def test_calibration_table_intervals_are_wide_for_small_bins():
    t = np.r_[np.zeros(100), 1, 1]
    p = np.r_[np.full(100, 0.01), 0.5, 0.5]
    table = lc.calibration_table(t, p, n_bins=5)
    assert table.count[2] == 2 and table.observed[2] == 1.0
    assert table.high[2] - table.low[2] > 0.6      # two points say almost nothing
    assert table.high[0] - table.low[0] < 0.04     # a hundred points say a lot
    assert np.isnan(table.low[1]) and "-" in str(table).splitlines()[2]


def test_gaussian_classes_posterior_is_the_logistic_model():
    from scipy.stats import multivariate_normal

    cov = np.array([[1.0, 0.6], [0.6, 2.0]])
    mu0, mu1 = np.array([0.5, -1.0]), np.array([1.5, 1.0])
    X, y, (w, b) = lc.datasets.make_gaussian_classes(20000, mu0, mu1, cov, prior1=0.3, random_state=7,
                                                     return_posterior=True)
    assert np.allclose(w, np.linalg.solve(cov, mu1 - mu0))
    f1 = 0.3 * multivariate_normal(mu1, cov).pdf(X[:50])
    f0 = 0.7 * multivariate_normal(mu0, cov).pdf(X[:50])
    assert np.allclose(f1 / (f0 + f1), lc.sigmoid(X[:50] @ w + b), rtol=1e-10)    # Bayes' rule, exactly
    assert abs(np.mean(y == 1) - 0.3) < 0.02
    fit = lc.LogisticRegression().fit(X, y)
    assert np.allclose(fit.coef_, w, atol=0.1) and abs(fit.intercept_ - b) < 0.1   # maximum likelihood finds it
    again = lc.datasets.make_gaussian_classes(20000, mu0, mu1, cov, prior1=0.3, random_state=7)
    assert np.array_equal(again[0], X)


@pytest.mark.parametrize("kwargs, match", [({"cov": [[1.0, 2.0], [2.0, 1.0]]}, "positive definite"),
                                           ({"cov": [[1.0, 0.0], [1.0, 1.0]]}, "symmetric"),
                                           ({"prior1": 1.0}, "prior1"),
                                           ({"mean1": [1.0, 0.0, 0.0]}, "same length")])
def test_gaussian_classes_validate(kwargs, match):
    with pytest.raises(ValueError, match=match):
        lc.datasets.make_gaussian_classes(10, **kwargs)


# -- the chapters: one lecture each, varied exercises, numbers in the prose recomputed ------------------
import json
import re
from pathlib import Path

import chapter_model as cm

CHAPTERS = Path(__file__).resolve().parents[1] / "chapters"
LOGISTIC = ["07_logistic_model", "08_fitting_logistic_regression", "09_logistic_regression_in_practice"]


def _cells(stem):
    path = CHAPTERS / f"{stem}.ipynb"
    if not path.exists():
        pytest.skip(f"{stem} not written yet")
    return json.loads(path.read_text())["cells"]


def _model(stem):
    _cells(stem)   # skips a chapter not written yet
    return cm.read(CHAPTERS / f"{stem}.ipynb")


def _prose(stem):
    """The markdown a student reads as the lesson, core and Going further (the chapter model's prose)."""
    ch = _model(stem)
    return "\n".join(text for _, text in ch.prose() + ch.prose(going_further=True))


@pytest.mark.parametrize("stem", LOGISTIC)
def test_each_chapter_is_one_lecture(stem):
    ch = _model(stem)
    assert ch.words() + ch.words(going_further=True) <= 4000   # the chapter model's count (a formula is one word)
    minutes = re.search(r"about (\d+) minutes", _prose(stem).split("## Learning objectives")[0])
    assert minutes and int(minutes.group(1)) <= 90
    notes = [cm.source(c) for i, c in enumerate(ch.cells) if ch.is_instructor(i)]
    assert notes and all(":class: dropdown instructor" in note for note in notes)
    assert any("Time plan" in note for note in notes)
    assert _prose(stem).count("About the sources") == 1


@pytest.mark.parametrize("stem", LOGISTIC)
def test_the_exercises_are_varied(stem):
    """Objectives practised and the cells of each exercise: tests/test_chapter_rules.py, for every chapter."""
    ch = _model(stem)
    assert len(ch.objectives) >= 3
    exercises = [e for e in ch.exercises if not e.check]
    assert len(exercises) >= 4
    assert any(e.kind == "proof" for e in exercises)
    assert "lincourse.checks" not in json.dumps(_cells(stem))


@pytest.mark.parametrize("stem", LOGISTIC)
def test_the_chapters_speak_to_readers(stem):
    """No project-internal words in the text (the course cites sources by author and title)."""
    text = "\n".join("".join(c["source"]) for c in _cells(stem) if c["cell_type"] == "markdown")
    for word in (r"seed notes?", r"\bissue\b", r"\bhelpers?\b", r"\breviewers?\b", r"\bCI\b", r"\bsessions?\b",
                 r"\bnbval\b", r"\blead\b"):
        assert not re.search(word, text, flags=re.IGNORECASE), f"{stem} says {word!r}"


def _efron(delta):
    """Efron's (1975) asymptotic efficiency of logistic regression against the normal discriminant, in expected
    excess error rate, for two Gaussian classes Delta apart with equal priors. In canonical coordinates (shared
    covariance I, means +-Delta/2 on the first axis) the excess error depends on the estimates' variances of b and of
    the other weights; N Var(b) is 4 + Delta^2 for the discriminant (delta method) and 1 / E[p(1 - p)] for logistic
    regression (its information matrix), and the other coordinates have the same ratio."""
    from scipy import integrate
    from scipy.stats import norm

    q = integrate.quad(lambda x: norm.pdf(x, delta / 2) * lc.sigmoid(delta * x) * lc.sigmoid(-delta * x),
                       -np.inf, np.inf)[0]
    return (4 + delta ** 2) * q


def _ch7_numbers():
    X, y = lx.demo_data()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        perc = lc.Perceptron(max_epochs=50).fit(X, y)
    from lincourse.perceptron import weights_by_epoch
    epoch_errors = [lc.training_error(X, y, w_, b_) for w_, b_ in zip(*weights_by_epoch(perc))]
    t = (y + 1) / 2
    ex1, ex2 = lc.explorers.sigmoid_fit(), lc.explorers.probability_field()
    ce1 = [float(re.search(r"cross-entropy = ([\d.]+)", ex1.set(w=w, b=b).readout).group(1))
           for w, b in ((1.1, -0.2), (3.3, -0.6))]
    ce2 = [float(re.search(r"cross-entropy = ([\d.]+)", ex2.set(w1=a, w2=c, b=b).readout).group(1))
           for a, c, b in ((1.5, 0.5, 0.0), (3.0, 1.0, 0.0), (1.0, 0.0, 0.0))]
    model = lc.LogisticRegression().fit(X, y)
    E = lc.training_error_landscape(X, y, np.arange(0, 360, 2.0), np.arange(-2, 2.001, 0.04))
    from scipy.stats import logistic, norm
    grid = np.linspace(-8, 8, 1601)
    Sigma = np.array([[1.0, 0.5], [0.5, 1.0]])
    mu_0, mu_1 = np.array([-1.0, 0.0]), np.array([1.0, 0.5])
    _, _, (w_bayes, _) = lc.datasets.make_gaussian_classes(1, mu_0, mu_1, Sigma, return_posterior=True)
    dist, mean_w, se, se_w = {}, {}, {}, {}
    for n in (200, 500, 2000):
        fits = [lc.LogisticRegression().fit(*lc.datasets.make_gaussian_classes(n, mu_0, mu_1, Sigma, random_state=r))
                for r in range(20)]
        d = [np.linalg.norm(f.coef_ - w_bayes) for f in fits]
        dist[n], se[n] = np.mean(d), np.std(d, ddof=1) / np.sqrt(20)
        mean_w[n] = np.mean([f.coef_ for f in fits], axis=0)
        se_w[n] = np.std([f.coef_[0] for f in fits], ddof=1) / np.sqrt(20)
    def compare(n, samples):
        lda, logi = [], []
        for r in range(samples):
            X_r, y_r = lc.datasets.make_gaussian_classes(n, mu_0, mu_1, Sigma, random_state=r)
            A, B = X_r[y_r < 0], X_r[y_r > 0]
            S = ((A - A.mean(0)).T @ (A - A.mean(0)) + (B - B.mean(0)).T @ (B - B.mean(0))) / (n - 2)
            lda.append(np.linalg.norm(np.linalg.solve(S, B.mean(0) - A.mean(0)) - w_bayes))
            logi.append(np.linalg.norm(lc.LogisticRegression().fit(X_r, y_r).coef_ - w_bayes))
        return lda, logi

    lda, logi = compare(60, 20)
    lda_big, logi_big = compare(2000, 200)
    delta = np.sqrt((mu_1 - mu_0) @ np.linalg.solve(Sigma, mu_1 - mu_0))
    efron = {d: _efron(d) for d in (2.5, 3.0, 3.5, delta)}
    phi, Phi = norm.pdf, norm.cdf
    probit = [phi(1.0) * (Phi(1.0) + phi(1.0)) / Phi(1.0) ** 2, phi(1.0) * (phi(1.0) - (1 - Phi(1.0))) / (1 - Phi(1.0)) ** 2]
    return [
        ("mean distance $0.549$ from the true weights, logistic regression at $0.766$",
         f"{np.mean(lda):.3f} {np.mean(logi):.3f}" == "0.549 0.766"),
        ("discriminant is closer in 12 of the 20 samples", int(np.sum(np.array(logi) > np.array(lda))) == 12),
        ("the paired difference, $0.22 \\pm 0.09$, is about two standard\nerrors from zero",
         f"{np.mean(np.array(logi) - lda):.2f} {np.std(np.array(logi) - lda, ddof=1) / np.sqrt(20):.2f}" == "0.22 0.09"
         and 1.8 < np.mean(np.array(logi) - lda) / (np.std(np.array(logi) - lda, ddof=1) / np.sqrt(20)) < 2.5),
        ("the separation here, $\\Delta = 2.08$", f"{delta:.2f}" == "2.08"),
        ("heavier tails than the matched Gaussian", logistic.sf(8) / norm.sf(8 / 1.7) > logistic.sf(6) / norm.sf(6 / 1.7)
         > logistic.sf(4) / norm.sf(4 / 1.7)),
        ("jumps between $0.15$ and $0.50$", (min(epoch_errors), max(epoch_errors), len(epoch_errors)) == (0.15, 0.5, 50)),
        ("$0.786$ at $\\Delta = 2.5$, $0.641$ at $\\Delta = 3$\nand $0.486$ at $\\Delta = 3.5$",
         [f"{efron[d]:.3f}" for d in (2.5, 3.0, 3.5)] == ["0.786", "0.641", "0.486"]),
        ("about $1.3$ to $2$ times", round(1 / efron[2.5], 1) == 1.3 and round(1 / efron[3.5]) == 2),
        ("about $0.88$, or\n$1.13$ times as many points", f"{efron[delta]:.2f} {1 / efron[delta]:.2f}" == "0.88 1.13"),
        ("0.79 to 0.49 times as efficient", f"{efron[2.5]:.2f} {efron[3.5]:.2f}" == "0.79 0.49"),
        ("distance is $1.39$ times the\ndiscriminant's at $N = 60$, but only $1.12$ times at $N = 2000$",
         f"{np.mean(logi) / np.mean(lda):.2f} {np.mean(logi_big) / np.mean(lda_big):.2f}" == "1.39 1.12"),
        ("At $s = 1$ they are about $0.37$ and $0.80$", [f"{v:.2f}" for v in probit] == ["0.37", "0.80"]
         and 2 < probit[1] / probit[0] < 2.3),
        ("it is\n   about $1.6$ at $s = 0$", f"{phi(0.0) / 0.25:.1f}" == "1.6"),
        ("$e^{0.8425} \\approx 2.32$", f"{np.exp(0.5 * 1.685):.2f} {np.exp(0.5 * model.coef_[0]):.2f}" == "2.32 2.32"),
        ("from $p = 0.5$ it goes to about $0.70$,\nfrom $p = 0.95$ only to about $0.98$",
         [f"{lc.sigmoid(np.log(p0 / (1 - p0)) + 0.8425):.2f}" for p0 in (0.5, 0.95)] == ["0.70", "0.98"]),
        ("cross-entropy rises from\n$0.4666$ to $0.6958$", ce1 == [0.4666, 0.6958]),
        ("stays within $0.01$ of $\\sigma(s)$",
         0.009 < np.max(np.abs(lc.sigmoid(grid) - norm.cdf(grid / 1.7))) < 0.01),
        ("finds one with $E_{in} = 0.125$, against $0.175$ for the fitted model",
         (round(E.min(), 3), round(1 - model.score(X, y), 3)) == (0.125, 0.175)),
        ("rises from $0.4031$ to $0.4719$", ce2[:2] == [0.4031, 0.4719]),
        ("fewer mistakes (6) than the first\nand still has the larger loss, $0.4359$", ce2[2] == 0.4359 and ce2[2] > ce2[0]),
        ("divides the mean distance by $3.26$", f"{dist[200] / dist[2000]:.2f}" == "3.26"),
        ("is above the truth ($2.47$\nagainst $2.33$", f"{mean_w[200][0]:.2f} {w_bayes[0]:.2f}" == "2.47 2.33"),
        ("the mean $w_1$ lies about two of its standard errors above the truth",
         round((mean_w[200][0] - w_bayes[0]) / se_w[200]) == 2),
        ("the standard error is about a sixth of the mean distance", 1 / 7 < se[200] / dist[200] < 1 / 5.5),
        ("$0.058 \\times \\sqrt{200/500} \\approx 0.037$", f"{se[200]:.3f} {se[200] * np.sqrt(0.4):.3f}" == "0.058 0.037"),
        ("known only to within about a fifth", 0.15 < np.hypot(se[200] / dist[200], se[2000] / dist[2000]) < 0.25),
        ("the two numbers compared, about $0.04$, is smaller than their combined standard error, about $0.05$",
         f"{dist[500] - dist[200] * np.sqrt(200 / 500):.2f}" == "0.04"
         and f"{np.hypot(se[500], se[200] * np.sqrt(200 / 500)):.2f}" == "0.05"),
        ("$z \\approx 0.7$", f"{(dist[500] - dist[200] * np.sqrt(200 / 500)) / np.hypot(se[500], se[200] * np.sqrt(200 / 500)):.1f}"
         == "0.7"),
        ("$w_1 = 1.685$", f"{model.coef_[0]:.3f}" == "1.685"),
        ("same boundary ($x \\approx 0.18$)", "boundary (p = 1/2): x = +0.18" in ex1.set(w=3.3, b=-0.6).readout),
        ("with the same 2 mistakes", "mistakes = 2 of 12" in ex1.readout),
        ("probabilities = 0.4308601941", abs(lc.logistic_loss(t, lc.decision_function(X, [1.0, 0.5], 0.2))
                                             - 0.4308601941) < 1e-10),
    ]


def _ch8_numbers():
    X, y = lx.demo_data()
    gd1 = lc.LogisticRegression(solver="gd", learning_rate=1.0, max_iter=1000).fit(X, y)
    gd3 = lc.LogisticRegression(solver="gd", learning_rate=3.0, max_iter=1000).fit(X, y)
    newton = lc.LogisticRegression().fit(X, y)
    excess = " ".join(f"{v:.1e}" for v in newton.loss_history_[2:6] - newton.loss_history_[-1])
    X_sep, y_sep = lc.datasets.make_separable(30, margin=0.2, random_state=0)
    w_svm, _ = lc.max_margin_separator(X_sep, y_sep)
    angles, norms = [], []
    for C in (1.0, 1e2, 1e4, 1e6):
        m = lc.LogisticRegression(C=C).fit(X_sep, y_sep)
        norms.append(f"{np.linalg.norm(m.coef_):.2f}")
        angles.append(np.degrees(np.arccos(min(m.coef_ @ w_svm / np.linalg.norm(m.coef_) / np.linalg.norm(w_svm), 1))))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lc.SeparationWarning)
        stopped = lc.LogisticRegression(max_iter=40).fit(X_sep, y_sep)
    X_design, t = lc.augment(X), (y > 0).astype(float)
    gd_path = lc.gradient_descent_path(X, y, learning_rate=1.0, n_iter=100)[2]
    rng, w_tilde, sgd = np.random.default_rng(0), np.zeros(3), []
    for epoch in range(1, 21):                       # the minibatch cell of chapter 8
        for batch in np.array_split(rng.permutation(len(t)), 8):
            w_tilde = w_tilde - 1.0 * lc.logistic_gradient(X_design[batch], t[batch], w_tilde)
        if epoch in (1, 20):
            sgd.append(lc.logistic_loss(t, X_design @ w_tilde))
    early = []                                       # early stopping against the penalty C = k eta / N
    for k in (5, 20, 100):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", lc.SeparationWarning)
            w_k = lc.LogisticRegression(solver="gd", learning_rate=1.0, max_iter=k, tol=0).fit(X_sep, y_sep).coef_
        w_c = lc.LogisticRegression(C=k / len(y_sep)).fit(X_sep, y_sep).coef_
        early.append((np.degrees(np.arccos(min(w_k @ w_c / np.linalg.norm(w_k) / np.linalg.norm(w_c), 1))),
                      np.linalg.norm(w_k) / np.linalg.norm(w_c)))
    return [
        ("in 219 iterations at $\\eta = 1$ and 64 at $\\eta = 3$", (gd1.n_iter_, gd3.n_iter_) == (219, 64)),
        ("Newton's method stops after 6", newton.n_iter_ == 6),
        ("$4.0\\times10^{-3}$ to $8.3\\times10^{-5}$, $4.7\\times10^{-8}$ and $1.6\\times10^{-14}$",
         excess == "4.0e-03 8.3e-05 4.7e-08 1.6e-14"),
        ("about 7 degrees to a third of a degree", round(angles[0]) == 7 and 0.3 < angles[-1] < 0.35
         and all(a > b for a, b in zip(angles, angles[1:]))),
        ("(2.58, 11.34, 26.39, 43.63 above)", norms == ["2.58", "11.34", "26.39", "43.63"]),
        ("with the loss near $10^{-10}$", 1e-11 < stopped.loss_history_[-1] < 1e-10 and stopped.n_iter_ < 40),
        ("the run that stopped at iteration 24", stopped.n_iter_ == 24 and not stopped.converged_),
        ("One epoch costs one full gradient and, in this run, reaches $0.4031$; full gradient descent at $\\eta = 1$ needs 10 full "
         "gradients", f"{sgd[0]:.4f}" == f"{gd_path[10]:.4f}" == "0.4031" and gd_path[9] > sgd[0]),
        ("within a degree of the penalised fit with $C = k\\eta/N$, with a $w$ 1.2 to 1.4 times as long",
         all(angle < 1 and 1.2 <= round(ratio, 1) <= 1.4 for angle, ratio in early)),
        ("at $0.3998$ after 20", f"{sgd[1]:.4f}" == "0.3998"),
        ("$4\\times10^{-3}$ becomes about $1.6\\times10^{-5}$, then $2.6\\times10^{-10}$ (still just above the target), then "
         "$6.6\\times10^{-20}$", [f"{4e-3 ** 2 ** k:.1e}" for k in (1, 2, 3)] == ["1.6e-05", "2.6e-10", "6.6e-20"]
         and 4e-3 ** 4 > 1e-10 > 4e-3 ** 8),
    ]


def _ch9_numbers():
    from scipy.optimize import brentq, minimize
    from scipy.special import chdtrc
    from scipy.stats import binomtest
    from sklearn.model_selection import StratifiedKFold, cross_val_score, train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from lincourse.metrics import wilson_interval

    cancer = lc.datasets.load_breast_cancer()
    t = 1 - cancer.target                                            # the chapter's coding: 1 = malignant
    X_train, X_test, t_train, t_test = train_test_split(cancer.data, t, test_size=0.3, random_state=0,
                                                        stratify=cancer.target)
    sc = StandardScaler().fit(X_train)
    Z_train, Z_test = sc.transform(X_train), sc.transform(X_test)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lc.SeparationWarning)
        unpen = lc.LogisticRegression().fit(Z_train, t_train)
    clf = lc.LogisticRegression(C=1.0).fit(Z_train, t_train)
    ce = [f"{lc.logistic_loss(t_test, m.decision_function(Z_test)):.4f}" for m in (clf, unpen)]
    right = {name: m.predict(Z_test) == t_test for name, m in (("clf", clf), ("unpen", unpen))}
    wilson = {name: [f"{x:.3f}" for x in wilson_interval(int(r.sum()), r.size)] for name, r in right.items()}
    raw10 = lc.LogisticRegression().fit(X_train[:, :10], t_train)
    std10 = lc.LogisticRegression().fit(Z_train[:, :10], t_train)
    gap = np.abs(raw10.predict_proba(X_test[:, :10]) - std10.predict_proba(Z_test[:, :10])).max()
    raw_c1, std_c1 = (lc.LogisticRegression(C=1.0).fit(A[:, :10], t_train).predict(B[:, :10]) for A, B in
                      ((X_train, X_test), (Z_train, Z_test)))
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    cv = {C: -cross_val_score(make_pipeline(StandardScaler(), lc.LogisticRegression(C=C)), X_train, t_train,
                              cv=folds, scoring="neg_log_loss") for C in (0.3, 1.0, 3.0, 0.01, 100.0)}
    N = len(t_train)
    v = np.r_[std10.intercept_, std10.coef_]
    cov = np.linalg.inv(N * lc.logistic_hessian(lc.augment(Z_train[:, :10]), v))
    se = np.sqrt(np.diag(cov))
    dev = 2 * N * std10.loss_history_[-1]

    def dev_without(drop):
        keep = [k for k in range(10) if k not in drop]
        return 2 * N * lc.LogisticRegression().fit(Z_train[:, keep], t_train).loss_history_[-1]

    lr = dev_without([1]) - dev
    S = [1, 3, 4]                                                    # radius, perimeter, area in (b, w)
    joint = (dev_without([0, 2, 3]) - dev, v[S] @ np.linalg.solve(cov[np.ix_(S, S)], v[S]), np.sum(v[S] ** 2 / se[S] ** 2))
    alone = [(dev_without([k - 1]) - dev, (v[k] / se[k]) ** 2) for k in S]
    p_test = clf.predict_proba(Z_test)[:, 1]
    s_test = clf.decision_function(Z_test)
    table = lc.calibration_table(t_test, p_test, n_bins=5)
    table3 = lc.calibration_table(t_test, lc.sigmoid(3 * s_test), n_bins=5)
    refits = [lc.LogisticRegression().fit(s[:, None], t_test) for s in (s_test, 3 * s_test)]
    brier = np.mean((p_test - t_test) ** 2)
    ppv = 0.95 * 0.01 / (0.95 * 0.01 + 0.05 * 0.99)

    def mcnemar(a, b):
        wins = int(np.sum(a & ~b)), int(np.sum(~a & b))
        return wins, f"{binomtest(wins[0], sum(wins), 0.5).pvalue:.3f}"

    others = lc.augment(Z_train[:, [k for k in range(10) if k != 1]])

    def excess(beta):
        f = lambda u: 2 * N * lc.logistic_loss(t_train, others @ u + beta * Z_train[:, 1])
        g = lambda u: 2 * others.T @ (lc.sigmoid(others @ u + beta * Z_train[:, 1]) - t_train)
        return minimize(f, np.zeros(10), jac=g, method="BFGS", options={"gtol": 1e-9}).fun - dev - 3.841459

    profile = [np.exp(brentq(excess, v[2] - 5 * se[2], v[2])), np.exp(brentq(excess, v[2], v[2] + 5 * se[2]))]
    return [
        ("$0.0847$ for $C = 1$ against $6.7465$ without a penalty", ce == ["0.0847", "6.7465"]),
        ("On all thirty features the training tumours are completely separated",
         cancer.data.shape[1] == 30 and lc.check_separation(Z_train, 2 * t_train - 1).status == "complete"),
        ("largest change of a test probability, raw vs standardised 5e-15", gap < 1e-14 and std10.separation_ == "overlap"),
        ("`t = 1 - cancer.target` makes malignant $t = 1$", cancer.target_names[0] == "malignant"),
        ("The model classifies $164$ of the $171$ test tumours correctly", (int(right["clf"].sum()), len(t_test)) == (164, 171)),
        ("The interval for $C = 1$ (the exercise's) is six points wide", wilson["clf"] == ["0.918", "0.980"]),
        ("Cross-validation picks $C = 1$", min(cv, key=lambda C: cv[C].mean()) == 1.0),
        ("wins only 2 of the 5 folds against $C = 3$ and 3 against $C = 0.3$",
         (np.sum(cv[1.0] < cv[3.0]), np.sum(cv[1.0] < cv[0.3])) == (2, 3)),
        ("$C = 100$ loses on all 5 folds", np.sum(cv[1.0] < cv[100.0]) == 5),
        ("the two values of $C$ differ by a single tumour in all", abs(round(sum(
            cross_val_score(make_pipeline(StandardScaler(), lc.LogisticRegression(C=C)), X_train, t_train, cv=folds,
                            scoring="accuracy") @ np.array([len(te) for _, te in folds.split(X_train, t_train)])
            * s for C, s in ((0.3, 1), (1.0, -1))))) == 1),
        ("standard errors of about 8 to 20", 7.5 < min(se[[1, 3, 4]]) and max(se[[1, 3, 4]]) < 20),
        ("(correlations above $0.98$)", np.corrcoef(Z_train[:, [0, 2, 3]].T).min() > 0.98),
        ("estimate $\\hat w_j = 1.700$ and the standard error $0.351$", f"{v[2]:.3f} {se[2]:.3f}" == "1.700 0.351"),
        ("$[e^{1.012}, e^{2.388}] \\approx [2.75, 10.9]$ around $e^{1.700} \\approx 5.47$",
         f"{np.exp(v[2] - 1.96 * se[2]):.2f} {np.exp(v[2] + 1.96 * se[2]):.1f} {np.exp(v[2]):.2f}" == "2.75 10.9 5.47"),
        ("$1.700 \\pm 1.96 \\cdot 0.351 = [1.012, 2.388]$. The cell, which uses the unrounded estimate and standard "
         "error, prints $[1.013, 2.387]$",
         f"{1.700 - 1.96 * 0.351:.3f} {1.700 + 1.96 * 0.351:.3f}" == "1.012 2.388"
         and f"{v[2] - 1.96 * se[2]:.3f} {v[2] + 1.96 * se[2]:.3f}" == "1.013 2.387"),
        ("The two statistics, $32.53$ and $23.51$", f"{lr:.2f} {(v[2] / se[2]) ** 2:.2f}" == "32.53 23.51"),
        ("radius $0.031$ and $0.031$, perimeter $0.020$ and $0.020$, area $2.175$ and $2.227$",
         [f"{a:.3f} {b:.3f}" for a, b in alone] == ["0.031 0.031", "0.020 0.020", "2.175 2.227"]),
        ("the likelihood ratio $23.14$ ($P = 3.8\\cdot10^{-5}$)",
         f"{joint[0]:.2f}" == "23.14" and f"{chdtrc(3, joint[0]):.1e}" == "3.8e-05"),
        ("the joint Wald statistic is $15.28$ ($P = 0.0016$)",
         f"{joint[1]:.2f}" == "15.28" and f"{chdtrc(3, joint[1]):.2g}" == "0.0016"),
        ("$2.28$ ($P \\approx 0.52$)", f"{joint[2]:.2f} {chdtrc(3, joint[2]):.2f}" == "2.28 0.52"),
        ("agree to all printed digits, $0.37186$",
         f"{clf.predict_proba(Z_train)[:, 1].mean():.5f} {np.mean(t_train):.5f}" == "0.37186 0.37186"),
        ("2 missed instead of 3, for 7 false alarms instead of 4",
         [(int(np.sum((t_test == 1) & (p_test < q))), int(np.sum((t_test == 0) & (p_test >= q)))) for q in (1 / 6, 0.5)]
         == [(2, 7), (3, 4)]),
        ("a PPV of $0.16$ at 1% prevalence and $0.92$ at the test set's $37\\%$",
         f"{ppv:.2f}" == "0.16" and f"{0.95 * t_test.mean() / (0.95 * t_test.mean() + 0.05 * (1 - t_test.mean())):.2f}"
         == "0.92" and round(100 * t_test.mean()) == 37),
        ("The penalised model wins 8 of the 9 disagreements ($P = 0.039$)",
         mcnemar(right["clf"], right["unpen"]) == ((8, 1), "0.039")),
        ("The standardised fit wins 8 of 10 ($P = 0.109$)", mcnemar(std_c1 == t_test, raw_c1 == t_test) == ((8, 2), "0.109")),
        ("they hold 160 of the 171 tumours", int(table.count[0] + table.count[-1]) == 160),
        ("The three middle bins hold 11 tumours", int(table.count[1:4].sum()) == 11),
        ("the intercept is $-0.21$ and the slope $1.10$",
         f"{refits[0].intercept_:.2f} {refits[0].coef_[0]:.2f} {brier:.3f}" == "-0.21 1.10 0.027"),
        ("The tripled model has slope $0.37$", f"{refits[1].coef_[0]:.2f}" == "0.37"),
        ("$0.001$ and $0.994$, lies outside the Wilson interval",
         f"{table3.mean_predicted[0]:.3f} {table3.mean_predicted[-1]:.3f}" == "0.001 0.994"
         and table3.mean_predicted[0] < table3.low[0] and table3.mean_predicted[-1] > table3.high[-1]),
        ("gives $0.5 \\pm 0.35$, from $0.15$ to $0.85$", [f"{x:.2f}" for x in wilson_interval(2, 4)] == ["0.15", "0.85"]),
        ("$[2.90, 11.69]$, lies a little to the right of the Wald interval",
         [f"{x:.2f}" for x in profile] == ["2.90", "11.69"]),
        ("both its ends are larger, by about 5% and 7%",
         [round(100 * (p / w - 1)) for p, w in zip(profile, np.exp([v[2] - 1.96 * se[2], v[2] + 1.96 * se[2]]))] == [5, 7]),
        ("$\\mathrm{Dev} = 88.90$ on $387$ degrees of freedom", f"{dev:.2f}" == "88.90" and N - 11 == 387),
    ]


NUMBERS = {"07_logistic_model": _ch7_numbers, "08_fitting_logistic_regression": _ch8_numbers,
           "09_logistic_regression_in_practice": _ch9_numbers}


@pytest.mark.parametrize("stem", LOGISTIC)
def test_the_numbers_the_prose_quotes_are_what_lincourse_computes(stem):
    if stem not in NUMBERS:
        pytest.skip(f"no numbers registered for {stem}")
    text = "\n".join(cm.source(c) for c in _cells(stem)
                     if c["cell_type"] == "markdown" or cm.DECLARATION in cm.tags(c))   # feedback quotes too
    outputs = "\n".join("".join(o.get("text", "")) for c in _cells(stem) if c["cell_type"] == "code"
                        for o in c.get("outputs", []))
    text, outputs = " ".join(text.split()), " ".join(outputs.split())
    for quote, holds in NUMBERS[stem]():
        quote = " ".join(quote.split())
        assert quote in text or quote in outputs, f"{stem}: the text no longer says {quote!r}"
        assert holds, f"{stem}: {quote!r} is no longer what lincourse computes"


# -- the exercise records shipped with lincourse accept the worked answers and refuse the common wrong ones ---
@pytest.mark.parametrize("key, right, wrong", [
    ("q-logistic-swap", "B", "A"),
    ("q-logistic-reflect", "A", "B"),
    ("q-logistic-probit", "B", "A"),
    ("q-logistic-generative", "A", "B"),
    ("ex-logistic-odds-ratio", 2.32, 0.842),
    ("ex-logistic-table", 6, 2.67),
    ("ex-logistic-confident-mistake", 3.91, 0.0202),
    ("q-logistic-what-minimised", {"A", "B"}, {"A", "B", "C"}),
    ("ex-logistic-gradient", [0.525, 0.525, 1.05], [0.525, 1.05, 0.525]),
    ("ex-logistic-simulation", 0.727, 0.514),
    ("ex-logistic-learning-rate", 10, 12.59),
    ("ex-logistic-newton-step", [-1.2, 0.8], [1.2, -0.8]),
    ("q-logistic-newton-stop", "B", "A"),
    ("q-logistic-quasi", {"1", "3"}, {"1", "2", "3"}),
    ("q-logistic-minibatch", "B", "A"),
    ("ex-logistic-separation", {"A"}, {"A", "C"}),
    ("ex-logistic-separation", {"A"}, {"A", "D"}),
    ("q-logistic-c-path", "2", "1"),
    ("ex-logistic-softmax-gradient", [-0.667, -1.33], [0.667, 1.33]),
    ("q-logistic-scaling", "A", "B"),
    ("q-logistic-ovr-line", "B", "A"),
    ("q-logistic-cv-scaling", "B", "A"),
    ("q-logistic-small-bin", "B", "A"),
    ("q-logistic-roc", "A", "B"),
    ("q-logistic-se-by-hand", "B", "A"),
    ("ex-logistic-lr-joint", 23.14, 15.28),
    ("ex-logistic-lr-joint", 23.14, -23.14),
    ("ex-logistic-wald", 10.9, 5.47),
    ("ex-logistic-wilson", 0.918, 0.929),
    ("q-logistic-ppv", "C", "A"),
    ("ex-logistic-threshold", 2, 3),
    ("ex-logistic-feature-map", 0.935, 0.505),
    ("q-logistic-imbalance", {"A"}, {"A", "B"}),
    ("ex-logistic-cv-accuracy", 0.3, 1.0),
])
def test_exercise_records_accept_the_worked_answers(key, right, wrong, capsys):
    from lincourse.exercises import check as check_answer

    assert check_answer(key, right)
    assert not check_answer(key, wrong)
    assert check_answer(key, ...) is None or not check_answer(key, ...)


def test_the_minibatch_epoch_exercise_accepts_the_loop_and_refuses_the_summed_gradient(capsys):
    """Chapter 8's minibatch coding exercise: the worked loop passes, a step with the sum of the gradients fails."""
    from lincourse.exercises import check as check_answer

    def minibatch_epoch(X_design, t, w_tilde, learning_rate, batches, scale=None):
        for batch in batches:
            X_b, t_b = X_design[batch], t[batch]
            g_b = X_b.T @ (lc.sigmoid(X_b @ w_tilde) - t_b) / (len(batch) if scale is None else scale)
            w_tilde = w_tilde - learning_rate * g_b
        return w_tilde

    assert check_answer("ex-logistic-minibatch-code", minibatch_epoch)
    assert not check_answer("ex-logistic-minibatch-code",
                            lambda X, t, w, eta, batches: minibatch_epoch(X, t, w, eta, batches, scale=1))
    assert "the mean over the batch" in capsys.readouterr().out


def test_threshold_explorer_counts_and_rates():
    from lincourse.explorers import threshold_roc

    t = np.array([1, 1, 1, 0, 0, 0, 0, 1])
    p = np.array([0.9, 0.6, 0.2, 0.1, 0.4, 0.7, 0.05, 0.95])
    ex = threshold_roc(t, p, positive="malignant", negative="benign")
    ex.sliders["q0"].value = 0.5
    assert "flagged malignant: 3 malignant, 1 benign (false alarms)" in ex.readout
    assert "not flagged: 1 malignant (missed), 3 benign" in ex.readout
    assert "true positive rate 0.750   false positive rate 0.250   error rate 0.250" in ex.readout
    with pytest.raises(ValueError, match="both classes"):
        threshold_roc(np.ones(3), np.array([0.1, 0.5, 0.9]))
