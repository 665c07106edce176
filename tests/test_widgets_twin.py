"""The widgets' Python twin (course/twins.py): its arithmetic against course/formulas.py, the simulator's
story, the registry keys it feeds, and the widget roots course/widgets.py writes."""
import html
import json
import math
import re
from pathlib import Path

import pytest

from course import formulas as f
from course import twins
from course.numbers import build_registry
from course.schema import InputError, load_inputs

ROOT = Path(__file__).resolve().parent.parent
JS = ROOT / "docs/assets/js/widgets"


@pytest.fixture(scope="module")
def reg():
    return build_registry(load_inputs(ROOT))


# ---------------------------------------------------------------- PRNG

def test_mulberry32_is_the_published_generator():
    # first outputs of the reference JavaScript mulberry32(0), as 32-bit integers
    r = twins.Mulberry32(0)
    assert [round(r.uniform() * 2**32) for _ in range(3)] == [1144304738, 1416247, 958946056]


def test_normals_look_standard():
    r = twins.Mulberry32(twins.SIM.seed)
    xs = [r.normal() for _ in range(20000)]
    mu = sum(xs) / len(xs)
    var = sum((x - mu) ** 2 for x in xs) / len(xs)
    assert abs(mu) < 0.03 and abs(var - 1) < 0.05


# ---------------------------------------------------------------- normalization arithmetic

def test_batchnorm_is_layernorm_down_each_feature():
    """BatchNorm normalizes each feature over the batch: per column, that is formulas.layernorm."""
    tv = twins.teaching_vectors()
    batch = [tv.tokens[t].vector for t in tv.example.tokens]
    out = twins.batchnorm(batch, tv.batchnorm_eps)
    for j in range(tv.dims):
        col = [row[j] for row in batch]
        assert [row[j] for row in out] == pytest.approx(f.layernorm(col, tv.batchnorm_eps), rel=1e-12)


def test_batch_cases_tell_the_lesson():
    tv = twins.teaching_vectors()
    cases = {c.id: c for c in twins.batch_cases(tv)}
    assert list(cases) == ["none"] + [c.id for c in tv.companions] + ["single"]
    # BatchNorm's 苹果 depends on its companions ...
    outs = [tuple(round(v, 9) for v in c.batchnorm) for k, c in cases.items() if k != "single"]
    assert len(set(outs)) == len(outs)
    # ... and is all zeros when the batch is the one token being generated
    assert cases["single"].tokens == [tv.focus] and cases["single"].batchnorm == [0.0] * tv.dims
    # RMSNorm uses 苹果's own row only: the same in every case, and the formula's value
    own = f.rmsnorm(tv.tokens[tv.focus].vector)
    assert all(c.rmsnorm == own for c in cases.values())
    # padding counts: the padded batch holds the example, the short sentence and [PAD]s up to the example's length
    padded = cases["padded"]
    assert padded.tokens.count(tv.pad.token) == len(tv.example.tokens) - 3
    assert len(padded.tokens) == 2 * len(tv.example.tokens)


def test_teaching_vectors_are_validated(tmp_path):
    data = json.loads((ROOT / twins.TEACHING_VECTORS).read_text(encoding="utf-8"))
    data["tokens"]["苹果"]["vector"] = [1.0, 2.0]
    (tmp_path / "data").mkdir()
    (tmp_path / twins.TEACHING_VECTORS).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(InputError, match="苹果.*2 numbers"):
        twins.teaching_vectors(tmp_path)


# ---------------------------------------------------------------- the simulator

N, G = twins.SIM.default_layers, twins.SIM.default_gain


@pytest.fixture(scope="module")
def story():
    return {
        "residual_only": twins.simulate(N, G, residual=True, prenorm=False, scale=False),
        "prenorm": twins.simulate(N, G, residual=True, prenorm=True, scale=False),
        "prenorm_scaled": twins.simulate(N, G, residual=True, prenorm=True, scale=True),
    }


def test_normalization_steadies_what_each_sublayer_reads(story):
    # residual only: the higher the sublayer, the larger what it reads
    assert story["residual_only"].read[-1] > 3 * story["residual_only"].read[0]
    # pre-RMSNorm: every sublayer reads RMS 1
    for name in ("prenorm", "prenorm_scaled"):
        assert story[name].read == pytest.approx([1.0] * N, abs=1e-5)
    # and the gradient reaching the bottom is no longer many times the top's
    assert story["prenorm"].grad_ratio < story["residual_only"].grad_ratio / 2


def test_stream_growth_needs_the_write_back_scaling(story):
    # normalization alone leaves the stream growing ...
    assert story["prenorm"].stream_rms > 2.5
    assert story["prenorm"].stream_rms < story["residual_only"].stream_rms
    # ... the 1/√N write-back keeps it near its start, and the gradients near even
    assert story["prenorm_scaled"].stream_rms < 1.5
    assert 0.5 < story["prenorm_scaled"].grad_ratio < 1.5
    assert story["residual_only"].grad_ratio > story["prenorm"].grad_ratio > story["prenorm_scaled"].grad_ratio


def test_simulator_backward_matches_finite_differences():
    """The hand-written backward is the derivative of the loss: check ‖∂L/∂x_0‖ by nudging x_0."""
    spec = twins.SimSpec(width=6, tokens=2, default_layers=3)
    for kw in (dict(residual=True, prenorm=True, scale=True), dict(residual=True, prenorm=False, scale=False)):
        r = twins.simulate(3, 1.3, spec=spec, **kw)
        num = _numeric_input_grad(spec, 3, 1.3, **kw)
        assert r.grad[0] == pytest.approx(math.sqrt(sum(v * v for v in num)), rel=1e-5)


def _numeric_input_grad(spec, layers, gain, residual, prenorm, scale, h=1e-6):
    d, T = spec.width, spec.tokens
    rng = twins.Mulberry32(spec.seed)
    x0 = [[rng.normal() for _ in range(d)] for _ in range(T)]
    c = [rng.normal() / math.sqrt(d) for _ in range(d)]
    W = [[[rng.normal() * gain / math.sqrt(d) for _ in range(d)] for _ in range(d)] for _ in range(layers)]
    s = 1 / math.sqrt(layers) if scale else 1.0

    def loss(x):
        for Wl in W:
            u = [[v / math.sqrt(sum(a * a for a in row) / d + spec.eps) for v in row] for row in x] if prenorm else x
            F = [[math.tanh(sum(Wl[i][j] * ut[j] for j in range(d))) for i in range(d)] for ut in u]
            x = [[(x[t][i] if residual else 0.0) + s * F[t][i] for i in range(d)] for t in range(T)]
        return sum(c[i] * x[t][i] for t in range(T) for i in range(d)) / T

    out = []
    for t in range(T):
        for i in range(d):
            up = [row[:] for row in x0]
            dn = [row[:] for row in x0]
            up[t][i] += h
            dn[t][i] -= h
            out.append((loss(up) - loss(dn)) / (2 * h))
    return out


def test_simulator_is_deterministic_and_n_regenerates():
    a = twins.simulate(8, 1.0, True, True, False)
    b = twins.simulate(8, 1.0, True, True, False)
    assert a == b
    assert twins.simulate(9, 1.0, True, True, False).stream_rms != a.stream_rms
    assert twins.simulate(1, 1.0, True, True, False).grad_ratio == 1.0


# ---------------------------------------------------------------- the registry

SIM_KEYS = ["sim.default_layers", "sim.default_gain"] + [
    f"sim.{s}.{m}" for s in ("residual_only", "prenorm", "prenorm_scaled") for m in ("grad_ratio", "stream_rms")]


@pytest.mark.parametrize("key", SIM_KEYS)
def test_simulator_keys_come_from_the_twin(reg, key, story):
    n = reg[key]
    assert n.provenance.kind == "computed" and any("course/twins.py" in s for s in n.provenance.sources)
    assert f"seed {twins.SIM.seed}" in " ".join(n.provenance.sources)
    if key == "sim.default_layers":
        assert n.value == N
    elif key == "sim.default_gain":
        assert n.value == G
    else:
        _, setting, metric = key.split(".")
        r = story[setting]
        assert n.value == (r.grad_ratio if metric == "grad_ratio" else r.stream_rms)


def test_stream_starts_near_one(reg, story):
    assert reg["sim.start_stream_rms"].value == story["residual_only"].stream[0] == story["prenorm"].stream[0]
    assert abs(reg["sim.start_stream_rms"].value - 1) < 0.1


def test_decoder_layer_keys(reg):
    d = reg["anchor.hidden_size"].value
    assert reg["anchor.layer.norm_params"].value == d
    assert reg["anchor.layer.norm_params"].value * 2 == reg["anchor.norms_per_layer_params"].value
    L_full = reg["anchor.full_attention_layers"].value
    L_lin = reg["anchor.linear_attention_layers"].value
    assert reg["anchor.layer.full_attention_params"].value * L_full == reg["anchor.params.full_attention"].value
    assert reg["anchor.layer.gated_deltanet_params"].value * L_lin == reg["anchor.params.gated_deltanet"].value
    assert reg["anchor.layer.ffn_params"].value * reg["anchor.num_layers"].value == reg["anchor.params.ffn"].value


# ---------------------------------------------------------------- widget roots and the JavaScript

@pytest.fixture(scope="module")
def built_registry(reg, monkeypatch_module):
    """course/widgets.py reads the registry through course/shortcodes.py: hand it this build's."""
    from course import shortcodes
    monkeypatch_module.setattr(shortcodes, "_registry", reg)
    return reg


@pytest.fixture(scope="module")
def monkeypatch_module():
    mp = pytest.MonkeyPatch()
    yield mp
    mp.undo()


def _config(root_html: str) -> dict:
    m = re.search(r'data-config="([^"]*)"', root_html)
    return json.loads(html.unescape(m.group(1)))


@pytest.mark.parametrize("name,mode", [("batchnorm-demo", None), ("batchnorm-demo", "improved"),
                                       ("ln-rms-playground", None), ("residual-sim", None),
                                       ("weight-decay", None), ("decoder-flow", None)])
def test_widget_roots(built_registry, name, mode):
    from course import widgets
    for lang in ("zh", "en"):
        out = widgets.render(name, mode, lang)
        assert "\n" not in out and f'data-widget="{name}"' in out and f'data-lang="{lang}"' in out
        assert isinstance(_config(out), dict)


def test_widget_configs_carry_registry_numbers(built_registry):
    from course import widgets
    reg = built_registry
    wd = _config(widgets.render("weight-decay", None, "zh"))
    assert wd["lr"]["value"] == reg["project.lr"].value
    assert wd["weightDecay"]["value"] == reg["project.weight_decay"].value
    assert wd["gain"]["value"] == reg["wd.default_gain"].value and wd["steps"]["value"] == reg["wd.default_steps"].value
    sim = _config(widgets.render("residual-sim", None, "zh"))
    assert sim["spec"]["seed"] == twins.SIM.seed and sim["layers"]["value"] == reg["sim.default_layers"].value
    ln = _config(widgets.render("ln-rms-playground", None, "zh"))
    assert ln["x"]["value"] == reg["worked.x"].value


def test_unknown_widget_or_mode_fails(built_registry):
    from course import widgets
    from course.shortcodes import ShortcodeError
    with pytest.raises(ShortcodeError, match="unknown widget"):
        widgets.render("nope", None, "zh")
    with pytest.raises(ShortcodeError, match="modes"):
        widgets.render("batchnorm-demo", "fancy", "zh")
    with pytest.raises(ShortcodeError, match="takes no mode"):
        widgets.render("residual-sim", "improved", "zh")


def _numbers_in(value) -> set[float]:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return {float(value)}
    if isinstance(value, list):
        return set().union(*(_numbers_in(v) for v in value)) if value else set()
    return set()


def test_no_registry_number_is_typed_into_the_javascript(reg):
    """Numbers the widgets start from travel through data-config; the JS may hold only plumbing
    (0, 1, 2, bit-mixing constants, layout sizes), none of them a value the registry or the twin defines."""
    lesson = set()
    for n in reg.numbers.values():
        lesson |= _numbers_in(n.value)
    from dataclasses import asdict
    lesson |= {float(v) for v in asdict(twins.SIM).values()}
    lesson -= {0.0, 1.0, 2.0}
    lesson -= {7.0, 14.0, 15.0, 61.0}   # mulberry32's own shifts and multiplier (the algorithm, not a setting)
    literal = re.compile(r"(?<![\w.$#])(\d+\.\d+|\d+)(?![\w.])")
    for path in sorted(JS.glob("*.js")):
        code = re.sub(r"//[^\n]*", "", path.read_text(encoding="utf-8"))   # comments may name values
        code = re.sub(r'"(?:[^"\\]|\\.)*"', '""', code)                     # so may label strings
        found = {float(m) for m in literal.findall(code)}
        assert not (found & lesson), f"{path.name} types registry numbers {sorted(found & lesson)}"


def test_widget_root_inside_a_tab_is_not_left_in_a_paragraph():
    from course import hook
    root = '<div class="cw" data-widget="batchnorm-demo" data-config="{}"><noscript>n</noscript></div>'
    out = hook.on_page_content(f"<p>{root}</p>\n<p>text</p>", None, None, None)
    assert out == f"{root}\n<p>text</p>"
