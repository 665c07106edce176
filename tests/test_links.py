"""Every internal link and anchor of the built site resolves, in both languages (external links are not fetched)."""
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlparse


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "a" and "name" in a:
            self.ids.add(a["name"])
        for attr in ("href", "src"):
            if a.get(attr) and not (tag == "link" and a.get("rel") in ("canonical",)):
                self.links.append(a[attr])


def parse(path: Path) -> Links:
    p = Links()
    p.feed(path.read_text(encoding="utf-8"))
    return p


def target_file(page: Path, href: str, site: Path) -> Path | None:
    url, _ = urldefrag(href)
    if not url:
        return page
    path = (page.parent / unquote(urlparse(url).path)).resolve()
    if path.is_dir() or url.endswith("/"):
        path = path / "index.html"
    return path


def test_no_broken_internal_links_or_anchors(site_dir):
    site = site_dir.resolve()
    # 404.html is served at any depth, so mkdocs writes its links from site_url (root-absolute by default)
    pages = sorted(p for p in site.rglob("*.html") if p.name != "404.html")
    parsed = {p: parse(p) for p in pages}
    broken = []
    for page, info in parsed.items():
        for href in info.links:
            if re.match(r"^(https?:|mailto:|data:|javascript:|#__)", href) or href.startswith("//"):
                continue
            target = target_file(page, href, site)
            rel = page.relative_to(site)
            if not target.exists():
                broken.append(f"{rel}: {href} → missing {target}")
                continue
            frag = urldefrag(href)[1]
            if frag and target.suffix == ".html":
                ids = parsed[target].ids if target in parsed else parse(target).ids
                if unquote(frag) not in ids:
                    broken.append(f"{rel}: {href} → no anchor #{frag}")
    assert broken == [], "\n".join(broken)
    assert any("en" in p.relative_to(site).parts for p in pages)


class Alternates(HTMLParser):
    """A page's <link rel="alternate" hreflang> tags (`found`) and its language switch's links (`switch`):
    language → href."""
    def __init__(self):
        super().__init__()
        self.found, self.switch = {}, {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "link" and a.get("rel") == "alternate" and a.get("hreflang"):
            self.found[a["hreflang"]] = a["href"]
        if tag == "a" and "md-select__link" in (a.get("class") or "").split() and a.get("hreflang"):
            self.switch[a["hreflang"]] = a["href"]


def test_alternate_links_and_the_sitemaps_hreflang_name_the_pages_translation(site_dir, units):
    """Each page's alternate links and language switch (a lab's too), and each sitemap entry's, point at this
    page in each language (not at a language's home); the sitemap lies beside every page too, where Material
    fetches it beside each alternate link."""
    from xml.etree import ElementTree
    from course.core.languages import Languages
    langs = Languages(units.languages)
    others = tuple(langs.url_prefix(lang) for lang in langs.others)
    stems = [p.parent.relative_to(site_dir).as_posix().removeprefix(".") for p in site_dir.rglob("index.html")]
    stems = [s for s in stems if not (s + "/").startswith(others)]
    assert len(stems) > len(units.all), stems
    notebooks = {n for u in units.all for n in u.notebooks}   # mkdocs-static-i18n links none of them
    assert notebooks and notebooks <= set(stems), (notebooks, stems)       # (course/mkdocs_plugin.py does)
    sitemap = (site_dir / "sitemap.xml").read_bytes()
    for stem in stems:
        want = {lang: (site_dir / langs.url_prefix(lang) / stem / "index.html").resolve() for lang in units.languages}
        for lang, page in want.items():
            p = Alternates()
            p.feed(page.read_text(encoding="utf-8"))
            got = {hl: target_file(page, href, site_dir) for hl, href in p.found.items()}
            assert got == want, f"{page.relative_to(site_dir)}: {p.found}"
            switch = {hl: target_file(page, href, site_dir) for hl, href in p.switch.items()}
            assert switch == want, f"{page.relative_to(site_dir)}: the language switch goes to {p.switch}"
            assert (page.parent / "sitemap.xml").read_bytes() == sitemap, f"no sitemap beside {page.relative_to(site_dir)}"
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    entries = ElementTree.fromstring(sitemap).findall("s:url", ns)
    assert len(entries) >= len(units.all) * len(units.languages), [e.find("s:loc", ns).text for e in entries]
    for entry in entries:
        loc = urlparse(entry.find("s:loc", ns).text).path
        alternates = {x.get("hreflang"): urlparse(x.get("href")).path or "./" for x in entry.findall("x:link", ns)}
        stem = next(s for s in stems for lang in units.languages
                    if target_file(site_dir / "index.html", loc, site_dir) == (site_dir / langs.url_prefix(lang) / s / "index.html").resolve())
        assert {hl: target_file(site_dir / "index.html", href, site_dir) for hl, href in alternates.items()} == \
            {lang: (site_dir / langs.url_prefix(lang) / stem / "index.html").resolve() for lang in units.languages}, loc
