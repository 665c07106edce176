"""Two builds of one clone give the same site, file by file and byte for byte, but for what a build measures
or dates by design: the timings the lab prints (its benchmark on the machine that builds it: that machine's
processor and threads, each op's median and spread, and the ratio of two medians) and the sitemap's date of
the build. Each is masked where it
stands, by a pattern on its text, and nothing else is. The session's build is one of the two builds; the
other is a fresh copy's, from nothing."""
from __future__ import annotations

import gzip
import json
import re

import nbformat

from conftest import SESSION_BUILD, run_build
from project_copy import fresh_copy

# this machine's median (IQR) of an op, after the committed one on its row of the lab's benchmark table (the
# padding before it varies with its width), and the ratio of two medians after the committed ratio
# and the machine the benchmark ran on, as the lab names it (its processor and the threads torch was given,
# which follow the build's environment: OMP_NUM_THREADS)
TIMINGS = [(re.compile(r"(?<=\d[)）]) +\d+\.\d+ ?[(（]\d+\.\d+[)）]$", re.M), " ⟨median (IQR) here⟩"),
           (re.compile(r"(?<=\d×)([^\n\d×]*)\d+\.\d+×"), r"\1⟨ratio here⟩"),
           (re.compile("(这\u200b*台\u200b*机\u200b*器\u200b*：|This machine: )[^；;\n]*(?=[；;])"), r"\1⟨machine here⟩")]
BUILD_DATE = (re.compile(r"<lastmod>\d{4}-\d{2}-\d{2}</lastmod>"), "<lastmod>⟨build date⟩</lastmod>")
DATED = {"sitemap.xml", "sitemap.xml.gz"}   # in any folder (each language has one); the gzip's header holds the date too: its content is compared
SEARCH_INDEX = "search/search_index.json"


def mask(text: str, masks) -> str:
    for pattern, replacement in masks:
        text = pattern.sub(replacement, text)
    return text


def notebook_pages(root) -> list[str]:
    """The site's folder of each notebook's page, in both languages (English under en/)."""
    out = []
    for src in sorted((root / "docs").rglob("*.ipynb")):
        stem = src.relative_to(root / "docs").as_posix().removesuffix(".ipynb")
        out.append(f"en/{stem.removesuffix('.en')}/" if stem.endswith(".en") else f"{stem}/")
    return out


def comparable(rel: str, data: bytes, pages: list[str]) -> str | bytes:
    """A site file as the comparison sees it: its bytes, or its text with what may differ masked."""
    if rel.rsplit("/", 1)[-1] in DATED:
        return mask((gzip.decompress(data) if rel.endswith(".gz") else data).decode("utf-8"), [BUILD_DATE])
    if rel in {f"{p}index.html" for p in pages}:
        return mask(data.decode("utf-8"), TIMINGS)
    if rel == SEARCH_INDEX:
        index = json.loads(data)
        for doc in index["docs"]:
            if any(doc["location"].startswith(p) for p in pages):
                doc["text"] = mask(doc["text"], TIMINGS)
        return json.dumps(index, ensure_ascii=False, indent=0)
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

    pages = notebook_pages(built)
    for root in (built, fresh):
        for page in pages:
            text = (root / "site" / page / "index.html").read_text(encoding="utf-8")
            assert all(p.search(text) for p, _ in TIMINGS), f"{page}: the lab's timings are not where masked"
    files = {root: {p.relative_to(root / "site").as_posix() for p in (root / "site").rglob("*") if p.is_file()}
             for root in (built, fresh)}
    assert files[built] == files[fresh], files[built] ^ files[fresh]
    differ = []
    for rel in sorted(files[built]):
        a, b = (root / "site" / rel for root in (built, fresh))
        if a.read_bytes() != b.read_bytes():
            x, y = (comparable(rel, p.read_bytes(), pages) for p in (a, b))
            if x != y:
                differ.append(f"{rel} {first_difference(x, y)}")
    assert differ == [], "two builds differ:\n" + "\n".join(differ)
