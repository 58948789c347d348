"""Each chapter's setup cell: generated from _config.yml, and it installs lincourse where it is missing.

On Colab (the launch button of every chapter page) lincourse is not installed; the first code cell
of each chapter installs it from the repository named in ``_config.yml``, at the release tag
``v<version>`` of ``pyproject.toml`` (never a branch), and is a no-op elsewhere.
``tools/execute_notebooks.py`` writes that cell; these tests check the chapters carry the cell
generated from the current ``_config.yml``, that writing it is idempotent, and run it in a fresh
virtual environment without lincourse, offline: ``LINCOURSE_INSTALL`` points the install at a copy
of this checkout, and the dependencies come from the test environment.
"""

import copy
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import tomllib
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
import execute_notebooks as ex

CHAPTERS = sorted((ROOT / "chapters").glob("*.ipynb"))


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_the_first_code_cell_is_the_setup_cell_generated_from_the_config(path):
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    setup = code[0]
    assert setup.get("id") == ex.SETUP_ID
    assert setup.source == ex.setup_source(), ("stale setup cell: run `make execute` after changing _config.yml's "
                                               "repository.url or pyproject.toml's version")
    assert "remove-cell" in setup.metadata.get("tags", [])  # not shown on the website
    assert setup.outputs == []  # a no-op where lincourse is installed: nothing for nbval to compare
    assert sum(c.get("id") == ex.SETUP_ID for c in nb.cells) == 1


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_kernel_metadata_is_what_the_kernel_declares(path):
    from jupyter_client.kernelspec import KernelSpecManager

    spec = KernelSpecManager().get_kernel_spec("python3")
    nb = nbformat.read(path, as_version=4)
    assert nb.metadata["kernelspec"] == {"display_name": spec.display_name, "language": spec.language,
                                         "name": "python3"}
    assert nb.metadata["language_info"]["name"] == "python"


def test_setup_cell_follows_the_repository_url_and_installs_the_release_tag(tmp_path):
    config = tmp_path / "_config.yml"
    config.write_text("repository:\n  url: https://github.com/someone/fork/\n  branch: course\n")
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\nname = "lincourse"\nversion = "2.3.4"\n')
    source = ex.setup_source(config, pyproject)
    assert '"git+https://github.com/someone/fork@v2.3.4"' in source  # the release, not the branch
    assert "@course" not in source and "lincourse/lincourse" not in source
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert f'"git+{ex.repository()}@v{version}"' in ex.setup_source()  # this checkout's release
    config.write_text("repository:\n  url: github.com/no-scheme\n")
    with pytest.raises(ValueError, match="repository.url must be the https:// address"):
        ex.setup_source(config, pyproject)


def test_writing_the_setup_cell_is_idempotent_and_refreshes_a_stale_one(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Title"),
                                         nbformat.v4.new_code_cell("import lincourse")])
    once = ex.ensure_setup_cell(copy.deepcopy(nb))
    twice = ex.ensure_setup_cell(copy.deepcopy(once))
    assert once == twice
    assert [c.get("id") for c in once.cells][1] == ex.SETUP_ID and once.cells[0].source == "# Title"
    stale = copy.deepcopy(once)
    stale.cells[1].source = "# an old setup cell"
    stale.cells.append(copy.deepcopy(stale.cells[1]))  # and a duplicate
    refreshed = ex.ensure_setup_cell(stale)
    assert refreshed == once


def _setup_code(path=CHAPTERS[0]):
    nb = nbformat.read(path, as_version=4)
    return next(c.source for c in nb.cells if c.get("id") == ex.SETUP_ID)


def test_setup_cell_installs_lincourse_in_a_fresh_environment_and_is_then_a_no_op(tmp_path):
    venv = tmp_path / "fresh"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    # The dependencies (numpy, matplotlib, ..., pip and setuptools) come from the test environment, as
    # Colab has its own; its .pth files are not processed, so its editable lincourse is not visible.
    Path(site, "test-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    work = tmp_path / "work"
    work.mkdir()
    script = work / "cell.py"
    script.write_text(_setup_code() + "\n")
    check = work / "check.py"
    check.write_text(textwrap.dedent("""
        import importlib.util
        spec = importlib.util.find_spec("lincourse")
        print("missing" if spec is None else spec.origin)
    """))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PIP_", "VIRTUAL_ENV"))}
    env["PIP_NO_INPUT"] = "1"
    before = subprocess.run([str(python), str(check)], cwd=work, env=env, capture_output=True, text=True)
    assert before.stdout.strip() == "missing", before.stdout + before.stderr
    # a copy of the checkout, so that building it leaves no build/ folder in the working tree
    source = tmp_path / "checkout"
    shutil.copytree(ROOT / "lincourse", source / "lincourse", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md", "LICENSE", "LICENSE-CONTENT.md"):  # license-files too
        shutil.copy(ROOT / name, source / name)
    env[ex.INSTALL_VARIABLE] = f"--no-deps --no-build-isolation --no-index --ignore-installed {source}"
    run = subprocess.run([str(python), str(script)], cwd=work, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    after = subprocess.run([str(python), "-c", "import lincourse as lc; print(lc.__file__); "
                            "print(lc.predict([[1.0, 2.0]], [1.0, -1.0], 0.5))"],
                           cwd=work, env=env, capture_output=True, text=True)
    assert after.returncode == 0, after.stderr
    assert after.stdout.splitlines()[0].startswith(str(venv)), after.stdout  # installed into the fresh environment
    # where lincourse is installed, the cell does nothing: no output, and pip is not run
    env[ex.INSTALL_VARIABLE] = "--this-option-does-not-exist"
    again = subprocess.run([str(python), str(script)], cwd=work, env=env, capture_output=True, text=True)
    assert again.returncode == 0 and again.stdout == "" and again.stderr == "", again.stdout + again.stderr
