"""The HTML the project writes is valid: every page of the built site and every standalone figure parses
as HTML5 without a single parse error (html5lib runs the HTML5 parsing algorithm and records each error,
a stray end tag included), no id is used twice in a page, and every url() of a stylesheet the site ships
points at a file it ships."""
import re
from collections import Counter
from html.parser import HTMLParser

import html5lib



def parse_errors(text: str) -> list[str]:
    parser = html5lib.HTMLParser()
    parser.parse(text)
    lines = text.splitlines()
    return [f"line {line} col {col}: {code} {data or ''} near {lines[line - 1][max(0, col - 70):col + 10]!r}"
            for (line, col), code, data in parser.errors]


class Ids(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids = Counter()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name == "id":
                self.ids[value] += 1


def test_the_parser_catches_the_stray_end_tags_a_diagram_in_a_paragraph_leaves():
    wrapped = '<!doctype html><html lang="en"><head><title>t</title></head><body>' \
              '<p><figure><svg viewBox="0 0 1 1"><path d="M0 0"/></svg></p>\n<p><figcaption>c</figcaption>\n</figure></p>' \
              '</body></html>'
    assert [e for e in parse_errors(wrapped) if "unexpected-end-tag" in e]


def test_the_site_unwraps_block_markup_from_paragraphs_and_nothing_else():
    from course.core.site import Site
    html = ('<p><figure class="d">\n<svg viewBox="0 0 1 1"><path d="M0 0"/></svg></p>\n'
            '<p><figcaption>caption</figcaption>\n</figure></p>\n'
            '<p><div class="cw" data-widget="w" data-config="{}"></div></p>\n'
            '<p><svg class="icon"></svg> text after an inline icon</p>')
    out = Site.unwrap_blocks(html)
    assert out == ('<figure class="d">\n<svg viewBox="0 0 1 1"><path d="M0 0"/></svg>\n'
                   '<figcaption>caption</figcaption>\n</figure>\n'
                   '<div class="cw" data-widget="w" data-config="{}"></div>\n'
                   '<p><svg class="icon"></svg> text after an inline icon</p>')


def test_every_page_and_figure_parses_as_html5_without_errors(site_dir, built_paths, units):
    FIGURES = built_paths.figures
    pages = sorted(site_dir.rglob("*.html")) + sorted(FIGURES.glob("*.html"))
    unit_pages = [site_dir / stem.removesuffix("index") / "index.html" for u in units.all for stem in u.pages]
    assert set(unit_pages) <= set(pages), f"unit pages not built: {sorted(set(unit_pages) - set(pages))}"
    figures = [FIGURES / f"{f.name}.{lang}.html" for _, f in units.figures() for lang in ("zh", "en")]
    assert set(figures) <= set(pages), f"standalone figures not built: {sorted(set(figures) - set(pages))}"
    problems = []
    for page in pages:
        problems += [f"{page.name if page.parent == FIGURES else page.relative_to(site_dir)}: {e}"
                     for e in parse_errors(page.read_text(encoding="utf-8"))]
    assert problems == [], "\n".join(problems)


def test_no_id_is_used_twice_in_a_page(site_dir):
    dupes = []
    for page in sorted(site_dir.rglob("*.html")):
        p = Ids()
        p.feed(page.read_text(encoding="utf-8"))
        dupes += [f"{page.relative_to(site_dir)}: #{i} ×{n}" for i, n in p.ids.items() if n > 1]
    assert dupes == [], "\n".join(dupes)


def test_every_url_in_a_stylesheet_is_shipped(site_dir):
    """KaTeX's stylesheet named .woff and .ttf fonts the site does not ship; only the .woff2 ones remain."""
    missing, found = [], 0
    for css in sorted(site_dir.rglob("*.css")):
        for url in re.findall(r"""url\(\s*["']?([^"')]+)["']?\s*\)""", css.read_text(encoding="utf-8")):
            if url.startswith(("data:", "#")):
                continue
            found += 1
            if url.startswith(("http:", "https:", "//")) or not (css.parent / url.split("?")[0].split("#")[0]).is_file():
                missing.append(f"{css.relative_to(site_dir)}: {url}")
    assert found > 0 and missing == [], "\n".join(missing)
