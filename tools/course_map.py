"""Write the course map of the landing page (``intro.md``) from the chapters' openings.

Usage (from the repository root): ``python tools/course_map.py``. Each row takes the chapter's title, its
prerequisites, the lecture's length and the stated core and Going-further times from the chapter's opening
(through ``chapter_model``); only the one-line topics below are written here.
``tests/test_landing_page.py`` checks the map against the openings.
"""

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import chapter_model as cm  # noqa: E402

#: What each chapter covers, in the words of the map.
TOPICS = {
    1: "the learning problem on a credit-approval example, the classifier $w\\cdot x + b > 0$, why $w$ is normal to the boundary, why scaling $w$ and $b$ together changes no prediction, the boundary's distance from the origin, augmented vectors",
    2: "the signed distance of a point to a hyperplane, functional and geometric margins, the margin of a data set, canonical form",
    3: "the 0-1 loss and $E_{in}$, empirical risk minimisation and the majority-class baseline, why $E_{in}$ gives no gradient, the population behind a sample, how a linear program decides separability, surrogate losses (certificates and NP-hardness in Going further)",
    4: "the error on new data, held-out error, Hoeffding's inequality, the union bound, the approximation-generalisation trade-off, training, validation and test sets (the VC dimension in Going further)",
    5: "the mistake-driven algorithm, Novikoff's convergence theorem with a complete proof, offsets and centring, what one pass says about new points (tightness and lower bounds in Going further)",
    6: "cycling, the pocket and averaged perceptrons, a mistake bound without separability, the perceptron as a subgradient method",
    7: "from a score to a probability, maximum likelihood and the cross-entropy, gradient, Hessian and convexity (generative models in Going further)",
    8: "gradient descent, Newton's method and IRLS, minibatches, and when the fit does not exist (separation), with its remedies",
    9: "a real medical data set, penalty and cross-validation, intervals for a test accuracy, standard errors and joint tests, thresholds, ROC curves and predictive values (calibration and comparing models in Going further)",
    10: "feature maps, the kernel perceptron and which functions are kernels, the Gaussian kernel, one-vs-rest (softmax regression in Going further)",
}


def builds_on(chapter):
    """The map's "Builds on" cell: the chapters the opening's prerequisites name."""
    return ", ".join(str(n) for n in chapter.prerequisites()) or "the prerequisites"


def rows():
    lines = ["| | Chapter | Builds on | Lecture | Core | Going further |", "|---|---|---|---|---|---|"]
    for n, path in enumerate(cm.toc_chapters(), start=1):
        ch = cm.read(path)
        lecture = re.search(r"(\d+)\s*minutes", ch.opening).group(1)
        core, further = ch.stated_times()
        lines.append(f"| {n} | [{ch.title}](chapters/{path.name}): {TOPICS[n]} | {builds_on(ch)} | {lecture} min | "
                     f"about {cm.duration(core)} | about {cm.duration(further)} |")
    return lines


def main():
    block = ("## The chapters\n\nThe course is ten lectures of 75 to 90 minutes. The table gives, for each chapter, "
             "the earlier chapters its core builds on, the length of the lecture, and your time: the core path "
             "(reading, concept checks and core exercises) and the optional Going-further layer.\n\n"
             ":::{container} course-map\n" + "\n".join(rows()) + "\n:::\n\n")
    intro_path = cm.ROOT / "intro.md"
    intro = intro_path.read_text(encoding="utf-8")
    a, b = intro.index("## The chapters"), intro.index("## What you will be able to do")
    intro_path.write_text(intro[:a] + block + intro[b:], encoding="utf-8")


if __name__ == "__main__":
    main()
