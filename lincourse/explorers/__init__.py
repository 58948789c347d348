"""Slider explorers for every chapter, all built by one engine (:mod:`lincourse.explorers._engine`).

Each function below takes no required argument and returns an :class:`Explorer`; display it in a
notebook to get live sliders (or, when the book is built, the precomputed player).
"""

from ._engine import Explorer, Param, display_mode
from .geometry import dataset_margin, hyperplane, point_distance, training_error

__all__ = ["Explorer", "Param", "display_mode", "hyperplane", "point_distance", "dataset_margin", "training_error"]
