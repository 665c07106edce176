#!/usr/bin/env python3
"""A one-off report (a script, not a test): which registry keys nothing reads, by the line that defines them.

It builds this checkout in this process (`build.py --frozen --rerun all`: nothing trains, every stage runs,
the notebooks execute afresh) with `Registry.__getitem__` (and so `value()`) recording every key looked up,
by stage. A key read while the numbers stage computes the registry (one unit using another's number, or its
own, to compute a third) is no reader: such a value is an intermediate, which the code that needs it can
compute as a local. Every other look-up is a reader: the reading notes' checks (numbers stage), a figure
(figures stage), and in the site stage every page's `<!-- n:KEY -->`, widget config, table and the
notebooks' Markdown. The notebooks' kernels run in their own processes; the keys they looked up through
course.core.lab are what the build recorded for each (.build/notebooks/**.reads.json). The numbers appendix
lists registry keys without looking them up (it reads `.numbers` directly), so it is no reader.

It then checks the dynamic record against the static reads where both apply (the pages' and notebooks'
Markdown `n:` markers, the claims' checks and sentences, string literals in the notebooks' code) and against
the keys the numbers appendix lists, and prints the unread keys grouped by the line that defines them.

    .venv/bin/python scripts/unread_keys.py            # build, then report
    .venv/bin/python scripts/unread_keys.py --keys     # also every unread key, one a line
    .venv/bin/python scripts/unread_keys.py --json F   # write {key: defined_at} of the unread keys to F
"""
from __future__ import annotations

import argparse
import contextlib
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's packages, before any editable install's


def record_build() -> tuple[dict[str, set[str]], set[str], dict[str, list[str]]]:
    """Build in this process; return ({stage: keys looked up}, keys probed with `in`, {key: the project's
    frames that added it, innermost first})."""
    import build
    from course.core import numbers as numbers_module
    from course.core import pipeline as pipeline_module
    from course.core.registry import Registry

    reads: dict[str, set[str]] = defaultdict(set)
    probed: set[str] = set()
    stage = ["other"]
    chains: dict[str, list[str]] = {}

    get, contains, add = Registry.__getitem__, Registry.__contains__, Registry.add

    def recording_add(self, key, *a, **kw):
        # the project's frames that led here, innermost first (the registry's own left out): a helper that
        # adds numbers for its caller (a spread over seeds) shows with the lesson line that called it
        frames, f = [], sys._getframe(1)
        while f is not None and len(frames) < 4:
            path = Path(f.f_code.co_filename).resolve()
            if path.is_relative_to(ROOT) and path.name != "registry.py" and "build.py" != path.name:
                frames.append(f"{path.relative_to(ROOT).as_posix()}:{f.f_lineno}")
            f = f.f_back
        chains[key] = frames
        return add(self, key, *a, **kw)

    def recording_get(self, key):
        reads[stage[-1]].add(key)
        return get(self, key)

    def recording_contains(self, key):
        probed.add(key)
        return contains(self, key)

    @contextlib.contextmanager
    def in_stage(name):
        stage.append(name)
        try:
            yield
        finally:
            stage.pop()

    def wrap(module, name, label):
        fn = getattr(module, name)

        def wrapped(*a, **kw):
            with in_stage(label):
                return fn(*a, **kw)
        setattr(module, name, wrapped)

    Registry.__getitem__, Registry.__contains__, Registry.add = recording_get, recording_contains, recording_add
    wrap(numbers_module, "build_registry", "computing")       # imported by run_numbers when it runs
    wrap(numbers_module, "check_all_claims", "claims")
    for name in ("run_figures", "run_notebooks"):
        wrap(pipeline_module.Pipeline, name, name.removeprefix("run_"))
    wrap(build, "build_site", "site")
    rc = build.main(["--frozen", "--rerun", "all"])
    if rc:
        sys.exit(f"the build failed ({rc})")
    if not reads["site"]:
        sys.exit("the site stage looked up no key: the recording did not reach it (was the registry's module "
                 "imported afresh?)")
    return dict(reads), probed, chains


def notebook_reads(paths) -> tuple[set[str], bool]:
    keys, everything = set(), False
    for f in sorted(paths.executed_notebooks.rglob("*.reads.json")):
        r = json.loads(f.read_text(encoding="utf-8"))["reads"]
        keys |= set(r.get("keys", []))
        everything |= bool(r.get("all_keys"))
    return keys, everything


def static_reads(paths, registry) -> dict[str, set[str]]:
    """Keys named in the sources themselves: the Markdown's n: markers (pages and notebooks), the claims'
    checks and sentences, and string literals in the notebooks' code that are keys."""
    from course.core.claims import KEY, SHORTCODE_KEY, load_claims
    from course.project import units
    out: dict[str, set[str]] = defaultdict(set)
    for p in sorted(paths.docs.rglob("*.md")):
        out["pages"] |= set(SHORTCODE_KEY.findall(p.read_text(encoding="utf-8")))
    for p in sorted(paths.docs.rglob("*.ipynb")):
        for cell in json.loads(p.read_text(encoding="utf-8"))["cells"]:
            text = "".join(cell["source"])
            if cell["cell_type"] == "markdown":
                out["pages"] |= set(SHORTCODE_KEY.findall(text))
            else:
                out["notebook code"] |= {s for s in re.findall(r"[\"']([\w.\-]+)[\"']", text) if s in registry}
    for u in units().all:
        if u.claims:
            notes = load_claims(u.claims)
            for c in notes.claims:
                out["claims"] |= set(KEY.findall(c.check))
                out["claims"] |= {k for t in c.texts().values() for k in SHORTCODE_KEY.findall(t)}
            out["claims"] |= {k for t in notes.provenance.texts().values() for k in SHORTCODE_KEY.findall(t)}
    return out


def appendix_keys(paths) -> set[str]:
    keys = set()
    for page in paths.site.rglob("appendix/numbers/index.html"):
        keys |= set(re.findall(r'<tr id="num-([^"]+)"', page.read_text(encoding="utf-8")))
    return keys


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--keys", action="store_true", help="list every unread key")
    ap.add_argument("--json", type=Path, help="write {key: defined_at} of the unread keys to this file")
    args = ap.parse_args()

    reads, probed, chains = record_build()
    from course.core.registry import Registry
    from course.project import PROJECT
    paths = PROJECT.paths
    registry = Registry.read(paths.registry)
    computed = set(registry.numbers)
    nb_keys, nb_all = notebook_reads(paths)
    if nb_all:
        print("a notebook walked the whole registry: every key counts as read by it")
    readers = {stage: keys for stage, keys in reads.items() if stage != "computing"}
    readers["notebook kernels"] = computed if nb_all else nb_keys
    read = set().union(*readers.values()) & computed
    unread = computed - read

    print(f"\n{len(computed)} keys computed; {len(read)} read, {len(unread)} read by nothing")
    for stage, keys in sorted(readers.items()):
        print(f"  read by {stage:<17} {len(keys & computed):5}")
    only_computing = (reads.get("computing", set()) & unread)
    print(f"  of the unread, read only while computing other numbers (intermediates): {len(only_computing)}")
    probe_only = (probed - read) & computed
    if probe_only:
        print(f"  of the unread, probed with `in` outside computing: "
              f"{len(probe_only - reads.get('computing', set()))} (see --keys)")

    # static against dynamic, where both apply
    static = static_reads(paths, computed)
    checks = [("pages' and notebooks' n: markers", static["pages"], reads.get("site", set())),
              ("claims' checks and sentences", static["claims"], reads.get("claims", set()) | reads.get("site", set())),
              ("notebooks' code literals", static["notebook code"], readers["notebook kernels"])]
    print("\nstatic reads against the recorded ones:")
    for what, s, d in checks:
        missing = sorted(s - d)
        print(f"  {what}: {len(s)} named, {len(s & d)} of them recorded"
              + (f"; named but never looked up: {missing[:10]}" if missing else ""))
    listed = appendix_keys(paths)
    print(f"  the numbers appendix lists {len(listed)} keys; recorded reads not listed: "
          f"{sorted(read - listed)[:10] or 'none'}; listed but not recorded: {sorted(listed - read)[:10] or 'none'}")

    by_line: dict[str, list[str]] = defaultdict(list)
    for key in sorted(unread):
        by_line[registry.numbers[key].defined_at].append(key)
    by_file: dict[str, int] = defaultdict(int)
    for where, keys in by_line.items():
        by_file[where.rpartition(":")[0]] += len(keys)
    print("\nunread keys by file:")
    for f, n in sorted(by_file.items(), key=lambda x: -x[1]):
        print(f"  {n:5}  {f}")
    print("\nunread keys by the line that defines them (count, an example):")
    for where, keys in sorted(by_line.items(), key=lambda x: (x[0].rpartition(":")[0], int(x[0].rpartition(":")[2] or 0))):
        print(f"  {where:<48} {len(keys):5}  {keys[0]}")
    by_chain: dict[str, list[str]] = defaultdict(list)
    for key in sorted(unread):
        by_chain[" < ".join(chains.get(key, [])[:3])].append(key)
    print("\nunread keys by the calls that add them (innermost first; count, an example):")
    for chain, keys in sorted(by_chain.items(), key=lambda x: -len(x[1])):
        print(f"  {len(keys):5}  {chain}  {keys[0]}")
    if args.keys:
        print("\nunread keys:")
        for key in sorted(unread):
            tag = " (probed)" if key in probed else ""
            print(f"  {key}  {registry.numbers[key].defined_at}{tag}")
    if args.json:
        args.json.with_suffix(".chains.json").write_text(json.dumps({"chains": chains, "read": sorted(read)}, indent=0),
                                                         encoding="utf-8")
        args.json.write_text(json.dumps({k: registry.numbers[k].defined_at for k in sorted(unread)}, indent=1) + "\n",
                             encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
