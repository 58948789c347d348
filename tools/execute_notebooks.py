"""Execute chapter notebooks in place so that their stored outputs are current.

Usage: ``python tools/execute_notebooks.py [NOTEBOOK ...]`` (default: every ``chapters/*.ipynb``).

The stored outputs are what ``pytest --nbval`` compares against, so run this after editing a chapter.
Widget state is not stored (the explorers' ipywidgets are recreated by the kernel; storing their
state would also make the website load the widget manager from a CDN), and any stale widget state
in the notebook metadata is removed, no execution timestamps are stored (they would change the file
on every run), and consecutive printed outputs of a cell are joined into one.
Explorers run in their live "widget" mode here, as they do under nbval.
"""

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def execute(path, timeout=300):
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    nb.metadata.pop("widgets", None)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", store_widget_state=False,
                            record_timing=False, resources={"metadata": {"path": str(Path(path).parent)}})
    client.execute()
    nb.metadata.pop("widgets", None)
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
    args = parser.parse_args(argv)
    os.environ["LINCOURSE_EXPLORER_MODE"] = "widget"
    os.environ.setdefault("MPLBACKEND", "agg")
    paths = args.notebooks or sorted(str(p) for p in (ROOT / "chapters").glob("*.ipynb"))
    for path in paths:
        print(f"executing {path}", flush=True)
        execute(path, args.timeout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
