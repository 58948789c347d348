"""What the browser tests share: the built site, Debian's Chromium and how it is started, a local server.

The fixtures built on these (``server``, ``browser``) are in ``conftest.py``.
"""

import contextlib
import functools
import http.server
import shutil
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "_build" / "html"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# Headless and offline: without the background-networking flags Chromium tries to reach Google's hosts.
BROWSER_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PAGES = sorted(p.relative_to(SITE).as_posix() for p in (SITE / "chapters").glob("*.html")) if SITE.exists() else []


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class _Server(http.server.ThreadingHTTPServer):
    request_queue_size = 64   # a page and its prefetched chunks open many connections at once

    def handle_error(self, request, client_address):
        """A page closed while a prefetched chunk was on its way is not an error of the site."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@contextlib.contextmanager
def serve(directory=SITE):
    """Serve ``directory`` on 127.0.0.1 (a free port) while in use; yields the base URL."""
    httpd = _Server(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(directory)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
