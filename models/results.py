"""What a run and a benchmark leave behind: the schema of their result files, where they live, and how
they are written (atomically, so a reader never sees half a file).

    data/results/<run>/seed<seed>.json     one training run of one seed
    data/results/norm-bench-<device>.json  the normalization micro-benchmark on one device
"""
from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path
from typing import Optional

from pydantic import BaseModel, ConfigDict, PositiveInt

from models.config import TrainConfig

RESULTS = Path("data/results")


def run_path(root: Path, run: str, seed: int) -> Path:
    return root / RESULTS / run / f"seed{seed}.json"


def bench_path(root: Path, device: str) -> Path:
    return root / RESULTS / f"norm-bench-{device}.json"


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write to a temporary file beside `path`, then rename over it: a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = "wb" if isinstance(data, bytes) else "w"
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, mode, **({} if isinstance(data, bytes) else {"encoding": "utf-8"})) as f:
            f.write(data)
        os.chmod(tmp, 0o644)  # mkstemp makes files private; these are ordinary project files
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


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


def stored_hash(path: Path) -> str | None:
    try:
        return json.loads(path.read_text(encoding="utf-8")).get("hash")
    except (OSError, ValueError):
        return None


# ---------------------------------------------------------------- the schema of a run's result

class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


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
    unigram_floor: float
    source_sha256: str


class Curves(Strict):
    """One entry per optimizer step."""
    step: list[int]
    train_loss: list[float]
    lr: list[float]
    grad_norm: list[float]
    ffn_act_max: list[float]      # largest |FFN hidden activation| in that step's forward, over every layer


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


class RunResult(Strict):
    hash: str
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
