"""A release an instructor can adopt and cite: licences, citation metadata and one version everywhere.

The version is written in ``pyproject.toml``; ``CITATION.cff``, the top release of ``CHANGELOG.md``, the
landing page's "How to cite", the installed ``lincourse.__version__`` and the tag the chapters' setup
cells install (``v<version>``) must all agree, so that a release (README.md, "Releasing") that forgets
one of them fails here. ``CITATION.cff`` is validated against the CFF 1.2.0 JSON schema, shipped in
``tests/data`` so that the test runs offline.
"""

import json
import re
import tomllib
from datetime import date
from pathlib import Path

import jsonschema
import pytest
import yaml

import lincourse

ROOT = Path(__file__).resolve().parents[1]
import execute_notebooks as ex

SEMVER = r"\d+\.\d+\.\d+"
CC_BY = "https://creativecommons.org/licenses/by/4.0/"


def _citation():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    # YAML reads an unquoted date as a date; the CFF schema wants the string (its own note to tools).
    return {k: v.isoformat() if isinstance(v, date) else v for k, v in cff.items()}


def _pyproject():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _config():
    return yaml.safe_load((ROOT / "_config.yml").read_text())


def _releases():
    """``[(version, date), ...]`` of CHANGELOG.md's release headings, newest first."""
    return re.findall(rf"^## \[({SEMVER})\] - (\d{{4}}-\d{{2}}-\d{{2}})$", (ROOT / "CHANGELOG.md").read_text(), re.M)


def _section(path, title):
    """The text of the ``## title`` section of a markdown file (up to the next ``##`` heading)."""
    text = Path(path).read_text()
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, f"{path.name} has no '## {title}' section"
    return match.group(1)


# --- CITATION.cff -------------------------------------------------------------------------------------

def test_citation_file_is_valid_cff_1_2_0():
    schema = json.loads((ROOT / "tests" / "data" / "cff-1.2.0.schema.json").read_text())
    validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
    errors = [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}"
              for e in validator.iter_errors(_citation())]
    assert not errors, "CITATION.cff does not follow CFF 1.2.0:\n" + "\n".join(errors)


def test_citation_file_has_what_a_citation_needs():
    cff = _citation()
    assert cff["cff-version"] == "1.2.0"
    for key in ("message", "title", "version", "date-released", "repository-code", "license"):
        assert isinstance(cff.get(key), str) and cff[key].strip(), f"CITATION.cff: {key} missing or empty"
    assert re.fullmatch(SEMVER, cff["version"]), cff["version"]
    date.fromisoformat(cff["date-released"])
    assert cff["authors"] and all(a.get("name") or a.get("family-names") for a in cff["authors"])


def test_citation_agrees_with_the_book_and_the_package():
    cff, config, project = _citation(), _config(), _pyproject()
    assert cff["title"] == config["title"]
    assert cff["repository-code"] == str(config["repository"]["url"]).rstrip("/") == ex.repository()
    names = [a["name"] for a in cff["authors"]]
    assert names == [config["author"]] == [a["name"] for a in project["authors"]]
    assert cff["license"] == "CC-BY-4.0" and "MIT" in cff["abstract"]  # the course's licence; the code's named


# --- one version everywhere ---------------------------------------------------------------------------

def test_one_version_everywhere():
    version = _pyproject()["version"]
    assert re.fullmatch(SEMVER, version), f"pyproject.toml: version {version!r} is not a release number"
    assert _citation()["version"] == version, "CITATION.cff: version differs from pyproject.toml"
    releases = _releases()
    assert releases, "CHANGELOG.md has no release heading '## [x.y.z] - YYYY-MM-DD'"
    assert releases[0][0] == version, "CHANGELOG.md: the newest release is not pyproject.toml's version"
    assert releases[0][1] == _citation()["date-released"], "CITATION.cff: date-released differs from CHANGELOG.md"
    assert lincourse.__version__ == version, (
        f"the installed lincourse says {lincourse.__version__}, pyproject.toml {version}: run `make install`")
    assert ex.release_tag() == f"v{version}"


def test_changelog_is_keep_a_changelog_newest_first():
    text = (ROOT / "CHANGELOG.md").read_text()
    headings = re.findall(r"^## (.*)$", text, re.M)
    assert headings[0] == "[Unreleased]", "CHANGELOG.md starts with an [Unreleased] section"
    releases = _releases()
    assert len(releases) == len(headings) - 1, f"release headings must read '## [x.y.z] - YYYY-MM-DD': {headings}"
    versions = [tuple(map(int, v.split("."))) for v, _ in releases]
    dates = [date.fromisoformat(d) for _, d in releases]
    assert versions == sorted(versions, reverse=True) and len(set(versions)) == len(versions)
    assert dates == sorted(dates, reverse=True)


def test_setup_cells_install_the_release_tag_never_a_branch():
    source = ex.setup_source()
    url, tag = ex.repository(), ex.release_tag()
    assert f'"git+{url}@{tag}"' in source
    assert f"@{_config()['repository'].get('branch', 'main')}\"" not in source


def test_release_tag_needs_a_release_number(tmp_path):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\nname = "x"\nversion = "2.3.4"\n')
    assert ex.release_tag(pyproject) == "v2.3.4"
    pyproject.write_text('[project]\nname = "x"\nversion = "main"\n')
    with pytest.raises(ValueError, match="project.version must be a release number"):
        ex.release_tag(pyproject)


# --- the landing page ---------------------------------------------------------------------------------

def test_how_to_cite_on_the_landing_page_matches_the_citation_file():
    cff = _citation()
    section = _section(ROOT / "intro.md", "How to cite")
    year = cff["date-released"][:4]
    for what in (cff["title"], cff["version"], cff["repository-code"], year, *(a["name"] for a in cff["authors"])):
        assert what in section, f"intro.md, How to cite: {what!r} (from CITATION.cff) is missing"
    assert set(re.findall(rf"\b{SEMVER}\b", section)) == {cff["version"]}, "intro.md cites another version"
    assert set(re.findall(r"\b(?:19|20)\d\d\b", section)) == {year}, "intro.md cites another year"
    bibtex = re.search(r"```bibtex\n(.*?)```", section, re.S)
    assert bibtex, "intro.md, How to cite: no BibTeX entry"
    fields = dict(re.findall(r"^\s*(\w+)\s*=\s*\{(.*)\},?$", bibtex.group(1), re.M))
    assert fields["title"] == cff["title"] and fields["year"] == year and fields["url"] == cff["repository-code"]
    assert fields["author"].strip("{}") == " and ".join(a["name"] for a in cff["authors"])
    assert "CITATION.cff" in section


def test_licences_are_named_on_the_landing_page_and_in_the_footer():
    section = _section(ROOT / "intro.md", "Licence")
    assert "CC BY 4.0" in section and CC_BY in section and "MIT" in section
    for name in ("LICENSE", "LICENSE-CONTENT.md", "lincourse/datasets/data/README.md"):
        assert f"`{name}`" in section and (ROOT / name).is_file()
    config = _config()
    footer = str(config["copyright"])
    assert re.match(r"\d{4} ", footer) and config["author"] in footer  # year and holder
    assert "CC BY 4.0" in footer and "MIT" in footer


def test_every_repository_address_is_the_configured_one():
    """A fork changes ``repository.url`` in _config.yml; every file that names the repository follows it."""
    url = ex.repository()
    for name in ("intro.md", "LICENSE-CONTENT.md", "CITATION.cff", "README.md"):
        found = set(re.findall(r"https://github\.com/[\w.-]+/[\w.-]+", (ROOT / name).read_text()))
        assert found == {url}, f"{name} names {sorted(found)}, _config.yml's repository.url is {url}"


# --- the licence files --------------------------------------------------------------------------------

def test_licence_files():
    author = _config()["author"]
    mit = (ROOT / "LICENSE").read_text()
    assert mit.startswith("MIT License\n")
    assert re.search(rf"^Copyright \(c\) \d{{4}} {re.escape(author)}$", mit, re.M), "LICENSE names no holder"
    content = (ROOT / "LICENSE-CONTENT.md").read_text()
    assert CC_BY in content and author in content
    assert "Creative Commons Attribution 4.0 International Public License" in content  # the legal code itself
    project = _pyproject()
    assert project["license"] == "MIT AND CC-BY-4.0"
    assert all((ROOT / f).is_file() for f in project["license-files"])


def test_every_shipped_data_set_has_its_source_and_licence():
    data = ROOT / "lincourse" / "datasets" / "data"
    rows = {}
    for line in (data / "README.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| `") and len(cells) == 4:
            rows[cells[0].strip("`")] = cells
    assert set(rows) == {p.name for p in data.glob("*.csv")}, "data/README.md must list every shipped CSV"
    for name, (_, shape, source, licence) in rows.items():
        lines = (data / name).read_text().splitlines()
        header = lines[0].split(",")
        n, d, label = re.match(r"(\d+) x (\d+) \+ `(\w+)`", shape).groups()
        assert (int(n), int(d) + 1, label) == (len(lines) - 1, len(header), header[-1]), name
        assert source and re.search(r"CC BY 4\.0|MIT", licence), name
        if "UCI" in source:
            assert "doi:10.24432/" in source and "CC BY 4.0" in licence, name
