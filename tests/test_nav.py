"""The navigation follows from the units: mkdocs.yml lists only the pages no unit writes (home, course map,
appendix), and the course plugin places every written chapter with its overview, lessons and notebooks after
the course map, titled in each page's language from the units (course/core/references.py: nav_entries)."""
from __future__ import annotations

import html
import re

import yaml

from course.core.references import build_references, load_course_map, nav_entries
from conftest import LANGS
from course.paths import COURSE_MAP, DOCS, ROOT
from course.project import units as discover

CJK = re.compile(r"[\u3400-\u9fff]")
NAV_LINK = re.compile(r'<a href="([^"#]*)" class="md-nav__link[^"]*">\s*<span class="md-ellipsis">\s*(.*?)\s*</span>',
                      re.S)


def mkdocs_yml() -> dict:
    return yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)


def leaves(nav) -> list[str]:
    out = []
    for item in nav:
        value = next(iter(item.values())) if isinstance(item, dict) else item
        out += [value] if isinstance(value, str) else leaves(value)
    return out


def expected(lang: str):
    units = discover()
    refs = build_references(load_course_map(COURSE_MAP), units.written(), DOCS, LANGS)
    overview = {u.ref: u.overview for u in units.chapters if u.overview}
    return units, nav_entries(refs, lang, overview)


def test_mkdocs_yml_lists_no_page_a_unit_writes_and_names_where_the_chapters_go():
    cfg = mkdocs_yml()
    units, _ = expected("zh")
    written = {w.page for w in units.written().values()}
    listed = {re.sub(r"\.(md|ipynb)$", "", page) for page in leaves(cfg["nav"])}
    assert not listed & written, (f"mkdocs.yml's nav lists {sorted(listed & written)}, which units write: their "
                                  "entries come from the units (remove them from mkdocs.yml)")
    course = next(p["course"] for p in cfg["plugins"] if isinstance(p, dict) and "course" in p)
    assert course["chapters_after"] in leaves(cfg["nav"]), "the course plugin's chapters_after page is not in the nav"


def test_every_written_page_has_a_navigation_entry_in_each_language():
    units, _ = expected("zh")
    for lang in LANGS:
        _, chapters = expected(lang)
        pages = {page: title for _, items in chapters for title, page in items}
        for u in units.all:
            for stem in u.pages + u.notebooks:
                suffix = ".ipynb" if stem in u.notebooks else ".md"
                assert stem + suffix in pages, f"{stem}{suffix} ({u.module}) has no navigation entry in {lang}"
                if lang == "en":
                    assert not CJK.search(pages[stem + suffix]), f"{stem}: English navigation title {pages[stem + suffix]!r}"
        if lang == "en":
            assert not [title for title, _ in chapters if CJK.search(title)], "a chapter's English title is Chinese"


def test_the_built_navigation_lists_every_written_page_with_its_title_in_each_language(site_dir):
    for lang in LANGS:
        root = site_dir / ("" if lang == LANGS[0] else lang)
        page = (root / "index.html").read_text(encoding="utf-8")
        links = {href: html.unescape(re.sub(r"\s+", " ", text)) for href, text in NAV_LINK.findall(page)}
        _, chapters = expected(lang)
        assert chapters, "no written chapter in the navigation"
        for chapter, items in chapters:
            assert html.escape(chapter) in page, f"{lang}: chapter {chapter!r} is not in the navigation"
            for title, src in items:
                href = re.sub(r"(index)?\.(md|ipynb)$", "", src).rstrip("/") + "/"
                assert href in links, f"{lang}: {href} is not in the navigation"
                if src.endswith(".md"):  # mkdocs-jupyter titles a notebook's page by the notebook's first heading
                    assert links[href] == title, f"{lang}: {href} is titled {links[href]!r} in the navigation, not {title!r}"
