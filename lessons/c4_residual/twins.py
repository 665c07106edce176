"""Python twins of the residual lesson's two widgets, doing what their JavaScript does so the tests can
hold the two to each other:

residual-paths     every path of an unrolled stack of n residual blocks, in the order the widget lists
                   them, and which of them go around a chosen set of blocks (js/residual-paths.js)
variance-growth    the stream's RMS after n writes in the chapter's simulator (residual on, no norm, no
                   write-back scaling, the simulator's default gain), against √(n + 1) and against a sum
                   of independent writes of the sizes the simulator really writes (js/variance-growth.js)
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from course.common.twins import SIM, simulate
from lessons.c4_residual import formulas as f

# ---------------------------------------------------------------- residual-paths


def paths(n: int) -> list[tuple[int, ...]]:
    """Every path through n residual blocks as the blocks it passes through (1-based), shortest first,
    then in the order of their block numbers: () is the identity path x_0 → x_n, (1, …, n) the deepest."""
    out = [tuple(b + 1 for b in range(n) if mask >> b & 1) for mask in range(f.path_count(n))]
    return sorted(out, key=lambda p: (len(p), p))


def paths_around(n: int, skipped: set[int]) -> list[tuple[int, ...]]:
    """The paths that pass through none of the blocks in `skipped`: those a deletion of them leaves."""
    return [p for p in paths(n) if not skipped & set(p)]


# ---------------------------------------------------------------- variance-growth


@dataclass(frozen=True)
class Growth:
    gain: float
    start_rms: float              # RMS of x_0
    stream: list[float]           # the simulator's stream RMS after n = 0 … N writes
    write: list[float]            # the RMS of write n = 1 … N
    law: list[float]              # √(n + 1): x_0 and n writes, all independent with unit variance
    independent: list[float]      # x_0 and the simulator's own writes, summed as if independent


@lru_cache(maxsize=None)
def growth(writes: int = SIM.layers_max, gain: float = SIM.default_gain) -> Growth:
    """One run of the simulator with `writes` sublayers holds every shorter run too: with the write-back
    unscaled, the stream after n sublayers does not depend on how many follow (the same draws, in order)."""
    r = simulate(writes, gain, residual=True, prenorm=False, scale=False)
    law = [f.unit_write_std(n) for n in range(writes + 1)]
    independent = [f.independent_sum_rms(r.stream[0], r.write[:n]) for n in range(writes + 1)]
    return Growth(gain=gain, start_rms=r.stream[0], stream=r.stream, write=r.write, law=law,
                  independent=independent)
