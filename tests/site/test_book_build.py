"""The book build fails when a notebook raises (Jupyter Book 1 alone would exit 0)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[2]


def test_a_raising_notebook_fails_the_build(tmp_path):
    shutil.copy(ROOT / "_config.yml", tmp_path / "_config.yml")
    (tmp_path / "_toc.yml").write_text("format: jb-book\nroot: broken\n")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# Broken"), nbformat.v4.new_code_cell("raise RuntimeError('boom')")]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, tmp_path / "broken.ipynb")
    jupyter_book = Path(sys.executable).with_name("jupyter-book")
    env = dict(os.environ, MPLBACKEND="agg", LINCOURSE_EXPLORER_MODE="player")
    done = subprocess.run([str(jupyter_book), "build", str(tmp_path), "--all", "--keep-going"],
                          capture_output=True, text=True, env=env, timeout=900)   # a hung build fails here
    assert done.returncode != 0
    assert "broken.ipynb" in done.stdout + done.stderr
