"""The numbers stage: every unit adds its numbers to one registry (the chapter's first, then each lesson's
under its own name), and every unit's reading notes are checked against it."""
from __future__ import annotations

from course.core.claims import check_claims
from course.core.registry import Registry
from course.core.units import Units


def build_registry(units: Units, inputs) -> Registry:
    """`inputs` is the chapter's validated inputs (with its measured results), handed to every unit."""
    reg = Registry()
    for unit in units.all:
        if unit.numbers:
            unit.numbers(reg.scope(unit.namespace), inputs)
    return reg


def check_all_claims(units: Units, reg: Registry) -> int:
    """How many reading notes hold; a ClaimError names every one that does not, in every lesson."""
    return sum(check_claims(reg, u.claims) for u in units.all if u.claims)
