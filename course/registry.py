"""The number registry: every number a page shows, with its text in both languages and its provenance.

A page names a number by key (`<!-- n:KEY -->`, see course/shortcodes.py); nothing else may put a number on a
page. Three kinds of provenance exist, and each describes itself in the page's language for the hover.
"""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

LANGS = ("zh", "en")
MINUS = "\u2212"  # typographic minus, so "−1.069" does not read as a hyphen


class Computed(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["computed"] = "computed"
    formula: str
    sources: list[str]

    def describe(self, lang: str) -> str:
        src = ", ".join(self.sources)
        return (f"计算:{self.formula};来源:{src}" if lang == "zh" else f"Computed: {self.formula}; from {src}")


class Measured(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["measured"] = "measured"
    run: str
    device: str
    date: str
    commit: str

    def describe(self, lang: str) -> str:
        if lang == "zh":
            return f"实测:{self.run};设备 {self.device};{self.date};提交 {self.commit}"
        return f"Measured: {self.run}; device {self.device}; {self.date}; commit {self.commit}"


class Cited(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["cited"] = "cited"
    paper: str
    table: str
    row: str

    def describe(self, lang: str) -> str:
        return (f"引用:{self.paper},{self.table},{self.row}" if lang == "zh"
                else f"Cited: {self.paper}, {self.table}, {self.row}")


Provenance = Annotated[Union[Computed, Measured, Cited], Field(discriminator="kind")]
Value = Union[int, float, str, list[float]]


class Number(BaseModel):
    model_config = ConfigDict(extra="forbid")
    key: str
    value: Value
    unit: str = ""
    text: dict[str, str]  # one entry per language in LANGS
    provenance: Provenance

    def hover(self, lang: str) -> str:
        return self.provenance.describe(lang)


# ---------------------------------------------------------------- formatting (the same digits in both languages)

def fixed(x: float, digits: int) -> str:
    s = f"{x:,.{digits}f}"
    if s.startswith("-"):
        s = MINUS + s[1:]
    return "0" if s in ("-0", MINUS + "0") else s


def integer(x: int) -> str:
    return fixed(x, 0)


def percent(x: float, digits: int) -> str:
    """x is a fraction (0.616 → '61.6%')."""
    return fixed(100 * x, digits) + "%"


def vector(xs: list[float], digits: int) -> str:
    # a value that rounds to zero prints as a plain 0, as the lesson writes it
    return "[" + ", ".join("0" if round(x, digits) == 0 else fixed(x, digits) for x in xs) + "]"


def scientific(x: float) -> str:
    """1e-06 → '1e−6', 0.003 → '3e−3' (the form configs and papers use)."""
    mant, exp = f"{x:e}".split("e")
    mant = mant.rstrip("0").rstrip(".")
    return f"{mant}e{int(exp)}".replace("-", MINUS)


def significant(x: float, sig: int) -> str:
    if x == 0 or not math.isfinite(x):
        return str(x)
    digits = max(0, sig - 1 - int(math.floor(math.log10(abs(x)))))
    return fixed(x, digits)


# ---------------------------------------------------------------- the registry

class Registry:
    def __init__(self) -> None:
        self.numbers: dict[str, Number] = {}

    def add(self, key: str, value: Value, text: str | dict[str, str], provenance, unit: str = "") -> Number:
        if key in self.numbers:
            raise ValueError(f"registry key {key!r} is defined twice")
        texts = text if isinstance(text, dict) else {lang: text for lang in LANGS}
        missing = [lang for lang in LANGS if lang not in texts]
        if missing:
            raise ValueError(f"registry key {key!r} has no text for {missing}")
        n = Number(key=key, value=value, unit=unit, text=texts, provenance=provenance)
        self.numbers[key] = n
        return n

    def __getitem__(self, key: str) -> Number:
        return self.numbers[key]

    def __contains__(self, key: str) -> bool:
        return key in self.numbers

    def to_json(self) -> dict:
        return {k: n.model_dump() for k, n in sorted(self.numbers.items())}

    def write(self, path: Path) -> None:
        from course.files import write_atomic
        write_atomic(path, json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n")

    @classmethod
    def read(cls, path: Path) -> "Registry":
        reg = cls()
        for k, d in json.loads(path.read_text(encoding="utf-8")).items():
            reg.numbers[k] = Number.model_validate(d)
        return reg


def changes(old: dict, new: dict) -> list[str]:
    """Lines 'key: old → new' for numbers whose text changed, appeared or disappeared."""
    out = []
    for k in sorted(set(old) | set(new)):
        a = old.get(k, {}).get("text", {}).get("en")
        b = new.get(k, {}).get("text", {}).get("en")
        if a != b:
            out.append(f"{k}: {a if a is not None else '(new)'} → {b if b is not None else '(removed)'}")
    return out
