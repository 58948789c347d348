"""Self-checks for the exercises of chapter 2 (*Signed distance and margins*).

Every expected value is computed with lincourse, so the solution never appears in the notebook.
"""

from __future__ import annotations

import numpy as np

from .. import geometry as G
from ..datasets import make_separable
from ..explorers.geometry import unit_vector
from . import register


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
