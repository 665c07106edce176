"""The course's tables: the references; and chapter C4's evolution table (each row links to its lesson),
which chapters/c4/ registers."""
from __future__ import annotations

import html
import json
import re

from course.common.schema import Citations, EvolutionTable
from course.core.schema import load
from course.paths import DATA
from course.project import words

WORDS = words(__file__)   # course/common/words.LANG.json
TAG = re.compile(r"<[^>]+>")


def anchor_name() -> str:
    return json.loads((DATA / "anchor-model.json").read_text(encoding="utf-8"))["name"]


def evolution(ctx) -> str:
    """A table where there is room for all its columns (docs/assets/course.css fits them to the column's
    width); a card per part where there is not, each cell under its generation's name (the container is
    narrower than 32rem, 640 px: a phone). The anchor model's column, the one the course follows, is marked in
    both layouts. Explicit table roles keep the table a table to assistive technology in the card layout."""
    t = load(DATA / "evolution.json", EvolutionTable)
    lang, say = ctx.lang, WORDS.lang(ctx.lang)
    lessons = {u.id: u for u in ctx.units.lessons}
    anchor = anchor_name()
    is_anchor = [anchor in c[lang] for c in t.columns]

    def col(i: int) -> str:
        return ' class="evo-anchor"' if is_anchor[i] else ""
    head = "".join(f'<th scope="col" role="columnheader"{col(i)}>{c[lang]}</th>' for i, c in enumerate(t.columns))
    whens = [" ".join(TAG.sub(" ", c[lang]).split()) for c in t.columns]
    # on a lesson's page, a later lesson's row is only a link to that lesson: the table must not answer the
    # question the page leaves for the next lesson (the gating row would say what the other half of q_proj is
    # for on lesson 3's page); the chapter page shows every row
    unit = ctx.unit if ctx.unit is not None and ctx.unit.is_lesson else None
    later = {u.id for u in ctx.units.lessons if unit and u.order[:1] == unit.order[:1] and u.order > unit.order}
    rows = []
    for r in t.rows:
        cells = []
        if r.lesson in later:
            link = ctx.expand(f"<!-- ref:{lessons[r.lesson].ref} -->")
            cells.append(f'<td role="cell" class="evo-later" colspan="{len(r.cells)}">'
                         f'{say("evolution.later", lesson=link)}</td>')
        for i, c in enumerate(r.cells if r.lesson not in later else ()):
            stuck = c.stuck.get(lang)
            body = ctx.expand(c.did[lang])
            if stuck:
                body += f'<div class="evo-stuck">{say("evolution.stuck", limit=ctx.expand(stuck))}</div>'
            # the generation's name over the cell, shown in the card layout only (screen readers have the header)
            when = f'<div class="evo-when" aria-hidden="true">{html.escape(whens[i])}</div>'
            cells.append(f'<td role="cell"{col(i)}>{when}{body}</td>')
        current = ctx.unit is not None and ctx.unit.id == r.lesson
        part = r.part[lang]
        lesson = lessons.get(r.lesson)
        if lesson and lesson.pages and not current:
            part = f'<a href="{ctx.link(lesson.pages[0])}">{part}</a>'
        if current:
            part += say("evolution.here")
        cls = ' class="evo-current"' if current else ""
        rows.append(f'<tr role="row"{cls} data-lesson="{html.escape(r.lesson)}">'
                    f'<th scope="row" role="rowheader">{part}</th>{"".join(cells)}</tr>')
    return (f'<div class="evolution-table" data-table="evolution"><table class="evo-grid" role="table">'
            f'<caption>{t.title[lang]}</caption>'
            f'<thead role="rowgroup"><tr role="row"><th scope="col" role="columnheader">{say("evolution.part")}</th>{head}</tr></thead>'
            f'<tbody role="rowgroup">{"".join(rows)}</tbody></table>'
            f'<p class="evo-note">{ctx.expand(t.note[lang])}</p></div>')


def references(ctx) -> str:
    c = load(DATA / "citations.json", Citations)
    items = []
    for key, p in sorted(c.papers.items(), key=lambda kv: (kv[1].authors, kv[1].year)):
        kind = f' [{WORDS.lang(ctx.lang)("reference." + p.kind.replace(" ", "_"))}]' if p.kind != "paper" else ""
        quote = f'<blockquote class="ref-quote" lang="en">{html.escape(p.quote)}</blockquote>' if p.quote else ""
        items.append(f'<li id="ref-{key}" data-kind="{html.escape(p.kind)}">{html.escape(p.authors)} ({p.year}). '
                     f'<em>{html.escape(p.title)}</em>. {html.escape(p.venue)}{kind}. '
                     f'<a href="{html.escape(p.url)}">{html.escape(p.url)}</a>{quote}</li>')
    return f'<ol class="references" data-table="references">{"".join(items)}</ol>'


