"""The explorer engine: declaration, synchronous redraw, deterministic repr, the kernel-free player."""

import json
import re

import numpy as np
import pytest

import lincourse as lc
from lincourse.explorers import Explorer, Param
from lincourse.explorers._player import player_grid, player_html

EXPLORER_FACTORIES = [getattr(lc.explorers, name) for name in lc.explorers.__all__
                      if name not in ("Explorer", "Param", "display_mode")]


def test_param_validation_and_grid():
    p = Param("a", 0, 1, 0.25, 0.5)
    assert p.grid() == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert p.clip(0.6) == 0.5 and p.clip(7) == 1.0
    assert Param("k", 0, 10, 1, 3).integer and Param("k", 0, 10, 1, 3).clip(4.4) == 4
    with pytest.raises(ValueError, match="min must be < max"):
        Param("a", 1, 0, 0.1, 0.5)
    with pytest.raises(ValueError, match="outside"):
        Param("a", 0, 1, 0.1, 2)
    with pytest.raises(ValueError, match="identifier"):
        Param("a b", 0, 1, 0.1, 0.5)


def _toy():
    calls = []

    def setup(ax):
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.plot([0, 1], [0, 0], color="k")  # static

    def draw(ax, a, k):
        calls.append((a, k))
        ax.plot([0, 1], [0, a])
        return f"a = {a}, k = {k}"

    return Explorer(draw, [Param("a", 0, 1, 0.1, 0.5, "slope"), Param("k", 1, 5, 1, 2)], setup=setup,
                    title="Toy"), calls


def test_slider_moves_redraw_synchronously_and_keep_static_artists():
    ex, calls = _toy()
    first = ex.png
    ex.sliders["a"].value = 0.9
    assert calls[-1] == (0.9, 2) and ex.readout == "a = 0.9, k = 2"
    assert ex.png != first
    assert len(ex.ax.lines) == 2  # the static line and one dynamic line, not an accumulation
    ex.set(k=4)
    assert ex.sliders["k"].value == 4 and ex.readout == "a = 0.9, k = 4"
    ex.set(a=0.5, k=2)
    assert ex.png == first  # the same values give the same pixels


def test_repr_and_mimebundle_are_deterministic():
    ex, _ = _toy()
    bundle = ex._repr_mimebundle_()
    assert bundle["text/plain"] == "Explorer('Toy', a=0.5, k=2)"
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_unknown_parameter_and_out_of_range_value():
    ex, _ = _toy()
    with pytest.raises(ValueError, match="unknown explorer parameter"):
        ex.set(b=1)
    with pytest.raises(ValueError, match=r"a=3.4 is outside the slider's range \[0, 1\]"):
        ex.set(a=3.4)


def test_player_is_self_contained(monkeypatch):
    ex, _ = _toy()
    grids = player_grid(ex, budget=12)
    assert np.prod([len(v) for v in grids.values()]) <= 15
    assert all(ex.params[i].clip(ex.params[i].default) in grids[p] for i, p in enumerate(grids))
    page = player_html(ex)
    assert "http://" not in page and "https://" not in page
    data = json.loads(re.search(r'<script type="application/json">(.*?)</script>', page).group(1))
    assert len(data["frames"]) == np.prod(data["sizes"]) == len(data["readouts"])
    assert page.count('type="range"') == 2 and 'aria-label="slope"' in page
    assert ex.values == {"a": 0.5, "k": 2}  # left at its defaults
    monkeypatch.setenv("LINCOURSE_EXPLORER_MODE", "player")
    bundle = ex._repr_mimebundle_()
    assert "text/html" in bundle and "application/vnd.jupyter.widget-view+json" not in bundle


@pytest.mark.parametrize("factory", EXPLORER_FACTORIES, ids=lambda f: f.__name__)
def test_every_course_explorer(factory):
    ex = factory()
    assert isinstance(ex, Explorer) and ex.caption and ex.title
    before, text = ex.png, ex.readout
    p = ex.params[0]
    other = p.grid()[-1] if p.clip(p.default) != p.grid()[-1] else p.grid()[0]
    ex.sliders[p.name].value = other
    assert ex.png != before or ex.readout != text
    assert repr(ex).startswith("Explorer(")
