"""check_separation (chapter 8's existence theorem), SeparationWarning, show_source."""

import inspect
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lincourse as lc


def _margins(X, y, direction):
    w, b = direction
    s = np.where(np.asarray(y) == np.unique(y)[1], 1.0, -1.0)
    return s * (np.asarray(X, float) @ w + b)


def test_quasi_complete_example_of_the_issue():
    result = lc.check_separation([[-1.0], [0.0], [0.0], [1.0]], [-1, -1, 1, 1])
    assert result.status == "quasi-complete"
    assert not result.mle_exists and result.full_rank
    assert (result.n_separated, result.n_tied) == (2, 2)
    w, b = result.direction
    assert np.isclose(np.hypot(w[0], b), 1.0)
    assert w[0] > 0 and abs(b) < 1e-12


def test_complete_overlap_and_labels():
    complete = lc.check_separation([[0.0], [1.0], [2.0], [3.0]], ["a", "a", "b", "b"])
    assert complete.status == "complete" and complete.n_separated == 4 and complete.n_tied == 0
    assert np.all(_margins([[0.0], [1.0], [2.0], [3.0]], ["a", "a", "b", "b"], complete.direction) > 0)
    overlap = lc.check_separation([[0.0], [1.0], [2.0], [3.0]], [0, 1, 0, 1])
    assert overlap.status == "overlap" and overlap.direction is None and overlap.mle_exists


def test_rank_deficient_overlap_has_no_unique_mle():
    X = np.array([[0.0, 0.0], [1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])
    result = lc.check_separation(X, [0, 1, 0, 1])
    assert result.status == "overlap" and not result.full_rank and not result.mle_exists


def test_through_the_origin():
    X = [[1.0], [2.0], [-1.0], [-3.0]]
    assert lc.check_separation(X, [1, 1, -1, -1], fit_intercept=False).status == "complete"
    assert lc.check_separation(X, [1, -1, -1, 1], fit_intercept=False).status == "overlap"
    # offset needed: separable with an intercept, not through the origin
    X2 = [[1.0], [2.0], [3.0], [4.0]]
    assert lc.check_separation(X2, [0, 0, 1, 1]).status == "complete"
    assert lc.check_separation(X2, [0, 0, 1, 1], fit_intercept=False).status == "overlap"


@pytest.mark.parametrize("factor", [1e-150, 1e-8, 1.0, 1e6, 1e150])
def test_scale_invariance(factor):
    X = np.array([[-1.0, 5.0], [0.0, 1.0], [0.0, 2.0], [1.0, -3.0], [0.0, 4.0], [2.0, 0.5]])
    y = [0, 0, 1, 1, 0, 1]
    X = X * [factor, 1.0]
    result = lc.check_separation(X, y)
    base = lc.check_separation(X / [factor, 1.0], y)
    assert result.status == base.status == "quasi-complete"
    assert (result.n_separated, result.n_tied) == (base.n_separated, base.n_tied)
    assert np.all(_margins(X, y, result.direction) >= -1e-9 * np.abs(X).max())


def test_huge_feature_is_complete():
    assert lc.check_separation([[0.0], [1e100]], [0, 1]).status == "complete"


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000))
def test_random_statuses_agree_with_definitions(seed):
    rng = np.random.default_rng(seed)
    n, d = rng.integers(3, 12), rng.integers(1, 3)
    X = rng.integers(-2, 3, size=(n, d)).astype(float)
    y = rng.integers(0, 2, size=n)
    if np.unique(y).size < 2:
        y[0], y[1] = 0, 1
    result = lc.check_separation(X, y)
    separable = lc.is_linearly_separable(X, np.where(y == 1, 1, -1))
    assert (result.status == "complete") == separable
    if result.direction is not None:
        m = _margins(X, y, result.direction)
        assert np.all(m >= -1e-9)
        assert np.sum(m > 1e-9) == result.n_separated >= 1
        assert result.n_separated + result.n_tied == n
        assert np.isclose(np.linalg.norm(np.append(*result.direction)), 1.0)
    else:
        # overlap: no direction has all margins >= 0 with one > 0; spot-check random directions
        for v in rng.normal(size=(200, d + 1)):
            m = _margins(X, y, (v[:d], v[d]))
            assert not (np.all(m >= 0) and np.any(m > 0))


def test_silencing_convergence_warnings_does_not_silence_separation():
    import warnings

    assert not issubclass(lc.SeparationWarning, lc.ConvergenceWarning)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.simplefilter("ignore", lc.ConvergenceWarning)
        lc.LogisticRegression().fit([[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1])
    assert [w.category for w in caught] == [lc.SeparationWarning]


def test_show_source_is_the_source():
    src = lc.show_source(lc.Perceptron.fit)
    text = repr(src)
    assert text == inspect.cleandoc(text) or text.startswith("def fit(")
    assert text.startswith("def fit(self, X, y")
    assert "w += y_e[i] * X_e[i]" in text
    md = src._repr_markdown_()
    assert md.startswith("```python\ndef fit(") and md.rstrip().endswith("```")
    assert repr(lc.show_source(lc.check_separation)).startswith("def check_separation(")
    assert repr(lc.show_source(lc.Perceptron)).startswith("class Perceptron(")
    with pytest.raises(TypeError, match="Python function"):
        lc.show_source(len)
    with pytest.raises(TypeError, match="Python function"):
        lc.show_source(3)


def test_show_source_follows_the_code(tmp_path, monkeypatch):
    module = tmp_path / "mod_for_source.py"
    module.write_text("def f():\n    return 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    mod = importlib.import_module("mod_for_source")
    assert repr(lc.show_source(mod.f)) == "def f():\n    return 1"
