"""Pydantic models of the input data files, and one loader that turns any problem into a readable error.

Only rules that make a config invalid in itself are checked (positive sizes, a `layer_types` list as long
as the layers, heads that tile the width they claim). A user who edits a value gets that model's numbers.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, PositiveFloat, PositiveInt, ValidationError, model_validator


class InputError(Exception):
    """A data file is unreadable or invalid. The message names the file, the field and what was expected."""


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Official(BaseModel):
    """Part of an official config: keys the course does not use are kept, not rejected."""
    model_config = ConfigDict(extra="allow")


# ---------------------------------------------------------------- anchor-model.json

class RopeParameters(Official):
    partial_rotary_factor: float = Field(gt=0, le=1)


class TextConfig(Official):
    hidden_size: PositiveInt
    num_hidden_layers: PositiveInt
    intermediate_size: PositiveInt
    vocab_size: PositiveInt
    num_attention_heads: PositiveInt
    num_key_value_heads: PositiveInt
    head_dim: PositiveInt
    attn_output_gate: bool
    hidden_act: str
    layer_types: list[Literal["full_attention", "linear_attention"]]
    linear_num_key_heads: PositiveInt
    linear_num_value_heads: PositiveInt
    linear_key_head_dim: PositiveInt
    linear_value_head_dim: PositiveInt
    linear_conv_kernel_dim: PositiveInt
    mtp_num_hidden_layers: int = Field(ge=0)
    rms_norm_eps: PositiveFloat
    tie_word_embeddings: bool
    attention_bias: bool

    @model_validator(mode="after")
    def _layer_types_cover_every_layer(self):
        if len(self.layer_types) != self.num_hidden_layers:
            raise ValueError(f"layer_types has {len(self.layer_types)} entries but num_hidden_layers is "
                             f"{self.num_hidden_layers}: expected one entry per layer")
        if self.num_attention_heads % self.num_key_value_heads:
            raise ValueError(f"num_attention_heads ({self.num_attention_heads}) must be a multiple of "
                             f"num_key_value_heads ({self.num_key_value_heads})")
        return self


class VisionConfig(Official):
    depth: PositiveInt
    hidden_size: PositiveInt
    intermediate_size: PositiveInt
    num_heads: PositiveInt
    in_channels: PositiveInt
    patch_size: PositiveInt
    temporal_patch_size: PositiveInt
    spatial_merge_size: PositiveInt
    num_position_embeddings: PositiveInt
    out_hidden_size: PositiveInt


class AnchorConfig(Official):
    text_config: TextConfig
    vision_config: VisionConfig
    tie_word_embeddings: bool


class FileProvenance(Strict):
    grade: Literal["official file", "official code", "vendored copy", "report", "paper table", "secondary source"]
    repository: Optional[str] = None
    path: Optional[str] = None
    commit: Optional[str] = None
    copied_file: Optional[str] = None
    bytes: Optional[PositiveInt] = None
    sha256: Optional[str] = Field(default=None, pattern=r"^[0-9a-f]{64}$")
    verification: str


class Fact(Strict):
    value: int | float | str
    meaning: str
    source: str


class AnchorFacts(Strict):
    norm_style: Fact
    official_parameter_total: Fact


class AnchorModel(Strict):
    name: str
    provenance: FileProvenance
    facts: AnchorFacts
    config: AnchorConfig


# ---------------------------------------------------------------- frontier-models.json

class FrontierModel(Strict):
    name: str
    year: int = Field(ge=2017, le=2100)
    hidden_size: PositiveInt
    num_layers: PositiveInt
    ffn_width: Optional[PositiveInt] = None
    moe_ffn_width: Optional[PositiveInt] = None
    ffn_rule: Optional[str] = None
    num_heads: PositiveInt
    num_kv_heads: Optional[PositiveInt] = None
    head_dim: Optional[PositiveInt] = None
    activation: str
    swiglu_limit: Optional[PositiveFloat] = None
    situ_beta: Optional[PositiveFloat] = None
    norm: Literal["layernorm", "rmsnorm"]
    norm_style: Optional[Literal["standard", "zero_centered"]] = None
    norm_placement: Literal["post", "pre", "output"]
    norm_eps: Optional[PositiveFloat] = None
    norm_note: Optional[str] = None
    qk_norm: Optional[bool] = None
    attn_output_gate: Optional[bool] = None
    num_experts: Optional[PositiveInt] = None
    vocab_size: Optional[PositiveInt] = None
    provenance: FileProvenance


class FrontierModels(Strict):
    models: list[FrontierModel]

    @model_validator(mode="after")
    def _names_unique(self):
        names = [m.name for m in self.models]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"model names must be unique; repeated: {', '.join(dupes)}")
        return self

    def by_name(self, name: str) -> FrontierModel:
        for m in self.models:
            if m.name == name:
                return m
        raise InputError(f"data/frontier-models.json: models: no model named {name!r} (the course needs it)")


# ---------------------------------------------------------------- citations.json

class Paper(Strict):
    authors: str
    year: int
    title: str
    venue: str
    url: str


class CitedNumber(Strict):
    key: str = Field(pattern=r"^[a-z0-9_.\-]+$")
    value: float
    digits: int = Field(ge=0, le=6)
    unit: str = ""
    paper: str
    table: str
    row: str


class Citations(Strict):
    papers: dict[str, Paper]
    numbers: list[CitedNumber]

    @model_validator(mode="after")
    def _papers_exist(self):
        for i, n in enumerate(self.numbers):
            if n.paper not in self.papers:
                raise ValueError(f"numbers[{i}] ({n.key}) cites paper {n.paper!r}, which is not in papers")
        return self


# ---------------------------------------------------------------- loading

def _describe(err: dict) -> str:
    loc = ".".join(str(p) for p in err["loc"] if not str(p).startswith("function-after"))
    got = err.get("input")
    shown = json.dumps(got, ensure_ascii=False) if not isinstance(got, dict) else "an object"
    if len(shown) > 60:
        shown = shown[:57] + "..."
    msg = err["msg"].removeprefix("Value error, ")
    where = loc or "(top level)"
    if err["type"] == "missing":
        return f"{where}: missing (a required field)"
    if err["type"] == "extra_forbidden":
        return f"{where}: unknown field (not part of this file's schema)"
    return f"{where}: {msg}; got {shown}"


def load(path: Path, model: type[BaseModel]):
    """Read and validate one data file; raise InputError with file, field and expectation."""
    try:
        name = path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        name = path.as_posix()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{name}: file not found") from None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{name}: line {e.lineno} column {e.colno}: not valid JSON ({e.msg})") from None
    try:
        return model.model_validate(raw)
    except ValidationError as e:
        lines = [_describe(err) for err in e.errors()]
        raise InputError(f"{name}: " + ("\n  " if len(lines) > 1 else "") + "\n  ".join(lines)) from None




# ---------------------------------------------------------------- models/experiments.json (the small model's runs)

class TrainConfig(Strict):
    d_model: PositiveInt
    n_layer: PositiveInt
    n_head: PositiveInt
    block_size: PositiveInt
    vocab_top: PositiveInt
    norm_type: Literal["zero_centered_rms", "rms", "layernorm"]
    norm_placement: Literal["pre", "post"]
    norm_eps: PositiveFloat
    init_std: PositiveFloat
    batch_size: PositiveInt
    lr: PositiveFloat
    weight_decay: float = Field(ge=0)
    beta1: float = Field(ge=0, lt=1)
    beta2: float = Field(ge=0, lt=1)
    grad_clip: PositiveFloat
    warmup_steps: int = Field(ge=0)
    max_steps: PositiveInt
    eval_every: PositiveInt
    eval_batches: PositiveInt
    seed: int

    @model_validator(mode="after")
    def _heads_tile_width(self):
        if self.d_model % self.n_head:
            raise ValueError(f"d_model ({self.d_model}) must be a multiple of n_head ({self.n_head})")
        return self


class Experiments(Strict):
    base: TrainConfig
    runs: dict[str, dict]

    def config(self, run: str) -> TrainConfig:
        return TrainConfig.model_validate({**self.base.model_dump(), **self.runs[run]})

    @model_validator(mode="after")
    def _runs_valid(self):
        for name, overrides in self.runs.items():
            try:
                self.config(name)
            except ValidationError as e:
                raise ValueError(f"runs.{name}: {e.errors()[0]['loc']}: {e.errors()[0]['msg']}") from None
        return self



# ---------------------------------------------------------------- data/results/*.json (written by models/measure.py)

class ResultProvenance(Strict):
    device: str
    device_name: str
    torch: str
    python: str
    threads: PositiveInt
    seed: Optional[int]
    date: str
    commit: str


class CorpusStats(Strict):
    vocab_size: PositiveInt
    train_chars: PositiveInt
    val_chars: PositiveInt
    unigram_floor: PositiveFloat
    source_sha256: str


class Curves(Strict):
    step: list[int]
    train_loss: list[float]
    lr: list[float]
    grad_norm: list[float]


class ValCurve(Strict):
    step: list[int]
    loss: list[Optional[float]]


class Probe(Strict):
    """Measured on one fixed batch: gradient norm of each block, residual-stream RMS after the embeddings
    and after each block."""
    block_grad_norm: list[Optional[float]]
    stream_rms: list[Optional[float]]
    loss: Optional[float]
    val_batch_losses: list[Optional[float]] = []


class RunMetrics(Strict):
    final_val_loss: Optional[float]
    min_val_loss: Optional[float]
    final_train_loss: Optional[float]
    steps_done: int
    diverged: bool
    diverged_step: Optional[int]
    last_finite_loss: Optional[float]


class Timing(Strict):
    wall_s: float
    tokens_per_s: float


class RunResult(Strict):
    hash: str
    quick: bool
    provenance: ResultProvenance
    run: str
    config: TrainConfig
    corpus: CorpusStats
    parameters: PositiveInt
    curves: Curves
    val: ValCurve
    init: Probe
    end: Probe
    metrics: RunMetrics
    timing: Timing


class OpTiming(Strict):
    median_ms: float
    min_ms: float
    max_ms: float
    q1_ms: float
    q3_ms: float
    iqr_ms: float
    bytes_moved: int
    gbps: float
    fraction_of_copy_gbps: Optional[float] = None


class CompileOutcome(Strict):
    ok: bool
    compile_s: float
    error: Optional[str] = None


class BenchResult(Strict):
    hash: str
    provenance: ResultProvenance
    device: str
    device_name: str
    shape: list[PositiveInt]
    dtype: str
    reps: PositiveInt
    warmup: int
    threads: PositiveInt
    ops: dict[str, OpTiming]
    plain_copy: OpTiming
    compiled: dict[str, CompileOutcome]


# ---------------------------------------------------------------- data/evolution.json (the chapter table)

class Bilingual(Strict):
    zh: str
    en: str


class EvolutionCell(Strict):
    did: Bilingual
    stuck: Bilingual = Bilingual(zh="", en="")


class EvolutionRow(Strict):
    part: Bilingual
    lesson: str
    current: bool = False
    cells: list[EvolutionCell]


class EvolutionTable(Strict):
    title: Bilingual
    columns: list[Bilingual]
    rows: list[EvolutionRow]
    note: Bilingual

    @model_validator(mode="after")
    def _rows_fill_columns(self):
        for i, r in enumerate(self.rows):
            if len(r.cells) != len(self.columns):
                raise ValueError(f"rows[{i}] ({r.part.en}) has {len(r.cells)} cells for {len(self.columns)} columns")
        return self


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


# ---------------------------------------------------------------- all inputs together

class Inputs(BaseModel):
    anchor: AnchorModel
    frontier: FrontierModels
    citations: Citations
    experiments: Experiments
    evolution: EvolutionTable
    teaching: TeachingVectors


def load_inputs(root: Path) -> Inputs:
    """Every validated input of the numbers stage."""
    return Inputs(
        anchor=load(root / "data/anchor-model.json", AnchorModel),
        frontier=load(root / "data/frontier-models.json", FrontierModels),
        citations=load(root / "data/citations.json", Citations),
        experiments=load(root / "models/experiments.json", Experiments),
        evolution=load(root / "data/evolution.json", EvolutionTable),
        teaching=load(root / "data/teaching-vectors.json", TeachingVectors),
    )
