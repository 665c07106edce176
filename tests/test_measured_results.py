"""The committed results of the small model: every run has every seed, each current; the registry's
seed spreads and paired comparisons; claims that stop holding on doctored results; the figures."""
import json
import os
import shutil

import pytest

from course.common.measured import QUOTED, Results, compare, load_results, seed_values
from course.common.numbers import add_numbers as add_chapter
from course.common.schema import load_inputs
from course.core.claims import ClaimError
from course.core.figures import write_figures
from course.core.numbers import build_registry, check_all_claims
from course.paths import RESULTS, ROOT
from course.core.registry import Registry
from course.project import LANGUAGES
from course.project import units as discover
from models.measure import experiments, stale


@pytest.fixture(scope="module")
def results() -> Results:
    return load_results()


def test_committed_results_are_current():
    """Each result's stored hash is the hash of the committed code and config: `make refresh` was run."""
    # a GPU machine may lack a committed GPU benchmark: the build adds one there, it is not stale
    found = {k: v for k, v in stale(ROOT).items()
             if not (k != "data/results/norm-bench-cpu.json" and k.startswith("data/results/norm-bench-")
                     and v == "missing")}
    assert found == {}, "stale results: run `make refresh` and commit"


def test_every_run_has_every_seed(results):
    exp = experiments(ROOT)
    assert len(exp.seeds) >= 3
    assert set(results.runs) == set(exp.runs)
    for name, runs in results.runs.items():
        assert [r.config.seed for r in runs] == sorted(exp.seeds), name
        for r in runs:
            assert not r.quick and r.config == exp.config(name, r.config.seed)
            assert r.metrics.steps_done == r.config.max_steps or r.metrics.diverged
            assert r.val.step[0] == 0 and len(r.curves.train_loss) == r.metrics.steps_done
        assert len({r.hash for r in runs}) == len(runs), f"{name}: each seed has its own hash"
    assert "cpu" in results.benches


def test_what_the_pages_quote_of_a_run_is_its_spread_over_seeds(results):
    """Each statistic QUOTED names of a run's metric is taken over every seed (the mean, the extremes, the
    range), and the registry holds nothing else of a run."""
    reg = Registry(languages=LANGUAGES)
    add_chapter(reg, load_inputs())
    expected_keys = set()
    for name, quoted in QUOTED.items():
        runs = results.runs[name]
        expected_keys |= {f"run.{name}.{fact}" for fact in quoted.facts}
        for metric, stats in quoted.metrics.items():
            values = seed_values(runs, metric)
            k = f"run.{name}.{metric}"
            keys = {stat: k if stat == "mean" else f"{k}.{stat}" for stat in stats}
            expected_keys |= set(keys.values())
            assert reg[keys[stats[0]]].provenance.kind == "measured" and "seeds" in reg[keys[stats[0]]].provenance.run["en"]
            if not all(isinstance(v, (int, float)) for v in values):
                continue
            spread = {"mean": pytest.approx(sum(values) / len(values)), "min": min(values), "max": max(values),
                      "range": [min(values), max(values)]}
            for stat, key in keys.items():
                assert reg[key].value == spread[stat], key
    assert {k for k in reg.numbers if k.startswith("run.")} == expected_keys


def test_a_paired_comparison_is_seed_by_seed(results):
    reg = Registry(languages=LANGUAGES)
    compare(reg, "x", results, "c4_layernorm", "c4_baseline", "final_val_loss", "mean", "min", "max")
    diffs = [a.metrics.final_val_loss - b.metrics.final_val_loss
             for a, b in zip(results.runs["c4_layernorm"], results.runs["c4_baseline"])]
    assert reg["x.diff"].value == pytest.approx(sum(diffs) / len(diffs))
    assert reg["x.diff.max"].value == max(diffs) and reg["x.diff.min"].value == min(diffs)


def test_claims_hold_on_committed_results():
    units = discover()
    reg = build_registry(units, load_inputs())
    if os.environ.get("COURSE_TEST_BUILD") != "draft":
        assert check_all_claims(units, reg) > 0
        return
    # drafting (conftest.py): a lesson whose runs have no results yet names keys the registry lacks, as the
    # draft build warns; any other failing note still fails
    from course.core.errors import ClaimError
    try:
        check_all_claims(units, reg)
    except ClaimError as e:
        failures = [line.strip() for line in str(e).splitlines()
                    if line.startswith("    ") and not line.startswith("      ")]
        other = [f for f in failures if "unknown registry keys" not in f and "unknown key" not in f]
        assert other == [], "\n".join(other)


def doctored(tmp_path, run, edit, seeds=None):
    """A copy of the results with run's seeds edited by edit(result_dict)."""
    from models.results import REFERENCE_DEVICE
    shutil.copytree(RESULTS, tmp_path / "results")
    edited = 0
    for p in sorted((tmp_path / "results" / REFERENCE_DEVICE / run).glob("seed*.json")):
        r = json.loads(p.read_text(encoding="utf-8"))
        if seeds is None or r["config"]["seed"] in seeds:
            edit(r)
            p.write_text(json.dumps(r), encoding="utf-8")
            edited += 1
    assert edited, f"no result of {run} to edit under {tmp_path / 'results'}"   # a test that edits nothing proves nothing
    return tmp_path / "results"


def test_a_claim_that_no_longer_holds_stops_the_build(tmp_path, registry_of):
    """Had one seed of Post-LN escaped the unigram baseline, the note that Post-LN stays there in every
    seed would be false, and the build must say so by name."""
    seed = experiments(ROOT).seeds[-1]

    def trains(r):
        r["metrics"]["final_val_loss"] -= 1.5
        r["metrics"]["min_val_loss"] -= 1.5
        r["val"]["loss"] = [v - 1.5 if v is not None else v for v in r["val"]["loss"]]
    units = discover()
    reg = registry_of(doctored(tmp_path, "c4_postln", trains, seeds={seed}))
    with pytest.raises(ClaimError, match="postln") as e:
        check_all_claims(units, reg)
    assert "lessons/c4_normalization/claims.json" in str(e.value)


def test_the_layernorm_rmsnorm_note_stops_the_build_if_the_norm_decides(tmp_path, registry_of):
    """The note on LayerNorm against RMSNorm says the learning rate moves the final loss more than the choice
    of norm. Had LayerNorm ended far below RMSNorm at the baseline's learning rate in every seed, that would
    be false, and the build must name the note."""
    def far_lower(r):
        r["metrics"]["final_val_loss"] -= 1.0
        r["metrics"]["min_val_loss"] -= 1.0
        r["val"]["loss"] = [v - 1.0 if v is not None else v for v in r["val"]["loss"]]
    units = discover()
    reg = registry_of(doctored(tmp_path, "c4_layernorm", far_lower))
    with pytest.raises(ClaimError, match="claim 'ln-rms-learning-rate' no longer holds"):
        check_all_claims(units, reg)


def test_figures_stage_writes_every_lessons_figures(tmp_path, results):
    units = discover()
    from course.project import PROJECT
    paths = write_figures(units, PROJECT.figure_sources(), PROJECT.paths, out=tmp_path)
    assert sorted(p.stem for p in paths) == sorted(f.name for _, f in units.figures())
    for p in paths:
        text = p.read_text(encoding="utf-8")
        assert "plotly.min.js" not in text and "<script" not in text  # data only: the site draws it
        fig = json.loads(text)
        assert set(fig) == {"zh", "en"}
        assert fig["zh"]["layout"]["title"]["text"] != fig["en"]["layout"]["title"]["text"]


def test_a_mixed_set_of_results_names_every_device_with_its_seeds(results, tmp_path, registry_of):
    """Seeds trained on different machines are named as such (a page once named the last seed's machine for
    all), and the commit and date are the newest result's."""
    shutil.copytree(RESULTS, tmp_path / "results")
    f = tmp_path / "results" / "cpu" / "c4_baseline" / "seed1339.json"
    doc = json.loads(f.read_text())
    doc["provenance"].update(device_name="Other CPU", date="2099-01-01", commit="f" * 40)
    f.write_text(json.dumps(doc))
    reg = registry_of(tmp_path / "results")
    n = reg.numbers["run.c4_baseline.final_val_loss"]
    kept = results.runs["c4_baseline"][0].provenance.device_name
    assert n.provenance.device == {"zh": f"{kept}（种子 1337、1338）；Other CPU（种子 1339）",
                                   "en": f"{kept} (seeds 1337, 1338); Other CPU (seed 1339)"}
    assert (n.provenance.date, n.provenance.commit) == ("2099-01-01", "f" * 40)
    device = reg.numbers["measure.device"].text
    assert "Other CPU" in device["zh"] and "Other CPU" in device["en"] and "（每次运行" in device["zh"]
    assert reg.numbers["measure.device"].provenance.commit == "f" * 40


def test_the_cross_machine_drift_is_the_largest_move_of_a_final_loss_by_learning_rate(results):
    from course.common.measured import add_drift
    from course.common.schema import CrossMachine
    base = {str(r.config.seed): r.metrics.final_val_loss for r in results.runs["c4_baseline"]}
    low = {str(r.config.seed): r.metrics.final_val_loss for r in results.runs["c4_baseline_lr1e-3"]}
    quoted = "c8_postln_lr1e-3_nowarmup"   # a run whose drift a note quotes (QUOTED): its max and seed 1338 there
    assert "max" in QUOTED[quoted].drift and "seed1338" in QUOTED[quoted].drift
    ln_low = {str(r.config.seed): r.metrics.final_val_loss for r in results.runs["c4_layernorm_lr1e-3"]}
    probe = "c8_init_preln_L2"   # trains nothing: its "final" loss is the init's, and stays out of the totals
    assert results.runs[probe][0].config.max_steps == 0
    other = CrossMachine(cpu="Other CPU", source_commit="abc", trained_at=["abc"], torch="x", final_val_loss={
        "c4_baseline": {s: v + (0.05 if s == "1338" else -0.01) for s, v in base.items()},
        "c4_baseline_lr1e-3": {s: v + 1e-4 for s, v in low.items()}, "no_such_run": {"1337": 1.0},
        "c4_layernorm_lr1e-3": {s: v - 2e-5 for s, v in ln_low.items()}, probe: {"1337": 50.0},
        quoted: {"1338": 99.0}}, recorded_differently={quoted: ["trace_steps"]})
    reg = Registry(languages=LANGUAGES)
    add_drift(reg, results, other)
    assert reg["measure.drift.results"].value == 9
    assert reg["measure.drift.lr_3e-3.max"].value == pytest.approx(0.05)
    assert reg["measure.drift.lr_1e-3.max"].value == pytest.approx(1e-4)
    assert reg["measure.drift.cpu"].text["en"] == "Other CPU"
    # a run that records differently has its own keys and stays out of the totals
    assert reg[f"measure.drift.run.{quoted}.seed1338.there"].value == 99.0
    assert reg[f"measure.drift.run.{quoted}.max"].value > 90
    # a quoted run has its own max; a run whose drift nobody quotes has no keys of its own
    assert reg["measure.drift.run.c4_baseline_lr1e-3.max"].value == pytest.approx(1e-4)
    assert QUOTED["c4_layernorm_lr1e-3"].drift == ()
    assert not [k for k in reg.numbers if k.startswith("measure.drift.run.c4_layernorm_lr1e-3.")]


def test_the_cross_machine_script_pairs_only_the_same_run_on_another_cpu(tmp_path):
    """scripts/cross_machine.py reads results back from a commit: it keeps a result trained on another CPU with
    the same config and torch, and leaves out one of the same CPU and one whose config changed since."""
    import subprocess
    import sys

    def result(seed, cpu, loss, lr=3e-3, **more):
        return {"run": "r", "config": {"seed": seed, "lr": lr, **more}, "metrics": {"final_val_loss": loss},
                "provenance": {"device_name": cpu, "torch": "2.13.0+cpu", "commit": "c0"}}

    def write(files):
        for seed, doc in files.items():
            path = tmp_path / "data/results/cpu/r" / f"seed{seed}.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(doc))

    git = lambda *a: subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *a], cwd=tmp_path,
                                    check=True, capture_output=True)
    git("init", "-q")
    write({1: result(1, "AMD EPYC, 1 threads", 5.0), 2: result(2, "Intel Xeon", 5.0), 3: result(3, "AMD EPYC", 5.0),
           4: result(4, "AMD EPYC", 5.4)})
    git("add", "-A"), git("commit", "-qm", "then")
    write({1: result(1, "Intel Xeon", 5.1), 2: result(2, "Intel Xeon", 5.2), 3: result(3, "Intel Xeon", 5.3, lr=1e-3),
           4: result(4, "Intel Xeon", 5.5, trace_steps=100)})   # seed 4 records more, computes the same
    done = subprocess.run([sys.executable, str(ROOT / "scripts/cross_machine.py"), "--commit", "HEAD", "--cpu", "AMD EPYC",
                           "--root", str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    doc = json.loads((tmp_path / "data/cross-machine.json").read_text())
    assert doc["final_val_loss"] == {"r": {"1": 5.0, "4": 5.4}} and doc["cpu"] == "AMD EPYC"
    assert doc["recorded_differently"] == {"r": ["trace_steps"]}


def test_a_reading_note_may_name_a_lesson_but_not_type_a_number():
    """A cross-reference's id (c8-2) is not a typed number; a digit in the prose is."""
    import pydantic
    from course.core.claims import Claim
    note = dict(id="n", check="True", why="w", zh="见 <!-- ref:c8-2 short -->。")
    Claim(**note, en="See <!-- ref:c8-2 short --> and <!-- n:project.max_steps --> steps.")
    with pytest.raises(pydantic.ValidationError, match="typed into the sentence"):
        Claim(**note, en="See <!-- ref:c8-2 short --> and 400 steps.")
