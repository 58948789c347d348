"""Slider explorers for every chapter, all built by one engine (:mod:`lincourse.explorers._engine`).

Each function below takes no required argument and returns an :class:`Explorer`; display it in a
notebook to get live sliders (or, when the book is built, the precomputed player). The chapter
modules (:mod:`.geometry`, :mod:`.perceptron`, :mod:`.logistic`) also hold the chapter's static
figures.
"""

from . import geometry, logistic, perceptron
from ._engine import Explorer, Param, display_mode
from .geometry import dataset_margin, hoeffding, hyperplane, point_distance, training_error
from .logistic import curved_boundary, gradient_descent, probability_field, sigmoid_fit, threshold_roc
from .perceptron import margin_updates, nonseparable_steps, perceptron_steps

__all__ = [
    "Explorer",
    "Param",
    "display_mode",
    # chapters 1-3
    "hyperplane",
    "point_distance",
    "dataset_margin",
    "training_error",
    # chapter 4: generalisation
    "hoeffding",
    # chapters 5 and 6
    "perceptron_steps",
    "margin_updates",
    "nonseparable_steps",
    # chapters 7-9
    "sigmoid_fit",
    "probability_field",
    "gradient_descent",
    "threshold_roc",
    # chapter 10
    "curved_boundary",
]
