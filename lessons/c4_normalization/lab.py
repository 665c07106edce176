"""What the lesson's hands-on notebook (docs/c4/normalization-lab.ipynb, .en.ipynb) imports.

The notebook's cells show the arithmetic a reader should see; this module holds what would only distract
from it: every sentence the notebook prints (in the lesson's words, words.LANG.json); the BatchNorm widget's
teaching batches as tensors; the tiny Pre-Norm / Post-LN training on the project's own model and corpus;
the benchmark harness run with the reader's own repetitions beside the committed result (one benchmark at
a time on a machine); aligned text tables; the checks that the notebook's numbers are the lesson page's and
the widgets' (one call per section); and the checks of the predictions and the "your turn" cells, which
diagnose the usual mistakes and, where the learner has not answered yet, ask for a prediction first
(course/core/lab.py).

COURSE_LAB_QUICK=1 shortens the benchmark (the tests' setting); the build runs the full version.
"""
from __future__ import annotations

import math
import os
import unicodedata
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable

import torch

from course.core.formats import fixed, vector
from course.core.lab import Numbers, answer_key, ask_first, unanswered
from course.project import words

QUICK = os.environ.get("COURSE_LAB_QUICK") == "1"
WORDS = words(__file__)   # lessons/c4_normalization/words.LANG.json: lab.* and check.*

# ---------------------------------------------------------------- printing


def width(text: str) -> int:
    """Columns a string takes in a monospace font: CJK characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def table(header: list[str], rows: list[list[str]]) -> None:
    """Print rows as an aligned text table (CJK-aware), the first column left-aligned, the rest right."""
    cols = list(zip(header, *rows))
    widths = [max(width(c) for c in col) for col in cols]

    def line(cells):
        return "  ".join(c + " " * (w - width(c)) if i == 0 else " " * (w - width(c)) + c
                         for i, (c, w) in enumerate(zip(cells, widths)))
    print(line(header))
    print("  ".join("─" * w for w in widths))
    for r in rows:
        print(line(r))


# the units whose widgets the notebook quotes: the course's (the residual-stream simulator) and this lesson's.
# Named, not discovered: discovering the units imports every lesson, and the build re-executes a notebook
# when any code it read changes (course/core/notebooks.py), so an edit of another lesson would rerun it.
WIDGET_UNITS = ("course.common", __package__)


def widget_label(widget: str, key: str, lang: str, **fill) -> str:
    """A label from a widget's label table, so the notebook names a read-out exactly as the widget does."""
    from course.core.units import named_units
    from course.core.widgets import label
    _, w = named_units(WIDGET_UNITS).widget(widget)
    return label(w, key, lang).format(**fill)


# ---------------------------------------------------------------- the checks' messages
# Every sentence the notebook prints is in this lesson's words (words.LANG.json): lab.* what its own cells
# print (labels(lang)), check.* what the checks say (message()).



def labels(lang: str) -> dict:
    """What the notebook's own cells print, in one language (the notebook's): the words lab.KEY, by KEY,
    nested where a key has more parts (lab.sim_settings.prenorm: labels(lang)["sim_settings"]["prenorm"])."""
    say, out = WORDS.lang(lang), {}
    for key in say.keys():
        if key.startswith("lab."):
            *groups, last = key.removeprefix("lab.").split(".")
            node = out
            for g in groups:
                node = node.setdefault(g, {})
            node[last] = say.template(key)
    return out




def message(key: str, lang: str, **fill) -> str:
    """What a check says (the words check.KEY), in the notebook's language."""
    return WORDS.lang(lang)(f"check.{key}", **fill)


def check_prediction(question: str, predicted, actual, lang: str, tol: float | None = None) -> bool:
    """Hold a reader's prediction against what the run gives: equal (a yes/no, a name, in any case), or
    within `tol` for a number and for each number of a list. A wrong prediction raises AssertionError; either
    way the message repeats the question and both answers. A prediction still left as `...` is asked for
    first (and fails in the answer key: course.core.lab.ask_first). Returns whether it judged a prediction
    (False when it asked for one), so that a check shows what gives the answer away only after it has judged."""
    if unanswered(predicted):
        ask_first(message("unanswered", lang, question=question))
        return False
    try:
        if isinstance(actual, (list, tuple)):
            ok = len(predicted) == len(actual) and all(abs(p - a) <= tol for p, a in zip(predicted, actual))
        elif isinstance(actual, str):
            ok = str(predicted).strip().lower() == actual
        elif tol is not None:
            ok = abs(predicted - actual) <= tol
        else:
            ok = predicted == actual
    except TypeError:  # a prediction of another kind than the answer (a word for a number, say)
        ok = False

    def answer(v) -> str:
        if isinstance(v, bool):
            return message("yes" if v else "no", lang)
        if isinstance(v, (list, tuple)) and all(isinstance(x, (int, float)) for x in v):
            return vector(list(v), 3)
        return fixed(v, 3) if tol is not None and isinstance(v, (int, float)) else str(v)
    text = dict(question=question, predicted=answer(predicted), actual=answer(actual))
    if not ok:
        raise AssertionError(message("prediction_wrong", lang, **text))
    print(message("prediction_ok", lang, **text))
    return True


def same_as_page(num: Numbers, expected: dict[str, str]) -> None:
    """The notebook's numbers, written as the lesson page writes them, against the page's registry entries:
    a difference means the notebook and the page no longer compute the same thing (a fault of the notebook,
    reported in English with the key)."""
    wrong = [f"{key}: the notebook computes {got!r}, the page says {num.text(key)!r}"
             for key, got in expected.items() if got != num.text(key)]
    assert not wrong, "the notebook disagrees with the lesson page: " + "; ".join(wrong)


# ---------------------------------------------------------------- the BatchNorm widget's batches


@dataclass
class TeachingBatch:
    case: str                     # "none", a companion's id, or "single": the widget's cases
    label: str                    # the case as the widget names it
    tokens: list[str]
    vectors: torch.Tensor         # (tokens, dims), float64: each row one token's teaching vector
    focus_index: int              # where 苹果 sits in the batch
    widget_output: list[float]    # BatchNorm's 苹果 as the widget computes it (twins.batch_cases)


def batchnorm_label(key: str, lang: str) -> str:
    """A label of the BatchNorm widget, with the focus token filled in as the widget fills it."""
    from lessons.c4_normalization.twins import teaching_vectors
    tv = teaching_vectors()
    return widget_label("batchnorm-demo", key, lang, focus=tv.focus, gloss=tv.focus_gloss)


def teaching_batches(lang: str) -> list[TeachingBatch]:
    """The batches the BatchNorm widget shows, in its order: the example sentence alone, with each
    companion sentence, and the generation case (one token)."""
    from lessons.c4_normalization.twins import batch_cases, teaching_vectors
    tv = teaching_vectors()
    labels = {c.id: c.label[lang] for c in tv.companions}
    labels["none"] = batchnorm_label("none", lang)
    labels["single"] = batchnorm_label("single", lang)

    def vec(token: str) -> list[float]:
        return tv.pad.vector if token == tv.pad.token else tv.tokens[token].vector

    return [TeachingBatch(case=c.id, label=labels[c.id], tokens=c.tokens,
                          vectors=torch.tensor([vec(t) for t in c.tokens], dtype=torch.float64),
                          focus_index=c.focus_index, widget_output=c.batchnorm)
            for c in batch_cases(tv)]


def same_as_widget(num: Numbers, batches: list[TeachingBatch], apples: list[torch.Tensor]) -> None:
    """Section 1: BatchNorm's apple in each batch, digit for digit as the widget shows it (its Python twin),
    with as many features as the page's question names."""
    assert len(apples) == len(batches)
    for apple, batch in zip(apples, batches):
        assert len(apple) == num.value("normalization.worked.d"), f"{batch.case}: {len(apple)} features"
        assert vector(apple.tolist(), 3) == vector(batch.widget_output, 3), \
            f"{batch.case}: the notebook computes {vector(apple.tolist(), 3)}, the widget {vector(batch.widget_output, 3)}"


# how the registry names section 3's inputs
WORKED_INPUTS = {"x": "x", "x + shift": "shifted", "x · scale": "scaled"}


def same_as_page_worked(num: Numbers, inputs: dict, outputs: dict) -> None:
    """Section 3: the hand-written norms agree with PyTorch's own (zero ε, no learned gain or bias), and
    their outputs are the lesson page's, digit for digit."""
    import torch.nn.functional as F
    for name, v in inputs.items():
        assert torch.allclose(outputs[name]["LayerNorm"], F.layer_norm(v, v.shape, eps=0.0), atol=1e-12), name
        assert torch.allclose(outputs[name]["RMSNorm"], F.rms_norm(v, v.shape, eps=0.0), atol=1e-12), name
    same_as_page(num, {f"normalization.worked.{WORKED_INPUTS[name]}.{norm.lower()}": vector(out.tolist(), 3)
                       for name, by_norm in outputs.items() for norm, out in by_norm.items()})


def same_as_page_lengths(num: Numbers, length_x: float, length_anchor: float, shrink: float) -> None:
    """Section 4: the teaching vector's length, √d at the anchor model's d and the shrink at mean(x²) = ε,
    as the lesson page writes them."""
    from course.core.formats import percent
    same_as_page(num, {"normalization.worked.rmsnorm_length": fixed(length_x, 0),
                       "normalization.sqrt_d": fixed(length_anchor, 2),
                       "normalization.eps_effect.at_eps": percent(shrink, 1)})


def same_as_page_sim(num: Numbers, sims: dict) -> None:
    """Section 5: the simulator's read-outs in each setting, as the lesson page quotes them (the same twin)."""
    same_as_page(num, {f"normalization.sim.{name}.{what}": fixed(value, 2) for name, r in sims.items()
                       for what, value in (("grad_ratio", r.grad_ratio), ("stream_rms", r.stream_rms),
                                           ("read_rms", r.read_rms_top))})


# ---------------------------------------------------------------- the "your turn" checks

def _max_diff(a: torch.Tensor, b: torch.Tensor) -> str:
    return fixed(float((a - b).abs().max()), 6)


def _written(name: str, out, lang: str) -> bool:
    """False (after asking for the code) when the reader's function still returns nothing: its body is
    the placeholder, or it forgot to return."""
    if out is None or unanswered(out):
        ask_first(message("unwritten", lang, name=name))
        return False
    return True


def _returns_tensor(name: str, out, like: torch.Tensor, lang: str) -> None:
    if not isinstance(out, torch.Tensor):
        raise AssertionError(message("not_a_tensor", lang, name=name, got=type(out).__name__))
    if out.shape != like.shape:
        raise AssertionError(message("wrong_shape", lang, name=name, got=tuple(out.shape), want=tuple(like.shape)))


def check_rmsnorm_zero_centered(fn: Callable, lang: str) -> None:
    """fn(x, w, eps) against the project's ZeroCenteredRMSNorm (models/model.py), on a random (3, 5, 8) batch
    with w = 0, on another with a trained-looking w, and on a token whose mean square is ε.
    A mismatch is diagnosed: gain w instead of 1 + w, mean subtracted, wrong dimension, no root, ε misplaced."""
    from models.model import ZeroCenteredRMSNorm
    name = "rmsnorm_zero_centered"
    gen = torch.Generator().manual_seed(0)
    d, eps = 8, 1e-5
    cases = {
        "w = 0": (torch.randn(3, 5, d, generator=gen, dtype=torch.float64), torch.zeros(d, dtype=torch.float64)),
        "w ≠ 0": (3 * torch.randn(3, 5, d, generator=gen, dtype=torch.float64) + 1,
                  0.5 * torch.randn(d, generator=gen, dtype=torch.float64)),
        "mean(x²) = ε": (math.sqrt(eps) * torch.tensor([[1.0, -1.0] * (d // 2)], dtype=torch.float64),
                         torch.zeros(d, dtype=torch.float64)),
    }
    for case, (x, w) in cases.items():
        ref = ZeroCenteredRMSNorm(d, eps).double()
        with torch.no_grad():
            ref.weight.copy_(w)
            want = ref(x)
        out = fn(x.clone(), w.clone(), eps)
        if not _written(name, out, lang):
            return
        _returns_tensor(name, out, x, lang)
        out = out.detach().double()
        if torch.allclose(out, want, rtol=1e-9, atol=1e-12):
            continue
        rms = x.pow(2).mean(-1, keepdim=True)
        wrong = {
            "zc_times_w": x * torch.rsqrt(rms + eps) * w,
            "zc_centered": torch.nn.functional.layer_norm(x, (d,), eps=eps) * (1 + w),
            "zc_wrong_dim": x * torch.rsqrt(x.pow(2).mean(0, keepdim=True) + eps) * (1 + w),
            "zc_no_sqrt": x / (rms + eps) * (1 + w),
        }
        for key, guess in wrong.items():
            if torch.allclose(out, guess, rtol=1e-6, atol=1e-9) and not torch.allclose(guess, want):
                raise AssertionError(message(key, lang))
        # off by a hair everywhere, or only where mean(x²) is as small as ε: ε is in the wrong place
        if case == "mean(x²) = ε" or torch.allclose(out, want, rtol=1e-3):
            raise AssertionError(message("zc_eps", lang))
        raise AssertionError(message("zc_other", lang, case=case, diff=_max_diff(out, want)))
    print(message("solution_ok", lang, name=name))


def check_batchnorm_inference(fn: Callable, bn: torch.nn.BatchNorm1d, batches: list[torch.Tensor],
                              lang: str) -> None:
    """fn(x, running_mean, running_var, eps) against `bn` at inference (eval mode), on every batch given."""
    name = "batchnorm_inference"
    was_training = bn.training
    bn.eval()
    try:
        for i, x in enumerate(batches):
            with torch.no_grad():
                want = bn(x)
            out = fn(x.clone(), bn.running_mean.clone(), bn.running_var.clone(), bn.eps)
            if not _written(name, out, lang):
                return
            _returns_tensor(name, out, x, lang)
            out = out.detach().double()
            if torch.allclose(out, want, rtol=1e-9, atol=1e-12):
                continue
            if x.shape[0] > 1:
                batch_stats = (x - x.mean(0)) / torch.sqrt(x.var(0, unbiased=False) + bn.eps)
                if torch.allclose(out, batch_stats, rtol=1e-6, atol=1e-9):
                    raise AssertionError(message("bn_batch_stats", lang))
            if torch.allclose(out, (x - bn.running_mean) / (bn.running_var + bn.eps), rtol=1e-6, atol=1e-9):
                raise AssertionError(message("bn_std", lang))
            raise AssertionError(message("bn_other", lang, case=f"batches[{i}]", diff=_max_diff(out, want)))
    finally:
        bn.train(was_training)
    print(message("solution_ok", lang, name=name))


# ---------------------------------------------------------------- Pre-Norm vs Post-LN on a tiny model

# The project's baseline (models/experiments.json), shrunk until a run takes a second or two on a CPU. The
# warmup keeps the baseline's share of the run (a tenth of the steps), and each length is a run of its own, with
# its own warmup and its own cosine decay. Which placement's bottom block ends with the smaller share of the
# gradient depends on the run's length (after 10 steps Pre-Norm's, after 20 and 30 Post-LN's, in each of the
# project's seeds), and Post-LN's bottom-over-top ratio falls by more than half from each of these lengths to the
# next, is more than twice Pre-Norm's at the shortest and under half of it at the others, while Pre-Norm's stays
# below 1 within a narrow band (tests/test_lab_answers.py asserts it, seed by seed). Nothing is asserted beyond
# these lengths: whether the fall goes on, the lesson's own runs answer differently by learning rate and warmup
# (numbers.add_trace_ratios), so section 6 asks 2a about these three lengths only (MORE_LENGTHS, which a learner
# may set, adds runs to the table, never to the check) and 2b about one committed run's end. The runs of all
# three lengths cost a few seconds.
TINY = {"d_model": 64, "n_layer": 4, "n_head": 4, "block_size": 64, "batch_size": 8}
TINY_STEPS = 20
LENGTHS = (10, TINY_STEPS, 30)
MORE_LENGTHS: tuple[int, ...] = ()   # a learner's extra lengths: shown in the table, not judged


def lengths_to_run() -> list[int]:
    """The lengths section 6 trains at: the three it asks about and any a learner added (MORE_LENGTHS)."""
    return sorted(set(LENGTHS) | set(MORE_LENGTHS))

# Section 4 asks below which RMS a token comes out of RMSNorm more than this share shorter than √d.
SHORTER = 0.01


def seeds() -> list[int]:
    """The seeds the project repeats every run with (models/experiments.json); the tiny runs use the first."""
    from course.paths import ROOT
    from models.config import load_experiments
    return list(load_experiments(ROOT).seeds)


def tiny_config(placement: str, steps: int = TINY_STEPS, seed: int | None = None):
    """The baseline's config with TINY's sizes, `steps` updates, the norm at `placement` ("pre"/"post") and
    the baseline's seed unless another is given."""
    from course.paths import ROOT
    from models.config import load_experiments
    base = load_experiments(ROOT).base
    return base.model_validate({**base.model_dump(), **TINY, "norm_placement": placement, "max_steps": steps,
                                "warmup_steps": max(1, steps // 10), "eval_every": steps, "eval_batches": 2,
                                **({"seed": seed} if seed is not None else {})})


@contextmanager
def one_thread():
    """At this size every matrix product is small: splitting it across threads costs more than it saves,
    and far more when other programs share the cores. The thread count is restored afterwards."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def run_config(run: dict):
    """The config a run of train_tiny trained with (its result holds it), to print what the run did."""
    from models.config import TrainConfig
    return TrainConfig.model_validate(run["config"])


def train_tiny(placement: str, steps: int = TINY_STEPS, seed: int | None = None) -> dict:
    """One run of models/train.py's train() at tiny_config: its result holds `init` and `end` probes
    (train.probe: the gradient norm each block receives and the residual stream's RMS, on one fixed
    validation batch)."""
    from models.train import train
    with one_thread():
        return train(f"tiny-{placement}", tiny_config(placement, steps, seed), progress=False)


def larger_in_every_block(grads: dict, a: str = "pre", b: str = "post", when: str = "init") -> str | None:
    """Which placement's blocks each receive the larger gradient (None when neither does in every block)."""
    pairs = list(zip(grads[a, when], grads[b, when]))
    if all(x > y for x, y in pairs):
        return a
    if all(y > x for x, y in pairs):
        return b
    return None


# ---------------------------------------------------------------- the benchmark, here and as committed

# Fewer rounds than the committed result (models/bench.py: 20 warm-up rounds, 200 repetitions), since the
# benchmark is most of the notebook's run time. The section asks one thing of it, which of F.layer_norm and
# F.rms_norm is faster here: their medians lie several times apart on every machine measured so far (the
# committed result's machine, which the registry names beside its ratio, and each machine that has built the
# site so far), so 12 interleaved repetitions order them; the notebook prints both counts and draws
# nothing from the order of the three RMSNorm forms, which lie within each other's spread.
BENCH_REPS = 5 if QUICK else 12
BENCH_WARMUP = 1 if QUICK else 2
# the build executes both languages' notebooks at once: their benchmarks take turns (a lock file in the
# system's temporary folder), so that neither is timed while the other loads the same cores
BENCH_LOCK = "course-c4-normalization-bench.lock"


@contextmanager
def bench_turn():
    """Wait until no other kernel on this machine runs this benchmark, and hold the turn until the block ends.
    Without fcntl (Windows), or where the lock file cannot be opened, the benchmark runs without waiting."""
    import tempfile
    try:
        import fcntl
        lock = open(os.path.join(tempfile.gettempdir(), BENCH_LOCK), "a")
    except (ImportError, OSError):
        yield
        return
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def bench_here(reps: int = BENCH_REPS, warmup: int = BENCH_WARMUP) -> dict | None:
    """The lesson's micro-benchmark (models/bench.py) on this machine's CPU: the same shape and interleaving
    as the committed result, fewer rounds, eager ops only (the torch.compile forms compile on first use,
    seconds per form, which is not what this comparison is about). It waits for its turn (bench_turn).
    None in the answer key: the build executes it while other work loads the same cores, and a timing
    taken then would describe that load, not a machine; the course's page shows the committed result only."""
    if answer_key():
        return None
    from models.bench import SHAPE, run_bench
    with bench_turn():
        return run_bench("cpu", compile_ops=False, reps=reps, warmup=warmup, shape=SHAPE)


def bench_device(mine: dict, lang: str) -> str:
    """This machine's device as the committed result's is written (its name, then its threads in brackets),
    so the two lines name their machines one way."""
    from lessons.c4_normalization.numbers import device_text
    return device_text(mine["device_name"], mine["threads"])[lang]


def bench_ops() -> list[str]:
    from models.bench import SHAPE, eager_ops
    return list(eager_ops(SHAPE[-1]))


def op_label(op: str, lang: str) -> str:
    from lessons.c4_normalization.numbers import op_label as label
    return label(op, lang)


def bench_rows(mine: dict | None, num: Numbers) -> list[list[str]]:
    """Per op: the committed median (IQR) and, where this machine was timed, its own, in ms, as the page writes
    them (the words bench_row.median_iqr: the IQR in full-width parentheses in Chinese)."""
    k = "normalization.bench.cpu"
    say = WORDS.lang(num.lang)
    rows = []
    for op in bench_ops():
        row = [op_label(op, num.lang),
               say("bench_row.median_iqr", median=num.text(f"{k}.{op}.median_ms"), iqr=num.text(f"{k}.{op}.iqr_ms"))]
        if mine:
            t = mine["ops"][op]
            row.append(say("bench_row.median_iqr", median=fixed(t["median_ms"], 3), iqr=fixed(t["iqr_ms"], 3)))
        rows.append(row)
    # the plain copy timed in the same run: a machine's memory bandwidth, the baseline each op is read against
    row = [labels(num.lang)["copy_row"],
           say("bench_row.median_iqr", median=num.text("normalization.lab_bench.copy.median_ms"),
               iqr=num.text("normalization.lab_bench.copy.iqr_ms"))]
    if mine:
        t = mine["plain_copy"]
        row.append(say("bench_row.median_iqr", median=fixed(t["median_ms"], 3), iqr=fixed(t["iqr_ms"], 3)))
    rows.append(row)
    return rows


def show_bench(mine: dict | None, num: Numbers) -> None:
    """Section 7's run: the committed result's line, this machine's (or, in the answer key, why the page times
    nothing), a table of medians with the plain copy timed in the same run, and the ratio F.rms_norm ÷
    F.layer_norm with the range its quartiles allow, in the notebook's language."""
    k = "normalization.bench.cpu"
    text = labels(num.lang)
    print(text["bench_committed"].format(device=num.text(f"{k}.device_name"), date=num.text(f"{k}.date"),
                                         shape=num.text(f"{k}.shape"), warmup=num.text(f"{k}.warmup"),
                                         reps=num.text(f"{k}.reps")))
    if mine:
        print(text["bench_here"].format(device=bench_device(mine, num.lang), shape=" × ".join(str(n) for n in mine["shape"]),
                                        warmup=mine["warmup"], reps=mine["reps"]))
    else:
        print(text["bench_not_here"])
    print()
    table([text["op"], text["committed"]] + ([text["yours"]] if mine else []), bench_rows(mine, num))
    print()
    here = bench_medians(mine, num)[0]
    quartiles = num.text("normalization.lab_bench.rmsnorm_over_layernorm.quartiles")
    if here:
        print(text["bench_ratio"].format(committed=num.text(f"{k}.rmsnorm_over_layernorm"), quartiles=quartiles,
                                         here=fixed(here["rmsnorm"] / here["layernorm"], 2) + "×"))
    else:
        print(text["bench_ratio_committed"].format(committed=num.text(f"{k}.rmsnorm_over_layernorm"),
                                                   quartiles=quartiles))


def bench_medians(mine: dict | None, num: Numbers) -> tuple[dict[str, float] | None, dict[str, float]]:
    """Each op's median here (None where this machine was not timed) and in the committed result, in ms."""
    committed = {op: num.value(f"normalization.bench.cpu.{op}.median_ms") for op in bench_ops()}
    return ({op: t["median_ms"] for op, t in mine["ops"].items()} if mine else None), committed


def faster(ops: dict[str, float], a: str = "layernorm", b: str = "rmsnorm") -> str:
    """Which of two ops has the lower median: `a` or `b`."""
    return a if ops[a] < ops[b] else b


def compare_faster(predicted, here: dict[str, float] | None, committed: dict[str, float], lang: str) -> None:
    """The timing's prediction beside both results, judged by neither: a timing measures a machine, not a law.
    Unanswered, a learner is asked for the prediction first; the answer key (the published page), which times
    nothing (bench_here), shows the committed result's order only."""
    verdict = (message("faster", lang, here=faster(here), committed=faster(committed)) if here
               else message("faster_committed", lang, committed=faster(committed)))
    if unanswered(predicted):
        if answer_key():
            print(verdict)
        else:
            ask_first(message("unanswered", lang, question=labels(lang)["q_faster"]))
        return
    print(WORDS.lang(lang).join("sentences", [message("you_predicted", lang, predicted=str(predicted).strip().lower()),
                                              verdict]))


def ready(root, lang: str) -> None:
    """The set-up's one line: where the project is, relative to the notebook (never a machine's own path),
    the torch version and the settings."""
    import os
    from pathlib import Path
    try:
        shown = os.path.relpath(root, Path.cwd())
    except ValueError:  # another drive (Windows)
        shown = Path(root).name
    text = labels(lang)
    print(text["ready"].format(root=Path(shown).as_posix(), torch=torch.__version__,
                               mode=text["quick" if QUICK else "full"]))

