"""The number registry: every number a page shows, with its text in each language and its provenance.

A page names a number by key (`<!-- n:KEY -->`, see course/core/shortcodes.py); nothing else may put a
number on a page. Three kinds of provenance exist, and each says where it came from in two ways, in the
core's words (course/core/words.LANG.json): for authors (`Number.source`: the files read, the run's
device, date and commit; the numbers appendix shows it beside the line that defined the number) and for a
reader (`Number.hover`: the tooltip, in the reader's words: the model's official config and its field, the
paper and its table, our run and its seeds). A reader is told of a computed number's sources by the units'
`SourceReader`s: each source is read by the first whose pattern it matches, in words of the unit that
declares it, or left to the appendix (code the formula already names); a source no unit reads fails the
build. Keys are namespaced: a lesson adds its
numbers through `registry.scope(slug)`, so every key of the normalization lesson starts with
`normalization.`; the chapter's shared keys carry no lesson name.
"""
from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Callable, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field

from course.core.errors import InputError
from course.core.words import Words as UnitWords, core_words, in_each_lang, in_lang

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

    def tell(self, lang: str, readers: "SourceReaders") -> str:
        say = core_words().lang(lang)
        told = list(dict.fromkeys(t for s in self.sources if (t := readers.tell(in_each_lang(s, lang), lang))))
        formula = in_lang(self.formula, lang)
        if not told:
            return say("hover.computed", formula=formula)
        return say("hover.computed_from", formula=formula, sources=say.join("list", told))


class Measured(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["measured"] = "measured"
    run: Words
    device: Words    # one device, or each device with the seeds trained on it
    date: str
    commit: str
    told: Words = ""  # the run as a reader is told of it (no file, no commit: those stay in `run`); `run` if empty

    def describe(self, lang: str) -> str:
        return core_words().lang(lang)("provenance.measured", run=in_lang(self.run, lang),
                                       device=in_lang(self.device, lang), date=self.date, commit=self.commit)

    def tell(self, lang: str, readers: "SourceReaders") -> str:
        return core_words().lang(lang)("hover.measured", run=in_lang(self.told or self.run, lang))


class Cited(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["cited"] = "cited"
    paper: str
    table: Words
    row: Words

    def describe(self, lang: str) -> str:
        return core_words().lang(lang)("provenance.cited", paper=self.paper, table=in_lang(self.table, lang),
                                       row=in_lang(self.row, lang))

    def tell(self, lang: str, readers: "SourceReaders") -> str:
        return self.describe(lang)   # the paper, its table and row: already a reader's words


@dataclass(frozen=True)
class SourceReader:
    """How a reader is told of a computed number's source (a unit's `sources`). `pattern` is a regular
    expression a source's text, in any of the languages, matches in full; `words` is a key of the declaring
    unit's words, its named blanks filled by the pattern's named groups ("{model}'s official config"), or
    None for a source the reader is not told of (the code whose formula the hover already gives)."""
    pattern: str
    words: Optional[str]


class SourceError(InputError):
    kind = "source error"


class SourceReaders:
    """Every unit's source readers, in the units' order; the first whose pattern matches reads a source."""

    def __init__(self, readers: list[tuple[SourceReader, UnitWords]] = ()):
        self.readers = [(re.compile(r.pattern), r.words, w) for r, w in readers]

    def tell(self, source: list[str], lang: str) -> str:
        """What a reader is told of a source in `lang` ("" when only the appendix names it). `source` is its text
        in `lang` first, then in the other languages: a language whose words the patterns were not written in
        (a new one, a test's) is told by the words of its own that the source's text in another language matches."""
        for text in source:
            for pattern, key, words in self.readers:
                m = pattern.fullmatch(text)
                if m:
                    return words.lang(lang)(key, **m.groupdict(default="")) if key else ""
        raise SourceError(f"no unit's SourceReader matches the source {source[0]!r}: add one to the `sources` of the "
                          f"unit whose inputs it names, with the words that tell a reader what it is")


Provenance = Annotated[Union[Computed, Measured, Cited], Field(discriminator="kind")]
Value = Union[int, float, str, list[float]]


class Number(BaseModel):
    model_config = ConfigDict(extra="forbid")
    key: str
    value: Value
    unit: str = ""
    text: dict[str, str]  # one entry per language the project declares
    provenance: Provenance
    # the provenance in the reader's words, in each language (the tooltip); a registry made without the
    # units' source readers (a test's) leaves it empty, and then its hover is the authors' text
    told: dict[str, str] = {}
    defined_at: str = ""  # "lessons/c4_ffn/numbers.py:123": the line that asked for this number

    def hover(self, lang: str) -> str:
        """Where the number comes from, in the reader's words (the tooltip)."""
        return self.told[lang] if self.told else self.source(lang)

    def source(self, lang: str) -> str:
        """Where the number comes from, for authors: files, runs, devices, dates and commits (the appendix)."""
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
    def __init__(self, root: Path | None = None, languages: tuple[str, ...] = (),
                 readers: SourceReaders | None = None) -> None:
        self.numbers: dict[str, Number] = {}
        self.root = root
        self.languages = tuple(languages)   # a number's text is given in each (one text stands for all)
        self.readers = readers              # when given, every number is told in the reader's words
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
        told = {}
        if self.readers is not None:
            try:
                told = {lang: provenance.tell(lang, self.readers) for lang in self.languages}
            except SourceError as e:
                raise SourceError(f"registry key {key!r} (defined at {self._defined_at()}): {e}") from None
        n = Number(key=key, value=value, unit=unit, text=texts, provenance=provenance, told=told,
                   defined_at=self._defined_at())
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
