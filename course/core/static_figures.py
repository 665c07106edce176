"""Static renderings of the figures, made at build time: what a page shows before its interactive chart is
drawn, when JavaScript is off, and in print.

Each figure is drawn as the site draws it: the site's one plotly.js and its chart code (CW.layout and CW.draw
in docs/assets/js/common.js, which apply the reader's palette and fit the text to the width), in headless
Chromium (course/core/browser.py), once per language and palette ("light" on Material's `default` scheme,
"dark" on `slate`), at the width of a desktop page's content column and of a phone's (with the figure's
narrow layout, as figures.js draws it there). A rendering is an SVG (sharp at any
zoom and in print) unless the SVG would be larger than SVG_LIMIT (a chart of thousands of points): then a
WebP at twice the pixel density, which keeps it small.

A rendering is keyed on what determines it: the figure's spec in that language, the palette and size, and the renderer
(this module's code, plotly.js, the site's chart code and the fonts its stylesheet names). `static/index.json`
beside the renderings records each one's key, file and size; a rendering whose key is unchanged is kept, and a
file no rendering names any more is removed. Files are written atomically, the index last.
"""
from __future__ import annotations

import base64
import hashlib
import html
import json
import logging
import re
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

from cachekit import module_digest
from course.core.errors import KnownError
from course.core.files import write_atomic
from course.core.project import Paths

log = logging.getLogger(__name__)

STATIC, INLINE = "static", "static-inline"   # under figures/: the figures' renderings, the notebooks' own
URL = "assets/figures"                        # where the site serves both folders
SCHEMES = {"light": "default", "dark": "slate"}   # palette → Material's data-md-color-scheme
# px: the content column of a desktop page, and of a phone's (390 px less the page's margins), where figures.js
# draws a figure's narrow layout (under 560 px); a page shows the narrow one up to NARROW_MEDIA
SIZES = {"wide": 720, "narrow": 360}
NARROW, NARROW_MEDIA = 560, "(max-width: 600px)"
SVG_LIMIT = 150_000        # bytes: a larger SVG becomes a WebP at 2x
RASTER_SCALE = 2
INDEX = "index.json"
# the site's scripts and stylesheet the renderer loads, besides plotly.js (paths under docs/)
CHART_JS = ("assets/js/format.js", "assets/js/common.js")
STYLESHEET = "assets/course.css"       # where the site names its fonts (--md-text-font-family)
FONT = re.compile(r"--md-text-font-family:\s*([^;]+);")


class BrowserMissing(KnownError):
    """The static renderings need a headless Chromium and none is installed."""
    kind = "browser missing"


@dataclass(frozen=True)
class Job:
    stem: str        # the rendering's name without palette, size and extension: "NAME.LANG"
    spec: dict       # {data, layout, narrow?} as figures.js receives it
    palette: str     # "light" or "dark"
    size: str        # "wide" or "narrow"

    @property
    def variant(self) -> str:
        return f"{self.palette}.{self.size}"

    def key(self, renderer: str) -> str:
        return hashlib.sha256(f"{renderer}\0{self.variant}\0{canonical(self.spec)}".encode()).hexdigest()


def jobs(stem: str, spec: dict) -> list[Job]:
    """A figure's renderings: one per palette and size."""
    return [Job(stem, spec, palette, size) for palette in SCHEMES for size in SIZES]


def canonical(spec: dict) -> str:
    """What of a figure's spec its drawing depends on (not its alt text), as one text."""
    drawn = {k: spec[k] for k in ("data", "layout", "narrow") if k in spec}
    return json.dumps(drawn, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def font_family(paths: Paths) -> str:
    """The site's text fonts, as its stylesheet names them (the charts measure their text in them)."""
    sheet = paths.docs / STYLESHEET
    m = FONT.search(sheet.read_text(encoding="utf-8"))
    if not m:
        raise KnownError(f"{paths.relative(sheet)}: no --md-text-font-family, the fonts the static figures are drawn in")
    return m.group(1).strip()


def renderer_key(paths: Paths) -> str:
    """What every rendering depends on besides its figure: this code, plotly.js, the chart code, the fonts."""
    h = hashlib.sha256(f"{module_digest(Path(__file__))}\0{font_family(paths)}".encode())
    for path in (paths.plotly_js, *(paths.docs / js for js in CHART_JS)):
        h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


# Draw one figure as figures.js does (the same config, so the same margins; its narrow layout merged over the
# layout below NARROW px, as figures.js merges it), then export it. The page has the site's fonts and chart
# scripts; a fresh element per figure, removed after.
RENDER = """async ([spec, scheme, width, narrow, limit, scale]) => {
  const merge = (a, b) => { const out = Object.assign({}, a); Object.keys(b || {}).forEach(k => { const x = a && a[k], y = b[k];
    out[k] = x && y && typeof x === 'object' && typeof y === 'object' && !Array.isArray(x) && !Array.isArray(y) ? merge(x, y) : y; });
    return out; };
  const layout = spec.narrow && width < narrow ? merge(spec.layout || {}, spec.narrow) : spec.layout || {};
  document.body.setAttribute('data-md-color-scheme', scheme);
  const el = document.createElement('div');
  el.style.width = width + 'px';
  document.body.appendChild(el);
  try {
    const config = {displaylogo: false, modeBarButtons: [['toImage', 'resetScale2d']]};
    const data = spec.data.map((t, i) => Object.assign({uid: 't' + i}, t));   // not plotly's random ids
    await CW.draw(el, data, CW.layout(layout), config);
    const height = Math.round(el._fullLayout.height);
    let url = await Plotly.toImage(el, {format: 'svg', width, height});
    let format = 'svg';
    if (url.length > limit) { url = await Plotly.toImage(el, {format: 'webp', width, height, scale}); format = 'webp'; }
    return {url, format, width, height};
  } finally {
    Plotly.purge(el);
    el.remove();
  }
}"""

PLOT_ID = re.compile(rb'<defs id="defs-(\w+)"')   # the random id of the plot an SVG was exported from

PAGE = """<!doctype html><html><head><meta charset="utf-8"><style>
body {{ margin: 0; font-family: {font}; }}</style></head>
<body data-md-color-scheme="default"></body></html>"""


def decode(url: str) -> bytes:
    """The bytes of a data: URL as Plotly.toImage returns it (SVG URL-encoded, rasters in base64)."""
    head, _, body = url.partition(",")
    return base64.b64decode(body) if head.endswith(";base64") else urllib.parse.unquote(body).encode()


def render(jobs: list[Job], out: Path, paths: Paths) -> dict:
    """Render what changed of `jobs` into `out` (kept: the renderings whose key is unchanged); return the index
    {stem: {"PALETTE.SIZE": {key, file, width, height}}}. Needs Chromium only when something is to be rendered."""
    renderer = renderer_key(paths)
    index_path = out / INDEX
    try:
        old = json.loads(index_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        old = {}
    index, todo = {}, []
    for job in jobs:
        was = old.get(job.stem, {}).get(job.variant)
        if was and was["key"] == job.key(renderer) and (out / was["file"]).exists():
            index.setdefault(job.stem, {})[job.variant] = was
        else:
            todo.append(job)
    if todo:
        log.info(f"    rendering {len(todo)} static figure(s) in Chromium")
        for job, entry in zip(todo, _render(todo, paths)):
            entry["key"] = job.key(renderer)
            name = f"{job.stem}.{job.variant}.{entry.pop('format')}"
            write_atomic(out / name, entry.pop("data"))
            index.setdefault(job.stem, {})[job.variant] = {"key": entry["key"], "file": name,
                                                           "width": entry["width"], "height": entry["height"]}
    index = {stem: dict(sorted(v.items())) for stem, v in sorted(index.items())}
    if index != old or not index_path.exists():
        write_atomic(index_path, json.dumps(index, indent=1, ensure_ascii=False) + "\n")
    named = {e["file"] for v in index.values() for e in v.values()} | {INDEX}
    for stale in out.glob("*"):
        if stale.is_file() and stale.name not in named:
            stale.unlink()
    return index


def _render(jobs: list[Job], paths: Paths) -> list[dict]:
    from playwright.sync_api import sync_playwright

    from course.core.browser import launch
    with sync_playwright() as p:
        try:
            browser = launch(p)
        except FileNotFoundError as e:
            raise BrowserMissing(f"the figures' static renderings need headless Chromium: {e}") from None
        try:
            page = browser.new_page()
            page.set_content(PAGE.format(font=font_family(paths)))
            page.add_script_tag(content=paths.plotly_js.read_text(encoding="utf-8"))
            for js in CHART_JS:
                page.add_script_tag(content=(paths.docs / js).read_text(encoding="utf-8"))
            page.wait_for_function("window.CW && window.CW.draw && window.Plotly")
            page.evaluate("document.fonts.ready")
            out = []
            for job in jobs:
                got = page.evaluate(RENDER, [job.spec, SCHEMES[job.palette], SIZES[job.size], NARROW, SVG_LIMIT,
                                             RASTER_SCALE])
                data = decode(got["url"])
                uid = PLOT_ID.search(data)   # plotly.js names its clips by a random id: two builds, one file
                if got["format"] == "svg" and uid:
                    data = data.replace(uid.group(1), b"static")
                out.append({"data": data, "format": got["format"], "width": got["width"], "height": got["height"]})
            return out
        finally:
            browser.close()


def read_index(folder: Path) -> dict:
    path = folder / INDEX
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def images_html(entry: dict, alt: str, url) -> str:
    """The static rendering of one figure as the page shows it: an <img> per palette (course.css shows the
    one of the reader's scheme), its narrow rendering on a phone, each with its size (nothing moves when it
    loads), the figure's text alternative, loaded lazily (a figure is rarely in the first screen; the other
    palette's, not shown, is never fetched). `url(file)` gives an image's URL from the page."""
    def picture(palette: str) -> str:
        wide, narrow = entry[f"{palette}.wide"], entry[f"{palette}.narrow"]
        return (f'<picture><source media="{NARROW_MEDIA}" srcset="{html.escape(url(narrow["file"]), quote=True)}" '
                f'width="{narrow["width"]}" height="{narrow["height"]}">'
                f'<img class="figure-static-{palette}" src="{html.escape(url(wide["file"]), quote=True)}" '
                f'width="{wide["width"]}" height="{wide["height"]}" alt="{html.escape(alt, quote=True)}" '
                f'loading="lazy" decoding="async"></picture>')
    return '<div class="figure-static">' + "".join(picture(p) for p in SCHEMES) + "</div>"


def served(paths: Paths) -> dict[str, Path]:
    """Site path → file of every rendering the indexes name."""
    out = {}
    for folder in (STATIC, INLINE):
        for entry in read_index(paths.figures / folder).values():
            for e in entry.values():
                out[f"{URL}/{folder}/{e['file']}"] = paths.figures / folder / e["file"]
    return out


# ------------------------------------------------------------ a notebook's own figures
# course/core/lab.py's `show` writes a notebook's figure as an empty <div class="plotly-figure" data-inline=SPEC
# aria-label=ALT>, in the notebook's language (nbconvert may rewrite its attributes' order and quotes); each
# is rendered by its content (the notebooks stage) and found again by it on the notebook's page.
EMPTY_DIV = re.compile(r"""<div\b((?:[^>"']|"[^"]*"|'[^']*')*)>(?=</div>)""")
ATTR = re.compile(r"""([\w-]+)=(?:"([^"]*)"|'([^']*)')""")


def inline_figures(text: str):
    """(match, spec, alt) of every notebook figure in an HTML text."""
    for m in EMPTY_DIV.finditer(text):
        attrs = {a.group(1): html.unescape(a.group(2) if a.group(2) is not None else a.group(3))
                 for a in ATTR.finditer(m.group(1))}
        if "plotly-figure" in attrs.get("class", "").split() and "data-inline" in attrs:
            yield m, json.loads(attrs["data-inline"]), attrs.get("aria-label", "")


def inline_stem(spec: dict) -> str:
    """The rendering's name of a notebook figure: its content's."""
    return "inline-" + hashlib.sha256(canonical(spec).encode()).hexdigest()[:16]


def render_inline(paths: Paths, texts: list[str]) -> int:
    """Render every notebook figure found in these HTML outputs (the executed notebooks'); how many."""
    found = {inline_stem(spec): spec for text in texts for _, spec, _ in inline_figures(text)}
    render([job for stem, spec in found.items() for job in jobs(stem, spec)], paths.figures / INLINE, paths)
    return len(found)


def with_inline_images(page: str, paths: Paths, url) -> str:
    """A notebook's page with each of its figures' static renderings in its root (one rendered by the notebooks
    stage; a notebook executed since, while serving, shows its figures without)."""
    index, out, at = read_index(paths.figures / INLINE), [], 0
    for m, spec, alt in inline_figures(page):
        entry = index.get(inline_stem(spec))
        if entry:
            out += [page[at:m.end()], images_html(entry, alt, lambda file: url(f"{URL}/{INLINE}/{file}"))]
            at = m.end()
    return "".join(out) + page[at:]
