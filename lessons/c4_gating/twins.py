"""The gating lesson's Python twins: what its widgets compute, step for step, so that the tests can hold
the JavaScript to them and the page can quote their read-outs from the registry.

attention-sink   one head's query row over the example sentence (attention-sink.json, hand-made teaching
                 data, validated here): softmax weights, the head's output, and the output gate
swiglu-surface   SiLU(a)·b on a grid, clamped in our model's (DeepSeek-V4's) form: formulas.surface()
qproj-split      which of q_proj's outputs are queries and which are gate: formulas.head_slices()
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from pydantic import Field, model_validator

from course.core.schema import Strict, load
from lessons.c4_gating import formulas as f

ATTENTION_SINK = Path(__file__).resolve().parent / "attention-sink.json"

# ---------------------------------------------------------------- attention-sink.json


class SinkCase(Strict):
    id: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    match: Optional[str]          # the token the head is looking for, if the sentence has one
    match_logit: float


class Range(Strict):
    default: float
    min: float
    max: float
    step: float = Field(gt=0)

    @model_validator(mode="after")
    def _default_inside(self):
        if not self.min <= self.default <= self.max:
            raise ValueError(f"default {self.default} lies outside [{self.min}, {self.max}]")
        return self


class SinkToy(Strict):
    about: str
    tokens: list[str] = Field(min_length=2)
    values: list[list[float]]
    cases: list[SinkCase] = Field(min_length=1)
    sink_logit: Range
    gate_logit: Range

    @model_validator(mode="after")
    def _consistent(self):
        n = len(self.tokens)
        if len(self.values) != n:
            raise ValueError(f"{n} tokens need {n} value vectors; got {len(self.values)}")
        dims = {len(v) for v in self.values}
        if len(dims) != 1:
            raise ValueError(f"every value vector needs the same length; got lengths {sorted(dims)}")
        for c in self.cases:
            if c.match is not None and c.match not in self.tokens[1:]:
                raise ValueError(f"case {c.id!r}: match {c.match!r} is not one of the tokens after the first")
        return self


def sink_toy(path: Path = ATTENTION_SINK) -> SinkToy:
    return load(path, SinkToy)


@dataclass
class SinkRow:
    logits: list[float]
    weights: list[float]       # softmax over the row: they sum to 1 whatever the logits
    output: list[float]        # Σ w_i v_i, what the head would write
    gate: Optional[float]      # σ(gate logit), None when the gate is off
    written: list[float]       # the output after the gate

    @property
    def first_token(self) -> float:
        return self.weights[0]


def sink_row(toy: SinkToy, case_id: str, sink_logit: float, gate_logit: Optional[float] = None) -> SinkRow:
    """The query row for one case: every logit 0 except the matched token's and the first token's
    (the sink logit); then softmax, the weighted sum of values, and the gate when it is on."""
    case = next(c for c in toy.cases if c.id == case_id)
    logits = [0.0] * len(toy.tokens)
    logits[0] = sink_logit
    if case.match is not None:
        logits[toy.tokens.index(case.match)] = case.match_logit
    weights = f.softmax(logits)
    y = f.weighted_sum(weights, toy.values)
    return SinkRow(logits, weights, y, None if gate_logit is None else f.sigmoid(gate_logit),
                   f.gate_output(y, gate_logit))
