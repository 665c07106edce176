"""The number registry: every number a page shows, with its text in each language and its provenance.

A page names a number by key (`<!-- n:KEY -->`, see course/core/shortcodes.py); nothing else may put a
number on a page. Three kinds of provenance exist, and each describes itself in the page's language for
the hover, in the core's words (course/core/words.LANG.json). Keys are namespaced: a lesson adds its
numbers through `registry.scope(slug)`, so every key of the normalization lesson starts with
`normalization.`; the chapter's shared keys carry no lesson name.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Callable, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from course.core.words import core_words, in_lang

# A provenance's words are one text per language when they are prose ("the sum of the ledger"), from the
# unit's words files (course/core/words.py). A formula written in code or symbols (`anchor_ledger()['ffn']`,
# "8d/3") and a file name read the same in every language, and stay one string.
Words = Union[str, dict[str, str]]


class Computed(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["computed"] = "computed"
    formula: Words
    sources: list[Words]   # a file name, or a file with what of it was read, in each language

    def describe(self, lang: str) -> str:
        say = core_words().lang(lang)
        return say("provenance.computed", formula=in_lang(self.formula, lang),
                   sources=say.join("list", [in_lang(s, lang) for s in self.sources]))


class Measured(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["measured"] = "measured"
    run: Words
    device: Words    # one device, or each device with the seeds trained on it
    date: str
    commit: str

    def describe(self, lang: str) -> str:
        return core_words().lang(lang)("provenance.measured", run=in_lang(self.run, lang),
                                       device=in_lang(self.device, lang), date=self.date, commit=self.commit)


class Cited(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["cited"] = "cited"
    paper: str
    table: Words
    row: Words

    def describe(self, lang: str) -> str:
        return core_words().lang(lang)("provenance.cited", paper=self.paper, table=in_lang(self.table, lang),
                                       row=in_lang(self.row, lang))


Provenance = Annotated[Union[Computed, Measured, Cited], Field(discriminator="kind")]
Value = Union[int, float, str, list[float]]


class Number(BaseModel):
    model_config = ConfigDict(extra="forbid")
    key: str
    value: Value
    unit: str = ""
    text: dict[str, str]  # one entry per language the project declares
    provenance: Provenance
    defined_at: str = ""  # "lessons/c4_ffn/numbers.py:123": the line that asked for this number

    def hover(self, lang: str) -> str:
        return self.provenance.describe(lang)

    def content(self) -> dict:
        """What the number is, without where it was defined (a moved line changes no number)."""
        return self.model_dump(exclude={"defined_at"})


# Functions that add numbers on behalf of their caller (a spread over seeds, a paired comparison): the line
# that defined a number is their caller's, not theirs.
_HELPERS: set = set()


def registry_helper(fn: Callable) -> Callable:
    _HELPERS.add(fn.__code__)
    return fn


class Registry:
    def __init__(self, root: Path | None = None, languages: tuple[str, ...] = ()) -> None:
        self.numbers: dict[str, Number] = {}
        self.root = root
        self.languages = tuple(languages)   # a number's text is given in each (one text stands for all)
        self.used: set[str] | None = None   # when a set: every key read through [] or value() is added

    def _defined_at(self) -> str:
        frame = sys._getframe(2)
        while frame is not None and (frame.f_code in _HELPERS or frame.f_code.co_filename == __file__):
            frame = frame.f_back
        if frame is None:
            return ""
        path = Path(frame.f_code.co_filename)
        if self.root is not None:
            try:
                path = path.resolve().relative_to(self.root.resolve())
            except ValueError:
                pass
        return f"{path.as_posix()}:{frame.f_lineno}"

    def add(self, key: str, value: Value, text: str | dict[str, str], provenance, unit: str = "") -> Number:
        if key in self.numbers:
            raise ValueError(f"registry key {key!r} is defined twice (again at {self._defined_at()}, "
                             f"first at {self.numbers[key].defined_at})")
        texts = text if isinstance(text, dict) else {lang: text for lang in self.languages}
        missing = [lang for lang in self.languages if lang not in texts]
        if missing:
            raise ValueError(f"registry key {key!r} has no text for {missing}")
        n = Number(key=key, value=value, unit=unit, text=texts, provenance=provenance, defined_at=self._defined_at())
        self.numbers[key] = n
        return n

    def scope(self, namespace: str) -> "Scope":
        return Scope(self, namespace)

    def __getitem__(self, key: str) -> Number:
        n = self.numbers[key]
        if self.used is not None:
            self.used.add(key)
        return n

    def __contains__(self, key: str) -> bool:
        return key in self.numbers

    def value(self, key: str):
        return self[key].value

    def to_json(self) -> dict:
        return {k: n.model_dump() for k, n in sorted(self.numbers.items())}

    def write(self, path: Path) -> None:
        from course.core.files import write_atomic
        write_atomic(path, json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n")

    @classmethod
    def read(cls, path: Path) -> "Registry":
        reg = cls()
        for k, d in json.loads(path.read_text(encoding="utf-8")).items():
            reg.numbers[k] = Number.model_validate(d)
        reg.languages = tuple(next(iter(reg.numbers.values())).text) if reg.numbers else ()
        return reg


class Scope:
    """A lesson's view of the registry: `add` prefixes its keys with the lesson's name; reading sees
    every key (a lesson may quote the chapter's numbers)."""

    def __init__(self, registry: Registry, namespace: str):
        self.registry, self.prefix = registry, f"{namespace}." if namespace else ""

    def add(self, key: str, *args, **kwargs) -> Number:
        return self.registry.add(self.prefix + key, *args, **kwargs)

    @property
    def used(self):
        return self.registry.used

    @property
    def languages(self) -> tuple[str, ...]:
        return self.registry.languages

    def __getitem__(self, key: str) -> Number:
        return self.registry[key]

    def __contains__(self, key: str) -> bool:
        return key in self.registry

    def value(self, key: str):
        return self.registry.value(key)


def changes(old: dict, new: dict) -> list[str]:
    """Lines 'key: old → new' for numbers whose text changed, appeared or disappeared (in the last language
    of the number's texts)."""
    def shown(n: dict):
        texts = n.get("text", {})
        return texts[list(texts)[-1]] if texts else None
    out = []
    for k in sorted(set(old) | set(new)):
        a, b = shown(old.get(k, {})), shown(new.get(k, {}))
        if a != b:
            out.append(f"{k}: {a if a is not None else '(new)'} → {b if b is not None else '(removed)'}")
    return out


@registry_helper
def add_rows(reg: "Registry | Scope", key: str, rows: list[dict], provenance) -> Number:
    """A table's rows (the names, years and kinds a page shows beside its numbers) as this build read the
    inputs. A table renders from the registry alone, like the rest of a page, so a bad edit of a data file
    while serving leaves the last good table in place."""
    text = {lang: core_words().lang(lang)("rows", n=len(rows)) for lang in reg.languages}
    return reg.add(key, json.dumps(rows, ensure_ascii=False), text, provenance)


def table_rows(reg: "Registry | Scope", key: str) -> list[dict]:
    return json.loads(reg.value(key))
