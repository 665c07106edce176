"""What a run and a benchmark leave behind: the schema of their result files, where they live, and how
they are written (atomically, so a reader never sees half a file).

    data/results/<device>/<run>/seed<seed>.json   one training run of one seed on one kind of device
    data/results/norm-bench-<device>.json         the normalization micro-benchmark on one device

Results of different devices live side by side. The pages quote the reference device's (the CPU's, which
every machine has); a GPU's results are kept beside them and reported, never retrained where there is none.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Optional

from pydantic import BaseModel, ConfigDict, PositiveInt

from models.config import TrainConfig

RESULTS = Path("data/results")
DEVICES = ("cpu", "cuda")
REFERENCE_DEVICE = "cpu"   # the device whose results the pages quote: every machine has one


def run_path(root: Path, run: str, seed: int, device: str = REFERENCE_DEVICE) -> Path:
    return root / RESULTS / device / run / f"seed{seed}.json"


def bench_path(root: Path, device: str) -> Path:
    return root / RESULTS / f"norm-bench-{device}.json"


_FLAT_LIST = re.compile(r"\[[^\[\]{}]*\]")


def dumps(result: dict) -> str:
    """Indented JSON with every list of plain values on one line: a diff shows which fields changed
    without one line per number of a 400-step curve. NaN is refused (a non-finite value is null)."""
    def one_line(m: re.Match) -> str:
        try:
            return json.dumps(json.loads(m.group(0)), ensure_ascii=False)
        except ValueError:  # a bracket inside a string, not a list: leave it
            return m.group(0)
    return _FLAT_LIST.sub(one_line, json.dumps(result, indent=1, allow_nan=False, ensure_ascii=False)) + "\n"


def stored(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def stored_hash(path: Path) -> str | None:
    return (stored(path) or {}).get("hash")


# ---------------------------------------------------------------- the schema of a run's result

class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ResultProvenance(Strict):
    device: str                 # the kind: "cpu" or "cuda"
    device_name: str            # the GPU's name on CUDA, the CPU's model otherwise
    cpu: str                    # the CPU's model, on every device
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
    unigram_floor: float
    source_sha256: str


class Curves(Strict):
    """One entry per optimizer step."""
    step: list[int]
    train_loss: list[float]
    lr: list[float]
    grad_norm: list[float]
    ffn_act_max: list[float]      # largest |FFN hidden activation| in that step's forward, over every layer
    # a clamped SwiGLU only: entries the clamp changed in that step's forward, over every layer
    clamped_gate: Optional[list[int]] = None    # gate pre-activations above the limit
    clamped_up: Optional[list[int]] = None      # up values beyond ±limit


class Trace(Strict):
    """The first `trace_steps` updates of a run that asks for them, one entry per update."""
    step: list[int]
    block_grad_norm: list[list[Optional[float]]]    # per block, before clipping
    update_norm: list[Optional[float]]              # ‖Δθ‖ over every parameter
    block_update_norm: list[list[Optional[float]]]  # ‖Δθ‖ per block
    param_norm: list[Optional[float]]               # ‖θ‖ after the update
    block_param_norm: list[list[Optional[float]]]   # ‖θ‖ per block after the update


class FirstUpdates(Strict):
    """The first `probe_steps` updates of a run that asks for them, on the fixed probe batch with no gradient
    (models/train.py, FirstUpdates): entry k of the per-state lists after k updates (step[k]), entry k of the
    per-update lists for update k + 1 (from the state step[k] to step[k + 1])."""
    step: list[int]                                 # updates done: 0 (at init), 1, …, probe_steps
    loss: list[Optional[float]]                     # on the probe batch
    attn_ratio: list[list[Optional[float]]]         # per block: RMS(attention's output) / RMS(stream it is added to)
    ffn_ratio: list[list[Optional[float]]]          # per block: RMS(the FFN's output) / RMS(stream it is added to)
    norms: list[str]                                # every norm, in the model's order
    norm_input_rms: list[list[Optional[float]]]     # per norm of `norms`: the RMS of its input
    logit_change: list[Optional[float]]             # per update: ‖Δ logits‖ per token, mean over the batch's tokens
    hidden_change: list[Optional[float]]            # per update: the same of the hidden state the head reads


class AttentionStats(Strict):
    """A run with attn_stats, on the fixed probe batch at each evaluation (models/train.py, attention_stats):
    per layer, over heads, the batch and queries 1..T−1 (query 0 reads only itself)."""
    step: list[int]
    score_std: list[list[Optional[float]]]    # the std of the scores softmax reads (scale applied; causal entries)
    entropy: list[list[Optional[float]]]      # the attention weights' entropy per query row, mean, in nats
    uniform_entropy: float                    # the same for uniform weights over the prefix: the largest possible


class ValCurve(Strict):
    step: list[int]
    loss: list[Optional[float]]


class GainStats(Strict):
    """One norm's effective gain (g, or 1 + w for the zero-centered norm) over its d entries."""
    name: str
    mean: float
    std: float
    min: float
    max: float


class Probe(Strict):
    """Measured on one fixed validation batch, before the first update (init) and after the last (end)."""
    block_grad_norm: list[Optional[float]]      # per block: ‖∂loss/∂θ‖ over the block's parameters
    ffn_out_grad_norm: list[Optional[float]]   # per block: ‖∂loss/∂W₂‖ of its FFN's output matrix
    stream_rms: list[Optional[float]]           # the residual stream after the embeddings and after each block
    loss: Optional[float]
    first_token_attention: list[float]          # per layer: mean softmax weight on position 0 (queries 1..T−1)
    ffn_act_max: list[float]                    # per layer: largest |FFN hidden activation|
    ffn_pre_max: list[float]                    # per layer: largest |pre-activation| (gate, up, or W_1 x)
    gains: list[GainStats]
    val_batch_losses: list[Optional[float]] = []


class RunMetrics(Strict):
    final_val_loss: Optional[float]
    min_val_loss: Optional[float]
    final_train_loss: Optional[float]
    steps_done: int
    diverged: bool
    diverged_step: Optional[int]
    last_finite_loss: Optional[float]
    max_ffn_act: float


class Timing(Strict):
    wall_s: float
    tokens_per_s: float


class ResultKey(Strict):
    """What the hash is taken over, part by part, so that a stale result can say which part changed."""
    code: dict[str, str]        # each module the run executes → the key of its syntax tree
    config: str                 # the run's config with its seed (fields at their defaults left out)
    corpus: str                 # sha256 of the corpus file
    device: str


class RunResult(Strict):
    hash: str
    key: ResultKey
    quick: bool
    provenance: ResultProvenance
    run: str
    config: TrainConfig
    corpus: CorpusStats
    parameters: PositiveInt
    ffn_hidden: PositiveInt
    curves: Curves
    val: ValCurve
    init: Probe
    end: Probe
    metrics: RunMetrics
    timing: Timing
    trace: Optional[Trace] = None
    first_updates: Optional[FirstUpdates] = None
    attention: Optional[AttentionStats] = None


# ---------------------------------------------------------------- the schema of a benchmark's result

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
