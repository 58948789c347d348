"""Chapter 10, *Curved boundaries and several classes*: the numbers its prose quotes are what lincourse computes,
the identities it states hold, and its exercise records accept the worked answers and refuse the usual wrong ones.

The chapter rules (one lecture, objectives practised, the four cells of every exercise) are checked for every chapter
by tests/test_chapter_rules.py.
"""

import json
from pathlib import Path

import nbformat
import numpy as np
import pytest
from sklearn.multiclass import OneVsRestClassifier

import lincourse as lc
from lincourse.explorers import logistic as lx

STEM = "10_curved_boundaries_and_classes"
PATH = Path(__file__).resolve().parents[1] / "chapters" / f"{STEM}.ipynb"


def _text():
    """The chapter's markdown and declarations (feedback quotes numbers too) and its printed outputs, whitespace
    collapsed."""
    cells = json.loads(PATH.read_text())["cells"]
    text = "\n".join("".join(c["source"]) for c in cells
                     if c["cell_type"] == "markdown" or "exercise-declaration" in c["metadata"].get("tags", []))
    outputs = "\n".join("".join(o.get("text", "")) for c in cells if c["cell_type"] == "code"
                        for o in c.get("outputs", []))
    return " ".join(text.split()), " ".join(outputs.split())


def _kernel_updates(X, y, max_epochs=100):
    """The kernel perceptron with kappa = (1 + x.z)^2 - 1 and the algorithm's + 1, written independently."""
    G = (1 + X @ X.T) ** 2                                            # kappa + 1
    alpha = np.zeros(len(y))
    for _ in range(max_epochs):
        mistakes = 0
        for i in range(len(y)):
            if y[i] * np.sum(alpha * y * G[:, i]) <= 0:
                alpha[i] += 1
                mistakes += 1
        if mistakes == 0:
            break
    return int(alpha.sum())


def _kernel_alpha(G, y, max_epochs=1000):
    """Algorithm alg-kernel-perceptron on G[j, i] = kappa(x_j, x_i), written independently of the chapter's cell."""
    alpha = np.zeros(len(y), dtype=int)
    for _ in range(max_epochs):
        before = alpha.sum()
        for i in range(len(y)):
            if y[i] * np.dot(alpha * y, G[:, i] + 1) <= 0:
                alpha[i] += 1
        if alpha.sum() == before:
            return alpha
    raise AssertionError("no epoch without a mistake")


def _gaussian(A, B, width):
    d2 = np.sum(A ** 2, axis=1)[:, None] - 2 * A @ B.T + np.sum(B ** 2, axis=1)[None, :]
    return np.exp(-np.maximum(d2, 0) / (2 * width ** 2))


def _feature_margin(Q, y):
    """The largest margin through the origin of points with Gram matrix Q, from a Cholesky-like factor."""
    values, V = np.linalg.eigh(Q)
    L = V * np.sqrt(np.clip(values, 0, None))
    w, _ = lc.max_margin_separator(L, y, fit_intercept=False)
    return np.min(y * (L @ w)) / np.linalg.norm(w)


def _disc():
    rng = np.random.default_rng(0)
    X = rng.uniform(-1.5, 1.5, size=(200, 2))
    X = X[np.abs(np.linalg.norm(X, axis=1) - 1) > 0.15][:60]
    y = np.where(np.linalg.norm(X, axis=1) < 1, 1, -1)
    return X, y


def _numbers():
    X, t = lx.rings_data()
    r2 = np.sum(X ** 2, axis=1)
    radial = lc.LogisticRegression().fit(r2[:, None], t)
    full = lc.LogisticRegression().fit(np.column_stack([X, r2]), t)
    (w1, w2, w3), b = full.coef_, full.intercept_
    centre = -np.array([w1, w2]) / (2 * w3)
    radius = np.sqrt(centre @ centre - b / w3)
    iris = lc.datasets.load_iris()
    Xi, yi = iris.data[:, 2:], iris.target
    ovr = OneVsRestClassifier(lc.LogisticRegression(C=10.0)).fit(Xi, yi)
    soft = lc.LogisticRegression(C=10.0).fit(Xi, yi)
    claims = lx.ovr_claims(ovr, Xi)
    Xd, yd = _disc()
    disc = lc.Perceptron(max_epochs=100).fit(np.c_[np.sqrt(2) * Xd, Xd ** 2, np.sqrt(2) * Xd[:, :1] * Xd[:, 1:]], yd)
    Gd = _gaussian(Xd, Xd, 0.5)
    gauss_alpha = _kernel_alpha(Gd, yd)
    gamma = _feature_margin(Gd + 1, yd)
    x3, y3 = np.array([-1.0, 0.0, 1.0]), np.array([1, -1, 1])
    hand_alpha = _kernel_alpha((1 + np.outer(x3, x3)) ** 2 - 1, y3)
    def hand_score(v):
        return np.sum(hand_alpha * y3 * (1 + x3 * v) ** 2)
    return [
        ("The maximum-likelihood line does no better than chance",
         abs(lc.LogisticRegression().fit(X, t).score(X, t) - 0.5) < 0.02),
        ("classifies two thirds of the points", abs(1 - lc.best_line_on_grid(
            X, 2 * t - 1, np.arange(0, 360, 3.0), np.linspace(-1.5, 1.5, 101))[2] - 2 / 3) < 0.01),
        ("Two hundred points on two noisy rings, 100 on each", len(t) == 200 and t.sum() == 100),
        ("the classes still overlap", lc.check_separation(np.column_stack([X, r2]), t).status == "overlap"),
        ("Set $w_3 = -15$, $b = 9$, near the maximum-likelihood values",
         (round(radial.coef_[0]), round(radial.intercept_)) == (-15, 9)),
        ("close to their middle $0.75$ and to the explorer's $0.763$",
         f"{radius:.3f}" == "0.763" == f"{np.sqrt(-radial.intercept_ / radial.coef_[0]):.3f}"),
        ("a centre within a few hundredths of the origin", np.abs(centre).max() < 0.05),
        ("On 60 points labelled $+1$ inside the unit circle", len(yd) == 60 and not lc.is_linearly_separable(Xd, yd)
         and disc.converged_),
        ("converged True after 11 updates; kernel run: 11 updates", disc.n_updates_ == 11 == _kernel_updates(Xd, yd)),
        ("($d = 2$, 11 updates, kernel", disc.n_updates_ == 11),
        ("at most 11 points have $\\alpha_j > 0$", len({u.index for u in disc.history_}) <= 11),
        ("The run stops after 21 updates, with every training point on its side",
         gauss_alpha.sum() == 21 and np.all(yd * ((Gd + 1) @ (gauss_alpha * yd)) > 0)),
        ("(16 of the 60 here)", np.sum(gauss_alpha > 0) == 16),
        ("which is $2$ for the Gaussian kernel", np.allclose(np.diag(Gd), 1)),
        ("The run made 21 updates, within the bound of about 43", gauss_alpha.sum() == 21 and round(2 / gamma ** 2) == 43),
        ("$\\alpha = (1, 3, 1)$ after five updates", hand_alpha.tolist() == [1, 3, 1]),
        ("so at $x = 0.5$ it is $-0.5$", np.isclose(hand_score(0.5), -0.5)),
        ("No line separates versicolor from the two others", not lc.is_linearly_separable(Xi, np.where(yi == 1, 1, -1))),
        ("about half a million features and some two and a half million multiplications",
         round(1001 * 1002 / 2 / 1e5) == 5 and round((2 * (1000 ** 2 + 1000) + 1001 * 1002 / 2) / 1e5) == 25),
        ("leaves 37 of the 150 flowers unclaimed, 36 of them versicolor, and 16 claimed by several",
         (np.sum(claims == 0), np.sum(claims[yi == 1] == 0), np.sum(claims >= 2)) == (37, 36, 16)),
        ("$0.514$ versicolor against $0.486$ virginica",
         np.round(soft.predict_proba(Xi[[133]])[0], 3).tolist() == [0.0, 0.514, 0.486]),
        ("(37 and 16 of\nthe Iris flowers here)", (np.sum(claims == 0), np.sum(claims >= 2)) == (37, 16)),
        ("the versicolor model claims only 12 of the",
         int(np.sum((ovr.estimators_[1].decision_function(Xi) > 0) & (yi == 1))) == 12 and np.sum(yi == 1) == 50),
        ("The smallest eigenvalue of $G$, $1.46\\times10^{-5}$, is positive",
         f"{np.linalg.eigvalsh(Gd).min():.2e}" == "1.46e-05"),
        ("smallest eigenvalue of G: 1.46e-05", True),
    ]


@pytest.mark.parametrize("quote, holds", _numbers(), ids=lambda v: str(v)[:40] if isinstance(v, str) else "")
def test_the_numbers_the_prose_quotes_are_what_lincourse_computes(quote, holds):
    text, outputs = _text()
    quote = " ".join(quote.split())
    assert quote in text or quote in outputs, f"the chapter no longer says {quote!r}"
    assert holds, f"{quote!r} is no longer what lincourse computes"


def test_the_polynomial_kernel_is_an_inner_product_of_features():
    X, _ = _disc()
    phi = np.c_[np.ones(len(X)), np.sqrt(2) * X, X ** 2, np.sqrt(2) * X[:, :1] * X[:, 1:]]   # phi_2
    np.testing.assert_allclose((1 + X @ X.T) ** 2, phi @ phi.T)
    # the proof's features in any dimension d: 1, sqrt(2) x_j, x_j^2 and sqrt(2) x_j x_k (j < k), which number
    # (d + 1)(d + 2) / 2 and whose inner products are the kernel's
    rng = np.random.default_rng(0)
    for d in range(1, 8):
        P = rng.standard_normal((5, d))
        pairs = [(j, k) for j in range(d) for k in range(j + 1, d)]
        features = np.c_[np.ones(5), np.sqrt(2) * P, P ** 2,
                         np.array([[np.sqrt(2) * p[j] * p[k] for j, k in pairs] for p in P]).reshape(5, len(pairs))]
        assert features.shape[1] == (d + 1) * (d + 2) // 2
        np.testing.assert_allclose(features @ features.T, (1 + P @ P.T) ** 2)


def test_the_kernel_perceptron_makes_the_updates_of_the_perceptron_on_the_features():
    X, y = lc.datasets.make_xor()
    Z = np.column_stack([X, X[:, 0] * X[:, 1]])
    G = Z @ Z.T + 1
    alpha, clean = np.zeros(len(y), dtype=int), False
    while not clean:
        clean = True
        for i in range(len(y)):
            if y[i] * ((alpha * y) @ G[:, i]) <= 0:
                alpha[i] += 1
                clean = False
    explicit = lc.Perceptron().fit(Z, y)
    assert np.array_equal(alpha, np.bincount([u.index for u in explicit.history_], minlength=len(y)))
    np.testing.assert_allclose(explicit.coef_, (alpha * y) @ Z)                  # (perceptron-dual)
    assert explicit.intercept_ == alpha @ y


def test_the_explorer_draws_the_circle_of_the_fit_and_says_when_there_is_none():
    ex = lc.explorers.curved_boundary()
    ex.set(w3=-4.0, b=1.0)
    assert "the circle of radius 0.500" in ex.readout
    ex.set(w3=-4.0, b=-1.0)                    # the chapter: -1 everywhere, 100 mistakes of 200
    assert "none (p < 1/2 everywhere)" in ex.readout and "mistakes = 100 of 200" in ex.readout
    ex.set(w3=2.0, b=1.0)                      # +1 everywhere
    assert "none (p > 1/2 everywhere)" in ex.readout and "mistakes = 100 of 200" in ex.readout
    ex.set(w3=0.0, b=1.0)
    assert "w₃ = 0" in ex.readout
    with pytest.raises(ValueError, match="targets t in"):
        lc.explorers.curved_boundary(np.zeros((3, 2)), np.array([0, 1, 2]))


def test_the_kernel_criterion_check_and_the_gaussian_kernel():
    rng = np.random.default_rng(1)
    P = rng.standard_normal((8, 3))
    assert np.linalg.eigvalsh(2 + (P @ P.T) ** 2).min() > -1e-9                 # B: a kernel
    assert np.zeros(3) @ np.zeros(3) - 1 < 0                                     # A: the Gram matrix [-1] at 0
    D = np.sum((P[:2, None] - P[None, :2]) ** 2, axis=2)                          # C on two points
    assert np.linalg.det(D) < 0
    assert np.linalg.eigvalsh(_gaussian(P, P, 0.7)).min() > -1e-12             # Gaussian Gram matrices are PSD


def test_the_two_readings_of_the_scores_2_1_1():
    assert f"{lc.softmax(np.array([[2.0, 1.0, 1.0]]))[0, 0]:.2f}" == "0.58"   # option B and the solution's print
    assert f"{lc.sigmoid(2.0):.2f}" == "0.88"                                 # option A


def test_softmax_with_two_classes_is_the_logistic_model():
    s = np.array([[0.3, -1.2], [2.0, 0.5]])
    np.testing.assert_allclose(lc.softmax(s)[:, 1], lc.sigmoid(s[:, 1] - s[:, 0]))


@pytest.mark.parametrize("key, right, wrong", [
    ("q-feature-map-shapes", "B", "A"),
    ("q-feature-map-shapes", "B", "C"),
    ("ex-logistic-feature-map", 0.935, 0.505),
    ("ex-perceptron-xor-feature", 29, 28),
    ("q-logistic-ovr-line", "B", "A"),
    ("q-softmax-reading", "B", "A"),
    ("q-softmax-reading", "B", "C"),
    ("ex-logistic-softmax-gradient", [-0.667, -1.33], [0.667, 1.33]),
    ("q-curved-warmup-update", "A", "B"),
    ("q-curved-warmup-bound", "A", "B"),
    ("q-curved-warmup-bound", "A", "C"),
    ("q-kernel-criterion", "B", "A"),
    ("q-kernel-criterion", "B", "C"),
    ("ex-kernel-by-hand", -0.5, 1.5),       # stopped after one epoch: alpha = (1, 1, 1)
    ("ex-kernel-by-hand", -0.5, 0.5),       # the +1 of the score forgotten
    ("ex-kernel-by-hand", -0.5, 5.5),       # the labels forgotten
    ("ex-kernel-by-hand", -0.5, 0),         # a score of 0 not counted as a mistake
    ("ex-perceptron-xor-feature", 29, 12),  # the epochs
])
def test_exercise_records_accept_the_worked_answers(key, right, wrong, capsys):
    from lincourse.exercises import check

    assert check(key, right)
    assert not check(key, wrong)


def test_the_chapter_is_stored_executed():
    nb = nbformat.read(PATH, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code" and "lincourse-setup" not in c.metadata.get("tags", [])]
    assert all(c.execution_count for c in code)

