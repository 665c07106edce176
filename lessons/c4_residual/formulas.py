"""The residual lesson's formulas, as small pure functions: how many paths an unrolled residual stack
holds and how long they are (Veit et al. 2016's view), how the stream's spread grows with the number of
writes, and what the wider streams of 2025–2026 cost. Each has a unit test whose fixture is a worked value
(tests/test_residual_formulas.py). The chapter's residual_writes, residual_std and residual_init_std live
in course/common/formulas.py."""
from __future__ import annotations

import math

# ---------------------------------------------------------------- the unrolled view: x + F(x), n times


def path_count(n: int) -> int:
    """x_{l+1} = x_l + F_l(x_l): each of n residual blocks is either taken or skipped, so 2^n paths."""
    return 2 ** n


def paths_skipping(n: int, skipped: int) -> int:
    """Paths that go around every one of `skipped` chosen blocks: the other n − skipped blocks stay free."""
    if not 0 <= skipped <= n:
        raise ValueError(f"cannot skip {skipped} of {n} blocks")
    return 2 ** (n - skipped)


def path_lengths(n: int) -> list[int]:
    """How many paths pass through exactly k blocks, k = 0 … n: the binomial coefficients C(n, k)."""
    return [math.comb(n, k) for k in range(n + 1)]


def share_of_paths_between(n: int, shortest: int, longest: int) -> float:
    """Fraction of the 2^n paths whose length (blocks passed through) is in [shortest, longest]."""
    return sum(math.comb(n, k) for k in range(shortest, longest + 1)) / path_count(n)


def central_lengths(n: int, share: float) -> tuple[int, int]:
    """The narrowest range of lengths around n/2, symmetric where n allows, that holds at least `share`
    of all paths: widen one step on each side until it does."""
    lo, hi = n // 2, (n + 1) // 2
    while share_of_paths_between(n, lo, hi) < share:
        lo, hi = lo - 1, hi + 1
    return lo, hi


# ---------------------------------------------------------------- the stream's spread


def unit_write_std(writes: int) -> float:
    """Std of x_0 plus `writes` independent unit-variance writes (x_0 of unit variance too): √(n + 1)."""
    return math.sqrt(writes + 1)


def tanh_rms(gain: float, steps: int = 4000, half_width: float = 10.0) -> float:
    """√E[tanh(gain·z)²] for z ~ N(0, 1): the RMS of a tanh write whose pre-activation has std `gain`.
    Simpson's rule over z in [−half_width, half_width], where the normal density is all but zero beyond."""
    h = 2 * half_width / steps
    total = 0.0
    for i in range(steps + 1):
        z = -half_width + i * h
        weight = 1 if i in (0, steps) else (4 if i % 2 else 2)
        total += weight * math.tanh(gain * z) ** 2 * math.exp(-z * z / 2)
    return math.sqrt(total * h / 3 / math.sqrt(2 * math.pi))


def independent_sum_rms(start_rms: float, write_rms: list[float]) -> float:
    """RMS of a sum of independent zero-mean terms: the square root of the summed mean squares."""
    return math.sqrt(start_rms ** 2 + sum(w * w for w in write_rms))


# ---------------------------------------------------------------- the anchor's one stream, and wider ones


def width_per_write(hidden_size: int, writes: int) -> float:
    """If the stream were split evenly among its writers, each would own this many dimensions."""
    return hidden_size / writes


def widened_stream(hidden_size: int, streams: int) -> int:
    """Hyper-connections keep `streams` copies of the stream side by side: n × d numbers per token."""
    return streams * hidden_size


def blocks_of(layers: int, block_size: int) -> int:
    """Block AttnRes groups consecutive layers into blocks of block_size; a remainder is one more block."""
    return math.ceil(layers / block_size)
