"""Execute chapter notebooks in place so that their stored outputs are current.

Usage: ``python tools/execute_notebooks.py [NOTEBOOK ...]`` (default: every ``chapters/*.ipynb``).

The stored outputs are what ``pytest --nbval`` compares against, so run this after editing a chapter.
Widget state is not stored (the explorers' ipywidgets are recreated by the kernel; storing their
state would also make the website load the widget manager from a CDN), and any stale widget state
in the notebook metadata is removed, no execution timestamps are stored (they would change the file
on every run), and consecutive printed outputs of a cell are joined into one.
Explorers run in their live "widget" mode here, as they do under nbval.

Two things are (re)written on every run, idempotently, so that a notebook opens the same everywhere:

* the **setup cell**, the first code cell (right after the title cell, id ``lincourse-setup``): it
  installs ``lincourse`` where it is missing (Colab), from the repository named once in
  ``_config.yml`` (``repository.url``) at the release tag ``v<version>``, the version being
  ``project.version`` of ``pyproject.toml`` (never a branch, which moves during a term), and does
  nothing where it is installed (JupyterLab, Binder, the book build, nbval), so it prints nothing
  and compares equal under nbval. The environment variable ``LINCOURSE_INSTALL`` replaces what it
  installs (the arguments to ``pip install``, e.g. a local checkout); it is tagged ``remove-cell``,
  so the website does not show it;
* the **metadata**: the kernelspec (name, display name, language) as the installed ``python3``
  kernel declares it and the ``language_info`` the kernel reports, so that opening a notebook in
  JupyterLab does not mark it modified.

``--no-execute`` does only these two things (no kernel is started; stored outputs are kept).
"""

import argparse
import contextlib
import os
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KERNEL = "python3"
SETUP_ID = "lincourse-setup"
SETUP_TAGS = ["remove-cell", "lincourse-setup"]
INSTALL_VARIABLE = "LINCOURSE_INSTALL"


def repository(config=ROOT / "_config.yml"):
    """The https address of the course repository: ``repository.url`` of ``_config.yml``."""
    import yaml

    repo = (yaml.safe_load(Path(config).read_text()) or {}).get("repository") or {}
    url = str(repo.get("url") or "").rstrip("/")
    if not url.startswith("https://"):
        raise ValueError(f"{config}: repository.url must be the https:// address of the course repository, got {url!r}")
    return url


def release_tag(pyproject=ROOT / "pyproject.toml"):
    """The git tag of the release the chapters belong to: ``v`` + ``project.version`` of ``pyproject.toml``."""
    import tomllib

    version = str((tomllib.loads(Path(pyproject).read_text()).get("project") or {}).get("version") or "")
    if not re.fullmatch(r"\d+\.\d+\.\d+", version):
        raise ValueError(f"{pyproject}: project.version must be a release number like 1.0.0, got {version!r}")
    return f"v{version}"


def setup_source(config=ROOT / "_config.yml", pyproject=ROOT / "pyproject.toml"):
    """The text of the setup cell: installs the release tagged ``v<version>`` from the configured repository."""
    url, tag = repository(config), release_tag(pyproject)
    return (
        "# Setup: installs the course's library, lincourse, where it is missing (e.g. on Colab);\n"
        "# where it is installed (JupyterLab on your machine, Binder) this cell does nothing.\n"
        "import importlib.util, os, shlex, subprocess, sys\n"
        "if importlib.util.find_spec(\"lincourse\") is None:\n"
        f"    source = os.environ.get(\"{INSTALL_VARIABLE}\", \"git+{url}@{tag}\")\n"
        "    subprocess.run([sys.executable, \"-m\", \"pip\", \"install\", \"--quiet\", *shlex.split(source)], check=True)\n"
        "    importlib.invalidate_caches()"
    )


def ensure_setup_cell(nb, config=ROOT / "_config.yml"):
    """Insert or refresh the setup cell (right after the first cell, the title); idempotent."""
    import nbformat

    source = setup_source(config)
    cells = [c for c in nb.cells if c.get("id") == SETUP_ID or SETUP_TAGS[1] in c.get("metadata", {}).get("tags", [])]
    for cell in cells[1:]:
        nb.cells.remove(cell)
    if cells:
        cell = cells[0]
        nb.cells.remove(cell)
    else:
        cell = nbformat.v4.new_code_cell()
    cell.source = source
    cell.id = SETUP_ID
    cell.metadata = {"tags": list(SETUP_TAGS)}
    cell.outputs = []
    cell.execution_count = cell.get("execution_count")
    first_code = next((i for i, c in enumerate(nb.cells) if c.cell_type == "code"), len(nb.cells))
    nb.cells.insert(min(1, first_code), cell)
    return nb


def kernel_metadata(nb, language_info=None):
    """Set the kernelspec (as the installed kernel declares it) and ``language_info`` metadata."""
    from jupyter_client.kernelspec import KernelSpecManager

    spec = KernelSpecManager().get_kernel_spec(KERNEL)
    nb.metadata["kernelspec"] = {"display_name": spec.display_name, "language": spec.language, "name": KERNEL}
    if language_info is None:
        language_info = _language_info()
    nb.metadata["language_info"] = language_info
    return nb


def _language_info():
    """The ``language_info`` that the ``python3`` kernel reports (one short kernel start)."""
    with started_kernel() as (km, kc):
        msg_id = kc.kernel_info()
        reply = kc.get_shell_msg(timeout=60)
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = kc.get_shell_msg(timeout=60)
        return reply["content"]["language_info"]


@contextlib.contextmanager
def local_kernel_config():
    """The configuration of every kernel the tools and the tests start: it talks over local (IPC)
    sockets in a private temporary directory, removed afterwards, not over TCP ports.

    jupyter_client gives a TCP kernel free ports that the kernel binds only later; when several
    kernels start at once (``make test`` runs two steps side by side), another process can take a
    port in between and the kernel dies with "Address already in use". Local sockets in a directory
    of one's own cannot be taken.
    """
    from traitlets.config import Config

    with tempfile.TemporaryDirectory(prefix="lincourse-kernel-") as directory:
        config = Config()
        config.KernelManager.transport = "ipc"
        config.KernelManager.ip = os.path.join(directory, "kernel")
        yield config


@contextlib.contextmanager
def started_kernel():
    """``(manager, client)`` of a running ``python3`` kernel over local sockets, shut down on exit."""
    from jupyter_client.manager import KernelManager

    with local_kernel_config() as config:
        km = KernelManager(kernel_name=KERNEL, config=config)
        km.start_kernel()
        kc = km.client()
        kc.start_channels()
        try:
            kc.wait_for_ready(timeout=60)
            yield km, kc
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=True)


def run_notebook(nb, directory, timeout=300, **options):
    """Execute notebook ``nb`` in place, in a fresh ``python3`` kernel working in ``directory`` (over
    local sockets, see :func:`local_kernel_config`); ``options`` go to ``nbclient.NotebookClient``."""
    from nbclient import NotebookClient

    with local_kernel_config() as config:
        NotebookClient(nb, timeout=timeout, kernel_name=KERNEL, config=config,
                       resources={"metadata": {"path": str(directory)}}, **options).execute()
    return nb


def execute(path, timeout=300):
    import nbformat

    nb = nbformat.read(path, as_version=4)
    nb.metadata.pop("widgets", None)
    ensure_setup_cell(nb)
    run_notebook(nb, Path(path).parent, timeout=timeout, store_widget_state=False, record_timing=False)
    nb.metadata.pop("widgets", None)
    kernel_metadata(nb, language_info=nb.metadata.get("language_info"))  # nbclient stored the kernel's
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = _merge_streams(cell.outputs)
            cell.metadata.pop("execution", None)  # timestamps: they would change on every run
    nbformat.write(nb, path)


def _merge_streams(outputs):
    """Join consecutive stdout (or stderr) outputs into one, as Jupyter shows them."""
    merged = []
    for out in outputs:
        if (out.get("output_type") == "stream" and merged and merged[-1].get("output_type") == "stream"
                and merged[-1].get("name") == out.get("name")):
            merged[-1]["text"] = "".join(merged[-1]["text"]) + "".join(out["text"])
        else:
            merged.append(out)
    return merged


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", help="notebooks to execute (default: chapters/*.ipynb)")
    parser.add_argument("--timeout", type=int, default=300, help="seconds allowed per cell (default 300)")
    parser.add_argument("--no-execute", action="store_true",
                        help="only insert/refresh the setup cell and the kernel metadata (no execution)")
    args = parser.parse_args(argv)
    os.environ["LINCOURSE_EXPLORER_MODE"] = "widget"
    os.environ.setdefault("MPLBACKEND", "agg")
    paths = args.notebooks or sorted(str(p) for p in (ROOT / "chapters").glob("*.ipynb"))
    for path in paths:
        if args.no_execute:
            print(f"{path}: {'updated' if prepare(path) else 'unchanged'}", flush=True)
            continue
        print(f"executing {path}", flush=True)
        execute(path, args.timeout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
