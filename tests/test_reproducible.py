"""Two builds of one clone give the same site, file by file and byte for byte, but for the sitemap's date of
the build (masked where it stands, by a pattern on its text; nothing else is). The lab executes in every build
and prints nothing it measures there: its benchmark table is the committed result's. The session's build is
one of the two builds; the other is a fresh copy's, from nothing."""
from __future__ import annotations

import gzip
import re

import nbformat

from conftest import SESSION_BUILD, run_build
from project_copy import fresh_copy

BUILD_DATE = (re.compile(r"<lastmod>\d{4}-\d{2}-\d{2}</lastmod>"), "<lastmod>⟨build date⟩</lastmod>")
DATED = {"sitemap.xml", "sitemap.xml.gz"}   # in any folder (each language has one); the gzip's header holds the date too: its content is compared


def mask(text: str, masks) -> str:
    for pattern, replacement in masks:
        text = pattern.sub(replacement, text)
    return text


def comparable(rel: str, data: bytes) -> str | bytes:
    """A site file as the comparison sees it: its bytes, or a sitemap's text with the build's date masked."""
    if rel.rsplit("/", 1)[-1] in DATED:
        return mask((gzip.decompress(data) if rel.endswith(".gz") else data).decode("utf-8"), [BUILD_DATE])
    return data


def first_difference(a, b) -> str:
    at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"at {at}: {a[max(0, at - 150):at + 150]!r}\n   vs: {b[max(0, at - 150):at + 150]!r}"


def test_a_cells_prints_come_back_as_one_output_however_the_kernel_sent_them(kernel, tmp_path):
    """The kernel sends a cell's prints as it flushes them, so their number of outputs depends on timing; the
    runner merges consecutive prints of one stream, and leaves a display between prints in its place."""
    from course.core.notebooks import execute
    source = ("import sys, time\nfrom IPython.display import display\n"
              "print('one'); sys.stdout.flush(); time.sleep(0.5)\nprint('two'); sys.stdout.flush()\n"
              "display('shown')\nprint('three')")
    nb = execute(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)]), tmp_path, timeout_s=120)
    assert [(o.output_type, o.get("text")) for o in nb.cells[0].outputs] == \
           [("stream", "one\ntwo\n"), ("display_data", None), ("stream", "three\n")]


def test_two_builds_of_one_clone_give_the_same_site(built, tmp_path):
    fresh = fresh_copy(tmp_path / "fresh")
    r = run_build(fresh, *SESSION_BUILD)
    assert r.returncode == 0, r.stdout + r.stderr
    # a fair comparison: two executions of every notebook (the session's copy starts from the checkout's
    # .build, whose executed notebooks it may reuse; the fresh one executes them all), told apart by when
    # their cells ran
    executed = sorted((built / ".build" / "notebooks").rglob("*.ipynb"))
    n = len(list((built / "docs").rglob("*.ipynb")))
    assert executed and len(executed) == n and f"{n} of {n} notebooks executed" in r.stdout, r.stdout
    for nb in executed:
        runs = [nbformat.read(root / ".build" / "notebooks" / nb.relative_to(built / ".build" / "notebooks"), 4)
                for root in (built, fresh)]
        started = [[c.metadata.get("execution", {}).get("iopub.execute_input") for c in run.cells] for run in runs]
        assert started[0] != started[1], f"{nb.name}: one execution, not two"

    files = {root: {p.relative_to(root / "site").as_posix() for p in (root / "site").rglob("*") if p.is_file()}
             for root in (built, fresh)}
    assert files[built] == files[fresh], files[built] ^ files[fresh]
    differ = []
    for rel in sorted(files[built]):
        a, b = (root / "site" / rel for root in (built, fresh))
        if a.read_bytes() != b.read_bytes():
            x, y = (comparable(rel, p.read_bytes()) for p in (a, b))
            if x != y:
                differ.append(f"{rel} {first_difference(x, y)}")
    assert differ == [], "two builds differ:\n" + "\n".join(differ)
