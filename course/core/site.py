"""The pages' side of a build, independent of the site engine: what a page's shortcodes expand to, which
scripts and styles each page loads, which generated files the site serves, and what the whole site
refers to (the course map's deferrals, and the registry keys something uses).

An engine adapter (course/mkdocs_plugin.py for MkDocs) makes one `Site` per build and calls it from the
engine's events; nothing here imports the engine.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from course.core.claims import KEY, SHORTCODE_KEY, load_claims
from course.core.errors import InputError, ShortcodeError
from course.core.project import Project
from course.core.references import References, build_references, load_course_map, nav_entries
from course.core.languages import Languages
from course.core.registry import Registry
from course.core.shortcodes import SHORTCODE, PageContext, expand
from course.core import static_figures
from course.core.units import Units
from course.core.words import core_words

WIDGET_ROOT = re.compile(r'data-widget="([\w\-]+)"')
# a script loaded from a file, as the theme and MkDocs write it: <script src="…">
CLASSIC_SCRIPT = re.compile(r'<script (src="[^"]+"[^>]*>)')
# nbconvert's MathJax loader (a script with an empty src) and its configuration, as mkdocs-jupyter's template writes them
NO_MATHJAX = re.compile(r'<script src="">\s*</script>|<script type="text/x-mathjax-config">.*?</script>', re.S)
# The KaTeX fonts a page with formulas preloads, each with the class of KaTeX's HTML that draws with it (None:
# every formula, KaTeX's default face). Found only once a page is laid out, they came last, after the
# stylesheets, and the text of a formula is not drawn until its font has arrived (KaTeX's font-display: block),
# so the first paragraph with a formula was painted late. The other faces (sizes of delimiters, bold,
# calligraphic, AMS) are rarer and arrive as found.
KATEX_FIRST_FONTS = (("Main-Regular", None), ("Math-Italic", "mathnormal"))
# Markdown wraps raw HTML that sits inside an indented block (a content tab) in <p>, which HTML does not
# allow around a block: a widget's or figure's root, a <figure> with an inlined diagram and its caption.
BLOCK = "div|figure|figcaption|svg|table|details"
BLOCK_IN_P = re.compile(rf"<p>(<(?:{BLOCK})\b(?:(?!</?p\b).)*?</(?:{BLOCK})>)</p>", re.S)


@dataclass(frozen=True)
class RenderedCell:
    """One notebook cell in nbconvert's HTML: where it starts and ends, its tags, what it folds into."""
    start: int
    end: int
    tags: frozenset
    markdown: bool

    @property
    def fold(self) -> Optional[str]:
        from course.core.notebooks import ANSWER, CHECK, SETUP
        if self.tags & {ANSWER, CHECK}:
            return "answer"
        return "setup" if SETUP in self.tags else None


DIV = re.compile(r"<div\b[^>]*>|</div\s*>")
CELL_CLASS = re.compile(r'class="([^"]*\bjp-Cell\b[^"]*)"')
CELL_TAG = re.compile(r"\bcelltag_([\w\-]+)")


def notebook_cells(html_out: str) -> list[RenderedCell]:
    """The notebook's cells in nbconvert's HTML, outermost `jp-Cell` elements in order. A cell's tags are
    its `celltag_*` classes (on the cell's element for code, on its rendered Markdown for Markdown); text
    inside outputs is escaped, so only real elements are counted."""
    cells, depth, start, opened, tag_set, markdown = [], 0, None, 0, set(), False
    for m in DIV.finditer(html_out):
        tag = m.group(0)
        if tag.startswith("</"):
            depth -= 1
            if start is not None and depth == opened:
                cells.append(RenderedCell(start, m.end(), frozenset(tag_set), markdown))
                start = None
            continue
        if start is None:
            cls = CELL_CLASS.search(tag)
            if cls:
                start, opened, tag_set, markdown = m.start(), depth, set(), "jp-MarkdownCell" in cls.group(1)
        if start is not None:
            cls = re.search(r'class="([^"]*)"', tag)
            tag_set |= set(CELL_TAG.findall(cls.group(1))) if cls else set()
        depth += 1
    return cells


# A run's output can answer the question asked above it. The output (not the code) of each `run` or `figure`
# cell that sits between a `prediction` cell and its answer folds on its own, closed, unless the cell is
# tagged `keep-open`: an output the reader needs to reason from (a lab marks those in its notebook). The answer
# fold after a `your-turn` cell (where the reader writes code) holds a reference solution, and says so.
PREDICTION, YOUR_TURN, KEEP_OPEN, RUN_CELLS = "prediction", "your-turn", "keep-open", frozenset({"run", "figure"})
OUTPUT_WRAPPER = re.compile(r'<div class="[^"]*\bjp-Cell-outputWrapper\b[^"]*"[^>]*>')


def folded_outputs(cells: list[RenderedCell]) -> set[int]:
    """The indexes of the code cells whose outputs fold: a run or figure cell after a prediction and before
    the answer fold that follows it, unless it is tagged `keep-open`."""
    out, asked = set(), False
    for i, c in enumerate(cells):
        if PREDICTION in c.tags:
            asked = True
        elif c.fold == "answer":
            asked = False
        elif asked and not c.markdown and c.tags & RUN_CELLS and KEEP_OPEN not in c.tags:
            out.add(i)
    return out


def fold_output(cell_html: str, summary: str) -> str:
    """A code cell's HTML with its outputs (nbconvert's output wrapper, whole) in a closed block; a cell
    without outputs is left as it is."""
    m = OUTPUT_WRAPPER.search(cell_html)
    if not m:
        return cell_html
    depth = 0
    for d in DIV.finditer(cell_html, m.start()):
        depth += -1 if d.group(0).startswith("</") else 1
        if depth == 0:
            return (f'{cell_html[:m.start()]}<details class="lab-fold lab-output note"><summary>{summary}</summary>\n'
                    f"{cell_html[m.start():d.end()]}\n</details>{cell_html[d.end():]}")
    return cell_html


def fold_groups(cells: list[RenderedCell]) -> list[list[RenderedCell]]:
    """Runs of consecutive cells that fold the same way (an answer with its check, the set-up); every other
    cell is a run of its own."""
    groups: list[list[RenderedCell]] = []
    for c in cells:
        if groups and c.fold is not None and groups[-1][-1].fold == c.fold:
            groups[-1].append(c)
        else:
            groups.append([c])
    return groups


@dataclass(frozen=True)
class PageSource:
    src_uri: str        # "c4/residual.en.md"
    path: Path          # the file to read
    url: str            # "en/c4/residual/"


def page_text(path: Path) -> str:
    """The prose of a page's source: a Markdown page whole, a notebook's Markdown cells."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".ipynb":
        return text
    import json
    return "\n\n".join("".join(c["source"]) for c in json.loads(text)["cells"] if c["cell_type"] == "markdown")


def unit_script(unit_id: str, script: str) -> str:
    return f"assets/units/{unit_id}/{script}"


@dataclass
class PageAssets:
    """What a page loads beside the theme's files (site paths): stylesheets, scripts, fonts to preload, and,
    by name, what its scripts load later."""
    styles: list[str] = field(default_factory=list)
    scripts: list[str] = field(default_factory=list)
    fonts: list[str] = field(default_factory=list)
    later: dict[str, str] = field(default_factory=dict)

    def link(self, html_out: str, relative: Callable[[str], str]) -> str:
        """The page with these linked: fonts preloaded, stylesheets and the names of what loads later in its
        head, scripts (deferred) at the end of its body; `relative` gives a site path as seen from the page."""
        head = "".join(f'<link rel="preload" href="{relative(f)}" as="font" type="font/woff2" crossorigin>'
                       for f in self.fonts)
        head += "".join(f'<link rel="stylesheet" href="{relative(s)}">' for s in self.styles)
        head += "".join(f'<meta name="{n}" content="{relative(s)}">' for n, s in self.later.items())
        body = "".join(f'<script defer src="{relative(s)}"></script>' for s in self.scripts)
        return html_out.replace("</head>", head + "</head>", 1).replace("</body>", body + "</body>", 1)


@dataclass
class Site:
    project: Project
    units: Units
    registry: Registry
    refs: References
    draft: bool = False
    deferrals: dict = field(default_factory=dict)   # lang → reference id → [(page title, page)]
    used_keys: set = field(default_factory=set)      # every registry key a page, note, widget, table or notebook uses

    @property
    def languages(self) -> Languages:
        return Languages(self.project.languages)

    @classmethod
    def load(cls, project: Project, units: Units, draft: bool = False) -> "Site":
        paths = project.paths
        if not paths.registry.exists():
            raise ShortcodeError(f"{paths.relative(paths.registry)} is missing: run `python build.py` first")
        try:
            refs = build_references(load_course_map(paths.course_map), units.written(), paths.docs, project.languages)
        except ValueError as e:
            raise ShortcodeError(str(e)) from None
        # read on every build, so that `mkdocs serve` picks up a rebuilt registry
        return cls(project, units, Registry.read(paths.registry), refs, draft)

    def check_languages(self, built: list[str], where: str) -> None:
        """The site engine builds the project's languages (Project.languages), the default first: `built`
        lists the engine's, as `where` (its setting) gives them."""
        if list(built) != list(self.languages.codes):
            raise InputError(f"{where}: the site is built in {', '.join(built) or 'no language'}, the project is "
                             f"written in {', '.join(self.languages.codes)} (its declared languages, default first)")

    # ------------------------------------------------------------ navigation

    def _nav(self, lang: str) -> list[tuple[str, list[tuple[str, str]]]]:
        overview = {u.ref: u.overview for u in self.units.chapters if u.overview}
        return nav_entries(self.refs, lang, overview)

    def nav(self, nav: list, after: str) -> list:
        """The engine's navigation setting (a list of {title: page or [entries]}) with the written chapters
        and their lessons placed after the entry of page `after`, titled in the first language; `nav_title`
        gives each language's titles."""
        written = self._nav(self.languages.default)
        pages = {page for _, items in written for _, page in items}

        def leaves(item) -> list[str]:
            value = next(iter(item.values())) if isinstance(item, dict) else item
            return [value] if isinstance(value, str) else [p for x in value for p in leaves(x)]
        # the entries a unit writes come from the units alone (and each language's build hands back the setting
        # the previous one returned)
        nav = [item for item in nav if not set(leaves(item)) <= pages]
        at = next((i for i, item in enumerate(nav) if isinstance(item, dict) and after in item.values()), None)
        if at is None:
            raise ShortcodeError(f"the navigation has no entry for {after}, after which the chapters go")
        chapters = [{title: [{t: page} for t, page in items]} for title, items in written]
        return nav[: at + 1] + chapters + nav[at + 1:]

    def nav_title(self, src_uri: str, locale: Optional[str] = None, section: bool = False) -> Optional[str]:
        """A unit's page's title in the navigation, in the page's language (`section`: the title of the
        chapter it is listed under); None for a page no unit writes."""
        stem = self.languages.unsuffixed(src_uri)
        for chapter, items in self._nav(self.languages.of_page(src_uri, locale)):
            for title, page in items:
                if page == stem:
                    return chapter if section else title
        return None

    def retitle(self, items) -> None:
        """Title each written chapter and its pages in the page's language. `items`: a site engine's
        navigation, each entry a page (`is_page`, with its `file`'s `src_uri` and `locale`), a section
        (`is_section`, with its `children`) or a link; a section takes its first page's chapter title."""
        for item in items:
            page = item if item.is_page else \
                next((p for p in getattr(item, "children", None) or [] if p.is_page), None)
            title = page and self.nav_title(page.file.src_uri, getattr(page.file, "locale", None),
                                            section=item.is_section)
            if title:
                item.title = title
            if item.is_section:
                self.retitle(item.children)

    # ------------------------------------------------------------ pages

    def context(self, src_uri: str, url: str, locale: Optional[str] = None, draft: Optional[bool] = None) -> PageContext:
        lang = self.languages.of_page(src_uri, locale)
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
                text = page_text(p.path)
                ctx = self.context(p.src_uri, p.url, draft=True)
                ctx.surveying = True
                expand(text, ctx)
                title = next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")), p.src_uri)
                title = re.sub(r"<!--.*?-->", "", title).strip()
                page = self.languages.stem(p.src_uri)   # a notebook is a page too
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
                    out |= set(KEY.findall(c.check)) | {k for text in c.texts().values() for k in SHORTCODE_KEY.findall(text)}
                out |= {k for text in notes.provenance.texts().values() for k in SHORTCODE_KEY.findall(text)}
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

    def page_assets(self, html_out: str) -> PageAssets:
        """What this page needs, as site paths: each widget's module and stylesheet, KaTeX's stylesheet where a
        formula is, and the KaTeX fonts nearly every formula draws with (KATEX_FIRST_FONTS); and in
        `later`, what the page's scripts load only when a reader comes near what uses it, by name: plotly.js
        (`course-plotly`) when a figure (a lesson's or a notebook's) or a widget that draws charts is on it."""
        from course.core.math import has_math
        names = sorted(set(WIDGET_ROOT.findall(html_out)))
        assets, plotly = PageAssets(), 'class="plotly-figure"' in html_out
        if has_math(html_out):
            assets.styles.append(self.project.paths.katex_css_uri)
            assets.fonts = [self.project.paths.katex_font_uri(font) for font, cls in KATEX_FIRST_FONTS
                            if cls is None or re.search(rf'class="[^"]*\b{cls}\b', html_out)]
        for name in names:
            unit, widget = self.units.widget(name)
            assets.scripts.append(unit_script(unit.id, widget.script))
            if unit.css(widget).exists():
                assets.styles.append(unit_script(unit.id, unit.css(widget).name))
            plotly = plotly or widget.plotly
        if plotly:
            assets.later["course-plotly"] = self.project.paths.plotly_uri
        return assets

    @staticmethod
    def deferred(html_out: str) -> str:
        """Every script a page loads from a file (the theme's bundle, the course's, the widgets'), deferred:
        they run in their order once the page is parsed, and none blocks the parser or the first paint."""
        return CLASSIC_SCRIPT.sub(r"<script defer \1", html_out)

    def generated_files(self) -> dict[str, Path]:
        """Site path → source of every file the site serves that is not under docs/: the units' widget
        scripts, the built figures and their static renderings (plotly.js is vendored under docs/, never taken from a CDN)."""
        extra = {}
        for unit, widget in self.units.widgets():
            extra[unit_script(unit.id, widget.script)] = unit.js(widget)
            if unit.css(widget).exists():
                extra[unit_script(unit.id, unit.css(widget).name)] = unit.css(widget)
        for fig in sorted(self.project.paths.figures.glob("*.json")):  # each language's data, as its pages fetch it
            if fig.stem.rpartition(".")[2] in self.project.languages:
                extra[f"assets/figures/{fig.name}"] = fig
        return extra | static_figures.served(self.project.paths)

    # ------------------------------------------------------------ notebooks

    @staticmethod
    def fold_summary(kind: str, lang: str) -> str:
        """What a folded block of a lab's page says it holds: "answer", "solution", "output" or "setup"."""
        return core_words().lang(lang)(f"lab.{kind}")

    def notebook_html(self, html_out: str, src_uri: str, url: str, locale: Optional[str] = None) -> str:
        """A lab's rendered page (nbconvert's HTML of the executed answer key): the shortcodes of its Markdown
        cells expanded, its set-up folded away, and each answer folded with its check, closed, under its
        question, and the outputs of the runs between a prediction and its answer folded on their own
        (course/core/notebooks.py names the tags; `folded_outputs` says which runs); each of its figures
        holds its static rendering (course/core/static_figures.py). nbconvert's MathJax loader goes: it names no
        file (`<script src="">`, not valid HTML) and the site renders its formulas at build time."""
        lang = self.languages.of_page(src_uri, locale)
        cells = notebook_cells(html_out)
        index, hidden = {c: i for i, c in enumerate(cells)}, folded_outputs(cells)

        def cell_html(c: RenderedCell) -> str:
            text = self._cell_html(html_out, c, src_uri, url, locale)
            return fold_output(text, self.fold_summary("output", lang)) if index[c] in hidden else text
        out, at = [], 0
        for group in fold_groups(cells):
            first, last = group[0], group[-1]
            out.append(html_out[at:first.start])
            body = "".join(cell_html(c) + html_out[c.end:n.start] for c, n in zip(group, group[1:])) + cell_html(last)
            kind = first.fold
            if kind is None:
                out.append(body)
            else:
                before = cells[index[first] - 1] if index[first] else None
                solution = kind == "answer" and before is not None and YOUR_TURN in before.tags
                summary = self.fold_summary("solution" if solution else kind, lang)
                out.append(f'<details class="lab-fold lab-{kind} {"success" if kind == "answer" else "note"}">'
                           f"<summary>{summary}</summary>\n{body}\n</details>")
            at = last.end
        out.append(html_out[at:])
        return NO_MATHJAX.sub("", "".join(out))

    def _cell_html(self, html_out: str, cell: "RenderedCell", src_uri: str, url: str, locale: Optional[str]) -> str:
        text = html_out[cell.start:cell.end]
        if cell.markdown:
            return self.expand(text, src_uri, url, locale)
        return static_figures.with_inline_images(text, self.project.paths, self.context(src_uri, url, locale).asset)

    def learner_notebook(self, source: Path, src_uri: str, url: str, locale: Optional[str] = None) -> str:
        """The notebook a lab page offers for download: the learner's copy of its source (no answers, no
        outputs), each shortcode of its Markdown cells written out as plain text (a downloaded notebook has no
        site to link into)."""
        import nbformat

        from course.core.notebooks import learner_copy
        ctx = self.context(src_uri, url, locale)

        def plain(markdown: str) -> str:
            return SHORTCODE.sub(lambda m: html.unescape(re.sub(r"<[^>]+>", "", expand(m.group(0), ctx))), markdown)
        return nbformat.writes(learner_copy(nbformat.read(source, as_version=4), plain))

    def number_keys_hint(self, html_out: str, url: str) -> str:
        """On a page with registry numbers, the sentence that tells assistive technology how to move among a
        paragraph's numbers, hidden, in the page's language (docs/assets/js/numbers-keys.js points each
        number at it)."""
        if 'class="reg-num"' not in html_out:
            return html_out
        hint = html.escape(core_words().lang(self.languages.of_url(url))("reg_num.hint"))
        return re.sub(r"(<article[^>]*>)", lambda m: m.group(1) + f'<span id="reg-num-hint" hidden>{hint}</span>',
                      html_out, count=1)

    def mark_stale(self, html_out: str, url: str, why: list[str]) -> str:
        """A notice at the top of a notebook page whose executed copy is out of date (while serving)."""
        say = core_words().lang(self.languages.of_url(url))
        note = (f'<div class="admonition warning notebook-stale" role="status"><p>'
                f'{say("lab.stale", why=html.escape(say.join("clauses", why[:3])))}</p></div>')
        return re.sub(r"(<article[^>]*>)", lambda m: m.group(1) + note, html_out, count=1)

    def executed_notebook(self, source: Path) -> tuple[Optional[Path], list[str]]:
        """The copy the build executed (None before the first build) and why it is stale ([] if current)."""
        from course.core.notebooks import executed_path, read_registry, why_stale
        paths = self.project.paths
        executed = executed_path(paths, source)
        if not executed.exists():
            return None, ["never executed"]
        return executed, why_stale(paths, source, read_registry(paths))
