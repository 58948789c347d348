"""Fixtures of the browser tests: the built site on a local server, and headless Chromium."""

import os

import pytest

from _site import BROWSER_ARGS, CHROMIUM, SITE, serve

if os.environ.get("LINCOURSE_REQUIRE_BROWSER") and CHROMIUM is None:  # CI sets this: never skip there
    raise RuntimeError("LINCOURSE_REQUIRE_BROWSER is set but Chromium is not installed")


@pytest.fixture(scope="module")
def server():
    """The base URL of ``_build/html`` served on 127.0.0.1."""
    with serve(SITE) as base:
        yield base


@pytest.fixture(scope="session")
def browser():
    """Debian's headless Chromium, driven by Playwright: one for the whole run (each test opens its own
    pages or contexts, so no state passes from one test to the next)."""
    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        _LAUNCHED.append(b)
        yield b
        _LAUNCHED.clear()
        b.close()


_LAUNCHED = []


@pytest.fixture(scope="module", autouse=True)
def _pages_closed_after_each_module():
    """What a module left open in the shared browser is closed when the module ends, as it was when each
    module had a browser of its own (open pages would keep running their scripts beside later tests)."""
    yield
    for b in _LAUNCHED:
        for context in list(b.contexts):
            context.close()
