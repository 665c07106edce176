"""The KV-cache lesson's widget: the KV-cache calculator (js/kv-calculator.js, its labels in
js/kv-calculator.labels.json). Every model and number it starts from comes through data-config: the models'
cache plans from course/common/kv_cache.py through the Python twin (twins.py), put in the registry by
numbers.py (kv_cache.calculator.models), and the registry's contexts."""
from __future__ import annotations

from pathlib import Path

from course.core.registry import table_rows
from course.core.units import Widget, WidgetContext
from course.core.widgets import load_labels
from lessons.c3_kv_cache import twins
from lessons.c3_kv_cache.numbers import GROUPS

JS = Path(__file__).resolve().parent / "js"


def kv_calculator(ctx: WidgetContext) -> dict:
    # from the registry, like every page: a bad edit of a data file while serving keeps the last good models
    return {
        "models": table_rows(ctx.registry, "kv_cache.calculator.models"),
        "groups": list(GROUPS),
        "contextExponents": list(twins.CONTEXT_EXPONENTS),
        "batchExponents": list(twins.BATCH_EXPONENTS),
        "bytesPerEntry": list(twins.BYTES_PER_ENTRY),
        "initial": {**twins.DEFAULT, "models": list(twins.DEFAULT["models"])},
        # how a size is written (numbers.size): GB (10⁹ bytes) from 1 GB up with 2 decimals, MB (10⁶) with 1
        "size": {"gb": 1e9, "mb": 1e6, "gbDigits": 2, "mbDigits": 1},
        "base": 2,   # the sliders step by powers of two
        "percent": 100,   # a bar's width is this × its share of the largest total
    }


WIDGETS = (
    Widget("kv-calculator", "kv-calculator.js", kv_calculator, load_labels(JS / "kv-calculator.labels.json")),
)
