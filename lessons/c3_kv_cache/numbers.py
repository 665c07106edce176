"""Lesson C3-2's registry numbers (kv_cache.*): each names the formula and the file it was computed from, which
the page shows on hover. A page names a number by key: <!-- n:kv_cache.anchor_layers -->."""
from __future__ import annotations

from course.common.numbers import anchor_source, computed
from course.common.schema import Inputs
from course.core.formats import integer
from course.core.registry import Scope


def add_numbers(reg: Scope, inputs: Inputs) -> None:
    layers = inputs.anchor.config.text_config.num_hidden_layers
    reg.add("anchor_layers", layers, integer(layers),
            computed("num_hidden_layers", anchor_source("num_hidden_layers")))
