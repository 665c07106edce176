"""Tables generated from data into pages: the chapter's evolution table and the numbers appendix."""
from __future__ import annotations

import html
from pathlib import Path
from typing import Callable

from course.schema import EvolutionTable, load

ROOT = Path(__file__).resolve().parent.parent

LABELS = {
    "zh": {"part": "零件 \\ 年代", "stuck": "卡在", "key": "键", "text": "显示", "kind": "类别",
           "source": "来源", "computed": "计算", "measured": "实测", "cited": "引用"},
    "en": {"part": "Part \\ era", "stuck": "Stuck on", "key": "Key", "text": "Shown as", "kind": "Kind",
           "source": "Provenance", "computed": "computed", "measured": "measured", "cited": "cited"},
}


def evolution(lang: str, expand: Callable[[str], str]) -> str:
    t = load(ROOT / "data" / "evolution.json", EvolutionTable)
    lab = LABELS[lang]
    head = "".join(f"<th scope=\"col\">{getattr(c, lang)}</th>" for c in t.columns)
    rows = []
    for r in t.rows:
        cells = []
        for c in r.cells:
            stuck = getattr(c.stuck, lang)
            body = expand(getattr(c.did, lang))
            if stuck:
                body += f'<div class="evo-stuck"><strong>{lab["stuck"]}</strong> {expand(stuck)}</div>'
            cells.append(f"<td>{body}</td>")
        cls = ' class="evo-current"' if r.current else ""
        rows.append(f'<tr{cls}><th scope="row">{getattr(r.part, lang)}</th>{"".join(cells)}</tr>')
    return (f'<div class="evolution-table" data-table="evolution"><table>'
            f'<caption>{getattr(t.title, lang)}</caption>'
            f'<thead><tr><th scope="col">{lab["part"]}</th>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>'
            f'<p class="evo-note">{expand(getattr(t.note, lang))}</p></div>')


def numbers_appendix(lang: str, expand: Callable[[str], str]) -> str:
    from course.shortcodes import registry
    lab = LABELS[lang]
    rows = []
    for key, n in sorted(registry().numbers.items()):
        rows.append(f'<tr id="num-{html.escape(key)}"><td><code>{html.escape(key)}</code></td>'
                    f'<td>{html.escape(n.text[lang])}</td><td>{lab[n.provenance.kind]}</td>'
                    f'<td>{html.escape(n.hover(lang))}</td></tr>')
    return (f'<table class="numbers-appendix" data-table="numbers"><thead><tr><th>{lab["key"]}</th>'
            f'<th>{lab["text"]}</th><th>{lab["kind"]}</th><th>{lab["source"]}</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>')


def references(lang: str, expand: Callable[[str], str]) -> str:
    from course.schema import Citations
    c = load(ROOT / "data" / "citations.json", Citations)
    items = [f'<li id="ref-{key}">{html.escape(p.authors)} ({p.year}). <em>{html.escape(p.title)}</em>. '
             f'{html.escape(p.venue)}. <a href="{html.escape(p.url)}">{html.escape(p.url)}</a></li>'
             for key, p in sorted(c.papers.items(), key=lambda kv: (kv[1].authors, kv[1].year))]
    return f'<ol class="references" data-table="references">{"".join(items)}</ol>'


def measured_notes(lang: str, expand: Callable[[str], str]) -> str:
    """The reading notes of the measured section: where the numbers came from, then each claim the build
    has checked against the results (course/claims.py), then every device the micro-benchmark ran on."""
    from course.claims import load_claims
    from course.measured import load_benches
    c = load_claims()
    items = "".join(f'<li data-claim="{html.escape(x.id)}">{expand(getattr(x, lang))}</li>' for x in c.claims)
    benches = [f"<li>{expand(f'<!-- n:bench.{d}.device_name -->')}, {expand(f'<!-- n:bench.{d}.date -->')}, "
               + ("提交 " if lang == "zh" else "commit ") + expand(f"<!-- n:bench.{d}.commit -->") + "</li>"
               for d in load_benches()]
    bench_head = "微基准测得于:" if lang == "zh" else "The micro-benchmark was measured on:"
    return (f'<div class="measured-notes" data-table="measured-notes">'
            f'<p class="measured-meta">{expand(getattr(c.provenance, lang))}</p>'
            f'<ul class="measured-claims">{items}</ul>'
            f'<p class="measured-bench">{bench_head}</p><ul>{"".join(benches)}</ul></div>')


TABLES = {"evolution": evolution, "numbers": numbers_appendix, "references": references,
          "measured-notes": measured_notes}


def render(name: str, lang: str, expand: Callable[[str], str]) -> str:
    if name not in TABLES:
        from course.shortcodes import ShortcodeError
        raise ShortcodeError(f"unknown table {name!r} (known: {', '.join(TABLES)})")
    return TABLES[name](lang, expand)
