"""Shared fixtures: one real build of the site per test session, a local server, headless Chromium.

Browser tests use Debian's chromium through Playwright (no browser download). Every page opened through
`open_page` records console errors and any request to another host; `check_clean()` asserts both empty.
"""
from __future__ import annotations

import functools
import http.server
import os
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def run_build(root: Path = ROOT, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    e = {k: v for k, v in os.environ.items() if k != "COURSE_DRAFT"}
    e.update(env or {})
    return subprocess.run([sys.executable, "build.py", *args], cwd=root, capture_output=True, text=True,
                          env=e, timeout=1800)


@pytest.fixture(scope="session")
def site_dir() -> Path:
    r = run_build()
    assert r.returncode == 0, f"build failed:\n{r.stdout}\n{r.stderr}"
    return ROOT / "site"


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a):
        pass


@pytest.fixture(scope="session")
def server(site_dir: Path):
    handler = functools.partial(_QuietHandler, directory=str(site_dir))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


class Visit:
    """A page plus what it did: console errors and requests that left 127.0.0.1."""

    def __init__(self, page, base: str):
        self.page, self.base = page, base
        self.console_errors: list[str] = []
        self.external: list[str] = []
        page.on("console", lambda m: m.type == "error" and self.console_errors.append(m.text))
        page.on("pageerror", lambda e: self.console_errors.append(str(e)))
        page.on("response", lambda r: r.status >= 400 and self.console_errors.append(f"HTTP {r.status} {r.url}"))

        def route(r):
            host = urlparse(r.request.url).hostname
            if r.request.url.startswith(("data:", "blob:")) or host in ("127.0.0.1", "localhost"):
                return r.continue_()
            self.external.append(r.request.url)
            return r.abort()
        page.route("**/*", route)

    def goto(self, path: str):
        self.page.goto(self.base + "/" + path.lstrip("/"), wait_until="networkidle")
        return self.page

    def check_clean(self):
        assert self.external == [], f"requests to other hosts: {self.external}"
        assert self.console_errors == [], f"console errors: {self.console_errors}"


@pytest.fixture
def open_page(browser, server):
    """open_page(path, scheme='light'|'dark') → Visit; the page is closed after the test."""
    contexts = []

    def _open(path: str, scheme: str = "light") -> Visit:
        ctx = browser.new_context(color_scheme=scheme)
        contexts.append(ctx)
        v = Visit(ctx.new_page(), server)
        v.goto(path)
        return v
    yield _open
    for c in contexts:
        c.close()
