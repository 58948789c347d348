"""Self-checks for the exercises of chapter 5 (*Logistic regression*).

Every expected value is computed with lincourse, so the solution never appears in the notebook.
The breast-cancer exercises use the chapter's split and standardisation: scikit-learn's
``train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)`` and a ``StandardScaler``
fitted on the training part.
"""

from __future__ import annotations

import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

from ..datasets import load_breast_cancer
from ..explorers.logistic import demo_data
from ..geometry import augment
from ..logistic import LogisticRegression, gradient_descent_path
from ..losses import logistic_gradient
from . import register, register_question

#: The point, label and weights of the gradient exercise.
GRADIENT_POINT = {"x": np.array([1.0, 2.0]), "y": -1, "w": np.array([0.5, -0.25]), "b": 0.1}
#: Costs of the threshold exercise: a missed malignant tumour costs this many false alarms.
MISSED_MALIGNANT_COST = 5.0
#: The three data sets of exercise ex-logistic-separation: points on a line and their labels.
SEPARATION_SETS = {"A": ([0.0, 1.0, 2.0, 3.0], [-1, 1, -1, 1]),
                   "B": ([0.0, 1.0, 2.0, 3.0], [-1, -1, 1, 1]),
                   "C": ([0.0, 1.0, 1.0, 2.0], [-1, -1, 1, 1])}


def _breast_cancer(columns=slice(None)):
    X, y = load_breast_cancer(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X[:, columns], y, test_size=0.3, random_state=0,
                                                        stratify=y)
    scaler = StandardScaler().fit(X_train)
    return scaler.transform(X_train), scaler.transform(X_test), y_train, y_test


def _gradient():
    g = GRADIENT_POINT
    g_b, *g_w = logistic_gradient(augment(g["x"][None, :]), [(g["y"] + 1) / 2], np.r_[g["b"], g["w"]])
    return np.r_[g_w, g_b]


def _mean_features_accuracy():
    X_train, X_test, y_train, y_test = _breast_cancer(slice(0, 10))
    return LogisticRegression(C=1.0).fit(X_train, y_train).score(X_test, y_test)


def _largest_monotone_rate():
    X, y = demo_data()
    best = None
    for v in np.round(np.arange(-1.5, 1.5001, 0.1), 1):
        losses = gradient_descent_path(X, y, 10.0 ** v, 100)[2]
        if np.all(np.diff(losses) <= 1e-12):
            best = 10.0 ** v
    return best


def _sets_with_an_mle():
    from ..separation import check_separation

    return {name for name, (x, y) in SEPARATION_SETS.items()
            if check_separation(np.array(x)[:, None], y).mle_exists}


def _missed_at_cost_threshold():
    X_train, X_test, y_train, y_test = _breast_cancer()
    p_malignant = LogisticRegression(C=1.0).fit(X_train, y_train).predict_proba(X_test)[:, 0]
    threshold = 1.0 / (1.0 + MISSED_MALIGNANT_COST)  # predict malignant when 5 p > 1 - p
    return int(np.sum((y_test == 0) & (p_malignant <= threshold)))


register("ex-logistic-gradient", _gradient,
         "the gradient of log(1 + exp(-y s)) is (sigmoid(s) - t) times (x, 1), with t = (y + 1) / 2; "
         "answer with the three numbers [d/dw1, d/dw2, d/db].", kind="array")
register("ex-logistic-features", _mean_features_accuracy,
         "use columns 0 to 9 of the data, the chapter's split (test_size=0.3, random_state=0, stratify=True), "
         "a Standardizer fitted on the training part only, and LogisticRegression(C=1); answer the test accuracy.")
register("ex-logistic-learning-rate", _largest_monotone_rate,
         "set the iteration slider to 100 and move the learning rate up one step at a time; the readout counts "
         "the steps that increased the loss. Answer the learning rate itself, as printed.")
register("ex-logistic-separation", _sets_with_an_mle,
         "for each data set, look for a nonzero (w, b) with y_i (w x_i + b) >= 0 for every point; if there is one, "
         "the maximum-likelihood estimate does not exist. Answer with a set of letters, e.g. {'A', 'B'}.",
         kind="choice")
register("ex-logistic-threshold", _missed_at_cost_threshold,
         "predict malignant when the expected cost of saying benign, 5 P(malignant | x), exceeds that of saying "
         "malignant, 1 - P(malignant | x); then count malignant test tumours (y = 0) still predicted benign.",
         digits=None, atol=0.0)


register_question(
    "q-logistic-zero-score",
    "A logistic-regression model gives a point the score s = w·x + b = 0. What probability of "
    "class 1 does it predict?",
    [
        ("0", False, "The sigmoid never reaches 0 or 1; at s = 0 it is exactly halfway."),
        ("1", False, "The sigmoid never reaches 0 or 1; at s = 0 it is exactly halfway."),
        ("1/2", True, "The sigmoid of 0 is 1 / (1 + e^0) = 1/2: the point is on the boundary."),
    ],
)

register_question(
    "q-logistic-separable",
    "The training data are linearly separable and there is no penalty (C = inf). What happens "
    "when Newton's method maximises the likelihood?",
    [
        ("It converges in a few iterations, as on overlapping data.", False,
         "Newton's fast convergence needs a minimiser to converge to, and there is none here."),
        ("The likelihood has no maximum: the loss keeps falling as ||w|| grows, so the fit stops "
         "(at its iteration limit, or once the loss is within its tolerance of 0) with a warning.", True,
         "Scaling a separating w up makes every probability closer to its label, so the loss "
         "tends to 0 without reaching it, and no stopping point is a minimiser; a finite C restores one."),
        ("The fitted model makes training mistakes.", False,
         "The weights separate the training data, so the training error is 0; it is the "
         "probabilities that become extreme."),
    ],
)

register_question(
    "q-logistic-quasi",
    "Four points on a line, x = (-1, 0, 0, 1), with labels y = (-1, -1, +1, +1). No line separates them. Does "
    "the unpenalised maximum-likelihood estimate of logistic regression exist?",
    [
        ("Yes: data that no line separates always have one.", False,
         "Not being separable is not enough. The boundary x = 0 (w = 1, b = 0) puts the two outer points "
         "strictly on their sides and the two tied points on the boundary: quasi-complete separation."),
        ("No: with w = 1, b = 0 no point is on its wrong side, and scaling (w, b) up lowers the loss for ever.", True,
         "Along (c, 0) the outer points' losses tend to 0 while the tied points keep paying log 2; the loss "
         "approaches log(2)/2 and never reaches it. lc.check_separation reports 'quasi-complete'."),
        ("Yes, but it is not unique.", False,
         "The design [x, 1] has full column rank, so an estimate, if there were one, would be unique; here "
         "there is none."),
    ],
)
