"""The site build's extension (lincourse._book): the players copied into the site are those the pages link to."""

from types import SimpleNamespace

from lincourse import _book


def test_the_site_gets_exactly_the_players_its_pages_link_to(tmp_path):
    out = tmp_path / "_build" / "html"
    cache = tmp_path / "_build" / ".players"
    for key in ("0123456789abcdef", "fedcba9876543210", "00000000ffffffff"):
        (cache / key).mkdir(parents=True)
        (cache / key / "frames.json").write_text(key)
    (out / "chapters").mkdir(parents=True)
    (out / "chapters" / "one.html").write_text('<img src="../_static/players/0123456789abcdef/f.svg">')
    (out / "two.html").write_text('<a href="_static/players/fedcba9876543210/f.svg">x</a>')
    stale = out / "_static" / "players" / "00000000ffffffff"
    stale.mkdir(parents=True)
    app = SimpleNamespace(outdir=str(out), builder=SimpleNamespace(format="html"))
    _book._copy_players(app, None)
    copied = sorted(p.name for p in (out / "_static" / "players").iterdir())
    assert copied == ["0123456789abcdef", "fedcba9876543210"]
    assert (out / "_static" / "players" / "fedcba9876543210" / "frames.json").read_text() == "fedcba9876543210"


def test_a_failed_build_copies_nothing(tmp_path):
    app = SimpleNamespace(outdir=str(tmp_path / "html"), builder=SimpleNamespace(format="html"))
    _book._copy_players(app, RuntimeError("build failed"))
    assert not (tmp_path / "html").exists()
