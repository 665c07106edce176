"""Lesson C4-1 "FFN": what each token computes on its own, and why it holds most of the parameters.

numbers.py    its registry numbers (ffn.*): FFN weights from 2017 to the anchor, the equal-parameter width and
              Meta's rounding rule, d_ff/d across models, one MoE model's total and active FFN weights, the
              widgets' read-outs, the small model's FFN widths and the seed-by-seed comparisons of its notes
formulas.py   FFN parameters, equal-parameter widths, Meta's rule, MoE counts, the activations
twins.py      the ring classifier's teaching data and its two classifiers (the widget's Python twin)
widgets.py    ffn-calculator, activation-explorer, ring-classifier (js/)
tables.py     the d_ff/d table of the frontier models
figures.py    the anchor's parameter ledger and the measured section's charts
claims.json   the measured section's reading notes, each checked against the results
words.LANG.json  its words, one file per language: title and question, its numbers' provenance, the width
              table's headings and note, the figures' titles, legends and text alternatives
"""
from __future__ import annotations

from pathlib import Path

from course.core.units import Unit
from lessons.c4_ffn import figures, numbers, tables, widgets

HERE = Path(__file__).resolve().parent


def validate(inputs) -> str:
    """Meta's rule must reproduce the widths the data file states (Llama 2 7B's from Meta's config)."""
    from course.core.schema import InputError
    from lessons.c4_ffn.formulas import meta_ffn_width
    llama = inputs.frontier.by_name("Llama 2 7B")
    if llama.ffn_multiple_of is None:
        raise InputError("data/frontier-models.json: Llama 2 7B: ffn_multiple_of is missing (the FFN lesson needs it)")
    w = meta_ffn_width(llama.hidden_size, llama.ffn_multiple_of)
    if w != llama.ffn_width:
        raise InputError(f"data/frontier-models.json: Llama 2 7B: Meta's rule gives {w}, ffn_width says {llama.ffn_width}")
    return "Llama 2 7B's FFN width follows Meta's rule"


UNIT = Unit(
    id="ffn",
    folder=HERE,
    namespace="ffn",
    order=(4, 1),
    numbers=numbers.add_numbers,
    validate=validate,
    widgets=widgets.WIDGETS,
    figures=figures.FIGURES,
    tables=tables.TABLES,
    claims=HERE / "claims.json",
    pages=("c4/ffn",),
)
