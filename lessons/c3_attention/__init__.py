"""Lesson C3-1 "Attention: how a token reads itself and the tokens before it": say here in a sentence what it teaches.

numbers.py       its registry numbers (attention.*), each with its formula and the file it reads
words.LANG.json  its words, one file per language: its title and the question it answers, and whatever its
                 numbers, figures and tables say (WORDS = words(__file__), from course.project)
"""
from __future__ import annotations

from pathlib import Path

from course.core.units import Unit
from lessons.c3_attention import numbers

UNIT = Unit(
    id="attention",  # the lesson's name, which is also its registry namespace: its keys are attention.*
    folder=Path(__file__).resolve().parent,
    namespace="attention",
    order=(3, 1),  # chapter 3, lesson 1: its reference id is c3-1 (<!-- ref:c3-1 -->)
    numbers=numbers.add_numbers,   # its title and question are in words.LANG.json
    pages=("c3/attention",),  # docs/c3/attention.md (Chinese) and docs/c3/attention.en.md (English)
)
