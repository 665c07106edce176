"""Loading input files: one loader that turns any problem into a readable error (file, field, expectation),
and the base models every schema of the course builds on. The schemas themselves live with what they
describe: the chapter's inputs in course/common/schema.py, a lesson's in its package, the small model's
runs and results in models/."""
from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict, RootModel, ValidationError

from course.core.errors import InputError  # noqa: F401 (the loaders' error; imported from here by the units)




class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Official(BaseModel):
    """Part of an official config: keys the course does not use are kept, not rejected."""
    model_config = ConfigDict(extra="allow")


class Bilingual(RootModel[dict[str, str]]):
    """Words a data file gives in each of the project's languages: {"zh": …, "en": …}, one text per language
    (which languages are the project's is checked where they are used: `missing`)."""

    def __getitem__(self, lang: str) -> str:
        return self.root[lang]

    def get(self, lang: str, default: str = "") -> str:
        return self.root.get(lang, default)

    def missing(self, languages) -> list[str]:
        return [lang for lang in languages if lang not in self.root]


def shown(path: Path) -> str:
    """A file as a message names it: relative to the working directory (a build runs from the project's
    root, so this is the path an author types), else whole."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def _describe(err: dict) -> str:
    loc = ".".join(str(p) for p in err["loc"] if not str(p).startswith("function-after"))
    got = err.get("input")
    shown = json.dumps(got, ensure_ascii=False) if not isinstance(got, dict) else "an object"
    if len(shown) > 60:
        shown = shown[:57] + "..."
    msg = err["msg"].removeprefix("Value error, ")
    where = loc or "(top level)"
    if err["type"] == "missing":
        return f"{where}: missing (a required field)"
    if err["type"] == "extra_forbidden":
        return f"{where}: unknown field (not part of this file's schema)"
    return f"{where}: {msg}; got {shown}"


def load(path: Path, model: type[BaseModel]):
    """Read and validate one data file; raise InputError with file, field and expectation."""
    name = shown(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{name}: file not found") from None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{name}: line {e.lineno} column {e.colno}: not valid JSON ({e.msg})") from None
    try:
        return model.model_validate(raw)
    except ValidationError as e:
        lines = [_describe(err) for err in e.errors()]
        raise InputError(f"{name}: " + ("\n  " if len(lines) > 1 else "") + "\n  ".join(lines)) from None
