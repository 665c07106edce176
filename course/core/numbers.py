"""The numbers stage: every unit adds its numbers to one registry (the course's first, then each chapter's
and lesson's under its own name), and every unit's reading notes are checked against it."""
from __future__ import annotations

from pathlib import Path

from course.core.claims import check_claims
from course.core.errors import ClaimError
from course.core.registry import Registry, SourceReaders
from course.core.units import Units


def build_registry(units: Units, inputs, root: Path | None = None) -> Registry:
    """`inputs` is the project's validated inputs (with its measured results), handed to every unit.
    `root` makes each number's defining file relative to the project. Every unit's source readers tell the
    reader where each number comes from."""
    readers = SourceReaders([(r, u.words) for u in units.all for r in u.sources])
    reg = Registry(root, units.languages, readers)
    for unit in units.all:
        if unit.numbers:
            unit.numbers(reg.scope(unit.namespace), inputs)
    return reg


def check_all_claims(units: Units, reg: Registry, paths=None) -> int:
    """How many reading notes hold; a ClaimError names every one that does not, in every lesson (one lesson's
    failing notes do not hide the next lesson's)."""
    held, failed = 0, []
    for u in units.all:
        if u.claims:
            try:
                held += check_claims(reg, u.claims, paths)
            except ClaimError as e:
                failed.append(str(e))
    if failed:
        raise ClaimError("\n".join(failed))
    return held
