"""The course's tables: the references; and chapter C4's evolution table (each row links to its lesson),
which chapters/c4/ registers."""
from __future__ import annotations

import html

from course.common.schema import Citations, EvolutionTable
from course.paths import DATA
from course.core.schema import load

LABELS = {"zh": {"part": "部件", "stuck": "短板:", "here": "(本课)"},
          "en": {"part": "Part", "stuck": "Limit:", "here": " (this lesson)"}}


def evolution(ctx) -> str:
    t = load(DATA / "evolution.json", EvolutionTable)
    lang, lab = ctx.lang, LABELS[ctx.lang]
    lessons = {u.id: u for u in ctx.units.lessons}
    head = "".join(f"<th scope=\"col\">{c[lang]}</th>" for c in t.columns)
    rows = []
    for r in t.rows:
        cells = []
        for c in r.cells:
            stuck = c.stuck[lang]
            body = ctx.expand(c.did[lang])
            if stuck:
                body += f'<div class="evo-stuck"><strong>{lab["stuck"]}</strong> {ctx.expand(stuck)}</div>'
            cells.append(f"<td>{body}</td>")
        current = ctx.unit is not None and ctx.unit.id == r.lesson
        part = r.part[lang]
        lesson = lessons.get(r.lesson)
        if lesson and lesson.pages and not current:
            part = f'<a href="{ctx.link(lesson.pages[0])}">{part}</a>'
        if current:
            part += lab["here"]
        cls = ' class="evo-current"' if current else ""
        rows.append(f'<tr{cls} data-lesson="{html.escape(r.lesson)}"><th scope="row">{part}</th>{"".join(cells)}</tr>')
    return (f'<div class="evolution-table" data-table="evolution"><table>'
            f'<caption>{t.title[lang]}</caption>'
            f'<thead><tr><th scope="col">{lab["part"]}</th>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>'
            f'<p class="evo-note">{ctx.expand(t.note[lang])}</p></div>')


KINDS = {"zh": {"blog": "博客文章", "model card": "模型卡"}, "en": {"blog": "blog post", "model card": "model card"}}


def references(ctx) -> str:
    c = load(DATA / "citations.json", Citations)
    items = []
    for key, p in sorted(c.papers.items(), key=lambda kv: (kv[1].authors, kv[1].year)):
        kind = f' [{KINDS[ctx.lang][p.kind]}]' if p.kind != "paper" else ""
        quote = f'<blockquote class="ref-quote" lang="en">{html.escape(p.quote)}</blockquote>' if p.quote else ""
        items.append(f'<li id="ref-{key}" data-kind="{html.escape(p.kind)}">{html.escape(p.authors)} ({p.year}). '
                     f'<em>{html.escape(p.title)}</em>. {html.escape(p.venue)}{kind}. '
                     f'<a href="{html.escape(p.url)}">{html.escape(p.url)}</a>{quote}</li>')
    return f'<ol class="references" data-table="references">{"".join(items)}</ol>'


