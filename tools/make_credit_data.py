"""Regenerate ``lincourse/datasets/data/credit.csv``, the synthetic credit-approval data set.

Usage: ``python tools/make_credit_data.py [--check]``

The data are invented (no real applicant is described): 40 applicants with an age in years and a
yearly salary in thousands, approved (+1) when ``salary + 0.5 * age > 75`` (thousands), after which
three applicants close to that line have their decision flipped, as a bank officer's judgement
might. The result is not linearly separable, so no line reaches a training error of 0.
``numpy.random.RandomState`` is used because its stream is frozen across NumPy versions.
With ``--check`` the script only verifies that the shipped file matches what it would write.
"""

import argparse
import io
import pathlib
import sys

import numpy as np

OUT = pathlib.Path(__file__).resolve().parents[1] / "lincourse" / "datasets" / "data" / "credit.csv"
SEED = 20250123


def make():
    rng = np.random.RandomState(SEED)
    n = 40
    age = rng.randint(20, 71, size=n)
    salary = np.round(rng.uniform(15.0, 120.0, size=n), 1)
    score = salary + 0.5 * age - 75.0
    approved = np.where(score > 0, 1, -1)
    near = np.argsort(np.abs(score))[:6]  # the six applicants closest to the rule's line
    flipped = rng.choice(near, size=3, replace=False)
    approved[flipped] *= -1
    buf = io.StringIO()
    buf.write("age,salary,approved\n")
    for a, s, y in zip(age, salary, approved):
        buf.write(f"{a},{s:.1f},{y}\n")
    return buf.getvalue()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="verify the shipped file instead of writing it")
    args = parser.parse_args(argv)
    text = make()
    if args.check:
        ok = OUT.read_text() == text
        print("credit.csv is up to date" if ok else "credit.csv differs from the generator's output")
        return 0 if ok else 1
    OUT.write_text(text)
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
