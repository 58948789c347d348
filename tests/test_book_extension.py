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


def test_the_katex_server_is_started_once_and_waited_for(monkeypatch):
    """A connection refused while the KaTeX server starts (its socket file exists before it listens) is
    retried on the same server: one node process, which renders, and none left behind after it stops."""
    import atexit
    import socket
    import subprocess

    from sphinxcontrib.katex import KaTeXServer

    from lincourse import _theme

    monkeypatch.setattr(KaTeXServer, "katex_server", None)
    started, refusals = [], [3]
    real_popen, real_connect = subprocess.Popen, socket.socket.connect

    def popen(*args, **kwargs):
        started.append(real_popen(*args, **kwargs))
        return started[-1]

    def connect(self, address):
        if isinstance(address, str) and address.endswith("katex.sock") and refusals[0] > 0:
            refusals[0] -= 1
            raise ConnectionRefusedError("not listening yet")
        return real_connect(self, address)

    monkeypatch.setattr(subprocess, "Popen", popen)
    monkeypatch.setattr(socket.socket, "connect", connect)
    app = SimpleNamespace(builder=SimpleNamespace(format="html"), config=SimpleNamespace(katex_prerender=True))
    _theme._start_katex(app)
    server = KaTeXServer.katex_server
    try:
        assert refusals == [0] and len(started) == 1 and server.process is started[0]
        assert 'class="katex"' in server.render({"latex": "x^2", "katex_options": {}}, 10)["html"]
    finally:
        server.terminate()
        atexit.unregister(KaTeXServer.terminate)   # stopped here, not again when the tests end
    assert started[0].poll() is not None


def test_one_run_of_each_chapter_serves_the_website_and_the_pdf(monkeypatch, tmp_path):
    """The website's build runs every chapter (the execution cache emptied first); the PDF's build,
    after it, takes the runs from the cache: an explorer's one output holds the player and its print."""
    import re
    from pathlib import Path

    import lincourse as lc
    from lincourse.explorers._engine import MODE_VARIABLE, PRINT_MIME

    root = Path(__file__).resolve().parents[1]
    make = (root / "Makefile").read_text()
    recipe = lambda target: re.search(rf"^{target}:.*\n((?:\t.*\n)+)", make, flags=re.M).group(1)
    assert re.search(r"^test-pdf: test-html\b", make, flags=re.M)
    assert "pdf REUSE_RUNS=1" in recipe("test-pdf") and "$(SITE_PDF)" in recipe("test-pdf")
    assert "$(if $(REUSE_RUNS),,rm -rf $(RUNS))" in recipe("pdf")   # alone, make pdf runs every chapter afresh
    for book in (make[make.index("\nbook:"):make.index("\nbook-strict:")], recipe("book-strict")):
        assert book.index("rm -rf $(RUNS)") < book.index("jupyter-book build .") < book.index("pdf REUSE_RUNS=1")
    for builder in ("html", "latex"):  # both builders' kernels run in player mode
        monkeypatch.delenv(MODE_VARIABLE, raising=False)
        _book._assets(SimpleNamespace(builder=SimpleNamespace(format=builder), outdir=str(tmp_path / builder)))
        assert lc.explorers.display_mode() == "player"
    monkeypatch.setenv("LINCOURSE_PLAYER_DIR", str(tmp_path / "players"))
    bundle = lc.explorers.threshold_roc()._repr_mimebundle_()
    assert "lincourse-player" in bundle["text/html"]
    assert bundle[PRINT_MIME]["title"] and bundle[PRINT_MIME]["pdf"]
    assert _book.PrintedExplorer.mime_priority_overrides == [("latex", PRINT_MIME, 1)]
