"""Self-checks for the exercises of chapter 3 (*Training error and linear separability*).

Every expected value is computed with lincourse, so the solution never appears in the notebook.
"""

from __future__ import annotations

import itertools

import numpy as np

from .. import geometry as G
from ..datasets import load_credit, make_xor
from . import register, register_question


def _xor_best_error():
    X, y = make_xor()
    # Centre the square so that offsets in [-1, 1] reach every line that meets it.
    grid = G.training_error_landscape(X - 0.5, y, np.arange(0.0, 360.0, 1.0), np.linspace(-1.0, 1.0, 201))
    return float(grid.min())


def _best_offset_reference():
    def best_offset(X, y, theta):
        # E_in only changes when the line crosses a point: try one offset in every gap, and both ends.
        s = np.sort(np.asarray(X, dtype=float) @ np.asarray(theta, dtype=float))
        cuts = np.concatenate([[s[0] - 1.0], (s[:-1] + s[1:]) / 2.0, [s[-1] + 1.0]])
        return min(G.training_error(X, y, theta, -c) for c in cuts)
    return best_offset


def _credit_best_through_mean():
    X, y = load_credit(return_X_y=True)
    Z = (X - X.mean(axis=0)) / X.std(axis=0)  # the explorer's sliders act on standardised features
    # b = 0: lines through the average applicant; E_in changes only where theta is perpendicular to a z_i,
    # so one angle inside each arc between those critical angles covers every line (and every slider angle).
    normals = np.degrees(np.arctan2(Z[:, 1], Z[:, 0]))
    critical = np.sort(np.r_[normals + 90.0, normals - 90.0] % 360.0)
    between = (critical + np.r_[critical[1:], critical[0] + 360.0]) / 2.0
    return float(G.training_error_landscape(Z, y, between, [0.0]).min())


def _separable_through_origin():
    X, y = load_credit(return_X_y=True)
    kept = y * G.decision_function(X, [0.5, 1.0], -75.0) > 0  # the applicants the rule gets right
    Xx, yx = make_xor()
    sets = {"A": (X[kept], y[kept]), "B": (G.augment(X[kept]), y[kept]), "C": (G.augment(Xx), yx)}
    # Through the origin, (separability-lp) has rows y_i x_i and no column of ones.
    return {name for name, (Xs, ys) in sets.items() if G._margin_one_point(ys[:, None] * Xs) is not None}


def _lifted_square_dichotomies():
    X, _ = make_xor()
    lifted = np.column_stack([X, X[:, 0] * X[:, 1]])
    return sum(G.is_linearly_separable(lifted, np.array(labels))
               for labels in itertools.product([-1, 1], repeat=len(X)))


register("ex-training-xor", _xor_best_error,
         "no line gets all four XOR points right; how many can one line get right?")
_rng = np.random.default_rng(7)
_cases = [(np.array([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [3.0, 0.0]]), np.array([-1, 1, -1, 1]), np.array([1.0, 0.0])),
          (np.array([[1.0, 2.0], [2.0, 1.0], [3.0, 3.0]]), np.array([1, 1, -1]), np.array([-1.0, -1.0])),
          (_rng.standard_normal((15, 2)), np.where(_rng.standard_normal(15) > 0, 1, -1), np.array([0.6, -0.8])),
          (np.array([[1.0, 0.0], [1.0, 0.0]]), np.array([1, -1]), np.array([1.0, 0.0]))]
register("ex-training-best-offset", _best_offset_reference,
         "sort the projections theta . x_i; E_in can only change where -b crosses one of them, so one "
         "offset per gap (and one beyond each end) is enough.", kind="function", cases=_cases)
register("ex-training-credit", _credit_best_through_mean,
         "keep b = 0 and turn the angle through all its positions; answer with the smallest E_in as a fraction "
         "(mistakes / 40).")
register("ex-training-origin", _separable_through_origin,
         "with b = 0 the unknowns are theta alone: drop the column of ones from the rows y_i (x_i, 1), run the "
         "linear program on each set, and answer with a set of letters such as {'A'}.", kind="choice")
register("ex-training-lift", _lifted_square_dichotomies,
         "add the product feature x1 * x2 and ask lc.is_linearly_separable about all 16 labellings.")


register_question(
    "q-error-gradient",
    "Why is the training error E_in(θ, b) not minimised by gradient descent?",
    [
        ("Its gradient exists but costs too much to compute.", False,
         "The difficulty is not cost: where the gradient exists it is the zero vector."),
        ("It is piecewise constant: its gradient is 0 wherever it exists, and it jumps where a "
         "point crosses the boundary.", True,
         "Away from the jumps, a small change of the weights moves no point across the boundary, so E_in does not "
         "change; the gradient gives no direction to follow."),
        ("It has no lower bound.", False,
         "E_in is a fraction of the points, between 0 and 1."),
    ],
)

register_question(
    "q-error-values",
    "A training set has N points. Which values can the training error take?",
    [
        ("Any number between 0 and 1.", False,
         "E_in is a number of mistakes divided by N, so it is a multiple of 1/N (though one move of the line "
         "can change it by several such steps)."),
        ("Only 0 and 1.", False,
         "That is the 0-1 loss of a single point; E_in averages it over the N points."),
        ("Only the multiples of 1/N from 0 to 1.", True,
         "E_in is the number of mistakes divided by N: k / N for some k = 0, 1, ..., N."),
    ],
)

register_question(
    "q-surrogate-bound",
    "Which loss of one point is at least the 0-1 loss 1{m ≤ 0} at every margin m = y (θ·x + b)?",
    [
        ("The perceptron loss max(0, -m).", False,
         "At m = 0 it is 0 while the 0-1 loss is 1, and for -1 < m < 0 it is below 1: it is convex, but no "
         "upper bound."),
        ("The hinge loss max(0, 1 - m).", True,
         "For m ≤ 0, 1 - m ≥ 1; for m > 0 the 0-1 loss is 0 and the hinge loss is never negative. So the "
         "average hinge loss bounds E_in from above."),
        ("The logistic loss with the natural logarithm, ln(1 + e^(-m)).", False,
         "At m = 0 it is ln 2 ≈ 0.693, below 1. Divided by ln 2 (the logistic loss in bits) it is an upper "
         "bound."),
    ],
)

register_question(
    "q-heldout-optimism",
    "Among many lines you choose the one with the fewest mistakes on 40 training points; its E_in is 0.05. "
    "What do you expect of its error rate on new points from the same population?",
    [
        ("About 0.05: the training error is an unbiased estimate of it.", False,
         "That holds for a classifier fixed before the data were seen. This one was selected for its small "
         "E_in on these very points, so its E_in is biased downwards."),
        ("Probably larger; its error on held-out points, which played no part in the choice, estimates it.", True,
         "For the held-out points the chosen line is fixed in advance, so the fraction of them it gets wrong is "
         "an unbiased estimate of its error rate on new points."),
        ("Smaller than 0.05, since the chosen line is the best one.", False,
         "It is the best on the training points, not on the population: in the chapter's experiment its "
         "held-out error was larger than its E_in on 19 of the 20 data sets."),
    ],
)
