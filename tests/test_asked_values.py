"""Every slider setting a chapter makes is a position of its website player, declared in ``asked``.

The chapters drive their explorers in code (``ex.set(angle=30, b=0.5)``) to print the readouts
the text discusses, and their exercises ask the reader to make settings. Both must be possible on
the website, whose players only have the positions of :func:`player_grids`. The website build
checks the first: it runs every chapter with explorers in player mode, where ``Explorer.set``
refuses a setting that is neither the defaults nor one the explorer declares in ``asked``, and a
cell that raises stops the build (``nb_execution_raise_on_error``). These tests check that
refusal, that the player's renderer still visits every position, that the website build runs in
that mode, and that every ``asked`` label names a label of a chapter (the declared settings are
positions: tests/test_explorer_engine.py and tests/site/test_players.py check those).
"""

import re
from pathlib import Path

import nbformat
import pytest

import lincourse as lc
from lincourse.explorers import Explorer, Param
from lincourse.explorers._engine import MODE_VARIABLE

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = sorted((ROOT / "chapters").glob("*.ipynb"))
FACTORIES = [getattr(lc.explorers, name) for name in lc.explorers.__all__
             if name not in ("Explorer", "Param", "display_mode")]


def _toy():
    def draw(ax, a, b):
        ax.plot([0, a], [0, b])
        return f"a = {a:.2f}, b = {b:.2f}"

    return Explorer(draw, [Param("a", 0, 1, 0.25, 0.5), Param("b", 0, 1, 0.25, 0.0)], title="Toy",
                    asked={"ex-toy": [{"a": 0.75}, {"a": 1.0, "b": 0.5}]})


def test_the_website_build_refuses_a_setting_its_player_does_not_declare(monkeypatch):
    monkeypatch.setenv(MODE_VARIABLE, "player")
    ex = _toy()
    assert ex.set(a=0.75).readout == "a = 0.75, b = 0.00"          # declared
    assert ex.set(a=1.0, b=0.5).readout == "a = 1.00, b = 0.50"    # declared, both sliders
    assert ex.set(a=0.5, b=0.0).values == {"a": 0.5, "b": 0.0}     # the defaults
    with pytest.raises(ValueError, match=r"'Toy': the setting \{'a': 0.25\} .* asked="):
        ex.set(a=0.25)
    ex.set(a=0.5)
    with pytest.raises(ValueError, match=r"\{'b': 0.5\}"):          # the whole setting counts, not each value
        ex.set(b=0.5)
    monkeypatch.setenv(MODE_VARIABLE, "widget")                     # live: every position is allowed
    assert _toy().set(a=0.25).readout == "a = 0.25, b = 0.00"


def test_the_players_renderer_still_visits_every_position(monkeypatch, tmp_path):
    from lincourse.explorers._player import build_player, frame

    monkeypatch.setenv(MODE_VARIABLE, "player")
    ex = _toy()
    assert frame(ex, a=0.25, b=1.0)[1] == "a = 0.25, b = 1.00"
    info = build_player(ex, tmp_path)
    assert info["count"] >= 1 and ex.values == {"a": 0.5, "b": 0.0}


def test_the_website_build_runs_the_chapters_in_player_mode_with_warnings_as_errors():
    make = (ROOT / "Makefile").read_text()
    html = re.search(r"^test-html:.*\n((?:\t.*\n)+)", make, flags=re.M).group(1)
    assert "LINCOURSE_EXPLORER_MODE=player" in html and " -W " in html and "--all" in html
    # every chapter runs in this build: the execution cache is emptied first (the PDF reuses these runs)
    assert html.index("rm -rf $(RUNS)") < html.index("jupyter-book build")
    assert re.search(r"^RUNS := _build/\.jupyter_cache$", make, flags=re.M)
    config = (ROOT / "_config.yml").read_text()
    assert re.search(r"execute_notebooks:\s*cache", config) and re.search(r"nb_execution_raise_on_error:\s*true", config)


@pytest.mark.parametrize("factory", FACTORIES, ids=lambda f: f.__name__)
def test_every_asked_label_names_a_label_of_a_chapter(factory):
    labels = set()
    for chapter in CHAPTERS:
        for cell in nbformat.read(chapter, as_version=4).cells:
            labels.update(re.findall(r":label:\s*(\S+)", cell.source))
            labels.update(re.findall(r"^\((\S+)\)=\s*$", cell.source, flags=re.M))
    ex = factory()
    missing = sorted(set(ex.asked) - labels)
    assert not missing, f"{ex.title}: asked= names labels that no chapter defines: {missing}"
