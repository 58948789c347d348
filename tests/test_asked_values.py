"""Every slider setting a chapter makes is a position of its website player, declared in ``asked``.

The chapters drive their explorers in code (``ex.set(angle=30, b=0.5)``) to print the readouts
the text discusses, and their exercises ask the reader to make settings. Both must be possible on
the website, whose players only have the positions of :func:`player_grids`. This test runs each
chapter (with nbclient, explorers in live mode) with ``Explorer.set`` recording every setting
made, then checks that each one is either the explorer's defaults or one of the settings the
explorer declares in ``asked`` (and so a player position: tests/test_explorer_engine.py and
tests/site/test_players.py check those), and that every ``asked`` label names a label of a chapter.
"""

import json
import re
from pathlib import Path

import nbformat
import pytest
from execute_notebooks import run_notebook

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = sorted((ROOT / "chapters").glob("*.ipynb"))

RECORD = """
import lincourse.explorers._engine as _engine
_seen, _explorers = [], {}
_set = _engine.Explorer.set
def _recording_set(self, **values):
    result = _set(self, **values)
    _explorers[self.title] = self
    _seen.append((self.title, dict(self.values)))
    return result
_engine.Explorer.set = _recording_set
"""

REPORT = """
import json
from lincourse.explorers._player import player_grids
_problems = []
for _title, _values in _seen:
    _ex = _explorers[_title]
    _defaults = {p.name: p.clip(p.default) for p in _ex.params}
    _declared = [dict(_defaults, **s) for settings in _ex.asked.values() for s in settings]
    _grids = player_grids(_ex)
    _off = {k: v for k, v in _values.items() if v not in _grids[k]}
    if _off or (_values != _defaults and _values not in _declared):
        _problems.append([_title, _values, sorted(_off)])
print(json.dumps({"problems": _problems, "asked": {t: sorted(e.asked) for t, e in _explorers.items()}}))
"""


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_every_setting_a_chapter_makes_is_declared_and_a_player_position(path, monkeypatch):
    monkeypatch.setenv("LINCOURSE_EXPLORER_MODE", "widget")
    monkeypatch.setenv("MPLBACKEND", "agg")
    nb = nbformat.read(path, as_version=4)
    nb.cells.insert(0, nbformat.v4.new_code_cell(RECORD))
    nb.cells.append(nbformat.v4.new_code_cell(REPORT))
    run_notebook(nb, path.parent)
    printed = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.get("output_type") == "stream")
    result = json.loads(next(line for line in printed.splitlines() if line.startswith('{"problems"')))
    assert result["problems"] == [], f"{path.name}: settings that are not declared in asked= or not player positions"
    labels = set()
    for chapter in CHAPTERS:
        for cell in nbformat.read(chapter, as_version=4).cells:
            labels.update(re.findall(r":label:\s*(\S+)", cell.source))
            labels.update(re.findall(r"^\((\S+)\)=\s*$", cell.source, flags=re.M))
    for title, asked in result["asked"].items():
        missing = sorted(set(asked) - labels)
        assert not missing, f"{title}: asked= names labels that no chapter defines: {missing}"
