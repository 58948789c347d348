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
        text = path.read_text()
        # "Chapter N" followed, in the same sentence, by the labels it cites
        # (up to the end of the sentence, a full stop followed by a space, so that "0..K-1" does not end it,
        # or the next chapter named, whichever comes first)
        for m in re.finditer(r"[Cc]hapter (\d+)((?:(?![Cc]hapter \d)(?:[^.]|\.(?!\s)))*?(?:\.\s|$|(?=[Cc]hapter \d)))", text, re.S):
            for label in re.findall(r"``\(?((?:alg|thm|prop|def|cor|lem)-[\w-]+|[a-z]+(?:-[a-z]+)*)\)?``", m.group(2)):
                if label in defined and defined[label] != int(m.group(1)):
                    wrong.append(f"{path.relative_to(ROOT)}: chapter {m.group(1)} for {label} "
                                 f"(defined in chapter {defined[label]})")
    assert not wrong, "\n".join(wrong)


def test_every_chapter_named_with_its_title_has_that_title():
    """ "Chapter 7 (*The logistic model and maximum likelihood*)" in the code, the tools and the docs names
    the chapter the table of contents puts at number 7, by its title (a chapter that moves fails here)."""
    import yaml

    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    titles = {}
    for number, entry in enumerate(toc["chapters"], start=1):
        nb = json.loads((ROOT / f"{entry['file']}.ipynb").read_text())
        titles[number] = "".join(nb["cells"][0]["source"]).splitlines()[0].lstrip("# ").strip()
    files = [*(ROOT / "lincourse").rglob("*.py"), *(ROOT / "tools").rglob("*.py"), *(ROOT / "docs").rglob("*.md"),
             ROOT / "README.md"]
    wrong, seen = [], 0
    for path in files:
        text = " ".join(path.read_text(encoding="utf-8").split())   # a title may break across lines
        for number, title in re.findall(r"[Cc]hapters? (\d+) \(\*([^*]+)\*\)", text):
            seen += 1
            if titles.get(int(number)) != title:
                wrong.append(f"{path.relative_to(ROOT)}: chapter {number} (*{title}*), but chapter {number} is "
                             f"*{titles.get(int(number))}*")
    assert seen >= 4, "the scan found no chapter named with its title"
    assert not wrong, "\n".join(wrong)
