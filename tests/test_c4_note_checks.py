"""Each reading note of chapter C4 that this round rewrote carries a check as strong as its sentence: the check
holds on the committed results and fails on results doctored so that the sentence is false while the note's
older, weaker check would still pass. Every case edits the results in memory (a copy of each result, edited),
rebuilds the registry from them and evaluates the one note's check."""
from __future__ import annotations

import copy
import json

import pytest

from course.common.measured import Results, load_results
from course.core.claims import evaluate, load_claims
from course.paths import ROOT
from models.results import RunResult

pytestmark = pytest.mark.slow   # each case rebuilds the registry


@pytest.fixture(scope="module")
def base() -> Results:
    return load_results()


def registry(results: Results):
    from course.common.schema import load_inputs
    from course.core.numbers import build_registry
    from course.project import units
    inputs = load_inputs()
    inputs.__dict__["results"] = results   # the cached property, set to the doctored results
    return build_registry(units(), inputs)


def doctored(base: Results, edits: dict) -> Results:
    """A copy of the results with edits[run](result_dict, seed) applied to each seed of each named run."""
    runs = {}
    for name, seeds in base.runs.items():
        if name not in edits:
            runs[name] = seeds
            continue
        out = []
        for r in seeds:
            d = copy.deepcopy(r.model_dump())
            edits[name](d, r.config.seed)
            out.append(RunResult.model_validate(d))
        runs[name] = out
    return Results(runs=runs, benches=base.benches)


def check(lesson: str, note: str) -> str:
    claims = load_claims(ROOT / "lessons" / lesson / "claims.json")
    return next(c.check for c in claims.claims if c.id == note)


def holds(lesson: str, note: str, results: Results) -> bool:
    ok, _ = evaluate(check(lesson, note), registry(results))
    return ok


def scale(path: tuple, factor: float, seeds=None):
    """An edit that multiplies a list of per-layer values (init/end stream_rms, block_grad_norm, ...) by factor."""
    def edit(d, seed):
        if seeds is not None and seed not in seeds:
            return
        node = d
        for k in path[:-1]:
            node = node[k]
        node[path[-1]] = [v * factor for v in node[path[-1]]]
    return edit


def shift_loss(delta: float, seeds=None):
    """An edit that moves a run's validation losses (final, lowest, every evaluation) by delta."""
    def edit(d, seed):
        if seeds is not None and seed not in seeds:
            return
        d["metrics"]["final_val_loss"] += delta
        d["metrics"]["min_val_loss"] += delta
        d["val"]["loss"] = [v + delta if v is not None else v for v in d["val"]["loss"]]
    return edit


# (lesson, note, edits, what the edit makes false)
CASES = [
    ("c4_ffn", "gelu4-splits", {"c1_gelu_ratio2": scale(("end", "stream_rms"), 1.5)},
     "the 2d seeds' top-of-stream RMS no longer near the SwiGLU seeds' (still above every 8d seed's)"),
]


def test_every_rewritten_note_holds_on_the_committed_results(base):
    reg = registry(base)
    failing = [f"{lesson}/{note}" for lesson, note, _, _ in CASES if not evaluate(check(lesson, note), reg)[0]]
    assert not failing, failing


@pytest.mark.parametrize("lesson, note, edits, why", CASES, ids=[f"{c[1]}: {c[3]}" for c in CASES])
def test_a_note_fails_when_its_sentence_is_false(base, lesson, note, edits, why):
    assert not holds(lesson, note, doctored(base, edits)), f"{note} still holds when {why}"
