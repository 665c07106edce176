"""Python twin of the KV-cache calculator (js/kv-calculator.js): the same models, split into the same parts,
and the same arithmetic, so the tests can hold the widget to course/common/kv_cache.py and the prose can quote
what the widget shows.

A model's cache after T tokens, for a batch of B sequences at b bytes per entry, is, part by part,
B × b × layers × entries × positions(T), where positions(T) is T for a part that keeps every token,
min(T, window) for a window, ⌊T / ratio⌋ for compressed entries and 1 for a linear-attention state. The
calculator adds the parts up by what they keep: every token, a window, compressed entries, a fixed state.
"""
from __future__ import annotations

from course.common.kv_cache import CachePlan, Part
from lessons.c3_kv_cache.numbers import GROUP, GROUPS, model_slug, ordered, size

# what the calculator offers: contexts 2^10 … 2^20 tokens, batches 2^0 … 2^8, these bytes per entry
CONTEXT_EXPONENTS = (10, 20)
BATCH_EXPONENTS = (0, 8)
BYTES_PER_ENTRY = (4, 2, 1)          # FP32, BF16, FP8
DEFAULT = {"context_exponent": 17, "batch_exponent": 0, "bytes_per_entry": 2,
           "models": ("anchor", "llama_3_1_8b", "deepseek_v3", "gpt_oss_120b", "deepseek_v4_flash")}


def positions(part: dict, context: int) -> int:
    """Positions one layer of the part holds after `context` tokens (course/common/kv_cache.py Part.positions)."""
    grows, span = part["grows"], part["span"]
    if grows == "every":
        return context
    if grows == "window":
        return min(context, span)
    if grows == "strided":
        return context // span
    return 1


def as_part(p: Part) -> dict:
    return {"what": p.what, "group": GROUP[p.what], "layers": p.layers, "entries": p.entries, "grows": p.grows,
            "span": p.span}


def calculator_models(found: list[CachePlan], inputs) -> list[dict]:
    """Every model with a plan, as the widget receives it (data-config), in the table's order."""
    return [{"id": model_slug(p, inputs), "name": p.model, "attention": p.attention, "max": p.max_context,
             "parts": [as_part(x) for x in p.parts]} for p in ordered(found, inputs)]


def cache_bytes(model: dict, context: int, batch: int = 1, bytes_per_entry: int = 2) -> dict[str, int]:
    """The cache in bytes, by what it keeps (GROUPS), and the total."""
    out = {g: 0 for g in GROUPS}
    for part in model["parts"]:
        out[part["group"]] += batch * bytes_per_entry * part["layers"] * part["entries"] * positions(part, context)
    out["total"] = sum(out[g] for g in GROUPS)
    return out


def shown(b: int) -> str:
    """As the widget writes a size (numbers.size): GB from 1 GB up, MB below."""
    return size(b)
