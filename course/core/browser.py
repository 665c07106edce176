"""Serving a built site on loopback and starting headless Chromium: one definition for the tests
(tests/conftest.py) and the measuring scripts (scripts/). Debian's chromium, driven by Playwright; the
flags keep it from reaching for any other host at start-up."""
from __future__ import annotations

import contextlib
import functools
import gzip
import http.server
import sys
import threading
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LOCAL_HOSTS = ("127.0.0.1", "localhost")


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """A static file handler that keeps the test output free of request logs. With `prefix`, the site is
    served under that sub-path (as a host publishing it at https://host/prefix/ would) and nothing else is."""
    prefix = ""

    def translate_path(self, path):
        if self.prefix:
            if not path.startswith(self.prefix + "/"):
                return str(Path(self.directory) / "no-such-file")
            path = path[len(self.prefix):]
        return super().translate_path(path)

    def log_message(self, *a):
        pass


class GzipHandler(QuietHandler):
    """Text files sent gzip-compressed to a client that accepts it, as a static host (GitHub Pages) sends them:
    what a page costs a reader to transfer, for the measuring scripts."""
    TEXT = (".html", ".js", ".css", ".json", ".svg", ".xml", ".txt")

    def do_GET(self):
        path = Path(self.translate_path(self.path.split("?")[0]))
        if path.is_dir():
            path = path / "index.html"
        if "gzip" not in self.headers.get("Accept-Encoding", "") or path.suffix not in self.TEXT or not path.is_file():
            return super().do_GET()
        body = gzip.compress(path.read_bytes(), 6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class QuietServer(http.server.ThreadingHTTPServer):
    """A browser that closes a connection while a file is sent (a page left, a fetch cancelled) is not an
    error worth a traceback in the test output; any other error still is."""
    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


@contextlib.contextmanager
def serve(directory: Path, prefix: str = "", compress: bool = False):
    """Serve `directory` on a free loopback port; yields the base URL (with the prefix). `compress`: text
    files gzip-compressed, as a static host sends them."""
    handler = type("Handler", (GzipHandler if compress else QuietHandler,), {"prefix": prefix})
    httpd = QuietServer(("127.0.0.1", 0), functools.partial(handler, directory=str(directory)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}{prefix}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def launch(playwright):
    """Headless Debian chromium; a missing browser is an error, never a download."""
    if not Path(CHROMIUM).exists():
        raise FileNotFoundError(f"{CHROMIUM} is missing: `make browser` installs Debian's chromium")
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
