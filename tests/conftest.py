"""Shared fixtures: one real build of the site per test session, a local server, headless Chromium.

Browser tests use Debian's chromium through Playwright (no browser download). Every page opened through
`open_page` records console errors and any request to another host; `check_clean()` asserts both empty.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse

import pytest

from course.core.browser import LOCAL_HOSTS, launch, serve
from course.paths import REGISTRY, ROOT

LANGS = ["zh", "en"]


def run_build(root: Path = ROOT, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    e = {k: v for k, v in os.environ.items() if k not in ("COURSE_DRAFT", "COURSE_TEST_BUILD")}
    e.update(env or {})
    return subprocess.run([sys.executable, "build.py", *args], cwd=root, capture_output=True, text=True,
                          env=e, timeout=1800)


# While a lesson is written before its runs' results exist, COURSE_TEST_BUILD=draft builds the session's
# site with --no-train --draft (missing results reported, unknown keys shown as ⟨key?⟩). CI never sets it.
SESSION_BUILD = ("--no-train", "--draft") if os.environ.get("COURSE_TEST_BUILD") == "draft" else ("--frozen",)


@pytest.fixture(scope="session")
def site_dir() -> Path:
    """The site, built once per session with the committed results (never training: a stale result fails)."""
    r = run_build(ROOT, *SESSION_BUILD)
    assert r.returncode == 0, f"build failed:\n{r.stdout}\n{r.stderr}"
    return ROOT / "site"


@pytest.fixture(scope="session")
def registry(site_dir):
    from course.core.registry import Registry
    return Registry.read(REGISTRY)


@pytest.fixture(scope="session")
def units():
    from course.project import units as discover
    return discover()


@pytest.fixture(scope="session")
def inputs():
    """The chapter's validated inputs (data/*.json)."""
    from course.common.schema import load_inputs
    return load_inputs()


@pytest.fixture(scope="session")
def reg(units, inputs):
    """The registry computed from the inputs and the committed results, without building the site
    (browser tests override it with the built site's registry)."""
    from course.core.numbers import build_registry
    return build_registry(units, inputs)


def widget_config(reg, name: str, mode: str | None = None, lang: str = "zh") -> dict:
    """The config a widget's page embeds (its data-config attribute), as the page's script reads it."""
    import html
    import json
    import re

    from course.core import widgets
    from course.project import units as discover
    _, w = discover().widget(name)
    out = widgets.render(w, mode, lang, reg)
    return json.loads(html.unescape(re.search(r'data-config="([^"]*)"', out).group(1)))


@pytest.fixture(scope="session")
def server(site_dir: Path):
    with serve(site_dir) as base:
        yield base


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


class Visit:
    """A page plus what it did: console errors and requests that left 127.0.0.1."""

    def __init__(self, page, base: str):
        self.page, self.base = page, base
        self.console_errors: list[str] = []
        self.external: list[str] = []
        self.requested: list[str] = []
        page.on("console", lambda m: m.type == "error" and self.console_errors.append(m.text))
        page.on("pageerror", lambda e: self.console_errors.append(str(e)))
        page.on("response", lambda r: r.status >= 400 and self.console_errors.append(f"HTTP {r.status} {r.url}"))

        def route(r):
            host = urlparse(r.request.url).hostname
            self.requested.append(r.request.url)
            if r.request.url.startswith(("data:", "blob:")) or host in LOCAL_HOSTS:
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
    """open_page(path, scheme='light'|'dark', width=None) → Visit; the page is closed after the test."""
    contexts = []

    def _open(path: str, scheme: str = "light", width: int | None = None, base: str | None = None) -> Visit:
        kw = {"viewport": {"width": width, "height": 844}} if width else {}
        ctx = browser.new_context(color_scheme=scheme, **kw)
        contexts.append(ctx)
        v = Visit(ctx.new_page(), base or server)
        v.goto(path)
        return v
    yield _open
    for c in contexts:
        c.close()


def lesson_path(unit, lang: str) -> str:
    """The URL path of a lesson's first page in a language ("c4/normalization/", "en/c4/normalization/")."""
    return ("en/" if lang == "en" else "") + unit.pages[0] + "/"
