"""lincourse's learners are scikit-learn estimators: the estimator suite unmodified, and the tools
a student meets next (clone, Pipeline, GridSearchCV, cross_val_score, OneVsRestClassifier)."""

import pickle
import re
import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score
from sklearn.multiclass import OneVsRestClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

import lincourse as lc

ESTIMATORS = [lc.Perceptron(), lc.PocketPerceptron(), lc.AveragedPerceptron(), lc.LogisticRegression(),
              lc.LogisticRegression(C=1.0), lc.LogisticRegression(solver="gd", learning_rate=0.5, max_iter=200)]


@parametrize_with_checks(ESTIMATORS)
def test_sklearn_estimator_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lc.ConvergenceWarning)
        check(estimator)


@pytest.fixture
def cancer():
    return lc.datasets.load_breast_cancer(return_X_y=True)


@pytest.mark.parametrize("estimator", [lc.Perceptron(max_epochs=5), lc.LogisticRegression(C=1.0)],
                         ids=["Perceptron", "LogisticRegression"])
def test_the_tools_a_student_meets_next(estimator, cancer):
    X, y = cancer
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lc.ConvergenceWarning)
        scores = cross_val_score(make_pipeline(StandardScaler(), clone(estimator)), X, y,
                                 cv=StratifiedKFold(5, shuffle=True, random_state=0))
    assert scores.shape == (5,) and scores.min() > 0.85


def test_grid_search_over_C(cancer):
    X, y = cancer
    search = GridSearchCV(make_pipeline(StandardScaler(), lc.LogisticRegression()),
                          {"logisticregression__C": [0.1, 1.0, 10.0]}, cv=3).fit(X, y)
    assert search.best_params_["logisticregression__C"] in (0.1, 1.0, 10.0)
    assert search.best_estimator_[-1].converged_


def test_one_vs_rest_and_softmax_on_iris_with_species_as_text():
    pd = pytest.importorskip("pandas")
    data = lc.datasets.load_iris()
    frame = pd.DataFrame(data.data, columns=data.feature_names)
    species = pd.Series(np.asarray(data.target_names)[data.target], dtype=object)  # the classic pandas Iris
    softmax = lc.LogisticRegression(C=10.0).fit(frame, species)
    assert softmax.classes_.tolist() == sorted(set(species))
    assert set(softmax.predict(frame)) <= set(species) and softmax.score(frame, species) > 0.95
    np.testing.assert_allclose(softmax.predict_proba(frame).sum(axis=1), 1.0)
    ovr = OneVsRestClassifier(lc.LogisticRegression(C=10.0)).fit(frame, species)
    assert ovr.score(frame, species) > 0.9
    with pytest.warns(lc.SeparationWarning):  # setosa is separated from the others: no MLE
        lc.LogisticRegression().fit(frame, species)


@pytest.mark.parametrize("cls", [lc.Perceptron, lc.PocketPerceptron, lc.AveragedPerceptron, lc.LogisticRegression])
def test_labels_of_any_type_come_back_as_given(cls):
    X = np.array([[0.0, 1], [1, 0], [2, 1], [3, 0], [0.5, 2]])
    for y in (np.array(["no", "yes", "no", "yes", "no"], dtype=object), np.array([True, False, True, False, True]),
              np.array([1, 6, 1, 6, 1]), np.array(["b", "a", "b", "a", "b"])):
        labels = y.tolist()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", lc.ConvergenceWarning)
            clf = cls().fit(X, y)
        assert sorted(set(clf.predict(X).tolist())) <= sorted(set(labels))
        assert all(type(p) is type(labels[0]) or isinstance(p, type(labels[0])) for p in clf.predict(X).tolist())


def test_errors_say_what_was_wrong():
    with pytest.raises(ValueError, match="Only binary classification.*OneVsRestClassifier"):
        lc.Perceptron().fit(np.eye(3), [0, 1, 2])
    with pytest.raises(ValueError, match="at least 2 classes"):
        lc.LogisticRegression().fit(np.eye(3), [1, 1, 1])
    with pytest.raises(ValueError, match="bias_update"):
        lc.Perceptron(bias_update="big").fit(np.eye(2), [0, 1])
    with pytest.raises(ValueError, match="NaN"):
        lc.LogisticRegression().fit([[0.0], [np.nan]], [0, 1])
    clf = lc.Perceptron().fit([[0.0, 1.0], [1.0, 0.0]], [0, 1])
    with pytest.raises(ValueError, match="3 features, but Perceptron is expecting 2"):
        clf.predict([[0.0, 1.0, 2.0]])
    with pytest.raises(lc.NotFittedError):
        lc.LogisticRegression().predict([[0.0]])


def test_warnings_point_at_the_callers_line():
    X = np.array([[-1.0], [0.0], [0.0], [1.0]])
    with pytest.warns(lc.SeparationWarning) as record:
        lc.LogisticRegression().fit(X, [0, 0, 1, 1])
    assert record[0].filename == __file__
    with pytest.warns(lc.ConvergenceWarning) as record:
        lc.Perceptron(max_epochs=2).fit(*lc.datasets.make_xor())
    assert record[0].filename == __file__
    with pytest.warns(lc.SeparationWarning) as record:
        cross_val_score(lc.LogisticRegression(), np.r_[X, X], [0, 0, 1, 1] * 2, cv=2)
    assert record[0].filename == __file__


def test_fitted_estimators_pickle_and_predict_the_same():
    X, y = lc.datasets.make_overlapping(100, random_state=0)
    for clf in (lc.LogisticRegression().fit(X, y), lc.AveragedPerceptron(max_epochs=5).fit(X, y)):
        again = pickle.loads(pickle.dumps(clf))
        np.testing.assert_array_equal(again.decision_function(X), clf.decision_function(X))


def test_parameters_are_checked_in_fit_in_one_style():
    """Every learner checks its parameters in fit (never in __init__), with lincourse's InvalidParameterError:
    a ValueError and a TypeError, like scikit-learn's, whose message names the parameter and what it must be;
    a user catches it by its public name, ``lincourse.InvalidParameterError``."""
    from lincourse import InvalidParameterError

    X, y = lc.datasets.make_separable(20, random_state=0)
    for clf, name, must in [(lc.Perceptron(max_epochs=0), "max_epochs", "an integer >= 1"),
                            (lc.Perceptron(shuffle="yes"), "shuffle", "True or False"),
                            (lc.KernelPerceptron(kernel="rbf"), "kernel", "kappa(A, B)"),
                            (lc.KernelPerceptron(width=-1.0), "width", "number > 0"),
                            (lc.LogisticRegression(solver="lbfgs"), "solver", "sklearn.linear_model"),
                            (lc.LogisticRegression(C=0.0), "C", "np.inf is the unpenalised fit")]:
        with pytest.raises(InvalidParameterError, match=f"^{name} must .*{re.escape(must)}") as caught:
            clf.fit(X, y)
        assert isinstance(caught.value, ValueError) and isinstance(caught.value, TypeError)


def test_lincourse_uses_no_private_scikit_learn_module():
    root = Path(lc.__file__).parent
    private = [f"{path.relative_to(root)}: {line.strip()}" for path in root.rglob("*.py")
               for line in path.read_text().splitlines() if re.search(r"sklearn(\.\w+)*\._\w", line)]
    assert private == []
