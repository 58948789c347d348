"""Show the source of a lincourse function or class in a notebook (chapters 3 and 8).

The chapters print the learners' own code next to their algorithm blocks, so the code a reader
studies is the code that runs, and cannot drift from it.
"""

from __future__ import annotations

import inspect
import textwrap

__all__ = ["Source", "show_source"]


class Source:
    """The source text of a Python object, displayed by Jupyter as a highlighted code block.

    ``_repr_markdown_`` gives a fenced ``python`` block (rendered with highlighting by myst-nb on
    the website and by JupyterLab and Colab); ``repr`` gives the plain text, which is deterministic
    (it changes only when the source changes).
    """

    def __init__(self, text, name):
        self.text = text
        self.name = name

    def __repr__(self):
        return self.text

    def __str__(self):
        return self.text

    def _repr_markdown_(self):
        fence = "```"
        while fence in self.text:  # a longer fence if the source itself contains one
            fence += "`"
        return f"{fence}python\n{self.text}\n{fence}\n"


def show_source(obj):
    """Return the source of ``obj`` (a function, class or method) for display in a notebook.

    Parameters
    ----------
    obj : function, class or method
        For example ``lincourse.Perceptron.fit`` or ``lincourse.check_separation``.

    Returns
    -------
    Source
        Displayed by Jupyter as a highlighted Python block (``_repr_markdown_``); its ``repr`` is
        the plain source, dedented, without a trailing newline.

    Raises
    ------
    TypeError
        If ``obj`` has no Python source (a built-in, a number, an instance).

    Examples
    --------
    >>> def double(x):
    ...     return 2 * x
    >>> print(repr(show_source(double)).splitlines()[0]) # doctest: +SKIP
    def double(x):
    """
    target = inspect.unwrap(obj)
    if isinstance(target, (property, staticmethod, classmethod)):
        target = target.fget if isinstance(target, property) else target.__func__
    try:
        text = inspect.getsource(target)
    except (TypeError, OSError) as exc:
        raise TypeError(
            f"show_source needs a Python function, class or method defined in a file, got {obj!r} "
            f"({type(obj).__name__}): {exc}"
        ) from None
    name = getattr(target, "__qualname__", getattr(target, "__name__", type(target).__name__))
    return Source(textwrap.dedent(text).rstrip("\n"), name)
