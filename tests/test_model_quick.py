"""The quick mode used only by tests: a few steps, written to a temporary folder, never under data/.
It must yield the result schema of a real run and the same bytes on a rerun (the clock aside); the
parallel refresh must train every job it is given and report each."""
import json

from course.common.measured import Quoted, add_run
from course.core.registry import Registry
from course.project import LANGUAGES
from models.measure import bench_hash, experiments, provenance, run_hash, run_key, run_one, train_jobs
from models.results import BenchResult, RunResult
from models.train import quick_config

from conftest import ROOT


def _load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def _without_clock(result: dict) -> dict:
    r = dict(result)
    r.pop("timing")
    r["provenance"] = {k: v for k, v in r["provenance"].items() if k != "date"}
    return r


def test_quick_run_has_result_schema_and_is_bit_identical_on_rerun(tmp_path, trains):
    exp = experiments(ROOT)
    name = "c4_postln"
    a = run_one(ROOT, name, exp.config(name), tmp_path / "a", quick=True, progress=False)
    b = run_one(ROOT, name, exp.config(name), tmp_path / "b", quick=True, progress=False)
    seed = exp.config(name).seed
    r = RunResult.model_validate(_load(tmp_path / "a" / name / f"seed{seed}.json"))
    assert r.quick and r.metrics.steps_done == quick_config(exp.config(name)).max_steps
    assert len(r.init.block_grad_norm) == r.config.n_layer and len(r.end.stream_rms) == r.config.n_layer + 1
    assert len(r.end.first_token_attention) == r.config.n_layer and len(r.end.gains) == 2 * r.config.n_layer
    assert r.hash == run_hash(ROOT, quick_config(exp.config(name)))
    assert json.dumps(_without_clock(a)) == json.dumps(_without_clock(b))
    assert not list((ROOT / "data" / "results").glob("*/seed*.json.tmp"))


def test_seeds_change_the_init_and_the_data_order(tmp_path, trains):
    exp = experiments(ROOT)
    s1, s2 = exp.seeds[:2]
    a = trains("x", quick_config(exp.config("c4_baseline", s1)), progress=False)
    b = trains("x", quick_config(exp.config("c4_baseline", s2)), progress=False)
    assert a["init"]["loss"] != b["init"]["loss"] and a["curves"]["train_loss"] != b["curves"]["train_loss"]


def test_parallel_refresh_trains_every_job_and_writes_each(tmp_path, trains):
    exp = experiments(ROOT)
    jobs = [("c4_baseline", exp.seeds[0]), ("c4_postln", exp.seeds[0]), ("c4g_attn_gate", exp.seeds[1])]
    done = train_jobs(ROOT, jobs, workers=2, progress=False, quick=True, out_dir=tmp_path)
    assert sorted((d["run"], d["seed"]) for d in done) == sorted(jobs)
    for name, seed in jobs:
        r = RunResult.model_validate(_load(tmp_path / name / f"seed{seed}.json"))
        assert r.quick and r.provenance.threads == 1 and r.config.seed == seed


def test_quick_bench_has_result_schema(tmp_path):
    from models.bench import run_bench
    b = {"hash": bench_hash(ROOT, "cpu"), "provenance": provenance(ROOT, "cpu", None),
         **run_bench("cpu", compile_ops=False, reps=5, warmup=1, shape=(2, 8, 64))}
    r = BenchResult.model_validate(b)
    assert set(r.ops) == {"layernorm", "rmsnorm", "rmsnorm_manual", "rmsnorm_zero_centered"}
    assert all(0 < o.min_ms <= o.median_ms <= o.max_ms for o in r.ops.values())
    assert r.plain_copy.bytes_moved == 2 * 2 * 8 * 64 * 4


def test_a_run_that_goes_non_finite_is_recorded_as_diverged(tmp_path, trains):
    cfg = quick_config(experiments(ROOT).config("c4_baseline")).model_copy(
        update={"lr": 1e6, "grad_clip": 1e9, "weight_decay": 0.0, "warmup_steps": 0})
    r = trains("blows_up", cfg, progress=False)
    m = r["metrics"]
    assert m["diverged"] and m["final_val_loss"] is None and m["last_finite_loss"] is not None
    assert m["diverged_step"] == m["steps_done"] + 1
    text = json.dumps({"hash": "x", "key": run_key(ROOT, cfg, "cpu"), "quick": True,
                       "provenance": provenance(ROOT, "cpu", cfg.seed), **r},
                      allow_nan=False)  # JSON without NaN: non-finite values are recorded as null
    reg = Registry(languages=LANGUAGES)
    add_run(reg, "blows_up", [RunResult.model_validate_json(text)],
            Quoted(facts=("diverged_seeds",), metrics={"final_val_loss": ("mean",)}))
    assert reg["run.blows_up.diverged_seeds"].value == 1
    assert reg["run.blows_up.final_val_loss"].value == "undefined"
