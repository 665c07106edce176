"""Tables the core renders on any page: every registry number with its provenance (the numbers appendix),
the page's own lesson's reading notes (its claims, each checked by the build against the results), the
course map, and the lists of what is written (the course's chapters, a chapter's lessons), from the units."""
from __future__ import annotations

import html

from course.core.claims import load_claims
from course.core.errors import ShortcodeError
from course.core.references import contents_markdown, course_map_markdown
from course.core.words import core_words

class TableWords:
    """The numbers table's words in one language (course/core/words.LANG.json, "numbers.*")."""

    def __init__(self, lang: str):
        self.say = core_words().lang(lang)

    def __getitem__(self, name: str) -> str:
        return self.say.template(f"numbers.{name}")


SPLIT = 150   # a subgroup of more rows than this is split by the key's next part


def number_groups(registry, units, lang: str, keys) -> list[tuple[str, str, list[tuple[str, list]]]]:
    """The registry's keys among `keys` by where they belong: one group per lesson (its namespace, "ffn."), in the
    lessons' order, then the rest, course-wide; inside each group, subgroups by the key's next part
    ("ffn.ledger.", "anchor."). Returns [(group id, title, [(subgroup, [(key, number)])])]: data only,
    so what the registry holds decides what is listed."""
    lessons = [u for u in units.lessons if u.namespace]
    by_ns = {u.namespace: u for u in lessons}
    groups: dict[str, dict[str, list]] = {u.namespace: {} for u in lessons}
    groups[""] = {}
    for key, n in sorted(registry.numbers.items()):
        if key not in keys:
            continue
        head, _, rest = key.partition(".")
        ns = head if head in by_ns else ""
        sub = (rest if ns else key).split(".")[0]
        groups[ns].setdefault(sub, []).append((key, n))
    out = []
    for ns, subs in groups.items():
        if not subs:
            continue
        for sub in [k for k, rows in subs.items() if len(rows) > SPLIT]:   # a large subgroup: one level deeper
            for key, n in subs.pop(sub):
                parts = key.split(".")
                subs.setdefault(".".join(parts[: (2 if not ns else 3)]) if len(parts) > (2 if not ns else 3) else sub,
                                []).append((key, n))
        title = by_ns[ns].title.get(lang, ns) if ns else TableWords(lang)["course"]
        out.append((ns or "course", title, sorted(subs.items())))
    return out


def numbers_appendix(ctx) -> str:
    """Every number the site uses (a page, a reading note, a widget, a table or a notebook) with its provenance
    and the line of code that defined it, grouped by lesson and by the key's next part, each group collapsed
    (docs/assets/js/numbers.js filters the rows and opens a group a link points into). Reading `.numbers`
    directly marks nothing as used."""
    lab, lang = TableWords(ctx.lang), ctx.lang
    e = html.escape
    head = (f'<thead><tr><th scope="col">{lab["key"]}</th><th scope="col">{lab["text"]}</th>'
            f'<th scope="col">{lab["kind"]}</th><th scope="col">{lab["source"]}</th>'
            f'<th scope="col">{lab["defined"]}</th></tr></thead>')
    parts, total = [], 0
    by_ns = {u.namespace: u for u in ctx.units.lessons if u.namespace}
    for gid, title, subs in number_groups(ctx.registry, ctx.units, lang, ctx.used_keys):
        # a lesson's group is headed by the reference's words (chapter and lesson, as every other page names
        # it); not a link, since a link inside a summary would be a control inside a control
        ref = by_ns[gid].ref if gid in by_ns else None
        heading = (f'<span class="xref" data-ref="{e(ref)}">{e(ctx.refs.label(ctx.refs.target(ref), lang, None))}</span>'
                   if ref and ctx.refs is not None else e(title))
        count = sum(len(rows) for _, rows in subs)
        total += count
        inner = []
        for sub, rows in subs:
            body = "".join(
                f'<tr id="num-{e(key)}"><td class="na-key"><code>{e(key).replace(".", ".<wbr>")}</code></td>'
                f'<td class="na-text">{e(n.text[lang])}</td><td class="na-kind">{lab[n.provenance.kind]}</td>'
                f'<td class="na-source">{e(n.source(lang))}</td>'
                f'<td class="na-defined"><code>{e(n.defined_at)}</code></td></tr>' for key, n in rows)
            inner.append(f'<details class="na-sub" data-sub="{e(sub)}"><summary>{e(sub)} '
                         f'<span class="na-count">({len(rows)})</span></summary>'
                         f'<table class="na-table">{head}<tbody>{body}</tbody></table></details>')
        parts.append(f'<details class="na-group" id="numbers-{e(gid)}"><summary>'
                     f'{lab["group"].format(title=heading, n=count)}</summary>{"".join(inner)}</details>')
    tool = (f'<div class="na-tools" hidden><label for="na-filter-{lang}">{lab["filter"]}</label>'
            f'<input type="search" id="na-filter-{lang}" class="na-filter" placeholder="{e(lab["placeholder"])}" '
            f'autocomplete="off" spellcheck="false">'
            f'<output class="na-shown" aria-live="polite" data-template="{e(lab["shown"])}" data-total="{total}">'
            f'{e(lab["shown"].format(n=total, total=total))}</output>'
            f'<button type="button" class="md-button na-toggle" data-open="{e(lab["open"])}" '
            f'data-close="{e(lab["close"])}">{e(lab["open"])}</button></div>')
    return f'<div class="numbers-appendix" data-table="numbers">{tool}{"".join(parts)}</div>'


def measured_notes(ctx) -> str:
    """The reading notes of the page's lesson: where the numbers came from, then each claim."""
    if ctx.unit is None or ctx.unit.claims is None:
        raise ShortcodeError("table:measured-notes is only for a lesson page whose lesson has claims")
    c = load_claims(ctx.unit.claims)
    items = "".join(f'<li data-claim="{html.escape(x.id)}">{ctx.expand(x[ctx.lang])}</li>' for x in c.claims)
    return (f'<div class="measured-notes" data-table="measured-notes">'
            f'<p class="measured-meta">{ctx.expand(c.provenance[ctx.lang])}</p>'
            f'<ul class="measured-claims">{items}</ul></div>')


def course_map(ctx) -> str:
    """Every chapter, lesson and topic of the course map, written or planned, with the pages deferring to each."""
    if ctx.refs is None:
        raise ShortcodeError("table:course-map needs the course map")
    return course_map_markdown(ctx.refs, ctx.lang, ctx.deferrals, ctx.link)


def chapters(ctx) -> str:
    """Every written chapter with the question it answers (the home page's contents)."""
    if ctx.refs is None:
        raise ShortcodeError("table:chapters needs the course map")
    return contents_markdown(ctx.refs, ctx.lang, ctx.link)


def lessons(ctx) -> str:
    """The written lessons and notebooks of the page's chapter, each with the question it answers."""
    if ctx.refs is None or ctx.unit is None or ctx.unit.kind != "chapter":
        raise ShortcodeError("table:lessons is only for a chapter's overview page (a page its chapter unit owns)")
    return contents_markdown(ctx.refs, ctx.lang, ctx.link, ctx.unit.ref)


TABLES = {"numbers": numbers_appendix, "measured-notes": measured_notes, "course-map": course_map,
          "chapters": chapters, "lessons": lessons}
