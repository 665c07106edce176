"""Formulas rendered when the site is built: each arithmatex span (\\( \\)) and block (\\[ \\]) of a page, and a
heading's formula where the tables of contents repeat it as text, becomes KaTeX's HTML, made by the site's own
vendored katex.min.js run once per batch by Node.js. A page then loads KaTeX's stylesheet and fonts only where
it has a formula, and no KaTeX script at all: nothing to parse before the first view, and formulas that print
and read with JavaScript off. Rendered formulas are kept, keyed on the formula and on katex.min.js's bytes.
"""
from __future__ import annotations

import hashlib
import html
import json
import re
import shutil
import subprocess
from pathlib import Path

from course.core.errors import InputError, MissingTool
from course.core.files import write_atomic

RENDERER = Path(__file__).with_name("katex.js")
SPAN = re.compile(r'<span class="arithmatex">\\\((.*?)\\\)</span>', re.S)
BLOCK = re.compile(r'<div class="arithmatex">\\\[(.*?)\\\]</div>', re.S)
# the tables of contents (Material's nav) carry a heading's text, its formula as TeX between \( and \)
# a display formula's equations: what its source separates by a \qquad outside braces, \left…\right and
# environments (a phone shows them on lines of their own when the whole does not fit: docs/assets/js/math.js)
TEX_TOKEN = re.compile(r"\\[a-zA-Z]+|\\.|[{}]|[^\\{}]+")
NAV_TEXT = re.compile(r'(<span class="md-ellipsis">)(.*?)(</span>)', re.S)
INLINE_TEX = re.compile(r"\\\((.+?)\\\)", re.S)


def equations(tex: str) -> list[str]:
    parts, depth = [""], 0
    for token in TEX_TOKEN.findall(tex):
        if token in ("{", "\\left", "\\begin"):
            depth += 1
        elif token in ("}", "\\right", "\\end"):
            depth -= 1
        if token == "\\qquad" and depth == 0:
            parts.append("")
        else:
            parts[-1] += token
    return [p.strip() for p in parts if p.strip()]


class Formulas:
    """Renders a page's formulas; `katex` is the vendored katex.min.js, `cache` the file that keeps renders."""

    def __init__(self, katex: Path, cache: Path):
        self.katex, self.cache_file = katex, cache
        self.version = hashlib.sha256(katex.read_bytes()).hexdigest()[:16] if katex.exists() else ""
        self.done: dict[str, str] = {}
        try:
            kept = json.loads(cache.read_text(encoding="utf-8"))
            if kept.get("katex") == self.version:
                self.done = kept["formulas"]
        except (OSError, ValueError, KeyError):
            pass
        self.added = False

    @staticmethod
    def key(tex: str, display: bool) -> str:
        return ("D" if display else "I") + tex

    def _render(self, wanted: list[tuple[str, bool]]) -> None:
        todo = sorted({(t, d) for t, d in wanted if self.key(t, d) not in self.done})
        if not todo:
            return
        if not self.katex.exists():
            raise InputError(f"{self.katex}: KaTeX is not there (the site renders its formulas with it)")
        node = shutil.which("node")
        if node is None:
            raise MissingTool("node: Node.js is needed to render the formulas with KaTeX (install Debian's nodejs)")
        job = json.dumps({"katex": str(self.katex.resolve()), "formulas": todo})
        run = subprocess.run([node, str(RENDERER)], input=job, capture_output=True, text=True, encoding="utf-8")
        if run.returncode != 0:
            raise RuntimeError(f"KaTeX (node {RENDERER.name}) failed: {run.stderr.strip()[-2000:]}")
        for (tex, display), out in zip(todo, json.loads(run.stdout)):
            self.done[self.key(tex, display)] = out
        self.added = True

    def page(self, html_out: str) -> str:
        """The page with every arithmatex formula, and every formula of its tables of contents, rendered."""
        def tex(m) -> str:   # a formula as its source wrote it (Markdown escaped it into the page's HTML)
            return html.unescape(m.group(1))
        spans = [(tex(m), False) for m in SPAN.finditer(html_out)]
        blocks = [(t, True) for m in BLOCK.finditer(html_out) for t in [tex(m).strip()] + equations(tex(m).strip())]
        navs = [(tex(t), False) for m in NAV_TEXT.finditer(html_out) for t in INLINE_TEX.finditer(m.group(2))]
        if not spans and not blocks and not navs:
            return html_out
        self._render(spans + blocks + navs)

        def inline(m) -> str:
            return self.done[self.key(tex(m), False)]
        html_out = SPAN.sub(lambda m: f'<span class="arithmatex">{inline(m)}</span>', html_out)
        html_out = BLOCK.sub(lambda m: self._display(tex(m).strip()), html_out)
        return NAV_TEXT.sub(lambda m: m.group(1) + INLINE_TEX.sub(inline, m.group(2)) + m.group(3), html_out)

    def _display(self, tex: str) -> str:
        """A display formula: whole, and, where it has several equations, each on a line of its own (hidden;
        math.js shows them instead of the whole when the whole is wider than its column)."""
        whole = self.done[self.key(tex, True)]
        parts = equations(tex)
        if len(parts) < 2:
            return f'<div class="arithmatex">{whole}</div>'
        lines = "".join(f"<span>{self.done[self.key(p, True)]}</span>" for p in parts)
        return (f'<div class="arithmatex"><span class="math-whole">{whole}</span>'
                f'<span class="math-parts" hidden>{lines}</span></div>')

    def save(self) -> None:
        if self.added:
            write_atomic(self.cache_file, json.dumps({"katex": self.version, "formulas": self.done}, ensure_ascii=False))
            self.added = False


def has_math(html_out: str) -> bool:
    return 'class="katex' in html_out
