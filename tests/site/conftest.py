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


@pytest.fixture(scope="module")
def browser():
    """Debian's headless Chromium, driven by Playwright."""
    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        yield b
        b.close()
