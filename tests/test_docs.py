"""The book and the package point at each other: docstring examples run, cited labels exist."""

import doctest
import importlib
import json
import pkgutil
import re
from pathlib import Path

import pytest

import lincourse

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted(m.name for m in pkgutil.walk_packages(lincourse.__path__, "lincourse."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0


def _chapter_sources():
    sources = {}
    for path in sorted((ROOT / "chapters").glob("*.ipynb")):
        nb = json.loads(path.read_text())
        sources[path.stem] = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    return sources


def _cited_labels():
    cited = set()
    for name in MODULES:
        module = importlib.import_module(name)
        text = "\n".join(filter(None, [module.__doc__] + [getattr(obj, "__doc__", "") or "" for obj in vars(module).values()
                                                              if getattr(obj, "__module__", None) == name]))
        for cls in [o for o in vars(module).values() if isinstance(o, type) and o.__module__ == name]:
            text += "\n".join((getattr(m, "__doc__", "") or "") for m in vars(cls).values() if callable(m))
        cited |= set(re.findall(r"equations? ``\(([\w-]+)\)``", text))
        cited |= {f"label:{x}" for x in re.findall(r"``((?:alg|thm)-[\w-]+)``", text)}
    return cited


def test_every_label_a_docstring_cites_exists_in_a_chapter():
    text = "\n".join(_chapter_sources().values())
    missing = []
    for label in sorted(_cited_labels()):
        if label.startswith("label:"):
            name = label[6:]
            if not re.search(rf":label:\s*{re.escape(name)}\b", text):
                missing.append(name)
        elif not re.search(rf"\$\$\s*\({re.escape(label)}\)", text):
            missing.append(f"({label})")
    assert not missing, f"labels cited in lincourse docstrings but defined in no chapter: {missing}"


def test_chapters_are_in_the_toc_with_titles():
    toc = (ROOT / "_toc.yml").read_text()
    titles = {
        "01_hyperplanes": "Hyperplanes and linear classifiers",
        "02_signed_distance": "Signed distance and margins",
        "03_training_error": "Training error and linear separability",
        "04_generalisation": "Generalisation",
        "05_perceptron": "The perceptron and its convergence",
        "06_perceptron_nonseparable": "The perceptron beyond separable data",
        "07_logistic_model": "The logistic model and maximum likelihood",
        "08_fitting_logistic_regression": "Fitting logistic regression, and when the fit does not exist",
        "09_logistic_regression_in_practice": "Logistic regression in practice",
        "10_curved_boundaries_and_classes": "Curved boundaries and several classes",
    }
    for stem, title in titles.items():
        assert f"chapters/{stem}" in toc
        nb = json.loads((ROOT / "chapters" / f"{stem}.ipynb").read_text())
        first = "".join(nb["cells"][0]["source"]).splitlines()[0]
        assert first == f"# {title}"


def test_the_players_assets_ship_with_the_package_and_the_book_links_them():
    import fnmatch
    import tomllib

    from lincourse import _book
    from lincourse.explorers._player import PLAYER_CSS, PLAYER_JS

    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    for asset in (PLAYER_CSS, PLAYER_JS):
        assert asset.is_file()
        assert any(fnmatch.fnmatch(asset.name, pattern) for pattern in data["lincourse.explorers"]), asset.name
        assert asset in _book._ASSETS
    config = (ROOT / "_config.yml").read_text()
    assert "- lincourse._book" in config and "- lincourse._theme" in config


# "Chapter N" and what follows it in the same sentence: up to a full stop followed by a space or the end (so
# that "0..K-1" or "p.5" does not end the sentence), or up to the next chapter named, whichever comes first
CHAPTER_SENTENCE = re.compile(r"[Cc]hapter (\d+)((?:(?![Cc]hapter \d)(?:[^.]|\.(?!\s)))*?(?:\.\s|$|(?=[Cc]hapter \d)))",
                              re.S)
CITED_LABEL = re.compile(r"``\(?((?:alg|thm|prop|def|cor|lem)-[\w-]+|[a-z]+(?:-[a-z]+)*)\)?``")
# Chapters named with their titles in italics: "chapter 3 (*T*)", "chapters 5 and 6 (*T5*, *T6*)", "chapters
# 7-10 (*T7*, *T8*, *T9*, *T10*)", "Chapters 7, 8 and 9 (...)", and the "... and 6 (*T6*)" that continues a list
_ITALICS = r"\*[^*]+\*(?:(?:,| and|, and) \*[^*]+\*)*"
TITLED_CHAPTERS = re.compile(rf"(?:[Cc]hapters? |(?<=\*\))(?:,| and|, and) )(\d+(?: ?[-–] ?\d+|(?:, \d+)*(?:,? and \d+)?))"
                             rf" \(({_ITALICS})\)")
# ... or with a plain title in parentheses, "chapter 4 (generalisation)"
PLAIN_TITLED_CHAPTER = re.compile(r"[Cc]hapter (\d+) \(([^()*`:;]+)\)")


def _chapter_titles():
    import yaml

    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    titles = {}
    for number, entry in enumerate(toc["chapters"], start=1):
        nb = json.loads((ROOT / f"{entry['file']}.ipynb").read_text())
        titles[number] = "".join(nb["cells"][0]["source"]).splitlines()[0].lstrip("# ").strip()
    return titles


def _misnamed_chapters(text, titles):
    """(chapters named with a title, what is wrong) in ``text``: a title that is not that chapter's, or a
    list whose numbers and titles do not pair up."""
    text = " ".join(text.split())   # a title may break across lines
    seen, wrong = 0, []
    for numbers, italics in TITLED_CHAPTERS.findall(text):
        ends = re.findall(r"\d+", numbers)
        named = (list(range(int(ends[0]), int(ends[1]) + 1)) if re.search(r"[-–]", numbers)
                 else [int(n) for n in ends])
        given = re.findall(r"\*([^*]+)\*", italics)
        seen += len(given)
        if len(named) != len(given):
            wrong.append(f"chapters {numbers} named with {len(given)} titles ({italics})")
        wrong += [f"chapter {n} (*{title}*), but chapter {n} is *{titles.get(n)}*"
                  for n, title in zip(named, given) if titles.get(n) != title]
    by_title = {title.lower(): n for n, title in titles.items()}
    for number, plain in PLAIN_TITLED_CHAPTER.findall(text):
        if plain.lower() in by_title:
            seen += 1
            if by_title[plain.lower()] != int(number):
                wrong.append(f"chapter {number} ({plain}), but that is chapter {by_title[plain.lower()]}'s title")
    return seen, wrong


def test_the_scans_read_every_form_they_claim():
    """The two scans below, on sentences made to trip them (so that they cannot pass by reading nothing)."""
    titles = {1: "Alpha", 2: "Beta, and gamma", 3: "Delta", 4: "Epsilon"}
    sentence = CHAPTER_SENTENCE.search("Chapter 5, indices ``0..K-1`` and then algorithm ``alg-late``. Next")
    assert CITED_LABEL.findall(sentence.group(2)) == ["alg-late"]
    ok = ("Chapter 1 (*Alpha*), chapter 2 (*Beta, and gamma*) and chapter 3 (*Delta*); chapters 1 and 2 (*Alpha*,\n"
          "*Beta, and gamma*); chapters 1-3 (*Alpha*, *Beta, and gamma*, *Delta*); Chapters 1, 2 and 3 (*Alpha*,"
          " *Beta, and gamma*, *Delta*); chapters 3 (*Delta*) and 4 (*Epsilon*); chapter 4 (epsilon).")
    assert _misnamed_chapters(ok, titles) == (14, [])
    for bad in ("Chapter 2 (*Alpha*)", "chapters 1 and 2 (*Beta, and gamma*, *Alpha*)", "chapters 1-3 (*Alpha*)",
                "chapters 3 (*Delta*) and 4 (*Alpha*)", "chapters 1, 2 and 4 (*Alpha*, *Beta, and gamma*, *Delta*)",
                "chapter 3 (epsilon)"):
        assert _misnamed_chapters(bad, titles)[1], bad


def test_a_docstring_names_the_chapter_that_defines_what_it_cites():
    """"Chapter 5, algorithm ``alg-perceptron-offset``": the label is defined in chapter 5."""
    defined = {}
    for stem, text in _chapter_sources().items():
        number = int(stem[:2])
        for pattern in (r":label:\s*(\S+)", r"\$\$\s*\((\S+)\)\s*$"):
            for label in re.findall(pattern, text, re.M):
                defined.setdefault(label, number)
    wrong = []
    for path in sorted((ROOT / "lincourse").rglob("*.py")):
        for m in CHAPTER_SENTENCE.finditer(path.read_text()):
            for label in CITED_LABEL.findall(m.group(2)):
                if label in defined and defined[label] != int(m.group(1)):
                    wrong.append(f"{path.relative_to(ROOT)}: chapter {m.group(1)} for {label} "
                                 f"(defined in chapter {defined[label]})")
    assert not wrong, "\n".join(wrong)


def test_every_chapter_named_with_its_title_has_that_title():
    """ "Chapter 7 (*The logistic model and maximum likelihood*)", "chapters 5 and 6 (*...*, *...*)" or
    "chapter 4 (generalisation)" in the code, the tools, the docs and the README names the chapter the table
    of contents puts at that number, by its title (a chapter that moves fails here)."""
    titles = _chapter_titles()
    files = [*(ROOT / "lincourse").rglob("*.py"), *(ROOT / "tools").rglob("*.py"), *(ROOT / "docs").rglob("*.md"),
             ROOT / "README.md"]
    wrong, seen = [], 0
    for path in sorted(files):
        found, errors = _misnamed_chapters(path.read_text(encoding="utf-8"), titles)
        seen += found
        wrong += [f"{path.relative_to(ROOT)}: {e}" for e in errors]
    assert seen >= 15, f"the scan found only {seen} chapters named with their titles"
    assert not wrong, "\n".join(wrong)
