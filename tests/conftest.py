import os

import matplotlib
import pytest

matplotlib.use("agg")
os.environ.setdefault("LINCOURSE_EXPLORER_MODE", "widget")

from hypothesis import settings  # noqa: E402

settings.register_profile("course", deadline=None, max_examples=60, derandomize=True)
settings.load_profile("course")


@pytest.fixture
def rng():
    import numpy as np

    return np.random.default_rng(0)
