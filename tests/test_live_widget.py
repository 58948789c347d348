"""The live explorer widget, as a browser and ipykernel drive it.

A browser sends slider values as JSON floats (``0.10000000000000009`` for 0.1), ipykernel may
handle comm messages on several threads, and a drawing function may raise. These tests send
messages the way ipywidgets receives them (``Widget.set_state``, what a comm message calls) and
check that the value is snapped to the slider's grid, that redraws never interleave, that an error
is shown in the explorer and the explorer stays usable, and that the image carries alt text.
"""

import base64
import re
import threading
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lincourse.explorers import Explorer, Param

RATE = Param("log_lr", -1.5, 1.5, 0.1, 0.0, "log10 learning rate")


def _rate_explorer():
    """Like chapter 5's learning-rate explorer: one precomputed run per grid value."""
    runs = {v: f"run at {RATE.format(v)}" for v in RATE.grid()}

    def draw(ax, log_lr):
        ax.plot([0, 1], [0, log_lr])
        return runs[log_lr]  # a KeyError for any value off the grid

    return Explorer(draw, [RATE], title="Rates", caption="A line whose slope is the rate")


def _receive(slider, value):
    """What a comm message from the browser does to a slider."""
    slider.set_state({"value": value})


def _alt(ex):
    return re.search(r"alt='([^']*)'", ex.image_view.value).group(1)


def test_a_float_from_the_browser_is_snapped_to_the_grid_and_written_back():
    ex = _rate_explorer()
    slider = ex.sliders["log_lr"]
    _receive(slider, 0.10000000000000009)
    assert ex.values["log_lr"] == 0.1
    assert slider.value == 0.1
    assert ex.readout == "run at 0.1"
    assert "Error" not in ex.readout_view.value


_EXPLORER = _rate_explorer()


@given(st.floats(min_value=-1.5, max_value=1.5, allow_nan=False))
def test_every_value_in_range_is_snapped_before_drawing(value):
    ex = _EXPLORER
    _receive(ex.sliders["log_lr"], value)
    assert ex.values["log_lr"] in RATE.grid()
    assert ex.sliders["log_lr"].value == ex.values["log_lr"]
    assert ex.readout == f"run at {RATE.format(ex.values['log_lr'])}"
    assert "Error" not in ex.readout_view.value


def test_concurrent_messages_never_interleave_redraws_and_the_last_value_wins():
    active, overlaps, calls = [0], [], []

    def draw(ax, a, k):
        active[0] += 1
        if active[0] > 1:
            overlaps.append(active[0])
        time.sleep(0.002)  # a draw takes time: without the lock another thread would enter here
        ax.plot([0, 1], [0, a * k])
        calls.append((a, k))
        active[0] -= 1
        return f"a = {a}, k = {k}"

    ex = Explorer(draw, [Param("a", 0, 1, 0.1, 0.5), Param("k", 1, 5, 1, 2)], title="Threads")
    sliders = ex.sliders
    barrier = threading.Barrier(6)

    def worker(i):
        barrier.wait()
        for j in range(10):
            if i % 2:
                _receive(sliders["a"], round(0.1 * ((i + j) % 11), 1) + 1e-12)
            else:
                _receive(sliders["k"], 1 + (i + j) % 5)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not overlaps, f"{len(overlaps)} redraws ran while another was running"
    final = {"a": sliders["a"].value, "k": sliders["k"].value}
    assert ex.values == final
    assert ex.readout == f"a = {final['a']}, k = {final['k']}"
    assert calls[-1] == (final["a"], final["k"])


def test_an_error_while_drawing_is_shown_in_the_explorer_which_stays_usable():
    def draw(ax, a):
        if a == 0.5:
            raise ValueError("no separator at a = 0.5")
        ax.plot([0, 1], [0, a])
        return f"a = {a}"

    ex = Explorer(draw, [Param("a", 0, 1, 0.25, 0.25)], title="Fragile")
    slider = ex.sliders["a"]
    _receive(slider, 0.5)  # must not raise: an observer's exception would only reach the log
    assert "Error: ValueError: no separator at a = 0.5" in ex.readout_view.value
    assert "role='alert'" in ex.readout_view.value
    _receive(slider, 0.75)
    assert ex.readout == "a = 0.75"
    assert "Error" not in ex.readout_view.value
    assert "a = 0.75" in _alt(ex)
    # moving back to the value that failed shows the error again, not a stale figure's readout
    _receive(slider, 0.5)
    assert "Error: ValueError" in ex.readout_view.value


def test_slider_readouts_use_the_precision_of_the_step():
    ex = Explorer(lambda ax, w, n: None, [Param("w", 0, 2, 0.25, 1.25), Param("n", 0, 30, 5, 10)])
    assert ex.sliders["w"].readout_format == ".2f"
    assert f"{ex.sliders['w'].value:{ex.sliders['w'].readout_format}}" == "1.25"
    assert type(ex.sliders["n"]).__name__ == "IntSlider"


def test_the_live_image_has_alt_text_made_of_caption_and_readout():
    ex = _rate_explorer()
    ex.widget
    assert _alt(ex) == "A line whose slope is the rate. run at 0.0."
    png = base64.b64decode(re.search(r"base64,([^']*)'", ex.image_view.value).group(1))
    assert png == ex.png
    _receive(ex.sliders["log_lr"], 0.30000000000000004)
    assert _alt(ex) == "A line whose slope is the rate. run at 0.3."
    new_png = base64.b64decode(re.search(r"base64,([^']*)'", ex.image_view.value).group(1))
    assert new_png == ex.png and new_png != png


@pytest.mark.parametrize("caption", ["", "x < y & 'quoted'"])
def test_alt_text_is_escaped_and_never_empty(caption):
    ex = Explorer(lambda ax, a: f"a = {a}", [Param("a", 0, 1, 0.5, 0)], title="T", caption=caption)
    ex.widget
    assert _alt(ex)
    assert "<" not in _alt(ex) and "'" not in _alt(ex).replace("&#x27;", "")


def test_a_value_from_the_browser_near_zero_is_zero_and_the_readout_has_no_negative_zero():
    ex = Explorer(lambda ax, log_lr: f"w = {log_lr * 1e-6:+.3f}", [RATE], title="Near zero")
    _receive(ex.sliders["log_lr"], -1e-17)  # what 15 steps of 0.1 from -1.5 may add up to
    assert ex.values["log_lr"] == 0.0 and str(ex.values["log_lr"]) == "0.0" and ex.sliders["log_lr"].value == 0.0
    _receive(ex.sliders["log_lr"], -0.1)
    assert ex.readout == "w = 0.000"  # -0.0000001 printed "-0.000"
    assert "-0.000" not in ex.readout_view.value and "0.000" in _alt(ex)
