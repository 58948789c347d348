"""Shipped data and seeded generators."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import lincourse as lc

ROOT = Path(__file__).resolve().parents[1]


def test_iris_matches_the_classic_data():
    from sklearn.datasets import load_iris

    X, y = lc.datasets.load_iris(return_X_y=True)
    ref = load_iris()
    np.testing.assert_array_equal(X, ref.data)
    np.testing.assert_array_equal(y, ref.target)
    bunch = lc.datasets.load_iris()
    assert list(bunch.target_names) == ["setosa", "versicolor", "virginica"]
    assert bunch.data.shape == (150, 4) and len(bunch.feature_names) == 4


def test_breast_cancer_matches_the_classic_data():
    from sklearn.datasets import load_breast_cancer

    X, y = lc.datasets.load_breast_cancer(return_X_y=True)
    ref = load_breast_cancer()
    np.testing.assert_array_equal(X, ref.data)
    np.testing.assert_array_equal(y, ref.target)
    assert X.shape == (569, 30)


def test_credit_is_documented_and_regenerates():
    credit = lc.datasets.load_credit()
    assert credit.data.shape == (40, 2) and credit.feature_names == ["age", "salary"]
    assert set(np.unique(credit.target)) == {-1, 1}
    assert not lc.is_linearly_separable(credit.data, credit.target)
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "make_credit_data.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("margin", [0.01, 0.1, 0.5])
@pytest.mark.parametrize("d", [1, 2, 10])
def test_make_separable(margin, d):
    X, y, (w, b) = lc.datasets.make_separable(80, d=d, margin=margin, random_state=0, return_separator=True)
    assert X.shape == (80, d) and set(np.unique(y)) == {-1, 1}
    assert np.linalg.norm(w) == pytest.approx(1.0)
    assert np.min(y * (X @ w + b)) >= margin
    X2, y2 = lc.datasets.make_separable(80, d=d, margin=margin, random_state=0)
    np.testing.assert_array_equal(X, X2)


def test_make_overlapping_and_xor():
    X, y = lc.datasets.make_overlapping(101, d=3, separation=0.5, random_state=1)
    assert X.shape == (101, 3) and (y == 1).sum() == 51
    assert not lc.is_linearly_separable(X, y)
    X, y = lc.datasets.make_xor(n_per_corner=5, noise=0.05, random_state=0)
    assert X.shape == (20, 2) and not lc.is_linearly_separable(X, y)


def test_generator_bad_input():
    with pytest.raises(ValueError, match="margin"):
        lc.datasets.make_separable(10, margin=0.8)
    with pytest.raises(ValueError, match="margin"):
        lc.datasets.make_separable(10, margin=-0.1)
    with pytest.raises(ValueError, match="n_samples"):
        lc.datasets.make_separable(10.5)
    with pytest.raises(ValueError, match="n_samples"):
        lc.datasets.make_overlapping(1)
