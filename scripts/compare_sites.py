#!/usr/bin/env python3
"""A one-off check for a refactor (a script, not a test): build two commits in fresh copies and compare
every file of their site/ (the pages did not change).

Each commit is exported with `git archive` into a temporary folder and built there with this checkout's
.venv (`python build.py --frozen`: nothing trains; the notebooks execute afresh in each copy). Masked, and
only these: what the lab's benchmark prints each time it runs (per-op medians in ms and an N.NN× ratio,
on the lab's pages, in its notebook downloads and in the search index), the sitemap's date, and the line
of code that defined each number (the numbers appendix's "defined at" column, and the search index:
moving code moves them).

    python scripts/compare_sites.py BASE [HEAD]      # e.g. HEAD~3 HEAD; prints the files that differ
"""
import argparse
import difflib
import gzip
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = ROOT / ".venv" / "bin" / "python"
LASTMOD = re.compile(rb"<lastmod>[^<]*</lastmod>")
# a median and its spread, "4.759 (2.591)" or "4.759（2.591）" (in the search index "\\uff08"), with the
# spaces that align it in its column, and a ratio, "1.04×" (or "\\u00d7")
TIMINGS = re.compile(r" *\d+\.\d+ *(?:\(|（|\\uff08)\d+\.\d+(?:\)|）|\\uff09)|\d+\.\d+(?:×|\\u00d7)".encode())
# where a number was defined: "lessons/c4_ffn/numbers.py:123"
DEFINED_AT = re.compile(rb"(\.py):\d+")


def build(rev: str, into: Path) -> Path:
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    r = subprocess.run([str(PYTHON), "build.py", "--frozen"], cwd=into, capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"{rev} failed to build:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
    return into / "site"


def masked(path: Path, rel: str) -> bytes:
    data = path.read_bytes()
    if rel.endswith(".gz"):
        data = gzip.decompress(data)
    if "sitemap.xml" in rel:
        data = LASTMOD.sub(b"<lastmod/>", data)
    if "normalization-lab" in rel or rel.endswith("search_index.json"):
        data = TIMINGS.sub(b"<timing>", data)
    if rel.startswith(("appendix/numbers/", "en/appendix/numbers/")) or rel.endswith("search_index.json"):
        data = DEFINED_AT.sub(rb"\1:<line>", data)
    return data


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("base")
    ap.add_argument("head", nargs="?", default="HEAD")
    ap.add_argument("--built", type=Path, help="compare the builds an earlier run left in this folder")
    args = ap.parse_args()
    if args.built:
        tmp, sites = args.built, [args.built / "base" / "site", args.built / "head" / "site"]
    else:
        tmp = Path(tempfile.mkdtemp(prefix="compare-sites-"))
        sites = [build(rev, tmp / name) for rev, name in ((args.base, "base"), (args.head, "head"))]
    files = [{p.relative_to(s).as_posix(): p for p in s.rglob("*") if p.is_file()} for s in sites]
    only = sorted(set(files[0]) ^ set(files[1]))
    differ = [rel for rel in sorted(set(files[0]) & set(files[1]))
              if masked(files[0][rel], rel) != masked(files[1][rel], rel)]
    for rel in only:
        print(f"only in {'base' if rel in files[0] else 'head'}: {rel}")
    for rel in differ:
        a, b = (masked(f[rel], rel).decode("utf-8", "replace").splitlines() for f in files)
        print(f"differs: {rel}")
        print("\n".join(line[:160] for line in list(difflib.unified_diff(a, b, lineterm="", n=0))[:12]))
    print(f"{len(files[1])} files compared ({args.base} against {args.head}): "
          f"{len(differ)} differ, {len(only)} in one site only (builds in {tmp})")
    return 1 if differ or only else 0


if __name__ == "__main__":
    sys.exit(main())
