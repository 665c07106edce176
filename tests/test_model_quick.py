"""The quick mode used only by tests: a few steps, written to a temporary folder, never under data/.
It must yield the result schema of a real run and the same bytes on a rerun (the clock aside)."""
import json

from course.schema import BenchResult, RunResult
from models.measure import bench_hash, experiments, provenance, run_hash, run_one
from models.train import quick_config

from conftest import ROOT


def _load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def _without_clock(result: dict) -> dict:
    r = dict(result)
    r.pop("timing")
    r["provenance"] = {k: v for k, v in r["provenance"].items() if k != "date"}
    return r


def test_quick_run_has_result_schema_and_is_bit_identical_on_rerun(tmp_path):
    exp = experiments(ROOT)
    name = "c4_postln"
    a = run_one(ROOT, name, exp.config(name), tmp_path / "a", quick=True, progress=False)
    b = run_one(ROOT, name, exp.config(name), tmp_path / "b", quick=True, progress=False)
    r = RunResult.model_validate(_load(tmp_path / "a" / f"{name}.json"))
    assert r.quick and r.metrics.steps_done == quick_config(exp.config(name)).max_steps
    assert len(r.init.block_grad_norm) == r.config.n_layer and len(r.end.stream_rms) == r.config.n_layer + 1
    assert r.hash == run_hash(ROOT, quick_config(exp.config(name)))
    assert json.dumps(_without_clock(a)) == json.dumps(_without_clock(b))
    assert not (ROOT / "data" / "results" / "quick").exists()


def test_quick_bench_has_result_schema(tmp_path):
    from models.bench import run_bench
    b = {"hash": bench_hash(ROOT, "cpu"), "provenance": provenance(ROOT, "cpu", None),
         **run_bench("cpu", compile_ops=False, reps=5, warmup=1, shape=(2, 8, 64))}
    r = BenchResult.model_validate(b)
    assert set(r.ops) == {"layernorm", "rmsnorm", "rmsnorm_manual", "rmsnorm_zero_centered"}
    assert all(0 < o.min_ms <= o.median_ms <= o.max_ms for o in r.ops.values())
    assert r.plain_copy.bytes_moved == 2 * 2 * 8 * 64 * 4


def test_a_run_that_goes_non_finite_is_recorded_as_diverged(tmp_path):
    from course.measured import add_run
    from course.registry import Registry
    from models.train import train
    cfg = quick_config(experiments(ROOT).config("c4_baseline")).model_copy(
        update={"lr": 1e6, "grad_clip": 1e9, "weight_decay": 0.0, "warmup_steps": 0})
    r = train("blows_up", cfg, progress=False)
    m = r["metrics"]
    assert m["diverged"] and m["final_val_loss"] is None and m["last_finite_loss"] is not None
    assert m["diverged_step"] == m["steps_done"] + 1
    text = json.dumps({"hash": "x", "quick": True, "provenance": provenance(ROOT, "cpu", cfg.seed), **r},
                      allow_nan=False)  # JSON without NaN: non-finite values are recorded as null
    reg = Registry()
    add_run(reg, "blows_up", RunResult.model_validate_json(text))
    assert reg["run.blows_up.final_val_loss"].text["en"] == f"diverged (step {m['diverged_step']})"
