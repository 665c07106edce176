"""The chapter's inputs: the anchor model's official config, the frontier models, the cited papers and
numbers, and the evolution table. Only rules that make a config invalid in itself are checked (positive
sizes, a `layer_types` list as long as the layers, heads that tile the width they claim); a user who edits
a value gets that model's numbers. The small model's runs are validated by models/config.py."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Literal, Optional

from pydantic import Field, PositiveFloat, PositiveInt, model_validator

from course.paths import ROOT, CoursePaths
from course.core.schema import Bilingual, InputError, Official, Strict, load
from models.config import EXPERIMENTS, Experiments


# ---------------------------------------------------------------- anchor-model.json

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
    max_position_embeddings: PositiveInt
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
    release_year: Fact


class AnchorModel(Strict):
    name: str
    provenance: FileProvenance
    facts: AnchorFacts
    config: AnchorConfig


# ---------------------------------------------------------------- frontier-models.json

# what one layer's attention is (Hugging Face's layer_types words; DeepSeek-V4's compressed kinds are
# transformers' names for its compress_ratios 4 and 128)
LayerType = Literal["full_attention", "sliding_attention", "linear_attention",
                    "compressed_sparse_attention", "heavily_compressed_attention"]

class FrontierModel(Strict):
    name: str
    year: int = Field(ge=2017, le=2100)
    hidden_size: PositiveInt
    num_layers: PositiveInt
    ffn_width: Optional[PositiveInt] = None
    moe_ffn_width: Optional[PositiveInt] = None
    ffn_rule: Optional[str] = None
    ffn_multiple_of: Optional[PositiveInt] = None     # Meta's rule: the SwiGLU width is rounded up to a multiple of it
    num_heads: PositiveInt
    num_kv_heads: Optional[PositiveInt] = None
    head_dim: Optional[PositiveInt] = None
    activation: str
    swiglu_limit: Optional[PositiveFloat] = None
    situ_beta: Optional[PositiveFloat] = None
    situ_linear_beta: Optional[PositiveFloat] = None
    norm: Literal["layernorm", "rmsnorm"]
    norm_style: Optional[Literal["standard", "zero_centered"]] = None
    norm_placement: Literal["post", "pre", "output"]
    norm_eps: Optional[PositiveFloat] = None
    norm_note: Optional[str] = None
    qk_norm: Optional[bool] = None
    attn_output_gate: Optional[bool] = None
    num_experts: Optional[PositiveInt] = None         # routed experts per MoE layer
    experts_per_token: Optional[PositiveInt] = None   # routed experts each token uses
    shared_experts: Optional[int] = Field(default=None, ge=0)    # experts every token uses
    dense_ffn_layers: Optional[int] = Field(default=None, ge=0)  # an MoE model's layers with a dense FFN
    attn_output_gate_source: Optional[FileProvenance] = None   # when the config has no key: the code that gates
    vocab_size: Optional[PositiveInt] = None
    hc_mult: Optional[PositiveInt] = None              # parallel residual streams (hyper-connections, mHC)
    attn_res_block_size: Optional[PositiveInt] = None  # layers per block of Block AttnRes
    # ---- attention, for the KV cache (course/common/kv_cache.py). A value read from the config names its key
    # path in attention_keys; one derived from other keys names them as a list and says how in its *_rule;
    # a value the cache needs that the config does not give is absent, with the reason in attention_absent
    num_kv_heads_rule: Optional[str] = None
    head_dim_rule: Optional[str] = None
    q_lora_rank: Optional[PositiveInt] = None          # MLA: the queries' latent
    kv_lora_rank: Optional[PositiveInt] = None         # MLA: the keys' and values' latent, which the cache holds
    qk_rope_head_dim: Optional[PositiveInt] = None     # MLA: the shared RoPE key, cached beside the latent
    mla_use_nope: Optional[bool] = None                # MLA without rotary encoding: the qk_rope_head_dim part is
                                                       # still computed and cached, but never rotated (Kimi K3)
    qk_nope_head_dim: Optional[PositiveInt] = None
    v_head_dim: Optional[PositiveInt] = None
    index_head_dim: Optional[PositiveInt] = None       # DeepSeek-V4: the indexer's keys in its CSA layers
    sliding_window: Optional[PositiveInt] = None
    layer_types: Optional[list[LayerType]] = None
    layer_types_rule: Optional[str] = None
    compress_ratios: Optional[list[int]] = None        # DeepSeek-V4: one per layer, then one per MTP layer
    linear_num_key_heads: Optional[PositiveInt] = None
    linear_num_value_heads: Optional[PositiveInt] = None
    linear_key_head_dim: Optional[PositiveInt] = None
    linear_value_head_dim: Optional[PositiveInt] = None
    linear_conv_kernel_dim: Optional[PositiveInt] = None
    max_position_embeddings: Optional[PositiveInt] = None
    # where the config gives no maximum context: the context length of the model's paper, and where it says so
    paper_context: Optional[PositiveInt] = None
    paper_context_source: Optional[str] = None
    cache_rule: Optional[str] = None                   # what the cache counts, where that is not the plain case
    attention_keys: dict[str, str | list[str]] = {}
    attention_absent: dict[str, str] = {}
    provenance: FileProvenance

    @model_validator(mode="after")
    def _attention_consistent(self):
        if self.layer_types is not None and len(self.layer_types) != self.num_layers:
            raise ValueError(f"layer_types has {len(self.layer_types)} entries but num_layers is {self.num_layers}: "
                             "expected one entry per layer")
        if self.num_kv_heads and self.num_heads % self.num_kv_heads:
            raise ValueError(f"num_heads ({self.num_heads}) must be a multiple of num_kv_heads ({self.num_kv_heads})")
        fields = set(type(self).model_fields)
        for name, where in (("attention_keys", self.attention_keys), ("attention_absent", self.attention_absent)):
            unknown = sorted(set(where) - fields)
            if unknown:
                raise ValueError(f"{name} names fields the schema does not have: {', '.join(unknown)}")
        derived = sorted(k for k, v in self.attention_keys.items() if isinstance(v, list)
                         and f"{k}_rule" in fields and getattr(self, f"{k}_rule") is None)
        if derived:
            raise ValueError(f"{', '.join(derived)}: derived from several keys but no *_rule says how")
        if (self.paper_context is None) != (self.paper_context_source is None):
            raise ValueError("paper_context and paper_context_source go together: a context length and where it is")
        both = sorted(k for k in self.attention_absent if getattr(self, k) is not None)
        if both:
            raise ValueError(f"{', '.join(both)}: given a value and listed as absent in attention_absent")
        return self


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
    # what the source is: a peer-reviewed or preprint paper (the default), or something a reader should
    # weigh differently: a company's blog post or a model card; such an entry quotes the passage the course
    # relies on, since a blog has no table or section to point at
    kind: Literal["paper", "blog", "model card"] = "paper"
    quote: str = ""

    @model_validator(mode="after")
    def _quoted_when_not_a_paper(self):
        if self.kind != "paper" and not self.quote:
            raise ValueError(f"{self.title!r} is a {self.kind}: quote the passage the course relies on")
        return self


class CitedNumber(Strict):
    key: str = Field(pattern=r"^[a-z0-9_.\-]+$")
    value: float
    digits: int = Field(ge=0, le=6)
    unit: str = ""
    paper: str
    # the paper's table or section and the row or passage: a str, or {"zh": …, "en": …} where the words are
    # prose (a Chinese tooltip shows no English sentence)
    table: str | Bilingual
    row: str | Bilingual


class Citations(Strict):
    papers: dict[str, Paper]
    numbers: list[CitedNumber]

    @model_validator(mode="after")
    def _papers_exist(self):
        for i, n in enumerate(self.numbers):
            if n.paper not in self.papers:
                raise ValueError(f"numbers[{i}] ({n.key}) cites paper {n.paper!r}, which is not in papers")
        return self


# ---------------------------------------------------------------- data/evolution.json (the chapter table)

class EvolutionCell(Strict):
    did: Bilingual
    stuck: Bilingual = Bilingual({})   # none: the cell says only what the generation did


class EvolutionRow(Strict):
    part: Bilingual
    lesson: str           # the lesson the row belongs to (its unit id): the row links to it
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
                raise ValueError(f"rows[{i}] ({r.lesson}) has {len(r.cells)} cells for {len(self.columns)} columns")
        return self



# ---------------------------------------------------------------- data/cross-machine.json

class CrossMachine(Strict):
    """data/cross-machine.json (scripts/cross_machine.py): final losses of the same runs, seeds, code and torch
    trained on another CPU, read back from the commit where they were committed."""
    cpu: str
    source_commit: str
    trained_at: list[str]
    torch: str
    final_val_loss: dict[str, dict[str, Optional[float]]]   # run → seed → loss (None: it diverged)
    recorded_differently: dict[str, list[str]] = {}        # run → fields that change only what it records


# ---------------------------------------------------------------- all of the chapter's inputs together

@dataclass
class Inputs:
    """Every validated input of the course, and (read on first use) the small model's committed results."""
    anchor: AnchorModel
    frontier: FrontierModels
    citations: Citations
    experiments: Experiments
    evolution: EvolutionTable
    cross_machine: CrossMachine
    root: Path = ROOT

    @cached_property
    def results(self):
        from course.common.measured import load_results
        return load_results(CoursePaths.at(self.root).results)


def load_inputs(root: Path = ROOT) -> Inputs:
    data = CoursePaths.at(root).data
    return Inputs(
        anchor=load(data / "anchor-model.json", AnchorModel),
        frontier=load(data / "frontier-models.json", FrontierModels),
        citations=load(data / "citations.json", Citations),
        experiments=load(root / EXPERIMENTS, Experiments),
        evolution=load(data / "evolution.json", EvolutionTable),
        cross_machine=load(data / "cross-machine.json", CrossMachine),
        root=root,
    )
