"""Words: what a unit says (or the core itself), kept apart from its code, one file per declared language.

A unit's words live beside its code, `words.LANG.json` for each language the project declares
(`Project.languages`): one flat JSON object, key → text, the same keys in every file. A key is a stable
name ("title", "ring.points", "loss.alt"); a text may hold named blanks the code fills ("{k} ReLU units:
points right"), in the words' own order and punctuation, so code never formats a sentence for a language.

    WORDS = Words(folder, languages)
    WORDS("ring.points")                  → {"zh": "两类点合计", "en": "both classes"}: every language
    WORDS("ring.relu_right", k=3)         → each language's text with its blanks filled; a value may itself
                                            be one text per language (another call's result)
    WORDS.lang("en")("ring.points")       → "both classes": one language (a figure, a table, a notebook)
    WORDS.join("list", parts)             → the parts joined as each language lists them (the core's
                                            separators: "、" or ", ")

A word missing in one language fails the build, naming the unit's folder, the key and the language
(`check()`, which the build runs on every unit's words when it discovers the units, and every lookup).
`used` records the keys looked up, so a test can name the words nobody asks for.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable, Mapping, Union

from course.core.errors import InputError

Text = dict[str, str]                    # one text per language, as the registry keeps a number's words
Value = Union[str, int, float, Mapping[str, str]]

CORE_FOLDER = Path(__file__).resolve().parent


class WordsError(InputError):
    """A words file is missing or unreadable, or lacks a word some language has or some code asks for."""
    kind = "words error"


def words_file(folder: Path, lang: str) -> Path:
    return folder / f"words.{lang}.json"


class Words:
    """The words beside one folder (a unit's, or the core's), in each of `languages`."""

    def __init__(self, folder: Path, languages: tuple[str, ...] = ()):
        self.folder = Path(folder)
        self.languages = tuple(languages)
        self.owner = f"{self.folder.parent.name}/{self.folder.name}"   # "lessons/c4_ffn", as messages name it
        self._tables: dict[str, dict[str, str]] = {}
        self.used: set[str] = set()

    # ------------------------------------------------------------ the files

    def table(self, lang: str) -> dict[str, str]:
        """One language's words (read once)."""
        if lang not in self._tables:
            path = words_file(self.folder, lang)
            try:
                raw = json.loads(path.read_text(encoding="utf-8"))
            except FileNotFoundError:
                raise WordsError(f"{self.owner}: {path.name} is missing (language {lang}): every declared language "
                                 f"has a words file beside the unit's code") from None
            except json.JSONDecodeError as e:
                raise WordsError(f"{self.owner}/{path.name}: line {e.lineno} column {e.colno}: not valid JSON "
                                 f"({e.msg})") from None
            if not isinstance(raw, dict) or not all(isinstance(v, str) for v in raw.values()):
                raise WordsError(f"{self.owner}/{path.name}: expected one object of key → text")
            self._tables[lang] = raw
        return self._tables[lang]

    def keys(self) -> list[str]:
        """Every key, in the first language's order."""
        return list(self.table(self.languages[0])) if self.languages else []

    def has(self, key: str) -> bool:
        """Whether the words have `key` (a unit without words files has none)."""
        if not self.languages or not words_file(self.folder, self.languages[0]).exists():
            return False
        return key in self.table(self.languages[0])

    def check(self) -> None:
        """Every language has a words file with the same keys; a WordsError names each word that is missing
        (the folder, the key, the language). A text may leave out a blank another language's has (a count
        in 亿 or in billions: the code offers both), but not use one the code does not fill (`word`)."""
        if not self.languages or not any(words_file(self.folder, lang).exists() for lang in self.languages):
            return   # a unit that says nothing in any language has no words files
        self._tables.clear()   # read afresh: whoever checks (the build's discovery) records what it read
        tables = {lang: self.table(lang) for lang in self.languages}
        every = dict.fromkeys(k for t in tables.values() for k in t)
        problems = [f"{self.owner}: no word {key!r} in words.{lang}.json (language {lang})"
                    for key in every for lang, t in tables.items() if key not in t]
        if problems:
            raise WordsError("\n".join(problems))

    # ------------------------------------------------------------ asking for words

    def word(self, lang: str, key: str, values: Mapping[str, Value]) -> str:
        table = self.table(lang)
        if key not in table:
            raise WordsError(f"{self.owner}: no word {key!r} in words.{lang}.json (language {lang})")
        self.used.add(key)
        filled = {name: v[lang] if isinstance(v, Mapping) else v for name, v in values.items()}
        try:
            return table[key].format_map(filled)
        except (KeyError, IndexError) as e:
            raise WordsError(f"{self.owner}: the word {key!r} of words.{lang}.json has the blank {e.args[0]!r}, "
                             f"which the code does not fill") from None

    def __call__(self, key: str, /, **values: Value) -> Text:
        """The word `key` in every language, its blanks filled from `values`."""
        if not self.languages:
            raise WordsError(f"{self.owner}: words asked for in every language, but no languages are declared")
        return {lang: self.word(lang, key, values) for lang in self.languages}

    def lang(self, lang: str) -> "LangWords":
        """The same words in one language."""
        return LangWords(self, lang)

    def join(self, separator: str, parts: Iterable[Union[str, Mapping[str, str]]]) -> Text:
        """The parts (a text, or one per language) joined as each language joins them: `separator` names
        one of the core's separators ("list": "、" or ", "; "clauses": "；" or "; ")."""
        parts = list(parts)
        return {lang: self.lang(lang).join(separator, parts) for lang in self.languages}


class LangWords:
    """A unit's words in one language: `words(key, **values)` → str."""

    def __init__(self, words: Words, lang: str):
        self.words, self.lang = words, lang

    def __call__(self, key: str, /, **values: Value) -> str:
        return self.words.word(self.lang, key, values)

    def keys(self) -> list[str]:
        """Every key of this language's words file."""
        return list(self.words.table(self.lang))

    def template(self, key: str) -> str:
        """The word with its blanks unfilled (for a script that fills them on the page)."""
        table = self.words.table(self.lang)
        if key not in table:
            raise WordsError(f"{self.words.owner}: no word {key!r} in words.{self.lang}.json (language {self.lang})")
        self.words.used.add(key)
        return table[key]

    def join(self, separator: str, parts: Iterable[Union[str, Mapping[str, str]]]) -> str:
        sep = core_words().word(self.lang, f"join.{separator}", {})
        return sep.join(p[self.lang] if isinstance(p, Mapping) else p for p in parts)


_BESIDE: dict[tuple[Path, tuple[str, ...]], Words] = {}


def unit_words(folder: Path, languages: tuple[str, ...] = ()) -> Words:
    """The words beside `folder` in `languages`, one object per folder for every module that asks (so that
    `used` sees every lookup), read once per process: a serve session re-imports the core, and with it
    forgets these, when a words file it read is edited (course/core/session.py)."""
    key = (Path(folder).resolve(), tuple(languages))
    if key not in _BESIDE:
        _BESIDE[key] = Words(key[0], key[1])
    return _BESIDE[key]


def core_words(languages: tuple[str, ...] = ()) -> Words:
    """The core's own words (course/core/words.LANG.json): provenance, navigation, the numbers table's
    headings, the separators every unit's words share."""
    return unit_words(CORE_FOLDER, languages)


def in_lang(text: Union[str, Mapping[str, str]], lang: str) -> str:
    """A text that is the same in every language (a formula, a file name), or one language's of several."""
    return text if isinstance(text, str) else text[lang]


def in_each_lang(text: Union[str, Mapping[str, str]], lang: str) -> list[str]:
    """A text in `lang` first, then its other languages' (one entry for a text that is the same in every language)."""
    if isinstance(text, str):
        return [text]
    return [text[lang]] + [t for other, t in text.items() if other != lang and t != text[lang]]
