"""The residual lesson's formulas, each checked against a worked value (the paper's own numbers where it
has them), and the lesson's registry texts as its page shows them."""
import math
import random

import pytest

from course.common import formulas as chapter
from lessons.c4_residual import formulas as f

NS = "residual."



# ---------------------------------------------------------------- paths


def test_three_blocks_unroll_into_eight_paths():
    assert f.path_count(3) == 8
    assert f.paths_skipping(3, 1) == 4 and f.paths_skipping(3, 3) == 1 and f.paths_skipping(3, 0) == 8
    assert f.path_lengths(3) == [1, 3, 3, 1]
    assert sum(f.path_lengths(20)) == f.path_count(20)
    with pytest.raises(ValueError):
        f.paths_skipping(3, 4)


def test_veit_s_network_reproduces_the_paper():
    """54 modules: 'more than 95% of paths go through 19 to 35 modules'; the effective paths of 5 to 17
    modules 'constitute only 0.45% of all paths'."""
    assert f.share_of_paths_between(54, 19, 35) > 0.95
    assert round(100 * f.share_of_paths_between(54, 5, 17), 2) == 0.45
    lo, hi = f.central_lengths(54, 0.95)
    assert 19 <= lo <= hi <= 35 and f.share_of_paths_between(54, lo, hi) >= 0.95
    assert f.share_of_paths_between(54, lo + 1, hi - 1) < 0.95     # the narrowest such range


def test_the_anchors_paths():
    n = chapter.residual_writes(64)
    assert f.path_count(n) == 2 ** 128
    lo, hi = f.central_lengths(n, 0.95)
    assert (lo, hi) == (53, 75) and lo + hi == n


def test_veit_keys_are_recomputed_from_the_cited_module_count(reg):
    assert reg[NS + "paths.veit.effective_share"].text["en"] == reg["veit.effective.share"].text["en"] == "0.45%"
    assert reg[NS + "paths.veit.central_share"].value > reg["veit.central.share"].value / 100


# ---------------------------------------------------------------- the stream's spread


def test_unit_writes_give_the_square_root_law():
    assert f.unit_write_std(128) == pytest.approx(11.3578, abs=5e-5) == chapter.residual_std(64)
    assert f.independent_sum_rms(1.0, [1.0] * 128) == pytest.approx(f.unit_write_std(128))
    assert f.independent_sum_rms(3.0, [4.0]) == 5.0


def test_tanh_rms_of_a_unit_input():
    """E[tanh(z)²] for z ~ N(0, 1) is 0.394; a seeded Monte Carlo estimate agrees."""
    assert f.tanh_rms(1.0) ** 2 == pytest.approx(0.3943, abs=1e-4)
    rng = random.Random(7)
    mc = sum(math.tanh(rng.gauss(0, 1)) ** 2 for _ in range(200_000)) / 200_000
    assert f.tanh_rms(1.0) ** 2 == pytest.approx(mc, abs=3e-3)
    assert f.tanh_rms(1e-3) == pytest.approx(1e-3, rel=1e-3)     # small inputs pass through
    assert 0.99 < f.tanh_rms(100.0) < 1.0                        # large ones saturate at ±1


# ---------------------------------------------------------------- the anchor and the wider streams


def test_widths():
    assert f.width_per_write(5120, 128) == 40
    assert f.widened_stream(4096, 4) == 16384
    assert f.blocks_of(93, 12) == 8 and f.blocks_of(96, 12) == 8 and f.blocks_of(97, 12) == 9


@pytest.mark.parametrize("key,text", [
    ("anchor.sublayers_per_layer", "2"), ("anchor.width_per_write", "40"), ("anchor.concat_width", "660,480"),
    ("paths.default_count", "8"), ("paths.default_skipping_one", "4"), ("paths.anchor", "3.4 × 10³⁸"),
    ("paths.anchor.mean_length", "64"), ("paths.anchor.central_min", "53"), ("paths.anchor.central_max", "75"),
    ("paths.anchor.central_share", "95.8%"), ("paths.veit.central_share", "98.0%"),
    ("growth.at_max.law", "11.36"), ("growth.tanh_unit_rms", "0.63"),
    ("deepseek_v4_flash.hc_mult", "4"), ("deepseek_v4_flash.stream_width", "16,384"),
    ("deepseek_v4_pro.stream_width", "28,672"), ("kimi_k3.attn_res_block_size", "12"),
    ("kimi_k3.attn_res_blocks", "8"), ("kimi_k3.attn_res_last_block", "9"),
])
def test_registry_text_matches_the_lesson(reg, key, text):
    n = reg[NS + key]
    assert n.text["en"] == text and n.text["zh"] == text


def test_the_page_s_square_root_law_is_the_chapter_s(reg):
    assert reg[NS + "growth.at_max.n"].value == reg["anchor.residual_writes"].value
    assert reg[NS + "growth.at_max.law"].text == reg["anchor.residual_std"].text
    assert reg[NS + "anchor.concat_width"].value == (reg["anchor.residual_writes"].value + 1) * reg["anchor.hidden_size"].value


def test_config_numbers_come_from_the_frontier_file(reg):
    for key in ("deepseek_v4_flash.hc_mult", "kimi_k3.attn_res_block_size"):
        src = reg[NS + key].source("en")
        assert "data/frontier-models.json" in src and "official file" in src
