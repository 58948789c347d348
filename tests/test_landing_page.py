"""The landing page's course map: every chapter, linked, with the times its own opening states."""

import re

import chapter_model as cm

INTRO = (cm.ROOT / "intro.md").read_text(encoding="utf-8")


def _map_rows():
    m = re.search(r"^:::\{container\} course-map\n(.*?)^:::\s*$", INTRO, re.M | re.S)
    assert m, "intro.md has no ':::{container} course-map' block"
    rows = [line for line in m.group(1).splitlines() if line.startswith("|")]
    return [[c.strip() for c in row.strip("|").split("|")] for row in rows[2:]]   # without header and rule


def test_the_course_map_lists_every_chapter_in_order_with_a_link():
    rows = _map_rows()
    chapters = cm.toc_chapters()
    assert len(rows) == len(chapters)
    for number, (row, path) in enumerate(zip(rows, chapters), start=1):
        assert row[0] == str(number), row
        assert f"](chapters/{path.name})" in row[1], f"row {number} does not link {path.name}: {row[1]}"


def test_the_course_map_gives_each_chapter_the_times_its_opening_states():
    header = [c.strip() for c in re.search(r"^:::\{container\} course-map\n.*?^(\|.*)$", INTRO, re.M | re.S)
              .group(1).strip("|").split("|")]
    core, further = header.index("Core"), header.index("Going further")
    lecture = header.index("Lecture")
    for row, path in zip(_map_rows(), cm.toc_chapters()):
        ch = cm.read(path)
        stated = ch.stated_times()
        opening = cm.source(ch.cells[0])
        minutes = re.search(r"(\d+)\s*minutes", opening)
        assert minutes and row[lecture] == f"{minutes.group(1)} min", (path.name, row[lecture])
        assert stated, f"{path.name}: the opening states no core and Going-further times"
        assert row[core] == f"about {cm.duration(stated[0])}", (path.name, row[core], stated)
        assert row[further] == f"about {cm.duration(stated[1])}", (path.name, row[further], stated)


def test_the_start_link_and_the_prerequisites_of_each_chapter():
    assert "](chapters/01_hyperplanes.ipynb)" in INTRO.split("## ", 1)[0]
    header = [c.strip() for c in re.search(r"^:::\{container\} course-map\n.*?^(\|.*)$", INTRO, re.M | re.S)
              .group(1).strip("|").split("|")]
    needs = header.index("Builds on")
    for number, (row, path) in enumerate(zip(_map_rows(), cm.toc_chapters()), start=1):
        cited = [int(n) for n in re.findall(r"\b(\d+)\b", row[needs])]
        assert cited == cm.read(path).prerequisites(), (
            f"chapter {number}: the map says it builds on {row[needs]!r}, its opening's prerequisites name "
            f"{cm.read(path).prerequisites()} (regenerate the map: python tools/course_map.py)")
        assert all(n < number for n in cited), f"chapter {number} builds on a later chapter: {row[needs]}"
        assert cited or number == 1, f"chapter {number} names no earlier chapter it builds on"
