"""The website players of the built site, in Chromium: positions, the values the chapters ask for, figures, weight.

Run after ``make book`` (``make browser``). For every player of every chapter page:

* every slider has at least 13 positions (or every value of a short count), angle sliders move by
  15 degrees or less;
* at every setting the course asks the reader to make (the explorer's ``asked``, declared once beside
  the explorer), the player shows exactly the readout the live explorer prints (computed here, in
  Python, with the explorer itself), and the slider shows the value as the live slider does;
* different positions show different figures;
* the whole site is at most 150 MB; a player works from a folder opened as ``file://``.

A chapter's first load and first step are checked in ``test_first_paint.py``, in the one fresh visit
of each page.
"""

import functools
import json

import pytest

from _site import CHROMIUM, PAGES, SITE

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="Chromium not found: install Debian's chromium package"),
    pytest.mark.skipif(not (SITE / "intro.html").exists(), reason="no built site: run `make book` first"),
]

SITE_LIMIT = 150_000_000


def _factories():
    import lincourse as lc

    credit = lc.datasets.load_credit()
    made = {}
    for name in lc.explorers.__all__:
        if name in ("Explorer", "Param", "display_mode"):
            continue
        factory = getattr(lc.explorers, name)
        if name == "training_error":  # chapter 3 shows it on the standardised credit data, as the chapter computes them
            Z = (credit.data - credit.data.mean(axis=0)) / credit.data.std(axis=0)
            factory = functools.partial(factory, Z, credit.target, ("age (standardised)", "salary (standardised)"))
        made[factory().title] = factory
    return made


@pytest.fixture(scope="module")
def explorers():
    return {title: factory() for title, factory in _factories().items()}


def _config(player):
    return json.loads(player.locator('script[type="application/json"]').text_content())


def _move(page, player, indexes):
    """Set the player's sliders to ``indexes`` as a reader would, and wait for that frame."""
    handle = player.element_handle()
    page.evaluate("""([root, indexes]) => {
        const inputs = root.querySelectorAll('input[type=range]');
        indexes.forEach((i, k) => { inputs[k].value = String(i); });
        inputs[inputs.length - 1].dispatchEvent(new Event('input', {bubbles: true}));
    }""", [handle, indexes])
    cfg = _config(player)
    frame = 0
    for i, size in zip(indexes, cfg["sizes"]):
        frame = frame * size + i
    page.wait_for_function("([root, f]) => root.getAttribute('data-frame') === String(f)"
                           " && !root.classList.contains('lincourse-loading')", arg=[handle, frame], timeout=10000)
    return player.locator(".lincourse-layer").inner_html(), player.locator("pre").text_content()


@pytest.mark.parametrize("path", PAGES)
def test_players_positions_asked_values_and_figures(browser, server, explorers, path):
    errors = []
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/{path}", wait_until="networkidle")
    players = page.locator("figure.lincourse-player")
    for k in range(players.count()):
        player = players.nth(k)
        cfg = _config(player)
        title = player.get_attribute("data-title")
        ex = explorers[title]
        assert cfg["labels"] == [(p.label or p.name).replace("$", "").replace("\\", "") for p in ex.params]
        # 1. positions
        for p, shown in zip(ex.params, cfg["values"]):
            assert len(shown) >= min(13, len(p.grid())), (title, p.name, len(shown))
            values = [float(v) for v in shown]
            if "angle" in p.name:
                assert max(b - a for a, b in zip(values, values[1:])) <= 15, (title, values)
        # 2. every asked setting is a position and shows the live readout
        for label, settings in ex.asked.items():
            for setting in settings:
                full = {p.name: p.clip(p.default) for p in ex.params}
                full.update(setting)
                indexes = [cfg["values"][j].index(p.format(full[p.name])) for j, p in enumerate(ex.params)]
                _, readout = _move(page, player, indexes)
                assert readout == ex.set(**full).readout, (title, label, full)
                outputs = player.locator("output").all_text_contents()
                assert outputs == [p.format(full[p.name]) for p in ex.params]
        # 3. one figure per position: step every slider through a few positions
        figures = set()
        base = [cfg["values"][j].index(p.format(p.clip(p.default))) for j, p in enumerate(ex.params)]
        moves = 0
        for j, size in enumerate(cfg["sizes"]):
            for i in sorted({0, size // 3, (2 * size) // 3, size - 1} - {base[j]}):
                indexes = list(base)
                indexes[j] = i
                figures.add(_move(page, player, indexes)[0])
                moves += 1
        assert len(figures) == moves, f"{title}: {moves} positions showed {len(figures)} different figures"
    assert not errors, errors
    page.close()


def test_site_size():
    total = sum(f.stat().st_size for f in SITE.rglob("*") if f.is_file())
    assert total <= SITE_LIMIT, f"the site is {total / 1e6:.1f} MB"


def test_players_work_from_a_local_folder(browser):
    path = next(p for p in PAGES if "01_" in p)
    errors = []
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((SITE / path).resolve().as_uri(), wait_until="load")
    player = page.locator("figure.lincourse-player").first
    before = player.locator(".lincourse-layer").inner_html()
    cfg = _config(player)
    indexes = [0] * len(cfg["sizes"])
    layer, readout = _move(page, player, indexes)
    assert layer != before and readout
    assert not errors, errors
    page.close()


def test_math_is_read_as_mathml_and_not_in_the_tab_order(browser, server):
    path = next(p for p in PAGES if "02_" in p)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{server}/{path}", wait_until="networkidle")
    formulas = page.locator(".katex").count()
    assert formulas > 10
    assert page.locator(".katex .katex-mathml math").count() == formulas  # what screen readers read
    assert page.locator(".katex .katex-html[aria-hidden='true']").count() == formulas  # read once, not twice
    # in the Tab order only the display formulas too wide for the column (they scroll)
    assert page.locator(".katex [tabindex]:not([tabindex='-1'])").count() == 0
    assert page.locator(".katex-display[tabindex='0']:not(.lincourse-scrolls)").count() == 0
    page.close()


_STATE = """root => ({
    loading: root.classList.contains('lincourse-loading'),
    status: root.querySelector('.lincourse-status').textContent,
    busy: root.querySelector('pre.lincourse-readout').getAttribute('aria-busy'),
    outputs: [...root.querySelectorAll('output')].map(o => o.textContent),
    readout: root.querySelector('pre.lincourse-readout').textContent,
    layer: root.querySelector('.lincourse-layer').innerHTML,
    frame: root.getAttribute('data-frame'),
    opacity: getComputedStyle(root.querySelector('svg.lincourse-figure')).opacity,
})"""

_STEP = """(root, [k, i]) => {
    const input = root.querySelectorAll('input[type=range]')[k];
    input.value = String(i);
    input.dispatchEvent(new Event('input', {bubbles: true}));
}"""


def test_a_move_never_shows_a_stale_frame(browser, server):
    """While a frame's chunk is on its way the player says "Loading…" and changes nothing; then all at once."""
    path = next(p for p in PAGES if "01_" in p)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    held, hold = [], [True]
    page.route("**/_static/players/*/c*.js", lambda route: held.append(route) if hold[0] else route.continue_())
    page.goto(f"{server}/{path}", wait_until="load")
    player = page.locator("figure.lincourse-player").first
    player.scroll_into_view_if_needed()
    cfg = _config(player)
    before = player.evaluate(_STATE)
    assert not before["loading"] and before["status"] == "" and before["busy"] is None
    last = cfg["sizes"][0] - 1
    target = 0 if before["outputs"][0] == cfg["values"][0][last] else last
    player.evaluate(_STEP, [0, target])
    during = player.evaluate(_STATE)
    assert during["loading"] and during["status"] == "Loading\u2026" and during["busy"] == "true"
    assert float(during["opacity"]) < 1  # dimmed: not shown as the figure of the new position
    # the figure, the readout and the values beside the sliders wait together
    assert (during["layer"], during["readout"], during["outputs"]) == (before["layer"], before["readout"],
                                                                       before["outputs"])
    hold[0] = False
    for route in held:
        route.continue_()
    page.wait_for_function("root => !root.classList.contains('lincourse-loading')", arg=player.element_handle())
    after = player.evaluate(_STATE)
    assert after["status"] == "" and after["busy"] is None and float(after["opacity"]) == 1
    assert after["outputs"][0] == cfg["values"][0][target] and after["layer"] != before["layer"]
    page.close()


def test_a_note_asks_to_run_the_notebook_only_when_positions_are_missing(explorers):
    import re

    from lincourse.explorers._player import player_grids

    seen = 0
    for path in PAGES:
        html = (SITE / path).read_text(encoding="utf-8")
        for title, note in re.findall(r'data-title="([^"]*)".*?<span class="lincourse-note">\(([^)]*)\)', html):
            ex = explorers[title.replace("&amp;", "&").replace("&quot;", '"').replace("&#x27;", "'")]
            complete = all(len(player_grids(ex)[p.name]) == len(p.grid()) for p in ex.params)
            assert ("run the notebook" in note) != complete, (title, note)
            seen += 1
    assert seen >= 5
