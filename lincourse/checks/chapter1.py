"""Self-checks for the exercises of chapter 1 (*Hyperplanes and linear classifiers*).

Every expected value is computed with lincourse, so the solution never appears in the notebook.
"""

from __future__ import annotations

import itertools

import numpy as np

from .. import geometry as G
from ..explorers.geometry import DEMO_POINTS, unit_vector
from . import register, register_question


def _origin_distance():
    return G.distance_from_origin([1.0, 2.0, 2.0], 6.0)


def _threshold_reference():
    def predict_threshold(X, w, tau):
        # Threshold convention: x0 = 1 and w0 = -tau, a classifier through the origin in R^(d+1).
        return G.predict(G.augment(X), np.r_[-float(tau), np.asarray(w, dtype=float)])
    return predict_threshold


def _kept_after_turn():
    before = G.predict(DEMO_POINTS, unit_vector(30), 0.5)
    after = G.predict(DEMO_POINTS, unit_vector(210), 0.5)
    return {f"x{k}" for k in np.flatnonzero(before == after) + 1}


def _square_dichotomies():
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    return sum(G.is_linearly_separable(X, np.array(labels))
               for labels in itertools.product([-1, 1], repeat=len(X)))


register("ex-hyperplanes-origin", _origin_distance,
         "divide minus the offset by the Euclidean norm of theta; mind the sign.")
register("ex-hyperplanes-threshold", _threshold_reference,
         "augment X with a column of ones and put w0 = -tau in front of w; a score of 0 predicts -1.",
         kind="function",
         cases=[(np.array([[0.0, 0.0], [1.0, 2.0], [3.0, -1.0]]), np.array([1.0, 1.0]), 1.0),
                (np.array([[2.0, 1.0], [0.5, 0.5], [-1.0, 4.0]]), np.array([-1.0, 2.0]), 0.5),
                (np.array([[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]]), np.array([1.0, 0.0, 1.0]), -0.5)])
register("ex-hyperplanes-turn", _kept_after_turn,
         "compare the predictions printed at angle 30 and at angle 210 (b = 0.5) point by point; "
         "answer with a set of names such as {'x1', 'x4'}.", kind="choice")
register("ex-hyperplanes-dichotomies", _square_dichotomies,
         "go through all 2^4 labellings and ask lc.is_linearly_separable about each.")


register_question(
    "q-hyperplanes-scaling",
    "A classifier predicts sign(θ·x + b). Both θ and b are multiplied by 3. What happens to the "
    "decision boundary?",
    [
        ("It moves three times farther from the origin.", False,
         "Its distance from the origin is |b| / ||θ||, and both |b| and ||θ|| are multiplied by 3."),
        ("It turns, because θ has changed.", False,
         "The boundary is perpendicular to θ, and a positive factor does not change θ's direction."),
        ("Nothing: it is the same hyperplane, and every prediction is unchanged.", True,
         "Every score is multiplied by 3, so no score changes sign, and θ·x + b = 0 holds for the "
         "same points as before."),
        ("Every prediction flips.", False,
         "Only a negative factor changes the sign of the scores."),
    ],
)

register_question(
    "q-hyperplanes-boundary",
    "A point x lies exactly on the boundary: θ·x + b = 0. What does lincourse's predict return "
    "for it, and how does the training error treat it?",
    [
        ("+1, and it is a mistake only if its label is -1.", False,
         "A score must be strictly positive for the prediction +1."),
        ("-1, and it is a mistake only if its label is +1.", False,
         "The course counts y (θ·x + b) <= 0 as a mistake: a point on the boundary is not on "
         "either side, so it is a mistake for both labels."),
        ("0, and it is left out of the training error.", False,
         "Predictions are always +1 or -1, and every point counts in the training error."),
        ("-1, and the training error counts it as a mistake whatever its label.", True,
         "predict gives -1 to a score of 0 (as scikit-learn does), and a point is a mistake when "
         "y (θ·x + b) <= 0, which a score of 0 satisfies for both labels."),
    ],
)
