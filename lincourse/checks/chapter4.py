"""Self-checks for the exercises of chapter 4 (*The perceptron and its convergence*).

Every expected value is computed with lincourse, so the solution never appears in the notebook.
"""

from __future__ import annotations

import warnings

import numpy as np

from ..datasets import make_separable, make_xor
from ..geometry import augment
from ..perceptron import Perceptron
from . import register, register_question

#: The point, label, weights and R^2 of exercise ex-perceptron-gain.
GAIN_POINT, GAIN_LABEL, GAIN_W, GAIN_B, GAIN_R2 = np.array([3.0, -1.0]), -1, np.array([1.0, 2.0]), 0.5, 16.0


#: The sequence, reference direction and target margin of exercise ex-perceptron-freund-schapire.
FS_X, FS_Y, FS_U, FS_GAMMA = np.array([[1.0], [2.0], [-1.0], [0.5]]), np.array([1, 1, -1, -1]), np.array([1.0]), 0.5


def _gain():
    # apply one update of alg-perceptron-radius and read the new margin of the corrected point
    w = GAIN_W + GAIN_LABEL * GAIN_POINT
    b = GAIN_B + GAIN_LABEL * GAIN_R2
    return GAIN_LABEL * (w @ GAIN_POINT + b)


def _learning_rate():
    # w_k(eta) = eta w_k(1) and b_k(eta) = eta b_k(1): the signs of all scores, hence every mistake,
    # every prediction and the boundary itself, are those of eta = 1; only the scale of (w, b) changes.
    return {"weights"}


def _perceptron_reference():
    def perceptron_origin(X, y, max_epochs=100):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return Perceptron(fit_intercept=False, max_epochs=max_epochs).fit(X, y).coef_
    return perceptron_origin


def _origin_cases():
    cases = []
    for seed, d in ((0, 2), (1, 3), (2, 5)):
        X, y = make_separable(25, d=d, margin=0.05, random_state=seed)
        cases.append((augment(X), y))  # separable through the origin in one more dimension
    return cases


def _freund_schapire():
    from ..perceptron import freund_schapire_bound

    return freund_schapire_bound(FS_X, FS_Y, FS_U, fit_intercept=False, gamma=FS_GAMMA)


def _increasing_steps():
    from ..explorers.perceptron import margin_sweep

    runs = margin_sweep()
    return [a["margin"] for a, b in zip(runs, runs[1:]) if b["n_updates"] > a["n_updates"]]


def _xor_product_feature():
    X, y = make_xor()
    Z = np.column_stack([X, X[:, 0] * X[:, 1]])
    return Perceptron().fit(Z, y).n_updates_


register("ex-perceptron-gain", _gain,
         "expand y (w' . x + b') with w' = w + y x and b' = b + y R^2, and use y^2 = 1.")
register("ex-perceptron-learning-rate", _learning_rate,
         "show by induction that (w_k, b_k) with step eta is eta times the one with step 1; then ask which of "
         "the listed things depend on the scale of (w, b). Answer with a set of names such as {'boundary'}.",
         kind="choice")
register("ex-perceptron-from-scratch", _perceptron_reference,
         "start from w = 0, visit the rows in order, treat y (w . x) <= 0 as a mistake, and stop after the "
         "first pass without one; return the weight vector.",
         kind="function", cases=_origin_cases())
register("ex-perceptron-freund-schapire", _freund_schapire,
         "R is the largest |x|; each deficit is max(0, gamma - y u x); D is the root of the sum of their squares; "
         "the bound is ((R + D) / gamma)^2.")
register("ex-perceptron-margin-steps", _increasing_steps,
         "move the requested-margin slider one step at a time and compare the 'updates made' line of two neighbouring "
         "readouts; answer with a sorted list of margins, e.g. [0.1, 0.3].",
         kind="array")
register("ex-perceptron-xor-feature", _xor_product_feature,
         "append the column x1 * x2 to the XOR points and fit lc.Perceptron() with its default settings.",
         digits=None, atol=0.0)  # a count of updates: exact


register_question(
    "q-perceptron-scaling",
    "For the perceptron through the origin, Novikoff's theorem bounds the number of updates by "
    "(R/γ)². Every point is multiplied by 10. What happens to the bound?",
    [
        ("It is multiplied by 100.", False,
         "R² is multiplied by 100, but so is γ²."),
        ("Nothing: R and γ are both multiplied by 10.", True,
         "R = max ||x⁽ⁱ⁾|| and the margin γ = min y⁽ⁱ⁾ (w*·x⁽ⁱ⁾) / ||w*|| scale alike. (The run "
         "itself is the same too: every weight vector it visits is 10 times larger.)"),
        ("It is divided by 100.", False,
         "γ² is multiplied by 100, but so is R²."),
    ],
)

register_question(
    "q-perceptron-nonseparable",
    "The training data are not linearly separable. What does the plain perceptron do?",
    [
        ("It converges to the weights with the fewest training mistakes.", False,
         "The plain perceptron keeps no memory of good weights; the pocket algorithm is the "
         "variant that does."),
        ("It stops with an error after the first epoch.", False,
         "Nothing in the update rule detects non-separability; only the epoch limit stops it."),
        ("It keeps making mistakes in every epoch, so it stops only at max_epochs, with weights "
         "that depend on when it stopped.", True,
         "Every pass meets a mistake and updates; lincourse warns when max_epochs is reached. The "
         "pocket and averaged perceptrons are two remedies."),
    ],
)

register_question(
    "q-perceptron-tight",
    "The perceptron through the origin, from w = 0, runs on the d standard basis vectors e_1, ..., e_d, all "
    "labelled +1. How many updates does it make, and what is Novikoff's bound (R/γ)² with the best separator?",
    [
        ("One update; the bound is d.", False,
         "After the first update w = e_1, whose score on e_2 is 0: a mistake. Every basis vector needs its own "
         "update."),
        ("d updates; the bound is d², so it is loose by a factor d.", False,
         "R = 1 and the best unit separator (1, ..., 1)/√d has margin γ = 1/√d, so (R/γ)² = d."),
        ("d updates, and the bound is d: here the bound is attained.", True,
         "Each e_i is a mistake on its first visit (its score is 0), after which w = (1, ..., 1) separates the "
         "data. With R = 1 and γ = 1/√d the bound is exactly d, so no smaller multiple of (R/γ)² can be a bound."),
    ],
)
