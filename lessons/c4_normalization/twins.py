"""The normalization lesson's data and Python twins: the hand-made teaching vectors of the BatchNorm demo
(teaching-vectors.json in this package, validated here) and the arithmetic batchnorm-demo.js runs on them.
Per-token LayerNorm and RMSNorm are this lesson's formulas.py; tests compare the two implementations."""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from pydantic import Field, model_validator

from course.core.schema import Bilingual, Strict, load
from lessons.c4_normalization import formulas as f

TEACHING_VECTORS = Path(__file__).resolve().parent / "teaching-vectors.json"

# ---------------------------------------------------------------- data/teaching-vectors.json (the BatchNorm widget)

class TeachingToken(Strict):
    gloss: str
    vector: list[float]


class TeachingPad(Strict):
    token: str
    vector: list[float]


class TeachingExample(Strict):
    tokens: list[str]
    text: Bilingual


class TeachingCompanion(Strict):
    id: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    tokens: list[str] = Field(min_length=1)
    pad_to_example: bool
    label: Bilingual


class TeachingVectors(Strict):
    about: str
    dims: int = Field(gt=0)
    batchnorm_eps: float = Field(gt=0)
    batchnorm_eps_source: str
    focus: str
    focus_gloss: str
    pad: TeachingPad
    tokens: dict[str, TeachingToken]
    example: TeachingExample
    companions: list[TeachingCompanion]

    @model_validator(mode="after")
    def _consistent(self):
        for name, tok in list(self.tokens.items()) + [(self.pad.token, self.pad)]:
            if len(tok.vector) != self.dims:
                raise ValueError(f"token {name!r} has {len(tok.vector)} numbers, expected dims = {self.dims}")
        for where, toks in [("example", self.example.tokens)] + [(c.id, c.tokens) for c in self.companions]:
            unknown = [t for t in toks if t not in self.tokens]
            if unknown:
                raise ValueError(f"{where}: tokens {unknown} have no vector in tokens")
        if self.focus not in self.example.tokens:
            raise ValueError(f"focus {self.focus!r} is not a token of the example sentence")
        return self


# ---------------------------------------------------------------- the BatchNorm demo

def batchnorm(batch: list[list[float]], eps: float) -> list[list[float]]:
    """Training-mode BatchNorm over a batch of token vectors: each feature j is normalized with the mean
    and (population) variance of feature j across every token in the batch, γ = 1, β = 0."""
    n, dims = len(batch), len(batch[0])
    out = [[0.0] * dims for _ in range(n)]
    for j in range(dims):
        col = [row[j] for row in batch]
        mu = sum(col) / n
        var = sum((v - mu) ** 2 for v in col) / n
        for t in range(n):
            out[t][j] = (col[t] - mu) / math.sqrt(var + eps)
    return out


def teaching_vectors(path: Path = TEACHING_VECTORS) -> TeachingVectors:
    return load(path, TeachingVectors)


@dataclass
class BatchCase:
    id: str                        # "none", a companion's id, or "single"
    tokens: list[str]              # every token in the batch, the example's first
    focus_index: int
    batchnorm: list[float]         # BatchNorm's output for the focus token
    rmsnorm: list[float]           # RMSNorm's output for the focus token (its own row only)


def batch_cases(tv: TeachingVectors) -> list[BatchCase]:
    """The example sentence by itself, with each companion, and the generation case (one token)."""
    batches: list[tuple[str, list[str]]] = [("none", list(tv.example.tokens))]
    for c in tv.companions:
        toks = list(c.tokens)
        if c.pad_to_example:
            toks += [tv.pad.token] * max(0, len(tv.example.tokens) - len(toks))
        batches.append((c.id, tv.example.tokens + toks))
    batches.append(("single", [tv.focus]))

    def vec(tok: str) -> list[float]:
        return tv.pad.vector if tok == tv.pad.token else tv.tokens[tok].vector

    out = []
    for case_id, toks in batches:
        i = toks.index(tv.focus)
        bn = batchnorm([vec(t) for t in toks], tv.batchnorm_eps)[i]
        out.append(BatchCase(case_id, toks, i, bn, f.rmsnorm(vec(tv.focus))))
    return out
