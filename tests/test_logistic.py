"""Chapters 7-10: logistic regression against scikit-learn, its stopping rules and its bad input."""

import warnings

import numpy as np
import pytest

import lincourse as lc
import lincourse.logistic


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
    assert clf.loss_history_[-1] == pytest.approx(lc.logistic_loss((y + 1) / 2, s))
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
    with pytest.warns(lc.SeparationWarning, match="completely separated"):
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


@pytest.mark.parametrize("C", [1.0, 1.0 / 9.0, np.inf])
def test_softmax_parameters_are_the_sum_to_zero_representative(C):
    """As scikit-learn's test_multinomial_identifiability_on_iris: coefficients and offsets sum to 0 over
    the classes, so they equal scikit-learn's (which returns that representative), not just its probabilities."""
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(3)
    X = rng.standard_normal((150, 2))
    y = np.argmax(X @ np.array([[1.0, -1.0, 0.2], [0.5, 0.4, -1.0]]) + rng.gumbel(size=(150, 3)), axis=1)
    ours = lc.LogisticRegression(C=C).fit(X, y)
    np.testing.assert_allclose(ours.coef_.sum(axis=0), 0.0, atol=1e-12)
    np.testing.assert_allclose(ours.intercept_.sum(), 0.0, atol=1e-12)
    theirs = LogisticRegression(C=C if np.isfinite(C) else 1e12, tol=1e-12, max_iter=100_000).fit(X, y)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, atol=2e-4)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=2e-4)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-5)



# scikit-learn's test_logistic_glmnet: R's glmnet (alpha=0, lambda=1, standardize=F) on nine points; glmnet's
# penalty lambda ||w||^2 / 2 on the mean loss is scikit-learn's C = 1 / (lambda N) = 1 / 9
GLMNET_X = np.array([[-4, -3, -2, -1, 0, 1, 2, 3, 4], [0, 0, 1, 0, 1, 1, 1, 0, 0]], dtype=float).T
GLMNET_INTERCEPT = [-0.12004759652, 2.251747383e-01, -0.1051271418]
GLMNET_COEF = [[-0.38023389305, -0.01226499932], [-8.164030176e-05, 4.734548012e-02], [0.3803155334, -0.0350804808]]


def test_softmax_gives_glmnets_parameters_on_its_three_class_example():
    """glmnet and scikit-learn return the representative whose offsets sum to 0; so does lincourse."""
    from sklearn.linear_model import LogisticRegression

    two = lc.LogisticRegression(C=1 / 9).fit(GLMNET_X, [0, 0, 0, 1, 1, 1, 1, 1, 1])
    assert two.intercept_ == pytest.approx(0.89230405539, rel=1e-5)
    np.testing.assert_allclose(two.coef_, [0.44464569182, 0.01457563448], rtol=1e-5)
    y = np.array([0, 0, 0, 1, 1, 1, 2, 2, 2])
    three = lc.LogisticRegression(C=1 / 9).fit(GLMNET_X, y)
    np.testing.assert_allclose(three.intercept_, GLMNET_INTERCEPT, rtol=1e-5)
    np.testing.assert_allclose(three.coef_, GLMNET_COEF, rtol=1e-5, atol=1e-8)   # glmnet stops at thresh=1e-12
    assert abs(three.intercept_.sum()) < 1e-12
    # the probabilities: scikit-learn's Newton solver run to its limit agrees to 1e-8 ...
    theirs = LogisticRegression(C=1 / 9, solver="newton-cholesky", tol=1e-14, max_iter=1000).fit(GLMNET_X, y)
    np.testing.assert_allclose(three.predict_proba(GLMNET_X), theirs.predict_proba(GLMNET_X), atol=1e-8)
    # ... and the objective at the returned parameters is the minimum the solver reached (shifting every
    # class's weights by the same vector changed no probability)
    P = three.predict_proba(GLMNET_X)
    objective = -np.mean(np.log(P[np.arange(9), y])) + np.sum(three.coef_ ** 2) / (2 * (1 / 9) * 9)
    assert objective == pytest.approx(three.loss_history_[-1], abs=1e-14)


@pytest.mark.parametrize("fit_intercept", [False, True])
def test_multinomial_identifiability_on_iris(fit_intercept):
    """scikit-learn's test of the same name: with C = N on the standardised Iris data, the coefficients of
    the three classes sum to 0 for each feature (atol 1e-10) and, with an offset, the offsets too (1e-11)."""
    from sklearn.preprocessing import scale

    X, y = lc.datasets.load_iris(return_X_y=True)
    clf = lc.LogisticRegression(C=len(X), fit_intercept=fit_intercept).fit(scale(X), y)
    np.testing.assert_allclose(clf.coef_.sum(axis=0), 0, atol=1e-10)
    if fit_intercept:
        assert clf.intercept_.sum() == pytest.approx(0, abs=1e-11)
    else:
        np.testing.assert_array_equal(clf.intercept_, np.zeros(3))


@pytest.mark.parametrize("fit_intercept", [False, True])
def test_unpenalised_softmax_is_identified_and_matches_sklearn(fit_intercept):
    """scikit-learn's test_multinomial_identifiability (C = inf on data drawn from a softmax model): without a
    penalty nothing pins the weights down but the convention, so the sums are 0 only because of it."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((300, 3))
    y = np.argmax(X @ rng.standard_normal((3, 4)) + rng.gumbel(size=(300, 4)), axis=1)
    ours = lc.LogisticRegression(fit_intercept=fit_intercept).fit(X, y)
    theirs = sk_unpenalised(X, y, fit_intercept=fit_intercept)
    assert ours.converged_
    np.testing.assert_allclose(ours.coef_.sum(axis=0), 0, atol=1e-10)
    assert np.sum(ours.intercept_) == pytest.approx(0, abs=1e-11)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-6)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, atol=1e-6)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-7)

def test_one_vs_rest_is_k_binary_models():
    from sklearn.multiclass import OneVsRestClassifier

    X, y = lc.datasets.load_iris(return_X_y=True)
    X = X[:, 2:]
    ovr = OneVsRestClassifier(lc.LogisticRegression(C=10.0)).fit(X, y)
    for k in range(3):
        binary = lc.LogisticRegression(C=10.0).fit(X, (y == k).astype(int))
        np.testing.assert_allclose(ovr.estimators_[k].coef_, binary.coef_, atol=1e-8)
    np.testing.assert_allclose(ovr.predict_proba(X).sum(axis=1), 1.0)


@pytest.mark.parametrize(
    "params, exc, words",
    [
        ({"solver": "lbfgs"}, ValueError, "solver"),
        ({"multi_class": "multinomial"}, TypeError, "multi_class"),
        ({"learning_rate": 0.0}, ValueError, "learning_rate"),
        ({"learning_rate": -1.0}, ValueError, "learning_rate"),
        ({"max_iter": 0}, ValueError, "max_iter"),
        ({"tol": -1.0}, ValueError, "tol"),
        ({"C": 0.0}, ValueError, "C"),
        ({"solver": None}, ValueError, "solver"),
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
    with pytest.warns(lc.SeparationWarning, match="completely separated"):
        clf = lc.LogisticRegression().fit(X, y)
    assert not clf.converged_
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert lc.LogisticRegression(C=10.0).fit(X, y).converged_


# -- badly conditioned and larger problems: exact Newton, whatever the units -----------------------

def _reference(X, y):
    """statsmodels' Logit, the test-only reference: probabilities of the maximum-likelihood fit."""
    import statsmodels.api as sm

    Xc = sm.add_constant(np.asarray(X, float), has_constant="add")
    y = np.asarray(y)
    res = sm.Logit((y == y.max()).astype(float), Xc).fit(disp=0, tol=1e-12, maxiter=200, method="newton")
    return res.predict(Xc), res


@pytest.fixture(scope="module")
def large_problem():
    return lc.datasets.make_overlapping(20_000, d=8, separation=1.0, random_state=0)


def test_large_problem_matches_sklearn_and_statsmodels(large_problem):
    X, y = large_problem
    ours = lc.LogisticRegression().fit(X, y)
    theirs = sk_unpenalised(X, y)
    assert ours.converged_ and ours.separation_ == "overlap"
    np.testing.assert_allclose(ours.coef_, theirs.coef_.ravel(), atol=1e-6)
    p, _ = _reference(X, y)
    np.testing.assert_allclose(ours.predict_proba(X)[:, 1], p, atol=1e-10, rtol=0)
    # loss_history_ holds the exact loss of every iterate, decreasing
    assert ours.loss_history_[-1] == pytest.approx(lc.logistic_loss((y + 1) / 2, ours.decision_function(X)), rel=1e-14)
    assert np.all(np.diff(ours.loss_history_) <= 0)


@pytest.mark.parametrize("transform", ["offset", "collinear", "scaled", "beyond-float32"])
def test_ill_conditioned_problem_reaches_the_optimum(large_problem, transform):
    X, y = large_problem
    X = {"offset": X + 1e3,
         "collinear": np.column_stack([X, X[:, 0] + 1e-6 * np.cos(np.arange(len(X)))]),
         "scaled": X * np.logspace(-3, 3, X.shape[1]),
         "beyond-float32": X * 1e39}[transform]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # silently: no warning of any kind
        ours = lc.LogisticRegression().fit(X, y)
    assert ours.converged_
    if transform == "collinear":
        # the 1e-6 difference between two columns carries information that statsmodels' Newton and
        # scikit-learn's lbfgs do not reach: our loss must be at least as low as theirs
        theirs = sk_unpenalised(X, y)
        assert ours.loss_history_[-1] <= lc.logistic_loss((y + 1) / 2, theirs.decision_function(X)) + 1e-15
        return
    p, _ = _reference(X, y)
    np.testing.assert_allclose(ours.predict_proba(X)[:, 1], p, atol=1e-8, rtol=0)


@pytest.mark.parametrize("extra", ["constant", "duplicate", "double", "sum", "one-hot"])
def test_rank_deficient_problem_reaches_the_optimum(extra):
    # A column that depends linearly on the others (or on the intercept's column of ones): the
    # Hessian is singular and the minimum-norm step keeps the weights finite; the probabilities
    # are those of the unique fitted model.
    X, y = lc.datasets.make_overlapping(3000, d=4, separation=1.0, random_state=1)
    column = {"constant": np.full(len(X), 3.0), "duplicate": X[:, 1], "double": 2 * X[:, 1],
              "sum": X[:, 0] + X[:, 1], "one-hot": None}[extra]
    if extra == "one-hot":  # dummies of a three-valued feature, which sum to the intercept's column
        codes = np.arange(len(X)) % 3
        Xr = np.column_stack([X, codes == 0, codes == 1, codes == 2]).astype(float)
        base = np.column_stack([X, codes == 0, codes == 1]).astype(float)
    else:
        Xr = np.column_stack([X, column])
        base = X
    ours = lc.LogisticRegression().fit(Xr, y)
    full = lc.LogisticRegression().fit(base, y)
    np.testing.assert_allclose(ours.predict_proba(Xr), full.predict_proba(base), atol=1e-8)
    assert np.abs(ours.coef_).max() < 100  # no excursion along the null space


# -- the cases of the published tables: Spector and Mazzeo (1980), in Greene's Econometric Analysis ----

@pytest.fixture(scope="module")
def spector():
    import statsmodels.api as sm

    data = sm.datasets.spector.load_pandas()
    return data.exog.to_numpy(float), data.endog.to_numpy(float)


def test_spector_matches_greenes_table(spector):
    X, y = spector
    clf = lc.LogisticRegression().fit(X, y)
    # Greene, Econometric Analysis, the logit column for GPA, TUCE, PSI and the constant
    np.testing.assert_allclose(np.r_[clf.coef_, clf.intercept_], [2.826, 0.095, 2.379, -13.021], atol=1e-3)
    assert clf.converged_ and clf.separation_ == "overlap"


@pytest.mark.parametrize("factor", [1.0, 1e6, 1e-8, 1e100, 1e-100])
@pytest.mark.parametrize("column", [0, 1, 2])
def test_spector_in_any_units_matches_statsmodels(spector, factor, column):
    X, y = spector
    X = X.copy()
    X[:, column] *= factor
    p, res = _reference(X / np.r_[np.ones(column), factor, np.ones(2 - column)], y)  # reference in original units
    clf = lc.LogisticRegression().fit(X, y)
    assert clf.converged_
    np.testing.assert_allclose(clf.predict_proba(X)[:, 1], p, atol=1e-8, rtol=0)
    assert clf.coef_[column] * factor == pytest.approx(res.params[column + 1], rel=1e-7)


def test_huge_feature_does_not_predict_one_class():
    with pytest.warns(lc.SeparationWarning, match="completely separated"):
        clf = lc.LogisticRegression().fit([[0.0], [1e100]], [0, 1])
    assert clf.predict([[0.0], [1e100]]).tolist() == [0, 1]
    assert clf.separation_ == "complete" and not clf.converged_


def test_quasi_complete_separation_is_reported():
    with pytest.warns(lc.SeparationWarning) as caught:
        clf = lc.LogisticRegression().fit([[-1.0], [0.0], [0.0], [1.0]], [-1, -1, 1, 1])
    message = str(caught[0].message)
    assert "quasi-completely separated" in message
    assert "maximum-likelihood estimate does not exist" in message
    assert "grow without bound" in message and "finite C" in message
    assert not clf.converged_ and clf.separation_ == "quasi-complete"
    # with a finite C the model exists and nothing is checked
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        reg = lc.LogisticRegression(C=1.0).fit([[-1.0], [0.0], [0.0], [1.0]], [-1, -1, 1, 1])
    assert reg.converged_ and reg.separation_ is None


@pytest.mark.parametrize("solver", ["newton", "gd"])
def test_overlapping_data_are_certified_without_a_linear_program(monkeypatch, solver):
    import lincourse.separation

    def forbidden(*args, **kwargs):
        raise AssertionError("the certificate from the gradient should have sufficed")

    monkeypatch.setattr(lincourse.separation, "_separation", forbidden)  # the linear programs
    X, y = lc.datasets.make_overlapping(500, d=3, separation=1.0, random_state=2)
    clf = lc.LogisticRegression(solver=solver, learning_rate=1.0, max_iter=5000, tol=1e-9).fit(X, y)
    assert clf.separation_ == "overlap" and clf.converged_


def test_newton_stops_on_the_decrement():
    X, y = lc.datasets.make_overlapping(300, d=3, random_state=3)
    clf = lc.LogisticRegression(tol=1e-6).fit(X, y)
    loose = clf.n_iter_
    tight = lc.LogisticRegression(tol=1e-14).fit(X, y).n_iter_
    assert 1 <= loose <= tight <= loose + 2
    assert len(clf.loss_history_) == clf.n_iter_ + 1


def test_the_linear_programs_decide_when_the_gradient_cannot(monkeypatch):
    import lincourse.separation

    calls = []
    real = lincourse.separation._separation
    monkeypatch.setattr(lincourse.separation, "_separation", lambda *args, **kwargs: calls.append(1) or real(*args, **kwargs))
    with pytest.warns(lc.SeparationWarning):
        lc.LogisticRegression().fit([[-1.0], [0.0], [0.0], [1.0]], [0, 0, 1, 1])
    assert calls  # so the test above, which forbids them, watches the function that runs them


def test_the_loop_shares_one_product_with_X_per_point():
    """The objective, gradient and Hessian at one point come from one product X w, the same as from the
    public functions, and a new point never reuses the scores of the old one."""
    X, y = lc.datasets.make_overlapping(200, d=3, random_state=0)
    X_design, t = lc.augment(X), (y == 1).astype(float)
    problem = lincourse.logistic._Binary(X_design, t, np.zeros(4))
    for w in (np.zeros(4), np.array([0.1, -0.2, 0.3, 0.5]), np.array([0.1, -0.2, 0.3, 0.6])):
        assert problem.loss(w) == pytest.approx(lc.logistic_loss(t, X_design @ w), rel=1e-14)
        np.testing.assert_allclose(problem.gradient(w), lc.logistic_gradient(X_design, t, w), rtol=1e-13)
        np.testing.assert_allclose(problem.hessian(w), lc.logistic_hessian(X_design, w), rtol=1e-13)


def test_the_separation_check_reuses_the_solvers_last_hessian(monkeypatch):
    """An unpenalised Newton fit forms one Hessian per iteration and no more: the check that the
    maximum-likelihood estimate exists bounds the design's smallest singular value with the last
    Hessian the solver formed (any weights give a valid bound, since every p(1 - p) <= 1/4)."""
    import lincourse.losses

    calls = []
    real = lincourse.losses._logistic_hessian

    def counted(X, s):
        calls.append(1)
        return real(X, s)

    monkeypatch.setattr(lincourse.logistic, "_logistic_hessian", counted)
    monkeypatch.setattr(lincourse.losses, "_logistic_hessian", counted)
    rng = np.random.default_rng(3)
    X = rng.normal(size=(300, 4))
    y = np.where(X @ [1.0, -0.5, 0.2, 0.0] + rng.logistic(size=300) > 0, 1, -1)
    clf = lc.LogisticRegression(C=np.inf).fit(X, y)
    assert clf.separation_ == "overlap" and clf.converged_
    assert len(calls) == clf.n_iter_
