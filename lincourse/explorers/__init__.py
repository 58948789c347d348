"""Slider explorers for every chapter, all built by one engine (:mod:`lincourse.explorers._engine`).

Each function below takes no required argument and returns an :class:`Explorer`; display it in a
notebook to get live sliders (or, when the book is built, the precomputed player).
"""

from ._engine import Explorer, Param, display_mode
from .geometry import dataset_margin, hyperplane, point_distance, training_error

__all__ = ["Explorer", "Param", "display_mode", "hyperplane", "point_distance", "dataset_margin", "training_error"]

from .perceptron import margin_updates, perceptron_steps  # noqa: E402  (chapter 4)

__all__ += ["perceptron_steps", "margin_updates"]

from . import logistic  # noqa: E402  (chapter 5: explorers and static figures)
from .logistic import gradient_descent, probability_field, sigmoid_fit  # noqa: E402

__all__ += ["sigmoid_fit", "probability_field", "gradient_descent"]
