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
