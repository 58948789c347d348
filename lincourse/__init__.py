"""lincourse: the library behind the course *Linear classification, interactively*.

Every public name is re-exported here; each module names the chapter it serves.

* :mod:`lincourse.geometry` - chapters 1-3: scores, predictions, signed distances, margins, E_in.
* :mod:`lincourse.losses` - chapter 3: the 0-1 loss and its surrogates; chapter 7: sigmoid,
  cross-entropy; chapter 10: softmax.
* :mod:`lincourse.perceptron` - chapters 5 and 6: the perceptron, its variants and its mistake bound.
* :mod:`lincourse.logistic` - chapters 7-10: logistic regression.
* :mod:`lincourse.separation` - chapter 8: does the maximum-likelihood estimate exist?
* :mod:`lincourse.metrics` - chapter 9: calibration table.

Splits, folds, scaling and cross-validation are scikit-learn's: the learners are scikit-learn estimators.
* :mod:`lincourse.datasets` - shipped data and seeded generators.
* :mod:`lincourse.plotting` - the one plotting vocabulary of the course's figures.
* :mod:`lincourse.explorers` - the slider explorers, all built by one engine.
* :mod:`lincourse.exercises` - exercises declared once: checked in notebooks, answer boxes on the website, graded, in the answer key (hashes only, never an answer).
"""

from importlib import metadata as _metadata

from . import datasets, exercises, explorers, plotting
from ._source import show_source
from ._validation import ConvergenceWarning, InvalidParameterError, NotFittedError, SeparationWarning
from .geometry import (
    augment,
    best_line_on_grid,
    decision_function,
    distance_from_origin,
    functional_margin,
    geometric_margin,
    is_linearly_separable,
    predict,
    project_onto_hyperplane,
    signed_distance,
    training_error,
    training_error_landscape,
    unit_normal_form,
)
from .logistic import LogisticRegression, gradient_descent_path
from .losses import (
    cross_entropy,
    logistic_gradient,
    logistic_hessian,
    logistic_loss,
    margin_losses,
    sigmoid,
    softmax,
)
from .kernel import KernelPerceptron, gaussian_kernel, quadratic_kernel
from .metrics import calibration_table
from .perceptron import (
    AveragedPerceptron,
    Perceptron,
    PocketPerceptron,
    freund_schapire_bound,
    max_margin_separator,
    mistake_bound,
    tightest_mistake_bound,
)
from .separation import check_separation

try:  # written once, in pyproject.toml; an installed lincourse knows its own version
    __version__ = _metadata.version("lincourse")
except _metadata.PackageNotFoundError:  # imported from a source tree that was never installed
    __version__ = "0+unknown"

__all__ = [
    # packages
    "datasets",
    "exercises",
    "explorers",
    "plotting",
    # errors and warnings
    "ConvergenceWarning",
    "InvalidParameterError",
    "NotFittedError",
    "SeparationWarning",
    # reading the library's own code
    "show_source",
    # chapters 1-3: geometry and the training error
    "augment",
    "best_line_on_grid",
    "decision_function",
    "distance_from_origin",
    "functional_margin",
    "geometric_margin",
    "is_linearly_separable",
    "margin_losses",
    "predict",
    "project_onto_hyperplane",
    "signed_distance",
    "training_error",
    "training_error_landscape",
    "unit_normal_form",
    # chapters 5 and 6: the perceptron
    "AveragedPerceptron",
    "Perceptron",
    "PocketPerceptron",
    "freund_schapire_bound",
    "max_margin_separator",
    "mistake_bound",
    "tightest_mistake_bound",
    # chapter 10: the kernel perceptron
    "KernelPerceptron",
    "gaussian_kernel",
    "quadratic_kernel",
    # chapters 7-10: logistic regression
    "LogisticRegression",
    "calibration_table",
    "check_separation",
    "cross_entropy",
    "gradient_descent_path",
    "logistic_gradient",
    "logistic_hessian",
    "logistic_loss",
    "sigmoid",
    "softmax",
]
