"""The explorer engine: declaration, synchronous redraw, deterministic repr, the kernel-free player."""

import json
import re

import numpy as np
import pytest

import lincourse as lc
from lincourse.explorers import Explorer, Param
from lincourse.explorers._player import player_grids, player_html

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


def test_player_is_self_contained(monkeypatch, tmp_path):
    ex, _ = _toy()
    grids = player_grids(ex)
    assert grids == {"a": [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0], "k": [1, 2, 3, 4, 5]}
    page = player_html(ex, tmp_path, base_url="players/")
    assert "http://" not in page and "https://" not in page
    data = json.loads(re.search(r'<script type="application/json">(.*?)</script>', page).group(1))
    assert data["sizes"] == [11, 5] and data["values"][0][5] == "0.5"
    assert page.count('type="range"') == 2 and 'aria-label="slope"' in page
    assert "a = 0.5, k = 2" in page  # the default readout is in the page (no JavaScript needed)
    key = data["key"]
    chunks = sorted((tmp_path / key).glob("c*.js"))
    assert len(chunks) == -(-55 // data["chunk"])
    frames, readouts = [], []
    for n in range(len(chunks)):
        text = (tmp_path / key / f"c{n}.js").read_text()
        body = json.loads(text[text.index(",", text.index(",") + 1) + 1:text.rindex(")")])
        frames += [[body["s"][i] for i in f] for f in body["f"]]
        readouts += body["r"]
    assert len(frames) == 55 and readouts[0] == "a = 0.0, k = 1" and readouts[-1] == "a = 1.0, k = 5"
    assert len({"".join(f) for f in frames}) == 11  # k changes only the readout of this toy
    assert ex.values == {"a": 0.5, "k": 2}  # left at its defaults
    monkeypatch.setenv("LINCOURSE_EXPLORER_MODE", "player")
    monkeypatch.setenv("LINCOURSE_PLAYER_DIR", str(tmp_path))
    bundle = ex._repr_mimebundle_()
    assert "text/html" in bundle and "application/vnd.jupyter.widget-view+json" not in bundle


def test_a_player_is_rendered_once(monkeypatch, tmp_path):
    from lincourse.explorers import _player

    ex, _ = _toy()
    player_html(ex, tmp_path)

    def fail(n):
        raise AssertionError("rendered again")

    monkeypatch.setattr(_player, "_render_chunk", fail)
    player_html(ex, tmp_path)  # same declaration, same key: the cached frames are used
    ex2, _ = _toy()
    ex2.params[0] = Param("a", 0, 1, 0.1, 0.4, "slope")
    with pytest.raises(AssertionError, match="rendered again"):
        player_html(ex2, tmp_path)


def test_asked_values_must_be_slider_positions():
    def draw(ax, a):
        return str(a)

    ok = Explorer(draw, [Param("a", 0, 1, 0.25, 0.5, player_step=0.25)], asked={"ex-x": [{"a": 0.75}]})
    assert player_grids(ok)["a"] == [0.0, 0.25, 0.5, 0.75, 1.0]
    with pytest.raises(ValueError, match="not a position of the slider"):
        Explorer(draw, [Param("a", 0, 1, 0.25, 0.5)], asked={"ex-x": [{"a": 0.3}]})
    with pytest.raises(ValueError, match="unknown parameter"):
        Explorer(draw, [Param("a", 0, 1, 0.25, 0.5)], asked={"ex-x": [{"b": 0.5}]})


@pytest.mark.parametrize("factory", EXPLORER_FACTORIES, ids=lambda f: f.__name__)
def test_website_sliders_have_enough_positions(factory):
    from lincourse.explorers._player import MAX_ANGLE_STEP, MIN_POSITIONS

    ex = factory()
    grids = player_grids(ex)
    for p in ex.params:
        values = grids[p.name]
        assert len(values) >= min(MIN_POSITIONS, len(p.grid())), (p.name, len(values))
        if "angle" in p.name:
            assert max(np.diff(values)) <= MAX_ANGLE_STEP, (p.name, values)
        for label, settings in ex.asked.items():
            for setting in settings:
                if p.name in setting:
                    assert setting[p.name] in values, (label, p.name, setting[p.name])


def test_learning_rate_runs_are_keyed_by_grid_position():
    ex = lc.explorers.gradient_descent()
    text = ex.set(log_lr=0.10000000000000009, iteration=100).readout  # what a browser may send
    assert text == ex.set(log_lr=0.1, iteration=100).readout
    assert text.startswith("learning rate = 1.259")


def test_frames_differ_at_different_positions():
    from lincourse.explorers._player import frame

    ex = lc.explorers.hyperplane()
    seen = set()
    for values in ({"angle": 30, "length": 1.0, "b": 0.5}, {"angle": 30, "length": 2.0, "b": 0.5},
                   {"angle": 45, "length": 1.0, "b": 0.5}, {"angle": 30, "length": 1.0, "b": 0.75}):
        svg, text = frame(ex, **values)
        assert text == ex.set(**values).readout
        seen.add("".join(svg))
    assert len(seen) == 4


def test_length_moves_the_boundary_and_scaling_both_does_not():
    ex = lc.explorers.hyperplane()
    last = lambda: ex.readout.splitlines()[-1]  # noqa: E731
    ex.set(angle=30, length=1.0, b=0.5)
    one = last()
    ex.set(angle=30, length=2.0, b=1.0)
    assert last() == one  # (2 theta, 2 b): the same line
    ex.set(angle=30, length=2.0, b=0.5)
    assert last() != one  # theta alone: the line moves


def test_functional_and_geometric_margins_differ_with_the_length():
    ex = lc.explorers.dataset_margin()
    lines = ex.set(angle=320, length=2.0, b=0.5).readout.splitlines()
    functional = float(lines[2].split("= ")[-1])
    geometric = float(lines[3].split("= ")[-1])
    assert functional == pytest.approx(2 * geometric, abs=2e-3)


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


def test_numbers_are_shown_at_the_precision_of_the_step():
    from lincourse.explorers import Param

    assert Param("a", 0.25, 3.0, 0.25, 1.0).format(1.25) == "1.25"
    assert Param("a", 0, 355, 5, 30).format(30) == "30"
    assert Param("a", -2.0, 2.0, 0.1, 0.0).format(-0.3) == "-0.3"
    assert Param("a", -1.5, 1.5, 0.05, 0.0).decimals == 2


def test_the_player_page_has_no_script_but_its_data_and_says_what_it_precomputed(tmp_path):
    from lincourse.explorers._player import PLAYER_CSS, PLAYER_JS

    ex, _ = _toy()  # every position of both sliders is on the website
    page = player_html(ex, tmp_path, base_url="players/")
    assert re.findall(r"<script[^>]*>", page) == ['<script type="application/json">']  # player.js does the rest
    assert "(all 55 slider positions precomputed)" in page and "run the notebook" not in page
    assert '<p class="lincourse-status" role="status"></p>' in page  # where player.js says "Loading…"
    coarse = Explorer(lambda ax, a: str(a), [Param("a", 0, 1, 0.05, 0.5, player_step=0.25)], title="Coarse")
    assert "(precomputed at 5 slider positions; run the notebook for every step)" in player_html(coarse, tmp_path)
    assert PLAYER_JS.is_file() and PLAYER_CSS.is_file()
    script = PLAYER_JS.read_text()
    for needed in ("lincoursePlayerChunk", "lincourse-loading", "Loading\\u2026", "IntersectionObserver"):
        assert needed in script, needed


def test_player_files_are_readable_by_any_user(tmp_path):
    import os
    import stat

    ex, _ = _toy()
    old = os.umask(0o077)  # the most private umask: the player must still be served by another user
    try:
        player_html(ex, tmp_path)
    finally:
        os.umask(old)
    paths = [p for p in tmp_path.rglob("*")]
    assert any(p.is_dir() for p in paths) and any(p.name.startswith("c") for p in paths)
    for p in paths:
        mode = stat.S_IMODE(p.stat().st_mode)
        wanted = 0o555 if p.is_dir() else 0o444
        assert mode & wanted == wanted, (p, oct(mode))


def test_no_negative_zero_in_slider_values_or_readouts(tmp_path):
    from lincourse.explorers._engine import no_negative_zero

    p = Param("b", -1.5, 1.5, 0.1, 0.0)
    assert p.clip(-1e-12) == 0.0 and str(p.clip(-1e-12)) == "0.0"
    assert p.format(-1e-12) == "0.0" and p.format(-0.04) == "0.0" and p.format(-0.06) == "-0.1"
    assert all(not v.startswith("-0") or v.strip("-0.") for v in (p.format(x) for x in p.grid()))
    assert no_negative_zero("(-0.00, -1.00) -0.000 -0 -0.001 x-0 1e-0") == "(0.00, -1.00) 0.000 0 -0.001 x-0 1e-0"
    ex = Explorer(lambda ax, b: f"d = {-abs(b) * 1e-9:.3f}, theta = ({-1e-9:+.2f}, -1.00)", [p], title="Zero")
    assert ex.readout == "d = 0.000, theta = (0.00, -1.00)"
    page = player_html(ex, tmp_path)
    assert "-0.0" not in page


@pytest.mark.parametrize("factory", EXPLORER_FACTORIES, ids=lambda f: f.__name__)
def test_course_explorers_print_no_negative_zero(factory):
    ex = factory()
    for p in ex.params:
        for v in (p.min, p.clip(p.default), p.max):
            text = ex.set(**{p.name: v}).readout
            assert not re.search(r"(?<![\w.])-0(\.0+)?(?![\w.])", text), (p.name, v, text)
        assert not any(re.fullmatch(r"-0(\.0+)?", p.format(v)) for v in p.grid())


def test_no_private_matplotlib_api():
    from pathlib import Path

    root = Path(lc.__file__).parent
    private = re.compile(r"matplotlib\._(?!_)|from matplotlib import _|\._(left|right)_title|\._update_(patch|line)_limits"
                         r"|\._loc\b|_draw_text_as_path|\._text2path|\._renderer\b")
    found = [f"{path.relative_to(root)}:{n}: {line.strip()}" for path in sorted(root.rglob("*.py"))
             for n, line in enumerate(path.read_text().splitlines(), 1) if private.search(line)]
    assert not found, found


def test_the_detector_sees_an_arrow_that_leaves_the_plot(monkeypatch):
    """The website player's renderer refuses a frame whose arrow leaves its panel, and says where and by how much."""
    from matplotlib.patches import FancyArrowPatch

    from lincourse import plotting
    from lincourse.explorers import geometry
    from lincourse.explorers._player import OutsidePanelError, frame

    values = dict(angle=0, length=3.5, b=0.0)
    ex = lc.explorers.hyperplane()
    frame(ex, **values)  # the course's arrow, w/2 here, fits: the frame is drawn
    assert "(arrow: w/2)" in ex.set(**values).ax.get_title()
    monkeypatch.setattr(geometry, "fitted_normal",
                        lambda ax, w, b, lim: (plotting.plot_normal(ax, w, b, label=None), "w")[1])
    ex = lc.explorers.hyperplane()
    with pytest.raises(OutsidePanelError) as caught:
        frame(ex, **values)  # w itself: its head reaches x1 = 3.5, past the limit
    arrow = [a for a in ex.set(**values).ax.patches if isinstance(a, FancyArrowPatch)][0]
    assert ex.png  # drawn once, so that the arrow's head has its size in pixels
    beyond = arrow.get_window_extent(ex.figure.canvas.get_renderer()).x1 - ex.ax.bbox.x1
    message = str(caught.value)
    assert message.startswith(f"{ex.title!r} at angle=0, length=3.50, b=0.00: the FancyArrowPatch reaches "), message
    assert "beyond the right edge of its panel" in message and "shorten the arrow" in message
    assert float(re.search(r"reaches ([\d.]+) px", message).group(1)) == pytest.approx(beyond, abs=0.15)


def _edge_toy():
    """A marker at (x, 0.5), a label beside it when ``label`` is 1 (its end near x), a line across the plane
    and a shaded half-plane reaching far past the panel (clipped by design)."""
    def setup(ax):
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)

    def draw(ax, x, label):
        ax.axline((0.0, 0.0), slope=3.0)
        ax.fill_between([-1.0, 2.0], -1.0, 0.2, alpha=0.2)
        ax.plot([x], [0.5], marker="o", markersize=8)
        if label:
            ax.text(x - 0.05, 0.7, "a label ending near x", ha="right")
        ax.set_title(f"x = {x:.2f}")
        return f"x = {x:.2f}"

    return Explorer(draw, [Param("x", 0, 1, 0.05, 0.5), Param("label", 0, 1, 1, 0)], setup=setup, title="Edges")


def test_a_frame_inside_its_panel_passes_and_an_escape_names_the_values_the_object_and_the_fix():
    from lincourse.explorers._player import TOLERANCE, OutsidePanelError, frame

    ex = _edge_toy()
    for values in ({"x": 0.5, "label": 0}, {"x": 0.95, "label": 0}, {"x": 0.95, "label": 1}):
        svg, text = frame(ex, **values)  # the line across the plane and the half-plane reach far out: not checked
        assert text == f"x = {values['x']:.2f}" and any("<text" in piece for piece in svg)
    with pytest.raises(OutsidePanelError) as caught:
        frame(ex, x=1.0, label=0)  # the marker's centre on the right edge: half of it is cut off
    radius = 4 * ex.figure.dpi / 72
    message = str(caught.value)
    assert message.startswith("'Edges' at x=1.00, label=0: the Line2D (marker 'o') reaches "), message
    assert "beyond the right edge of its panel" in message and f"({TOLERANCE} px allowed)" in message
    assert float(re.search(r"reaches ([\d.]+) px", message).group(1)) == pytest.approx(radius, abs=0.3)
    assert "a margin on the axis" in message
    with pytest.raises(OutsidePanelError, match=r"'Edges' at x=0\.20, label=1: the Text 'a label ending near x' "
                                                r"reaches [\d.]+ px beyond the left edge of its panel.*move the text"):
        frame(ex, x=0.2, label=1)
    assert ex.values == {"x": 0.5, "label": 0}  # frame leaves the explorer at its defaults, error or not


def test_an_escape_in_a_worker_process_fails_the_player_build(monkeypatch, tmp_path):
    """Rendered in two processes (more than 400 frames), a frame that escapes stops the build; nothing half-made stays."""
    from lincourse.explorers._player import JOBS_VARIABLE, OutsidePanelError, build_player

    def draw(ax, x, k):
        ax.plot([-0.1 if (x, k) == (0, 7) else x], [0.5], marker="o", markersize=8)
        return f"{x:.2f} {k}"

    ex = Explorer(draw, [Param("x", 0, 1, 0.05, 0.5), Param("k", 1, 20, 1, 1)], title="Worker",
                  setup=lambda ax: (ax.set_xlim(-0.05, 1.05), ax.set_ylim(0, 1)))
    monkeypatch.setenv(JOBS_VARIABLE, "2")
    with pytest.raises(OutsidePanelError, match=r"'Worker' at x=0\.00, k=7: the Line2D"):
        build_player(ex, tmp_path)  # frame 6 of 420, in the first chunk: not one of the frames the key samples
    assert list(tmp_path.iterdir()) == []


def test_the_normal_arrow_is_w_when_it_fits_and_is_left_out_when_its_foot_is_out_of_view():
    ex = lc.explorers.hyperplane()
    assert ex.set(angle=30, length=1.0, b=0.5).ax.get_title() == "w = (0.87, 0.50),  b = 0.50"
    assert ex.set(angle=0, length=0.5, b=2.0).ax.get_title().endswith("(arrow out of view)")  # |b|/||w|| = 4


@pytest.mark.parametrize("factory", EXPLORER_FACTORIES, ids=lambda f: f.__name__)
def test_website_sliders_move_by_one_even_step_and_hold_the_asked_values(factory):
    ex = factory()
    grids = player_grids(ex)
    for p in ex.params:
        values = np.array(grids[p.name], dtype=float)
        steps = np.diff(values)
        assert np.allclose(steps, steps[0], atol=1e-9), (p.name, sorted(set(np.round(steps, 9))))
        assert values[0] == p.min
        # the last position is max, or, for an angle, one step short of a full turn
        assert values[-1] == p.max or ("angle" in p.name and values[-1] + steps[0] == 360), (p.name, values[-1])
        assert p.clip(p.default) in grids[p.name]


def test_an_asked_value_off_the_website_grid_or_a_player_step_off_the_step_is_refused():
    def draw(ax, a):
        return str(a)

    with pytest.raises(ValueError, match="not a position of the website slider"):
        Explorer(draw, [Param("a", 0, 1, 0.25, 0.5, player_step=0.5)], asked={"ex-x": [{"a": 0.75}]})
    with pytest.raises(ValueError, match="must be a multiple of step"):
        Param("b", -1.5, 1.5, 0.1, 0.0, player_step=0.25)
    with pytest.raises(ValueError, match="default 0.25 is not a position of the website slider"):
        Param("a", 0, 1, 0.25, 0.25, player_step=0.5)
    assert Param("angle", 0, 355, 5, 30, player_step=15).grid(15)[-2:] == [330, 345]


@pytest.mark.parametrize("name", ["sigmoid_fit", "probability_field"])
def test_logistic_explorers_name_the_classes_by_their_targets_t(name):
    ex = getattr(lc.explorers, name)()
    legend = [t.get_text() for t in ex.ax.get_legend().get_texts()]
    assert sorted(legend) == ["$t=0$", "$t=1$"]
    assert "y=" not in ex.caption.replace(" ", "") and "t = 1" in ex.caption and "t = 0" in ex.caption
    if name == "sigmoid_fit":
        assert ex.ax.get_ylabel() == r"$P(t=1\mid x)$"


def test_gradient_descent_caption_names_the_targets():
    assert "(t = 1)" in lc.explorers.gradient_descent().caption


def test_an_unknown_display_mode_is_an_error_naming_it_and_the_accepted_ones(monkeypatch):
    from lincourse.explorers._engine import MODE_VARIABLE, display_mode

    monkeypatch.setenv(MODE_VARIABLE, "widgets")
    with pytest.raises(ValueError, match=r"'widgets'.*'widget', 'player'"):
        display_mode()
    ex = Explorer(lambda ax, a: ax.plot([0, 1], [0, a]) and None, [Param("a", 0, 2, 0.5, 1)], title="A line")
    with pytest.raises(ValueError, match="'widgets'"):
        ex._repr_mimebundle_()
    for mode in ("widget", "player"):
        monkeypatch.setenv(MODE_VARIABLE, mode)
        assert display_mode() == mode
    monkeypatch.delenv(MODE_VARIABLE)
    assert display_mode() == "widget"


def test_the_scene_is_the_draw_order_of_both_renderers():
    """``scene().drawables``: each panel's visible contents by z-order, then the titles and legends."""
    def setup(ax):
        ax[0].plot([0, 1], [0, 0], zorder=5)

    def draw(ax, a):
        ax[1].plot([0, 1], [a, a], zorder=3)
        ax[0].plot([0, 1], [1, a], zorder=1)
        ax[0].set_title(f"a = {a}")
        ax[0].legend(["x"])

    ex = Explorer(draw, [Param("a", 0, 2, 0.5, 1)], setup=setup, ncols=2)
    scene = ex.scene()
    assert len(scene.axes) == 2 and len(scene.static) == 1
    lines = [a for a in scene.drawables if a in scene.axes[0].lines + scene.axes[1].lines]
    assert [(a.axes is scene.axes[0], a.get_zorder()) for a in lines] == [(True, 1), (True, 5), (False, 3)]
    tail = scene.drawables[len(lines):]
    first, second = scene.axes
    assert tail == [first.title, first._left_title, first._right_title, first.legend_,
                    second.title, second._left_title, second._right_title]
    with scene.hidden():
        assert not any(a.get_visible() for a in scene.drawables)
    assert all(a.get_visible() for a in scene.drawables)
    assert scene.limits == [(ax.get_xlim(), ax.get_ylim()) for ax in scene.axes]


def test_player_path_data_is_relative_compact_and_exact_to_a_tenth_of_a_pixel():
    """Relative path data adds back up to the rounded absolute positions; opaque same-style paths merge."""
    from matplotlib.path import Path
    from matplotlib.transforms import IdentityTransform

    from lincourse.explorers._svg import _path_data, merge_paths

    rng = np.random.default_rng(0)
    xy = rng.uniform(-50, 400, size=(40, 2))
    d = _path_data(Path(xy), IdentityTransform())
    assert d.startswith("M") and d.count("l") == 39 and "M" not in d[1:]
    numbers = [float(v) for v in re.findall(r"-?(?:\d+\.?\d*|\.\d+)", d)]
    position = np.cumsum(np.array(numbers).reshape(-1, 2), axis=0)
    assert np.allclose(position, np.round(xy, 1), atol=1e-9)
    opaque = ['<path d="M1 2l3 4" fill="none" stroke="#000000"/>', '<path d="M5 6l1 1" fill="none" stroke="#000000"/>']
    assert merge_paths(opaque) == '<path d="M1 2l3 4M5 6l1 1" fill="none" stroke="#000000"/>'
    faint = [p.replace("/>", ' stroke-opacity="0.5"/>') for p in opaque]
    assert merge_paths(faint) == "".join(faint)
    mixed = [opaque[0], "<text x=\"1\">a</text>", opaque[1]]
    assert merge_paths(mixed) == "".join(mixed)
