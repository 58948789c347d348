"""The built site as a web server sees it, without a browser: deployable anywhere, no doubled words.

Run after the book is built (``make browser``). A web server (nginx, a university's Apache, GitHub
Pages' upload) runs as another user than the build, so every folder of ``_build/html`` must be
readable and searchable by any user and every file readable by any user: a player folder of mode
0700 (``tempfile.mkdtemp``'s) made every slider say "This position could not be loaded".
"""

import re
import stat

import pytest

from _site import SITE

pytestmark = pytest.mark.skipif(not (SITE / "intro.html").exists(), reason="no built site: run `make book` first")


def test_every_folder_and_file_is_readable_by_any_user():
    unreadable = []
    for path in [SITE, *SITE.rglob("*")]:
        mode = stat.S_IMODE(path.lstat().st_mode)
        wanted = 0o555 if path.is_dir() else 0o444
        if mode & wanted != wanted:
            unreadable.append(f"{path.relative_to(SITE)} ({oct(mode)})")
    assert (SITE / "_static" / "players").is_dir()
    assert not unreadable, f"{len(unreadable)} not readable by any user, e.g. {unreadable[:5]}"


def test_the_site_has_its_icon_and_the_players_script():
    assert (SITE / "_static" / "favicon.svg").is_file()
    page = (SITE / "intro.html").read_text(encoding="utf-8")
    assert re.search(r'<link rel="icon" href="_static/favicon\.svg', page)
    chapter = next((SITE / "chapters").glob("*.html")).read_text(encoding="utf-8")
    # linked with a checksum, so that no browser runs a cached older copy
    assert re.search(r'<script defer="defer" src="\.\./_static/lincourse-player\.js\?v=[0-9a-f]{8}"', chapter)
    assert re.search(r'<link [^>]*href="\.\./_static/lincourse-player\.css\?v=[0-9a-f]{8}"', chapter)


def test_no_doubled_word_before_an_exercise_link():
    doubled = []
    for page in sorted(SITE.rglob("*.html")):
        text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.read_text(encoding="utf-8")))
        doubled += [f"{page.name}: ...{m.group(0)}" for m in re.finditer(r"\b[Ee]xercise Exercise \d+", text)]
    assert not doubled, doubled
