"""Self-checks for the exercises of chapter 2 (*Signed distance and margins*).

Every expected value is computed with lincourse, so the solution never appears in the notebook.
"""

from __future__ import annotations

import numpy as np

from .. import geometry as G
from ..datasets import make_separable
from ..explorers.geometry import unit_vector
from . import register, register_question


def _plane_distance():
    return G.signed_distance([2.0, -1.0, 3.0], [2.0, -1.0, 2.0], -4.0)


def _margins_reference():
    def point_margins(X, y, w, b):
        return np.asarray(y, dtype=float) * G.signed_distance(X, w, b)
    return point_margins


def _best_angle_at_zero_offset():
    X, y = make_separable(20, margin=0.25, random_state=3)
    X = 2.0 * X
    angles = np.arange(0, 360, 5)
    margins = [G.geometric_margin(X, y, unit_vector(a), 0.0) for a in angles]
    return float(angles[int(np.argmax(margins))])


def _two_point_margin():
    x_pos, x_neg = np.array([2.0, 1.0]), np.array([-1.0, -3.0])
    w = x_pos - x_neg
    b = -w @ (x_pos + x_neg) / 2.0
    return G.geometric_margin(np.vstack([x_pos, x_neg]), [1, -1], w, b)


register("ex-distance-plane", _plane_distance,
         "write the plane as theta . x + b = 0 (move the 4 to the left-hand side) and use (signed-distance).")
_cases = [(np.array([[1.0, 2.0], [-1.0, 0.5], [0.0, 0.0]]), np.array([1, -1, 1]), np.array([2.0, -1.0]), 0.5),
          (np.array([[3.0, 0.0, 1.0], [0.0, 1.0, -2.0]]), np.array([-1, 1]), np.array([0.0, 3.0, 4.0]), -1.0)]
register("ex-distance-margins", _margins_reference,
         "each entry is y_i (w . x_i + b) / ||w||: a vector with one margin per point, not the minimum.",
         kind="function", cases=_cases)
register("ex-distance-best-angle", _best_angle_at_zero_offset,
         "keep b = 0 and sweep the angle; the geometric margin printed in the readout rises, then falls.")
register("ex-distance-two-points", _two_point_margin,
         "the best line is the perpendicular bisector of the segment; its margin is half the segment's length.")


register_question(
    "q-distance-sign",
    "The signed distance of x to the hyperplane θ·x + b = 0 is (θ·x + b) / ||θ||. What does its "
    "sign tell you?",
    [
        ("Whether x is classified correctly.", False,
         "That needs the label as well: y (θ·x + b) / ||θ|| is positive exactly when x is on its "
         "own side."),
        ("Nothing: distances are never negative.", False,
         "The distance is the absolute value, |θ·x + b| / ||θ||; the signed distance keeps the side."),
        ("Which side of the hyperplane x lies on: positive on the side that θ points to.", True,
         "Moving from the hyperplane along θ increases θ·x + b, so that side has positive scores."),
    ],
)

register_question(
    "q-distance-margin",
    "The geometric margin of a separating hyperplane is the smallest y⁽ⁱ⁾ (θ·x⁽ⁱ⁾ + b) / ||θ||. If θ and b "
    "are both doubled, the geometric margin...",
    [
        ("doubles.", False,
         "The functional margin the smallest y⁽ⁱ⁾ (θ·x⁽ⁱ⁾ + b) doubles; dividing by ||θ|| removes the scale."),
        ("stays the same.", True,
         "The numerator and ||θ|| are both doubled: the hyperplane, and the distances of the "
         "points to it, have not changed."),
        ("halves.", False,
         "||θ|| doubles, but so does every score y⁽ⁱ⁾ (θ·x⁽ⁱ⁾ + b)."),
    ],
)
