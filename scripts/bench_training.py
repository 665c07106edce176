#!/usr/bin/env python3
"""How fast is the build's training loop, and how long does the test suite take? (A script, not a test.)

In one process, on the baseline config:
  1. the build's loop (models/train.py: logging, per-step grad norm, validation, probes) for --steps steps;
  2. a plain eager loop of the same model: batch, forward, backward, clip, step, nothing else;
  3. the same plain loop on torch.compile(model), its compile time counted separately;
then, with --suite, the wall time of `python -m pytest -q` (the whole suite, browser tests included).

    .venv/bin/python scripts/bench_training.py [--steps 100] [--suite]
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

import torch  # noqa: E402

from models.corpus import load_corpus  # noqa: E402
from models.measure import experiments  # noqa: E402
from models.model import GPT  # noqa: E402
from models.train import lr_at, train  # noqa: E402


def plain_loop(model, cfg, corpus, steps: int) -> float:
    """Seconds for `steps` updates of the bare loop (after one untimed warm-up step)."""
    opt = model.configure_optimizers(cfg.lr, cfg.weight_decay, (cfg.beta1, cfg.beta2))
    g = torch.Generator().manual_seed(cfg.seed)

    def one(step):
        for group in opt.param_groups:
            group["lr"] = lr_at(step, cfg)
        x, y = corpus.batch("train", cfg.batch_size, cfg.block_size, g)
        _, loss = model(x, y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.grad_clip)
        opt.step()
    one(0)
    t0 = time.perf_counter()
    for step in range(1, steps + 1):
        one(step)
    return time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--suite", action="store_true", help="also time the whole test suite")
    args = ap.parse_args()

    cfg = experiments(ROOT).config("c4_baseline")
    corpus = load_corpus(cfg.vocab_top)
    tokens = args.steps * cfg.batch_size * cfg.block_size
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads; baseline config, {args.steps} steps "
          f"of {cfg.batch_size}×{cfg.block_size} tokens")

    short = cfg.model_copy(update={"max_steps": args.steps})  # validation as often as in the real runs
    r = train("build loop", short, progress=False)
    print(f"  build's loop (logs, validation every {short.eval_every} steps, probes): "
          f"{r['timing']['tokens_per_s']:,.0f} tokens/s  ({r['timing']['wall_s']:.1f} s)")

    torch.manual_seed(cfg.seed)
    secs = plain_loop(GPT(cfg.gpt_config(corpus.vocab_size)), cfg, corpus, args.steps)
    print(f"  plain eager loop:                                   {tokens / secs:,.0f} tokens/s  ({secs:.1f} s)")

    torch.manual_seed(cfg.seed)
    model = GPT(cfg.gpt_config(corpus.vocab_size))
    compiled = torch.compile(model)
    t0 = time.perf_counter()
    try:
        x, y = corpus.batch("train", cfg.batch_size, cfg.block_size, torch.Generator().manual_seed(0))
        compiled(x, y)[1].backward()  # compiles forward and backward
        compile_s = time.perf_counter() - t0
        model.zero_grad(set_to_none=True)
        secs = plain_loop(compiled, cfg, corpus, args.steps)
        print(f"  torch.compile(model), plain loop:                  {tokens / secs:,.0f} tokens/s  ({secs:.1f} s)"
              f", compile {compile_s:.1f} s")
    except Exception as e:  # noqa: BLE001 - report and go on
        print(f"  torch.compile(model) failed after {time.perf_counter() - t0:.1f} s: {type(e).__name__}: {e}")

    if args.suite:
        t0 = time.perf_counter()
        p = subprocess.run([sys.executable, "-m", "pytest", "-q"], cwd=ROOT, capture_output=True, text=True)
        tail = (p.stdout.strip().splitlines() or ["(no output)"])[-1]
        print(f"  whole test suite: {time.perf_counter() - t0:.0f} s wall  ({tail})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
