"""The pages' side of a build, independent of the site engine: what a page's shortcodes expand to, which
scripts and styles each page loads, which generated files the site serves, and what the whole site
refers to (the course map's deferrals, and the registry keys something uses).

An engine adapter (course/mkdocs_plugin.py for MkDocs) makes one `Site` per build and calls it from the
engine's events; nothing here imports the engine.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from course.core.claims import KEY, SHORTCODE_KEY, load_claims
from course.core.errors import ShortcodeError
from course.core.project import Project
from course.core.references import References, build_references, load_course_map
from course.core.registry import Registry
from course.core.shortcodes import PageContext, expand, page_lang_of
from course.core.units import Units

WIDGET_ROOT = re.compile(r'data-widget="([\w\-]+)"')
# Markdown wraps raw HTML that sits inside an indented block (a content tab) in <p>, which HTML does not
# allow around a block: a widget's or figure's root, a <figure> with an inlined diagram and its caption.
BLOCK = "div|figure|figcaption|svg|table|details"
BLOCK_IN_P = re.compile(rf"<p>(<(?:{BLOCK})\b(?:(?!</?p\b).)*?</(?:{BLOCK})>)</p>", re.S)


@dataclass(frozen=True)
class PageSource:
    src_uri: str        # "c4/residual.en.md"
    path: Path          # the file to read
    url: str            # "en/c4/residual/"


def unit_script(unit_id: str, script: str) -> str:
    return f"assets/units/{unit_id}/{script}"


@dataclass
class Site:
    project: Project
    units: Units
    registry: Registry
    refs: References
    draft: bool = False
    deferrals: dict = field(default_factory=dict)   # lang → reference id → [(page title, page)]
    used_keys: set = field(default_factory=set)      # every registry key a page, note, widget, table or notebook uses

    @classmethod
    def load(cls, project: Project, units: Units, draft: bool = False) -> "Site":
        paths = project.paths
        if not paths.registry.exists():
            raise ShortcodeError(f"{paths.relative(paths.registry)} is missing: run `python build.py` first")
        written = {ref: page for u in units.all for ref, page in u.written_refs().items()}
        try:
            refs = build_references(load_course_map(paths.course_map), written, paths.docs)
        except ValueError as e:
            raise ShortcodeError(str(e)) from None
        # read on every build, so that `mkdocs serve` picks up a rebuilt registry
        return cls(project, units, Registry.read(paths.registry), refs, draft)

    # ------------------------------------------------------------ pages

    def context(self, src_uri: str, url: str, locale: Optional[str] = None, draft: Optional[bool] = None) -> PageContext:
        lang = page_lang_of(src_uri, locale)
        return PageContext(registry=self.registry, units=self.units, lang=lang, where=src_uri, url=url,
                           unit=self.units.owner_of_page(src_uri), draft=self.draft if draft is None else draft,
                           refs=self.refs, deferrals=self.deferrals.get(lang, {}), figures=self.project.paths.figures,
                           used_keys=self.used_keys)

    def expand(self, markdown: str, src_uri: str, url: str, locale: Optional[str] = None) -> str:
        return expand(markdown, self.context(src_uri, url, locale))

    def survey(self, pages: list[PageSource]) -> None:
        """Before any page is rendered: which page refers to what (the course map lists it) and which
        registry keys the site uses (the numbers appendix lists only those)."""
        self.deferrals, used = {}, set()
        self.registry.used = used
        try:
            for p in pages:
                text = p.path.read_text(encoding="utf-8")
                ctx = self.context(p.src_uri, p.url, draft=True)
                ctx.surveying = True
                expand(text, ctx)
                title = next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")), p.src_uri)
                title = re.sub(r"<!--.*?-->", "", title).strip()
                page = p.src_uri.removesuffix(".md").removesuffix(".en")
                for ref in dict.fromkeys(ctx.refs_used):
                    self.deferrals.setdefault(ctx.lang, {}).setdefault(ref, []).append((title, page))
        finally:
            self.registry.used = None
        used |= self.claim_keys() | self.notebook_keys()
        self.used_keys.clear()
        self.used_keys.update(k for k in used if k in self.registry)

    def claim_keys(self) -> set[str]:
        """Keys the reading notes check or quote (the build evaluates every check against the registry)."""
        out = set()
        for u in self.units.all:
            if u.claims:
                notes = load_claims(u.claims)
                for c in notes.claims:
                    out |= set(KEY.findall(c.check)) | set(SHORTCODE_KEY.findall(c.zh + c.en))
                out |= set(SHORTCODE_KEY.findall(notes.provenance.zh + notes.provenance.en))
        return out

    def notebook_keys(self) -> set[str]:
        """Keys the notebooks read when they last ran (recorded by their kernels); all of them if one walked
        the whole registry."""
        import json

        from course.core.notebooks import reads_path, sources
        out = set()
        for src in sources(self.project.paths):
            record = reads_path(self.project.paths, src)
            if record.exists():
                reads = json.loads(record.read_text(encoding="utf-8"))["reads"]
                out |= set(self.registry.numbers) if reads.get("all_keys") else set(reads.get("keys", []))
        return out

    @staticmethod
    def unwrap_blocks(html_out: str) -> str:
        """Unwrap every paragraph that holds nothing but block-level markup (the pages stay as written)."""
        return BLOCK_IN_P.sub(r"\1", html_out)

    def page_assets(self, html_out: str) -> tuple[list[str], list[str]]:
        """(stylesheets, scripts) this page needs, as site paths: each widget's module and stylesheet, and
        plotly.js when a figure (a lesson's or a notebook's) or a widget that draws charts is on it."""
        names = sorted(set(WIDGET_ROOT.findall(html_out)))
        scripts, styles, plotly = [], [], 'class="plotly-figure"' in html_out
        for name in names:
            unit, widget = self.units.widget(name)
            scripts.append(unit_script(unit.id, widget.script))
            if unit.css(widget).exists():
                styles.append(unit_script(unit.id, unit.css(widget).name))
            plotly = plotly or widget.plotly
        if plotly:
            scripts.insert(0, self.project.paths.plotly_uri)
        return styles, scripts

    def generated_files(self) -> dict[str, Path]:
        """Site path → source of every file the site serves that is not under docs/: the units' widget
        scripts and the built figures (plotly.js is vendored under docs/, never taken from a CDN)."""
        extra = {}
        for unit, widget in self.units.widgets():
            extra[unit_script(unit.id, widget.script)] = unit.js(widget)
            if unit.css(widget).exists():
                extra[unit_script(unit.id, unit.css(widget).name)] = unit.css(widget)
        for fig in sorted(self.project.paths.figures.glob("*.json")):
            extra[f"assets/figures/{fig.name}"] = fig
        return extra

    # ------------------------------------------------------------ notebooks

    STALE_NOTE = {
        "zh": "这份笔记本的输出已经过时：它读过的内容有了改动（{why}）。运行 <code>python build.py</code> 会重新执行它。",
        "en": "This notebook's outputs are out of date: something it read has changed ({why}). "
              "<code>python build.py</code> executes it again.",
    }

    def mark_stale(self, html_out: str, url: str, why: list[str]) -> str:
        """A notice at the top of a notebook page whose executed copy is out of date (while serving)."""
        import html as html_lib
        lang = "en" if url.startswith("en/") else "zh"
        reasons = html_lib.escape(("；" if lang == "zh" else "; ").join(why[:3]))
        note = (f'<div class="admonition warning notebook-stale" role="status"><p>'
                f'{self.STALE_NOTE[lang].format(why=reasons)}</p></div>')
        return re.sub(r"(<article[^>]*>)", lambda m: m.group(1) + note, html_out, count=1)

    def executed_notebook(self, source: Path) -> tuple[Optional[Path], list[str]]:
        """The copy the build executed (None before the first build) and why it is stale ([] if current)."""
        from course.core.notebooks import executed_path, read_registry, why_stale
        paths = self.project.paths
        executed = executed_path(paths, source)
        if not executed.exists():
            return None, ["never executed"]
        return executed, why_stale(paths, source, read_registry(paths))
