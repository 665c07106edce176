#!/usr/bin/env python3
"""Record how far the committed results move on another CPU: data/cross-machine.json.

The results on the pages were trained on one machine (data/results/cpu/). Before, the same runs were trained on
another CPU with a training loop that computes the same thing (same configs, same seeds, same torch; the
refactored code was checked bit for bit against the old on one machine). Those results live in git history.
This script reads each of them back from the commit given, keeps those whose config and torch match today's
result (fields added since, left at their defaults, aside; a pair that differs only in what the run records is
kept and marked), and writes their final validation losses,
so the build can say how far a rerun on another CPU moved a loss (course/common/measured.py, measure.drift.*).

    .venv/bin/python scripts/cross_machine.py --commit dbfe2b3 --cpu "AMD EPYC"
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cachekit import write_atomic  # noqa: E402
from models.config import TrainConfig  # noqa: E402

OUT = ROOT / "data" / "cross-machine.json"
# fields that change what a run records, not what it computes (models/train.py reads the trace off the
# gradients after they are made): a pair that differs only there is kept, with the difference named
RECORDING = {"trace_steps", "probe_steps", "attn_stats"}
# a field added since a result was trained, at its default there, computes what the code computed before it
DEFAULTS = {name: f.default for name, f in TrainConfig.model_fields.items() if not f.is_required()}


def at_commit(root: Path, commit: str, rel: str) -> dict | None:
    shown = subprocess.run(["git", "show", f"{commit}:{rel}"], cwd=root, capture_output=True, text=True)
    return json.loads(shown.stdout) if shown.returncode == 0 else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--commit", required=True, help="a commit whose data/results/cpu/ was trained on the other CPU")
    ap.add_argument("--cpu", required=True, help="that CPU, as the pages name it")
    ap.add_argument("--root", type=Path, default=ROOT, help="the project (default: this one)")
    args = ap.parse_args(argv)
    root = args.root
    out = root / OUT.relative_to(ROOT)
    losses: dict[str, dict[str, float | None]] = {}
    commits, torches = set(), set()
    recorded: dict[str, set] = {}   # run → the recording fields its pair differs in
    for path in sorted((root / "data/results/cpu").glob("*/seed*.json")):
        rel = path.relative_to(root).as_posix()
        now, then = json.loads(path.read_text(encoding="utf-8")), at_commit(root, args.commit, rel)
        if then is None:
            continue
        differs = {k for k in set(now["config"]) | set(then["config"])
                   if now["config"].get(k) != then["config"].get(k)
                   and not (k not in then["config"] and k in DEFAULTS and now["config"][k] == DEFAULTS[k])}
        if differs - RECORDING or then["provenance"]["torch"] != now["provenance"]["torch"]:
            continue
        if then["provenance"]["device_name"].split(",")[0] == now["provenance"]["device_name"].split(",")[0]:
            continue  # trained on this kind of CPU too: not a cross-machine pair
        losses.setdefault(now["run"], {})[str(now["config"]["seed"])] = then["metrics"]["final_val_loss"]
        if differs:
            recorded.setdefault(now["run"], set()).update(differs)
        commits.add(then["provenance"]["commit"])
        torches.add(then["provenance"]["torch"])
    if not losses:
        print(f"no result at {args.commit} pairs with today's: nothing written", file=sys.stderr)
        return 1
    doc = {"cpu": args.cpu, "source_commit": args.commit, "trained_at": sorted(commits), "torch": sorted(torches)[0],
           "final_val_loss": losses, "recorded_differently": {r: sorted(f) for r, f in sorted(recorded.items())}}
    write_atomic(out, json.dumps(doc, indent=1, sort_keys=True) + "\n")
    print(f"{sum(map(len, losses.values()))} results of {len(losses)} runs → {out.relative_to(root)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
