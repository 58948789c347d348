"""How the answer key (``tools/answer_key.py``) writes a reference answer: as a student would type it."""

from __future__ import annotations

import numpy as np


def shown(value):
    """A reference answer as text: a number to 6 significant digits, a set in braces, a list in brackets;
    None for a function (its solution shows it)."""
    if callable(value):
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, (set, frozenset)):
        return "{" + ", ".join(sorted(map(str, value))) + "}"
    if isinstance(value, tuple) and any(np.ndim(v) for v in value):   # e.g. (g_w, g_b)
        value = np.concatenate([np.ravel(v) for v in value])
    array = np.asarray(value, dtype=float)
    if array.ndim == 0:
        return f"{float(array):.6g}".replace("-0", "0") if abs(float(array)) < 1e-12 else f"{float(array):.6g}"
    return "[" + ", ".join(f"{x:.6g}" for x in array.ravel()) + "]"
