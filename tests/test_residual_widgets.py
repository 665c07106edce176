"""The residual lesson's widgets and their Python twins: the unrolled paths against the path formulas, the
growth chart against the chapter simulator and √(n + 1), the simulator's read-outs this lesson quotes,
and the registry numbers each widget starts from."""
import itertools
import math

import pytest
from conftest import widget_config as config

from course.common import twins as sim
from course.project import units as discover
from lessons.c4_residual import formulas as f
from lessons.c4_residual import numbers, twins

UNITS = discover()
NS = "residual."




# ---------------------------------------------------------------- residual-paths


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_twin_residual_paths_lists_every_subset_once(n):
    ps = twins.paths(n)
    assert len(ps) == len(set(ps)) == f.path_count(n)
    assert ps[0] == () and ps[-1] == tuple(range(1, n + 1))             # the identity path, the deepest
    assert [len(p) for p in ps] == sorted(len(p) for p in ps)           # shortest first
    assert [sum(len(p) == k for p in ps) for k in range(n + 1)] == f.path_lengths(n)


def test_twin_residual_paths_around_blocks_taken_out_halve_each_time():
    n = numbers.PATHS_MAX
    for m in range(n + 1):
        for out in itertools.combinations(range(1, n + 1), m):
            left = twins.paths_around(n, set(out))
            assert len(left) == f.paths_skipping(n, m)
            assert () in left and all(not set(p) & set(out) for p in left)


def test_twin_residual_paths_config_is_the_registry(reg):
    cfg = config(reg, "residual-paths")
    assert cfg["blocks"]["value"] == numbers.PATHS_DEFAULT == reg[NS + "paths.default_blocks"].value
    assert cfg["maxBlocks"]["value"] == numbers.PATHS_MAX
    assert reg[NS + "paths.default_count"].value == len(twins.paths(numbers.PATHS_DEFAULT))
    assert reg[NS + "paths.default_skipping_one"].value == len(twins.paths_around(numbers.PATHS_DEFAULT, {1}))


# ---------------------------------------------------------------- variance-growth


@pytest.fixture(scope="module")
def growth():
    return twins.growth()


def test_twin_variance_growth_is_the_simulator_without_norm_or_scaling(growth):
    r = sim.simulate(sim.SIM.layers_max, sim.SIM.default_gain, residual=True, prenorm=False, scale=False)
    assert growth.stream == r.stream and growth.write == r.write and len(growth.write) == sim.SIM.layers_max
    # the stream after n writes does not depend on how many follow: a shorter run is the longer run's start
    for n in (1, 7, sim.SIM.default_layers):
        short = sim.simulate(n, sim.SIM.default_gain, residual=True, prenorm=False, scale=False)
        assert short.stream == growth.stream[: n + 1]


def test_twin_variance_growth_curves(growth):
    assert growth.law == [f.unit_write_std(n) for n in range(sim.SIM.layers_max + 1)]
    assert growth.independent[0] == growth.start_rms == growth.stream[0]
    for n in (1, 32, 128):
        assert growth.independent[n] == pytest.approx(math.sqrt(growth.stream[0] ** 2 + sum(w * w for w in growth.write[:n])))
    # what the lesson says about them: writes start smaller than 1 and approach it, the simulator stays under
    # √(n + 1) at the default N and nearly reaches it at the largest, where it also exceeds the independent sum
    assert growth.write[0] < 0.7 < 0.9 < growth.write[-1] < 1
    n, N = sim.SIM.default_layers, sim.SIM.layers_max
    assert growth.stream[n] < 0.9 * growth.law[n] and abs(growth.stream[n] / growth.independent[n] - 1) < 0.01
    assert growth.stream[N] > 0.95 * growth.law[N] and growth.stream[N] > growth.independent[N]


def test_twin_variance_growth_feeds_the_registry_and_the_widget(reg, growth):
    for name, n in (("at_default", sim.SIM.default_layers), ("at_max", sim.SIM.layers_max)):
        assert reg[f"{NS}growth.{name}.n"].value == n
        assert reg[f"{NS}growth.{name}.law"].value == growth.law[n]
        assert reg[f"{NS}growth.{name}.sim"].value == growth.stream[n]
        assert reg[f"{NS}growth.{name}.independent"].value == growth.independent[n]
    assert reg[NS + "growth.first_write"].value == growth.write[0]
    cfg = config(reg, "variance-growth", lang="en")
    assert cfg["stream"]["value"] == growth.stream and cfg["write"]["value"] == growth.write
    assert cfg["n"]["value"] == sim.SIM.default_layers and cfg["gain"]["value"] == growth.gain


# ---------------------------------------------------------------- the simulator in this lesson's mode


def test_twin_residual_sim_starts_the_residual_lesson_with_the_bare_stream(reg):
    cfg = config(reg, "residual-sim", "residual")
    assert cfg["toggles"] == {"residual": True, "prenorm": False, "scale": False}
    assert cfg["layers"]["value"] == reg[NS + "sim.default_layers"].value
    assert cfg["gain"]["value"] == reg[NS + "sim.default_gain"].value


@pytest.mark.parametrize("name", list(numbers.SIM_SETTINGS))
def test_twin_residual_sim_feeds_the_residual_lessons_keys(reg, name):
    r = sim.simulate(sim.SIM.default_layers, *numbers.SIM_SETTINGS[name])
    read_outs = (("grad_ratio", r.grad_ratio), ("stream_rms", r.stream_rms))
    if name == "on":   # the page also walks through the default setting's stream and what its top reads
        read_outs += (("read_rms", r.read_rms_top), ("stream_growth", r.stream_rms / r.stream[0]))
    for metric, value in read_outs:
        n = reg[f"{NS}sim.{name}.{metric}"]
        assert n.value == value
        assert n.provenance.kind == "computed" and f"seed {sim.SIM.seed}" in n.hover("en")


def test_twin_residual_sim_tells_the_lesson_s_story(reg):
    v = lambda k: reg[NS + "sim." + k].value  # noqa: E731
    # residual off: the gradient reaching the bottom vanishes or explodes with the gain ...
    assert v("off_low_gain.grad_ratio") < 1e-6 < v("off.grad_ratio") < 0.5 and v("off_high_gain.grad_ratio") > 10
    assert reg[NS + "sim.off_low_gain.grad_ratio"].text["en"] == "0.00"           # what the widget shows
    assert v("off.stream_rms") < 0.2 * v("start_stream_rms")                       # ... and the stream shrinks
    # residual on: the bottom gets at least the top's share at every gain the table shows
    assert min(v("on_low_gain.grad_ratio"), v("on.grad_ratio"), v("on_high_gain.grad_ratio")) > 1
    assert v("on.stream_rms") > 4 * v("start_stream_rms")
    # the 1/√N write-back brings both back near 1
    assert abs(v("scaled.grad_ratio") - 1) < 0.2 and v("scaled.stream_rms") < 1.3
    # the next-gap sentence: the top sublayer reads a larger stream than the first one
    assert v("on.read_rms") > 4 * v("start_stream_rms")
