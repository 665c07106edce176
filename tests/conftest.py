"""Shared fixtures: one real build of the site per test session, in a temporary copy of the project (the
checkout is never written by a test), a local server, headless Chromium.

Tiers. A test's tier follows from the fixtures it uses (directly or through other fixtures), so a new test
lands in the right one by what it needs:
    build    it needs a built site or a copy of the project it builds (`built`, `site_dir`, `project_copy`),
             or executes notebooks (`kernel`)
    browser  it drives Chromium (`browser`, `open_page`, `server`); browser tests need a build too
    slow     it trains the small model (`trains`), rebuilds the registry from other results (`registry_of`)
             or recomputes it many times over (`perturbed_inputs`)
The fast tier (`make check`) is every test marked none of these.

Browser tests use Debian's chromium through Playwright (no browser download). Every page opened through
`open_page` records console errors and any request to another host; `check_clean()` asserts both empty.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import urlparse

import pytest

# one thread per test process, as the training workers run: on two cores shared with a build or a browser,
# OpenMP threads that wait for each other by spinning slow a few small steps down by minutes
os.environ.setdefault("OMP_NUM_THREADS", "1")

from course.core.browser import LOCAL_HOSTS, launch, serve  # noqa: E402
from course.core.project import Paths  # noqa: E402
from course.paths import PLOTLY_URI, ROOT  # noqa: E402
from project_copy import copy_project, fresh_copy  # noqa: E402

from course.project import LANGUAGES  # noqa: E402

LANGS = list(LANGUAGES)   # the course's languages, the default first

TIERS = {
    "browser": {"browser", "open_page", "server"},
    "build": {"built", "site_dir", "project_copy", "kernel"},
    "slow": {"perturbed_inputs", "trains", "registry_of"},
}


def pytest_configure(config):
    config.addinivalue_line("markers", "build: needs a built site or a project copy it builds")
    config.addinivalue_line("markers", "browser: drives Chromium")
    config.addinivalue_line("markers", "slow: trains the small model or rebuilds the registry")


def pytest_collection_modifyitems(config, items):
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        for tier, fixtures in TIERS.items():
            if used & fixtures:
                item.add_marker(getattr(pytest.mark, tier))
    # File order, which is also the order parallel workers are handed files in (`make test` passes
    # --no-loadscope-reorder: pytest-xdist would hand out the files with the most tests first): first those that need no
    # build (they run while the session build runs beside them), then those that drive Chromium (the longest
    # files: started early, they do not leave one worker running alone at the end), then the other builds.
    tiers_of_file: dict[Path, set[str]] = {}
    for item in items:
        tiers_of_file.setdefault(item.path, set()).update(m.name for m in item.iter_markers() if m.name in TIERS)
    rank = {path: 1 if "browser" in tiers else 2 if "build" in tiers else 0 for path, tiers in tiers_of_file.items()}
    items.sort(key=lambda i: rank[i.path])   # stable: tests keep their order within a file


def pytest_collection_finish(session):
    if any(i.get_closest_marker("build") for i in session.items):   # after `-m` has deselected
        start_session_build(session.config._tmp_path_factory)


def run_build(root: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    e = {k: v for k, v in os.environ.items() if k not in ("COURSE_DRAFT", "COURSE_TEST_BUILD")}
    e.update(env or {})
    return subprocess.run([sys.executable, "build.py", *args], cwd=root, capture_output=True, text=True,
                          env=e, timeout=1800)


# While a lesson is written before its runs' results exist, COURSE_TEST_BUILD=draft builds the session's
# site with --no-train --draft (missing results reported, unknown keys shown as ⟨key?⟩). CI never sets it.
SESSION_BUILD = ("--no-train", "--draft") if os.environ.get("COURSE_TEST_BUILD") == "draft" else ("--frozen",)


@pytest.fixture
def trains():
    """For a test that trains the small model (a few steps, a few seconds each): it is in the slow tier.
    Returns models.train.train on one thread, as the refresh trains."""
    import torch
    from models.train import train
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield train
    torch.set_num_threads(threads)


@pytest.fixture
def registry_of():
    """The registry built from the results in another folder (a doctored copy): a slow-tier test."""
    def build(results_dir):
        from course.common.measured import load_results
        from course.common.schema import load_inputs
        from course.core.numbers import build_registry
        from course.project import units
        inputs = load_inputs()
        inputs.__dict__["results"] = load_results(results_dir)  # the cached property, pointed at other results
        return build_registry(units(), inputs)
    return build


def build_session_project(tmp_path_factory) -> tuple[Path, Path]:
    """Build the session's copy of the project unless it is built: (its root, the build's outcome file).
    Under parallel workers (`-n`), the first worker to get the lock builds it and the others wait for that
    build and share it, its failure included."""
    from filelock import FileLock
    shared_tmp = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared_tmp = shared_tmp.parent  # each worker has its own folder under the run's one
    root, outcome = shared_tmp / "session" / "project", shared_tmp / "session" / "build-outcome.json"
    with FileLock(str(shared_tmp / "session.lock")):
        if not outcome.exists():
            copy_project(root, keep_build=True)
            r = run_build(root, *SESSION_BUILD)
            (root / ".build" / "session-build.log").write_text(r.stdout + r.stderr, encoding="utf-8")
            outcome.write_text(json.dumps({"returncode": r.returncode, "stdout": r.stdout, "stderr": r.stderr}),
                               encoding="utf-8")
    return root, outcome


_session_build: threading.Thread | None = None


def start_session_build(tmp_path_factory) -> None:
    """Start the session build in a thread as soon as the tests are collected, so that the tests needing no
    build run while it does (the build is a subprocess: the thread only waits for it)."""
    global _session_build
    if _session_build is None:
        _session_build = threading.Thread(target=build_session_project, args=(tmp_path_factory,), daemon=True)
        _session_build.start()


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """A copy of the project, built once per session with the committed results (never training: a stale
    result fails). Its .build/ starts as the checkout's (so notebooks whose inputs did not change are reused,
    as in any warm build); the checkout itself is never written."""
    if _session_build is not None:
        _session_build.join()
    root, outcome = build_session_project(tmp_path_factory)   # built by now: this only reads the outcome
    r = json.loads(outcome.read_text(encoding="utf-8"))
    assert r["returncode"] == 0, f"build failed:\n{r['stdout']}\n{r['stderr']}"
    return root


@pytest.fixture(scope="session")
def kernel() -> str:
    """The Jupyter kernel the build executes notebooks with."""
    from jupyter_client.kernelspec import KernelSpecManager
    assert "python3" in KernelSpecManager().find_kernel_specs(), "no python3 Jupyter kernel in this environment"
    return "python3"


@pytest.fixture(scope="session")
def built_paths(built) -> Paths:
    return Paths.under(built, PLOTLY_URI)


@pytest.fixture(scope="session")
def site_dir(built) -> Path:
    return built / "site"


@pytest.fixture
def project_copy(built, tmp_path):
    """copy(fresh=False) → a copy of the built session project to edit and rebuild (its registry, figures
    and executed notebooks come along, so only what an edit touches reruns); fresh=True: as a fresh
    clone has it, nothing derived."""
    def copy(fresh: bool = False, name: str = "project") -> Path:
        dest = tmp_path / name
        return fresh_copy(dest) if fresh else copy_project(dest, source=built, keep_build=True)
    return copy


def seed_notebooks(source: Path, dest: Path) -> None:
    """Give a fresh copy the session's executed notebooks: each is keyed on what it read, so it is reused
    only if that is unchanged in the copy (which the copy's build checks)."""
    shutil.copytree(source / ".build" / "notebooks", dest / ".build" / "notebooks", dirs_exist_ok=True)


@pytest.fixture(scope="session")
def registry(built):
    from course.core.registry import Registry
    return Registry.read(built / ".build" / "registry.json")


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


# Ready: the fonts loaded, every widget initialized, every figure drawn, and no chart draw or figure fetch under
# way (CW.idle, docs/assets/js/common.js), seen at two checks in a row, each after a frame's rendering (its
# layout and resize observers, which may start a draw: a chart that settles at a new height is observed
# again). Returns null, or what it still waits for after the timeout.
SETTLED = """async (timeout) => {
    if (window.CW && CW.wakeAll) CW.wakeAll();   // everything a reader would start by coming near it
    const frame = () => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
    const waiting = () => [
        document.fonts.status !== 'loaded' && 'fonts',
        ...[...document.querySelectorAll('[data-widget]')].filter(w => w.dataset.ready !== 'true')
            .map(w => 'widget ' + w.dataset.widget),
        ...[...document.querySelectorAll('.plotly-figure')].filter(e => !e.querySelector('.main-svg'))
            .map(e => 'figure ' + (e.dataset.figure || 'inline')),
        window.CW && CW.idle && !CW.idle() && 'chart draws'].filter(Boolean);
    const end = performance.now() + timeout;
    let quiet = 0;
    do { await frame(); quiet = waiting().length ? 0 : quiet + 1; if (quiet === 2) return null; } while (performance.now() < end);
    return waiting().join(', ');
}"""


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
        self.page.goto(self.base + "/" + path.lstrip("/"), wait_until="load")
        self.settle()
        return self.page

    def settle(self, timeout_ms: int = 30000):
        """Wait until the page is ready: its fonts are in, every widget has initialized and every chart has
        drawn and settled (after a click, a palette switch or a resize, too). A condition, not a pause."""
        waiting = self.page.evaluate(SETTLED, timeout_ms)
        assert waiting is None, f"{self.page.url}: not settled after {timeout_ms} ms: {waiting}"

    def check_clean(self):
        assert self.external == [], f"requests to other hosts: {self.external}"
        assert self.console_errors == [], f"console errors: {self.console_errors}"


@pytest.fixture
def open_page(browser, server):
    """open_page(path, scheme='light'|'dark', width=None, init_script=None) → Visit; the page is closed after
    the test. `init_script` runs in the page before any of its own scripts (to record what they do)."""
    contexts = []

    def _open(path: str, scheme: str = "light", width: int | None = None, base: str | None = None,
              init_script: str | None = None) -> Visit:
        kw = {"viewport": {"width": width, "height": 844}} if width else {}
        ctx = browser.new_context(color_scheme=scheme, **kw)
        contexts.append(ctx)
        page = ctx.new_page()
        if init_script:
            page.add_init_script(init_script)
        v = Visit(page, base or server)
        v.goto(path)
        return v
    yield _open
    for c in contexts:
        c.close()


def lesson_path(unit, lang: str) -> str:
    """The URL path of a lesson's first page in a language ("c4/normalization/", "en/c4/normalization/")."""
    return ("en/" if lang == "en" else "") + unit.pages[0] + "/"


def page_url(stem: str, lang: str = "zh") -> str:
    """The URL path of a docs page ("c4/index" → "c4/", "c4/ffn" → "en/c4/ffn/" in English)."""
    return ("en/" if lang == "en" else "") + (stem.removesuffix("index").rstrip("/") + "/").lstrip("/")


PLACED = re.compile(r"<!--\s*(widget|figure|n):([\w.\-]+)(?:\s+\w+)?\s*-->")


def placed(stem: str, kind: str, lang: str = "zh") -> list[str]:
    """What a docs page's Markdown places, in order: its widgets, figures or numbers (`kind` "widget", "figure",
    "n"), so that a test expects on a built page what its source asks for, and nothing where it asks for none."""
    path = ROOT / "docs" / (stem + (".en.md" if lang == "en" else ".md"))
    return [name for k, name in PLACED.findall(path.read_text(encoding="utf-8")) if k == kind]
