"""Chapter 5: logistic regression against scikit-learn, its stopping rules and its bad input."""

import warnings

import numpy as np
import pytest

import lincourse as lc


def sk_unpenalised(X, y, **kw):
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(C=np.inf, tol=1e-12, max_iter=100_000, **kw).fit(X, y)


@pytest.mark.parametrize("seed", range(4))
def test_newton_matches_sklearn_unpenalised(seed):
    X, y = lc.datasets.make_overlapping(400, d=4, separation=1.5, random_state=seed)
    ours = lc.LogisticRegression().fit(X, y)
    theirs = sk_unpenalised(X, y)
    assert ours.converged_
    np.testing.assert_allclose(ours.coef_, theirs.coef_.ravel(), atol=1e-6)
    assert ours.intercept_ == pytest.approx(theirs.intercept_[0], abs=1e-6)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-7)


def test_labels_01_pm1_and_strings_give_the_same_model():
    X, y = lc.datasets.make_overlapping(200, random_state=1)
    a = lc.LogisticRegression().fit(X, y)
    b = lc.LogisticRegression().fit(X, (y + 1) // 2)
    c = lc.LogisticRegression().fit(X, np.where(y > 0, "yes", "no"))
    np.testing.assert_allclose(a.coef_, b.coef_)
    np.testing.assert_allclose(a.coef_, c.coef_)
    np.testing.assert_array_equal(c.classes_, ["no", "yes"])
    assert set(c.predict(X)) <= {"no", "yes"}


def test_probabilities_are_the_sigmoid_of_the_score():
    X, y = lc.datasets.make_overlapping(100, random_state=2)
    clf = lc.LogisticRegression().fit(X, y)
    s = clf.decision_function(X)
    P = clf.predict_proba(X)
    np.testing.assert_allclose(P[:, 1], lc.sigmoid(s))
    np.testing.assert_allclose(P.sum(axis=1), 1.0)
    np.testing.assert_array_equal(clf.predict(X), np.where(s > 0, 1, -1))
    # loss_history_ is the mean cross-entropy; its last entry is that of the fitted model
    assert clf.loss_history_[-1] == pytest.approx(lc.cross_entropy((y + 1) / 2, P[:, 1]))
    assert clf.loss_history_[-1] == pytest.approx(lc.logistic_loss(y, s))
    assert clf.loss_history_[0] == pytest.approx(np.log(2))
    assert np.all(np.diff(clf.loss_history_) <= 1e-12)  # Newton with line search never increases the loss


def test_gradient_descent_reaches_the_newton_solution():
    X, y = lc.datasets.make_overlapping(200, random_state=3)
    newton = lc.LogisticRegression().fit(X, y)
    gd = lc.LogisticRegression(solver="gd", learning_rate=1.0, max_iter=5000, tol=1e-9).fit(X, y)
    assert gd.converged_ and gd.n_iter_ > newton.n_iter_
    np.testing.assert_allclose(gd.coef_, newton.coef_, atol=1e-6)


def test_finite_C_matches_sklearn():
    from sklearn.linear_model import LogisticRegression

    X, y = lc.datasets.make_overlapping(150, d=3, random_state=4)
    ours = lc.LogisticRegression(C=0.5).fit(X, y)
    theirs = LogisticRegression(C=0.5, tol=1e-12, max_iter=10_000).fit(X, y)
    np.testing.assert_allclose(ours.coef_, theirs.coef_.ravel(), atol=1e-6)


def test_separable_data_warns_and_stays_finite():
    X, y = lc.datasets.make_separable(100, margin=0.1, random_state=5)
    with pytest.warns(lc.ConvergenceWarning, match="separable"):
        clf = lc.LogisticRegression(max_iter=60).fit(X, y)
    assert not clf.converged_
    assert np.all(np.isfinite(clf.coef_)) and np.isfinite(clf.intercept_)
    assert np.all(np.isfinite(clf.predict_proba(X)))
    assert clf.score(X, y) == 1.0
    # regularisation gives finite, converged weights
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        reg = lc.LogisticRegression(C=1.0).fit(X, y)
    assert reg.converged_ and np.linalg.norm(reg.coef_) < np.linalg.norm(clf.coef_)


def test_gd_stops_at_max_iter_with_a_warning():
    X, y = lc.datasets.make_overlapping(100, random_state=6)
    with pytest.warns(lc.ConvergenceWarning, match="max_iter=5"):
        clf = lc.LogisticRegression(solver="gd", max_iter=5).fit(X, y)
    assert clf.n_iter_ == 5 and len(clf.loss_history_) == 6


def test_softmax_matches_sklearn_multinomial():
    from sklearn.linear_model import LogisticRegression

    X, y = lc.datasets.load_iris(return_X_y=True)
    ours = lc.LogisticRegression(C=1.0).fit(X, y)
    theirs = LogisticRegression(C=1.0, tol=1e-12, max_iter=100_000).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-5)
    assert ours.coef_.shape == (3, 4) and ours.intercept_.shape == (3,)
    np.testing.assert_allclose(ours.predict_proba(X), lc.softmax(ours.decision_function(X)))


def test_ovr_is_k_binary_models():
    X, y = lc.datasets.load_iris(return_X_y=True)
    X = X[:, 2:]
    ovr = lc.LogisticRegression(multi_class="ovr", C=10.0).fit(X, y)
    for k in range(3):
        binary = lc.LogisticRegression(C=10.0).fit(X, (y == k).astype(int))
        np.testing.assert_allclose(ovr.coef_[k], binary.coef_, atol=1e-8)
    P = ovr.predict_proba(X)
    np.testing.assert_allclose(P.sum(axis=1), 1.0)
    assert len(ovr.loss_history_) == 3 and ovr.n_iter_.shape == (3,)


@pytest.mark.parametrize(
    "params, exc, words",
    [
        ({"solver": "lbfgs"}, ValueError, "solver"),
        ({"multi_class": "multinomial"}, ValueError, "multi_class"),
        ({"learning_rate": 0.0}, ValueError, "learning_rate"),
        ({"learning_rate": -1.0}, ValueError, "learning_rate"),
        ({"max_iter": 0}, ValueError, "max_iter"),
        ({"tol": -1.0}, ValueError, "tol"),
        ({"C": 0.0}, ValueError, "C"),
        ({"solver": None}, TypeError, "solver"),
    ],
)
def test_bad_parameters(params, exc, words):
    X, y = lc.datasets.make_overlapping(20, random_state=0)
    with pytest.raises(exc, match=words):
        lc.LogisticRegression(**params).fit(X, y)


def test_bad_data_and_unfitted():
    with pytest.raises(ValueError, match="at least 2 classes"):
        lc.LogisticRegression().fit([[0.0], [1.0]], [1, 1])
    with pytest.raises(ValueError, match="NaN"):
        lc.LogisticRegression().fit([[0.0], [np.nan]], [0, 1])
    with pytest.raises(lc.NotFittedError):
        lc.LogisticRegression().predict_proba([[0.0]])


def test_softmax_warns_when_one_class_is_separable():
    X, y = lc.datasets.load_iris(return_X_y=True)  # setosa (0) is separable from the other two
    with pytest.warns(lc.ConvergenceWarning, match="class\\(es\\) 0 appear linearly separable"):
        clf = lc.LogisticRegression().fit(X, y)
    assert not clf.converged_
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert lc.LogisticRegression(C=10.0).fit(X, y).converged_


# -- large binary problems: sub-sampled Hessian, single-precision start, blocked passes ---------

def _exact_newton(monkeypatch, X, y):
    """Newton's method of chapter 5 as written: exact Hessian, double precision throughout."""
    with monkeypatch.context() as m, warnings.catch_warnings():
        m.setattr(lc.logistic._Objective, "HESSIAN_ROWS", 10**12)
        warnings.simplefilter("ignore", lc.ConvergenceWarning)  # tol=1e-12 may be out of reach
        return lc.LogisticRegression(tol=1e-12).fit(X, y)


@pytest.fixture(scope="module")
def large_problem():
    X, y = lc.datasets.make_overlapping(40_000, d=8, separation=1.0, random_state=0)
    return X, y


@pytest.mark.parametrize("single_until", [lc.logistic._Objective.SINGLE_UNTIL, 0.0])
def test_large_problem_reaches_the_exact_newton_optimum(monkeypatch, large_problem, single_until):
    # single_until=0: single precision is left only when its line search fails (the fallback path)
    X, y = large_problem
    monkeypatch.setattr(lc.logistic._Objective, "SINGLE_UNTIL", single_until)
    fast = lc.LogisticRegression().fit(X, y)
    exact = _exact_newton(monkeypatch, X, y)
    assert fast.converged_
    scale = 1 + np.abs(exact.coef_).max()
    assert np.abs(fast.coef_ - exact.coef_).max() <= 3e-8 * scale
    assert abs(fast.intercept_ - exact.intercept_) <= 3e-8 * scale
    # the last loss is exact; earlier ones (single precision) are good to about 1e-7
    assert fast.loss_history_[-1] == pytest.approx(lc.logistic_loss(y, fast.decision_function(X)), rel=1e-14)
    assert np.all(np.diff(fast.loss_history_) <= 1e-6)
    assert fast.loss_history_[-1] <= exact.loss_history_[-1] + 1e-15


def test_large_problem_matches_sklearn(large_problem):
    X, y = large_problem
    ours = lc.LogisticRegression().fit(X, y)
    theirs = sk_unpenalised(X, y)
    np.testing.assert_allclose(ours.coef_, theirs.coef_.ravel(), atol=1e-6)


def test_block_size_does_not_change_the_result(monkeypatch):
    X, y = lc.datasets.make_overlapping(3000, d=5, separation=1.0, random_state=4)
    whole = lc.LogisticRegression().fit(X, y)
    monkeypatch.setattr(lc.logistic._Objective, "BLOCK_BYTES", 2048)  # 256-row blocks
    blocked = lc.LogisticRegression().fit(X, y)
    np.testing.assert_allclose(blocked.coef_, whole.coef_, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(blocked.loss_history_, whole.loss_history_, rtol=1e-12)


def test_large_separable_problem_warns_with_an_exact_final_loss():
    X, y = lc.datasets.make_separable(20_000, d=4, margin=0.1, random_state=0)
    with pytest.warns(lc.ConvergenceWarning, match="linearly separable"):
        clf = lc.LogisticRegression(max_iter=30).fit(X, y)
    assert np.all(np.isfinite(clf.coef_))
    assert clf.loss_history_[-1] == pytest.approx(lc.logistic_loss(y, clf.decision_function(X)), rel=1e-12)


@pytest.mark.parametrize("transform", ["offset", "collinear"])
def test_large_ill_conditioned_problem_reaches_the_optimum(monkeypatch, large_problem, transform):
    # Features with a large common offset, or two nearly equal columns: the Hessian has tiny
    # eigenvalues, which float32 rounding of X would disturb. The loss and the probabilities are
    # those of exact Newton (the weights themselves are barely determined along the tiny directions).
    X, y = large_problem
    X = X + 1e3 if transform == "offset" else np.column_stack([X, X[:, 0] + 1e-6 * np.cos(np.arange(len(X)))])
    fast = lc.LogisticRegression().fit(X, y)
    exact = _exact_newton(monkeypatch, X, y)
    assert fast.converged_
    assert fast.loss_history_[-1] <= exact.loss_history_[-1] + 1e-12
    np.testing.assert_allclose(fast.predict_proba(X), exact.predict_proba(X), atol=1e-6)


@pytest.mark.parametrize("extra", ["constant", "duplicate", "double", "sum", "one-hot"])
def test_large_rank_deficient_problem_reaches_the_optimum(monkeypatch, extra):
    # A column that depends linearly on the others (or on the intercept's column of ones): the
    # Hessian is singular, and single-precision rounding must not become a step along its null space.
    X, y = lc.datasets.make_overlapping(30_000, d=4, separation=1.0, random_state=1)
    column = {"constant": np.full(len(X), 3.0), "duplicate": X[:, 1], "double": 2 * X[:, 1],
              "sum": X[:, 0] + X[:, 1], "one-hot": None}[extra]
    if extra == "one-hot":  # dummies of a three-valued feature, which sum to the intercept's column
        codes = np.arange(len(X)) % 3
        X = np.column_stack([X, codes == 0, codes == 1, codes == 2]).astype(float)
    else:
        X = np.column_stack([X, column])
    fast = lc.LogisticRegression().fit(X, y)
    exact = _exact_newton(monkeypatch, X, y)
    assert fast.loss_history_[-1] <= exact.loss_history_[-1] + 1e-12
    np.testing.assert_allclose(fast.predict_proba(X), exact.predict_proba(X), atol=1e-6)
    assert np.abs(fast.coef_).max() < 100  # no excursion along the null space


def test_large_problem_beyond_float32_range_is_solved_silently(monkeypatch, large_problem):
    X, y = large_problem
    X = X * 1e39  # overflows float32: the fit stays in double precision, without warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fast = lc.LogisticRegression().fit(X, y)
    exact = _exact_newton(monkeypatch, X, y)
    assert fast.loss_history_[-1] <= exact.loss_history_[-1] + 1e-12


def test_large_one_vs_rest_shares_one_float32_copy(monkeypatch):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40_000, 6))
    y = np.argmax(X[:, :3] + rng.normal(size=(40_000, 3)), axis=1)
    copies = []
    original = lc.logistic._Objective.use_single_precision

    def counting(self):
        original(self)
        copies.append(id(self._X32))

    monkeypatch.setattr(lc.logistic._Objective, "use_single_precision", counting)
    fast = lc.LogisticRegression(multi_class="ovr").fit(X, y)
    assert len(copies) == 3 and len(set(copies)) == 1
    monkeypatch.setattr(lc.logistic._Objective, "use_single_precision", original)
    with monkeypatch.context() as m:
        m.setattr(lc.logistic._Objective, "HESSIAN_ROWS", 10**12)
        exact = lc.LogisticRegression(multi_class="ovr", tol=1e-12).fit(X, y)
    np.testing.assert_allclose(fast.predict_proba(X), exact.predict_proba(X), atol=1e-7)


def test_large_problem_with_badly_scaled_columns_meets_tol(monkeypatch):
    X, y = lc.datasets.make_overlapping(30_000, d=6, separation=1.0, random_state=1)
    X = X * np.logspace(-3, 3, 6)  # weights from about 1e-3 to 1e3
    fast = lc.LogisticRegression().fit(X, y)
    exact = _exact_newton(monkeypatch, X, y)
    w_fast, w_exact = np.r_[fast.coef_, fast.intercept_], np.r_[exact.coef_, exact.intercept_]
    assert np.abs(w_fast - w_exact).max() <= 1e-8 * (1 + np.abs(w_exact).max())
