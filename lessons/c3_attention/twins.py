"""Python twin of the attention widget (js/attention-explorer.js): the same teaching vectors and the same
arithmetic, so the tests can hold the widget to it and the prose can quote what the widget shows.

For the five tokens of 小明把苹果给了小王, each with a hand-made query, key and value of 4 numbers
(teaching-vectors.json), the weights of query row i over key j are softmax_j(m · q_i·k_j / √d), with m the
reader's multiplier of the scale (1: the usual 1/√d; 0: every score equal) and, with the causal mask on, only
j ≤ i; row i's output is Σ_j w_ij v_j.
"""
from __future__ import annotations

import math
from pathlib import Path

from pydantic import BaseModel, ConfigDict, model_validator

from course.core.schema import load

VECTORS = Path(__file__).resolve().parent / "teaching-vectors.json"


class Slider(BaseModel):
    model_config = ConfigDict(extra="forbid")
    min: float
    max: float
    step: float
    default: float


class Teaching(BaseModel):
    """The widget's teaching data: a query, a key and a value per token, all of one width."""
    model_config = ConfigDict(extra="forbid")
    about: str
    tokens: list[str]
    reader: int                 # the row the page follows (苹果)
    q: list[list[float]]
    k: list[list[float]]
    v: list[list[float]]
    scale: Slider

    @model_validator(mode="after")
    def _shapes(self):
        n, d = len(self.tokens), len(self.q[0]) if self.q else 0
        for name in ("q", "k", "v"):
            rows = getattr(self, name)
            if len(rows) != n or any(len(r) != d for r in rows):
                raise ValueError(f"{name}: expected {n} vectors of {d} numbers, one per token")
        if not 0 <= self.reader < n:
            raise ValueError(f"reader: expected a token's index, 0 to {n - 1}")
        return self

    @property
    def d(self) -> int:
        return len(self.q[0])


def teaching() -> Teaching:
    return load(VECTORS, Teaching)


def scores(t: Teaching) -> list[list[float]]:
    """q_i · k_j / √d for every pair."""
    return [[sum(a * b for a, b in zip(q, k)) / math.sqrt(t.d) for k in t.k] for q in t.q]


def weights(t: Teaching, multiplier: float, causal: bool) -> list[list[float | None]]:
    """Each query row's softmax over the keys it may read (None where the mask hides a key)."""
    out = []
    for i, row in enumerate(scores(t)):
        seen = [j for j in range(len(row)) if not causal or j <= i]
        top = max(multiplier * row[j] for j in seen)
        e = {j: math.exp(multiplier * row[j] - top) for j in seen}
        total = sum(e.values())
        out.append([e[j] / total if j in e else None for j in range(len(row))])
    return out


def outputs(t: Teaching, multiplier: float, causal: bool) -> list[list[float]]:
    """Each row's output: its weights times the values."""
    return [[sum((w or 0.0) * v[c] for w, v in zip(row, t.v)) for c in range(t.d)]
            for row in weights(t, multiplier, causal)]


def entropy(row: list[float | None]) -> float:
    return -sum(w * math.log(w) for w in row if w)
