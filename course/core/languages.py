"""The languages a project declares (`Project.languages`), and how its pages are named in each.

The first language is the default: its pages are `docs/PAGE.md` (and `.ipynb`) and the site serves them at
its root; every other language's are `docs/PAGE.LANG.md` and are served under `LANG/`. Nothing else in the
core names a language: what it says in one (provenance, navigation, the numbers table) is in its words
files (course/core/words.LANG.json), and a unit's words are beside the unit's code (course/core/words.py).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class Languages:
    codes: tuple[str, ...]

    def __post_init__(self):
        if not self.codes or len(set(self.codes)) != len(self.codes):
            raise ValueError(f"a project declares one or more languages, each once; got {self.codes!r}")

    def __iter__(self):
        return iter(self.codes)

    @property
    def default(self) -> str:
        return self.codes[0]

    @property
    def others(self) -> tuple[str, ...]:
        return self.codes[1:]

    def suffix(self, lang: str) -> str:
        """What a page's file name adds before its extension in `lang`: "" or ".en"."""
        return "" if lang == self.default else f".{lang}"

    def page_file(self, page: str, lang: str, ext: str = ".md") -> str:
        """A docs page ("c4/ffn") in one language: "c4/ffn.md", "c4/ffn.en.md"."""
        return f"{page}{self.suffix(lang)}{ext}"

    def url_prefix(self, lang: str) -> str:
        """Where a language's pages are served: "" (the default) or "en/"."""
        return "" if lang == self.default else f"{lang}/"

    def _suffixed(self) -> re.Pattern:
        others = "|".join(re.escape(lang) for lang in self.others) or "(?!)"
        return re.compile(rf"\.({others})(?=\.(md|ipynb)$)")

    def stem(self, src_uri: str) -> str:
        """A page's source path without its language and extension: "c4/ffn.en.md" → "c4/ffn"."""
        return re.sub(r"\.(md|ipynb)$", "", self._suffixed().sub("", src_uri))

    def unsuffixed(self, src_uri: str) -> str:
        """A page's source path without its language: "c4/ffn.en.md" → "c4/ffn.md"."""
        return self._suffixed().sub("", src_uri)

    def of_page(self, src_uri: str, locale: Optional[str] = None) -> str:
        """The language of a page, by its file name (PAGE.LANG.md), its folder (LANG/…) or the locale the site
        engine gives it; the default language otherwise."""
        m = self._suffixed().search(src_uri)
        if m:
            return m.group(1)
        first = src_uri.split("/", 1)[0]
        if first in self.others and "/" in src_uri:
            return first
        return locale if locale in self.codes else self.default

    def url_in(self, url: str, lang: str) -> str:
        """The same page's URL in another language: "c4/ffn/" in "en" → "en/c4/ffn/", and back."""
        return self.url_prefix(lang) + url.removeprefix(self.url_prefix(self.of_url(url)))

    def of_url(self, url: str) -> str:
        """The language of a page by its URL ("en/c4/ffn/" → "en")."""
        first = url.split("/", 1)[0]
        return first if first in self.others and "/" in url else self.default
