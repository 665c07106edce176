"""Lesson C3-2 "Fewer keys and values: MHA, MQA, GQA, MLA and the KV cache": say here in a sentence what it teaches.

numbers.py       its registry numbers (kv_cache.*), each with its formula and the file it reads
words.LANG.json  its words, one file per language: its title and the question it answers, and whatever its
                 numbers, figures and tables say (WORDS = words(__file__), from course.project)
"""
from __future__ import annotations

from pathlib import Path

from course.core.units import Unit
from lessons.c3_kv_cache import numbers

UNIT = Unit(
    id="kv_cache",  # the lesson's name, which is also its registry namespace: its keys are kv_cache.*
    folder=Path(__file__).resolve().parent,
    namespace="kv_cache",
    order=(3, 2),  # chapter 3, lesson 2: its reference id is c3-2 (<!-- ref:c3-2 -->)
    numbers=numbers.add_numbers,   # its title and question are in words.LANG.json
    pages=("c3/kv-cache",),  # docs/c3/kv-cache.md (Chinese) and docs/c3/kv-cache.en.md (English)
)
