"""Sphinx extension used by the course's Jupyter Book build (listed in ``_config.yml``).

Two small fixes to every page, so that the browser console stays clean (tests/site checks it):

* the light/dark mode defaults to "auto" (follow the reader's system setting): sphinx-book-theme
  leaves pydata-sphinx-theme's ``default_mode`` empty, which its script reports as an invalid mode;
* duplicated inline scripts are removed: sphinx-thebe 0.3 registers its configuration script
  (``const THEBE_JS_URL = ...``) once per reading pass, and Jupyter Book 1 makes two, so every
  page declared the same constant twice and the browser logged a SyntaxError.
"""

from __future__ import annotations


def _fix_page(app, pagename, templatename, context, doctree):
    if not context.get("default_mode"):
        context["default_mode"] = "auto"
    scripts = context.get("script_files")
    if not scripts:
        return
    seen, unique = set(), []
    for script in scripts:
        # an inline script may be registered with filename None once and '' the other time
        key = (getattr(script, "filename", str(script)) or "", tuple(sorted(getattr(script, "attributes", {}).items())))
        if key in seen:
            continue
        seen.add(key)
        unique.append(script)
    scripts[:] = unique


def setup(app):
    app.connect("html-page-context", _fix_page, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
