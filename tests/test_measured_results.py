"""The committed results, the registry numbers and reading notes drawn from them, and their figures."""
import json
import shutil

import pytest

from course.claims import ClaimError, check_claims, load_claims
from course.figures import FIGURES, write_figures
from course.measured import load_benches, load_runs
from course.registry import Registry
from models.measure import experiments, stale

from conftest import ROOT

RESULTS = ROOT / "data" / "results"
REQUIRED = ["measure.date", "measure.device", "measure.commit", "measure.torch", "corpus.vocab_size",
            "corpus.train_chars", "corpus.unigram_floor"]
RUN_KEYS = ["final_val_loss", "init_block_grad_mean", "final_grad_ratio"]
BENCH_OPS = ["layernorm", "rmsnorm", "rmsnorm_manual", "rmsnorm_zero_centered"]


def registry_from(root) -> Registry:
    from course.measured import add_measured
    reg = Registry()
    add_measured(reg, root)
    return reg


def test_committed_results_are_current():
    """Each result's stored hash is the hash of the committed code and config: `make refresh` was run."""
    # a GPU machine may lack a committed GPU benchmark: the build adds one there, it is not stale
    found = {k: v for k, v in stale(ROOT).items()
             if not (k != "data/results/norm-bench-cpu.json" and k.startswith("data/results/norm-bench-")
                     and v == "missing")}
    assert found == {}, "stale results: rerun `python build.py --rerun measurements` and commit"


def test_every_run_has_a_committed_result():
    runs = load_runs()
    assert set(runs) == set(experiments(ROOT).runs)
    for name, r in runs.items():
        assert not r.quick and r.config == experiments(ROOT).config(name)
        assert r.metrics.steps_done == r.config.max_steps or r.metrics.diverged
        assert r.val.step[0] == 0 and len(r.curves.train_loss) == r.metrics.steps_done
    assert "cpu" in load_benches()


def test_registry_has_the_keys_the_lesson_uses():
    reg = registry_from(ROOT)
    keys = REQUIRED + [f"run.{n}.{k}" for n in experiments(ROOT).runs for k in RUN_KEYS]
    keys += [f"bench.cpu.{op}.median_ms" for op in BENCH_OPS] + ["bench.cpu.copy_gbps"]
    missing = [k for k in keys if k not in reg]
    assert missing == []
    assert all(reg[k].provenance.kind == "measured" for k in keys)


def test_claims_hold_on_committed_results():
    assert check_claims(registry_from(ROOT)) == len(load_claims().claims) > 0


def _doctored(tmp_path, run, edit):
    shutil.copytree(RESULTS, tmp_path / "data" / "results")
    p = tmp_path / "data" / "results" / f"{run}.json"
    r = json.loads(p.read_text(encoding="utf-8"))
    edit(r)
    p.write_text(json.dumps(r), encoding="utf-8")
    return registry_from(tmp_path)


def test_claims_fail_on_doctored_results(tmp_path):
    """Had LayerNorm ended level with RMSNorm (the first edition's finding), our note would be false."""
    base = json.loads((RESULTS / "c4_baseline.json").read_text(encoding="utf-8"))

    def ln_level_with_rms(r):
        r["metrics"]["final_val_loss"] = base["metrics"]["final_val_loss"] + 0.001
        r["end"]["val_batch_losses"] = [v + 0.001 for v in base["end"]["val_batch_losses"]]
    with pytest.raises(ClaimError) as e:
        check_claims(_doctored(tmp_path, "c4_layernorm", ln_level_with_rms))
    assert "'ln-beats-rms-here'" in str(e.value) and "compare.rms_minus_ln_val_loss = −0.0010" in str(e.value)


def test_claims_fail_when_postln_escapes_the_floor(tmp_path):
    def trains(r):
        r["metrics"]["final_val_loss"] -= 1.0
        r["val"]["loss"][-1] -= 1.0
    with pytest.raises(ClaimError, match="postln-stalls-at-floor"):
        check_claims(_doctored(tmp_path, "c4_postln", trains))


def test_claims_fail_when_the_benchmark_reverses(tmp_path):
    shutil.copytree(RESULTS, tmp_path / "data" / "results")
    p = tmp_path / "data" / "results" / "norm-bench-cpu.json"
    b = json.loads(p.read_text(encoding="utf-8"))
    b["ops"]["layernorm"], b["ops"]["rmsnorm"] = b["ops"]["rmsnorm"], b["ops"]["layernorm"]
    p.write_text(json.dumps(b), encoding="utf-8")
    with pytest.raises(ClaimError, match="fused-layernorm-faster"):
        check_claims(registry_from(tmp_path))


def test_claims_fail_when_a_run_diverges(tmp_path):
    def diverge(r):
        r["metrics"].update(diverged=True, diverged_step=17, final_val_loss=None, last_finite_loss=9.0)
    with pytest.raises(ClaimError, match="c4_preln_nowarmup_lr1e-2"):
        check_claims(_doctored(tmp_path, "c4_preln_nowarmup_lr1e-2", diverge))


def test_claim_sentences_carry_no_typed_numbers():
    from course.claims import Claim
    with pytest.raises(ValueError, match="typed"):
        Claim(id="x", zh="损失 4.62", en="loss <!-- n:run.c4_baseline.final_val_loss -->", check="1 < 2", why="")


def test_figures_stage_writes_four_bilingual_figures(tmp_path):
    paths = write_figures(ROOT, out=tmp_path)
    assert sorted(p.stem for p in paths) == sorted(FIGURES)
    for p in paths:
        text = p.read_text(encoding="utf-8")
        assert "plotly.min.js" not in text and "<script" not in text  # data only: the site draws it
        fig = json.loads(text)
        assert set(fig) == {"zh", "en"}
        for lang in ("zh", "en"):
            assert fig[lang]["data"] and fig[lang]["layout"]["title"]["text"] and fig[lang]["alt"]
        assert fig["zh"]["layout"]["title"]["text"] != fig["en"]["layout"]["title"]["text"]
    curves = json.loads((tmp_path / "ablation-curves.json").read_text(encoding="utf-8"))["en"]
    labels = [b["label"] for b in curves["layout"]["updatemenus"][0]["buttons"]]
    assert labels == ["Validation loss", "Train loss", "Grad norm (before clipping)"]
    assert any("unigram floor" in t["name"] for t in curves["data"])


def test_measurements_stage_ignores_files_the_model_does_not_read():
    import build
    stage = next(s for s in build.STAGES if s.name == "measurements")
    names = {p.relative_to(ROOT).as_posix() for p in stage.inputs()}
    assert "models/model.py" in names and "models/experiments.json" in names
    assert not any(n.startswith("data/") for n in names)


def test_only_the_run_whose_config_changed_is_stale(tmp_path):
    for rel in ["models", "data/results"]:
        shutil.copytree(ROOT / rel, tmp_path / rel, ignore=shutil.ignore_patterns("__pycache__"))
    exp_path = tmp_path / "models" / "experiments.json"
    exp = json.loads(exp_path.read_text(encoding="utf-8"))
    exp["runs"]["c4_layernorm"]["lr"] = 1e-3
    exp_path.write_text(json.dumps(exp), encoding="utf-8")
    assert stale(tmp_path) == {"data/results/c4_layernorm.json": "code or config changed"}
    (tmp_path / "models" / "model.py").write_text("# edited\n" + (ROOT / "models" / "model.py").read_text("utf-8"))
    assert len(stale(tmp_path)) == len(exp["runs"])  # the model code changed: every run, not the benchmark
