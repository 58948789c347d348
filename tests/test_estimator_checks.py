"""scikit-learn's estimator suite, run on lincourse's learners, and the input users pass.

The checks of ``sklearn.utils.estimator_checks`` that concern behaviour run unchanged on thin
subclasses that only declare scikit-learn's tags (lincourse itself does not import scikit-learn).
The checks that only test scikit-learn's own wording of an error (or ``sample_weight``, which
lincourse does not offer) are left out; their substance is checked by hand below.
"""

import pickle
import warnings

import numpy as np
import pytest

import lincourse as lc

sklearn = pytest.importorskip("sklearn")
from sklearn.utils import ClassifierTags, InputTags, Tags, TargetTags  # noqa: E402
from sklearn.utils import estimator_checks as ec  # noqa: E402


def _tags(self):
    return Tags(estimator_type="classifier", target_tags=TargetTags(required=True),
                classifier_tags=ClassifierTags(multi_class=isinstance(self, lc.LogisticRegression), poor_score=True),
                input_tags=InputTags(two_d_array=True, sparse=False))


class SkPerceptron(lc.Perceptron):
    __sklearn_tags__ = _tags


class SkPocket(lc.PocketPerceptron):
    __sklearn_tags__ = _tags


class SkAveraged(lc.AveragedPerceptron):
    __sklearn_tags__ = _tags


class SkLogistic(lc.LogisticRegression):
    __sklearn_tags__ = _tags


ESTIMATORS = [SkPerceptron(max_epochs=50), SkPocket(max_epochs=50), SkAveraged(max_epochs=50), SkLogistic(C=1.0),
              SkLogistic(solver="gd", C=1.0, max_iter=200, learning_rate=0.5), SkLogistic(C=1.0, multi_class="ovr")]

CHECKS = [
    "check_classifiers_train", "check_classifier_data_not_an_array", "check_estimators_dtypes",
    "check_fit2d_1feature", "check_fit2d_1sample", "check_fit2d_predict1d", "check_fit1d",
    "check_methods_sample_order_invariance", "check_methods_subset_invariance", "check_fit_idempotent",
    "check_classifiers_classes", "check_estimators_nan_inf", "check_estimators_pickle", "check_complex_data",
    "check_estimator_sparse_matrix", "check_estimator_sparse_array", "check_n_features_in",
    "check_dont_overwrite_parameters", "check_dict_unchanged", "check_get_params_invariance",
    "check_no_attributes_set_in_init", "check_f_contiguous_array_estimator", "check_readonly_memmap_input",
    "check_decision_proba_consistency", "check_classifiers_one_label", "check_classifiers_regression_target",
    "check_fit_score_takes_y", "check_estimators_fit_returns_self", "check_estimators_overwrite_params",
    "check_parameters_default_constructible", "check_fit_check_is_fitted", "check_supervised_y_no_nan",
    "check_requires_y_none", "check_estimator_repr",
]


@pytest.mark.parametrize("check", CHECKS)
@pytest.mark.parametrize("estimator", ESTIMATORS, ids=lambda e: repr(e)[:60])
def test_sklearn_estimator_check(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        getattr(ec, check)(type(estimator).__name__, estimator)


# -- by hand: what the left-out checks test, in lincourse's words ----------------------------------

@pytest.mark.parametrize("cls", [lc.Perceptron, lc.LogisticRegression])
def test_unfitted_and_wrong_number_of_features(cls):
    with pytest.raises(lc.NotFittedError, match="not fitted"):
        cls().decision_function([[0.0, 1.0]])
    clf = cls().fit([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0], [0.5, 3.0]], [0, 1, 0, 1])
    with pytest.raises(ValueError, match="3 features but 2 were expected"):
        clf.predict([[0.0, 1.0, 2.0]])


@pytest.mark.parametrize("cls", [lc.Perceptron, lc.LogisticRegression])
def test_refusals_say_what_to_do(cls):
    import scipy.sparse as sp

    y = [0, 1, 0, 1]
    cases = [
        (sp.csr_matrix(np.eye(4)), TypeError, "sparse.*toarray"),
        (np.zeros((4, 0)), ValueError, "no features"),
        (np.array([[{"a": 1}]] * 4, dtype=object), TypeError, "only numbers.*convert"),
        (np.array([[1.0, None]] * 4, dtype=object), TypeError, "missing values"),
        (np.array([["1.5"]] * 4), TypeError, "text.*convert"),
        ([[1.0, 2.0], [1.0]] * 2, ValueError, "ragged.*pad"),
        (np.array([[1.0], [np.nan], [2.0], [3.0]]), ValueError, "NaN or infinity"),
        (np.ones((4, 1)) * 1j, ValueError, "Complex data not supported.*real"),
    ]
    for X, exc, words in cases:
        with pytest.raises(exc, match=words):
            cls().fit(X, y)
    with pytest.raises(ValueError, match="continuous"):
        cls().fit(np.eye(4), [0.5, 1.5, 0.25, 1.0])
    with pytest.raises(TypeError, match="mixes labels of different types"):
        cls().fit(np.eye(4), np.array([1, "a", 1, "a"], dtype=object))
    with pytest.raises(ValueError, match="missing labels"):
        cls().fit(np.eye(4), np.array([1, None, 1, 2], dtype=object))


@pytest.mark.parametrize("cls", [lc.Perceptron, lc.PocketPerceptron, lc.AveragedPerceptron, lc.LogisticRegression])
def test_object_arrays_and_object_labels_keep_their_type(cls):
    X = np.array([[0.0, 1], [1, 0], [2, 1], [3, 0], [0.5, 2]], dtype=object)
    y = np.array([1, 6, 1, 6, 1], dtype=object)
    clf = cls(C=1.0).fit(X, y) if cls is lc.LogisticRegression else cls().fit(X, y)
    reference = (cls(C=1.0) if cls is lc.LogisticRegression else cls()).fit(X.astype(float), [1, 6, 1, 6, 1])
    assert clf.classes_.tolist() == [1, 6] and all(type(c) is not str for c in clf.predict(X).tolist())
    assert clf.predict(X).tolist() == reference.predict(X.astype(float)).tolist()
    assert clf.score(X, y) == reference.score(X.astype(float), [1, 6, 1, 6, 1]) > 0
    np.testing.assert_array_equal(clf.coef_, reference.coef_)


def test_string_and_bool_labels():
    X = np.arange(8.0)[:, None]
    clf = lc.LogisticRegression(C=1.0).fit(X, np.array(["no", "yes"] * 4, dtype=object))
    assert set(clf.predict(X).tolist()) <= {"no", "yes"}
    assert lc.Perceptron(max_epochs=3).fit(X, [True, False] * 4).classes_.tolist() == [False, True]


@pytest.mark.parametrize("cls", [lc.Perceptron, lc.LogisticRegression])
def test_pandas_frames_with_bool_and_nullable_columns(cls):
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({
        "flag": [True, False, True, False, True, False],
        "count": pd.array([1, 2, 3, 4, 2, 5], dtype="Int64"),
        "level": pd.array([0.5, 1.5, 2.5, 0.1, 1.0, 2.0], dtype="Float64"),
        "ok": pd.array([True, True, False, False, True, False], dtype="boolean"),
    })
    y = pd.Series([1, 6, 1, 6, 6, 1], dtype="Int64")
    clf = cls().fit(df, y) if cls is lc.Perceptron else cls(C=1.0).fit(df, y)
    dense = df.to_numpy(dtype=float)
    ref = cls().fit(dense, [1, 6, 1, 6, 6, 1]) if cls is lc.Perceptron else cls(C=1.0).fit(dense, [1, 6, 1, 6, 6, 1])
    np.testing.assert_array_equal(clf.coef_, ref.coef_)
    assert clf.classes_.tolist() == [1, 6]
    assert clf.score(df, y) == ref.score(dense, [1, 6, 1, 6, 6, 1])
    with pytest.raises(ValueError, match="NaN"):
        cls().fit(df.assign(count=pd.array([1, None, 3, 4, 2, 5], dtype="Int64")), y)
    with pytest.raises(ValueError, match="missing labels"):
        cls().fit(df, pd.Series([1, None, 1, 6, 6, 1], dtype="Int64"))
    with pytest.raises(TypeError, match="not numeric: 'name'.*get_dummies"):
        cls().fit(df.assign(name=list("abcdef")), y)


def test_fitted_estimators_pickle_and_predict_the_same():
    X, y = lc.datasets.make_overlapping(100, random_state=0)
    for clf in (lc.LogisticRegression().fit(X, y), lc.AveragedPerceptron(max_epochs=5).fit(X, y)):
        again = pickle.loads(pickle.dumps(clf))
        np.testing.assert_array_equal(again.decision_function(X), clf.decision_function(X))
