"""Lesson C3-2 "Fewer keys and values": what a model keeps per sequence to generate, the KV cache, and how
models cut it (fewer KV heads, a latent, windows, linear-attention layers with a fixed state, compressed
entries), counted for every model of our data from its config.

numbers.py       its registry numbers (kv_cache.*): every model's cache from course/common/kv_cache.py, and the
                 steps' own numbers (GQA groups, MLA against DeepSeek-V2's and DeepSeek 67B's caches, gpt-oss's
                 window, the anchor's hybrid, DeepSeek-V4's compressed entries)
twins.py         the KV-cache calculator's Python twin
widgets.py       kv-calculator (js/)
tables.py        the KV-cache table of every model
figures.py       the same as bars, by what the layers keep
questions.json   its check-yourself questions (course/core/questions.py)
claims.json      the measured section's reading notes (KV heads 4, 2, 1 in the small model)
words.LANG.json  its words, one file per language
"""
from __future__ import annotations

from pathlib import Path

from course.core.units import Unit
from lessons.c3_kv_cache import figures, numbers, tables, widgets

HERE = Path(__file__).resolve().parent

UNIT = Unit(
    id="kv_cache",  # the lesson's name, which is also its registry namespace: its keys are kv_cache.*
    folder=HERE,
    namespace="kv_cache",
    order=(3, 2),  # chapter 3, lesson 2: its reference id is c3-2 (<!-- ref:c3-2 -->)
    numbers=numbers.add_numbers,
    widgets=widgets.WIDGETS,
    figures=figures.FIGURES,
    tables=tables.TABLES,
    claims=HERE / "claims.json",
    questions=HERE / "questions.json",
    pages=("c3/kv-cache",),  # docs/c3/kv-cache.md (Chinese) and docs/c3/kv-cache.en.md (English)
)
