"""Tables the core renders on any page: every registry number with its provenance (the numbers appendix),
and the page's own lesson's reading notes (its claims, each checked by the build against the results)."""
from __future__ import annotations

import html

from course.core.claims import load_claims
from course.core.errors import ShortcodeError

LABELS = {
    "zh": {"key": "键", "text": "显示", "kind": "类别", "source": "来源", "defined": "定义于",
           "computed": "计算", "measured": "实测", "cited": "引用"},
    "en": {"key": "Key", "text": "Shown as", "kind": "Kind", "source": "Provenance", "defined": "Defined at",
           "computed": "computed", "measured": "measured", "cited": "cited"},
}


def numbers_appendix(ctx) -> str:
    """Every number the site uses (a page, a reading note, a widget, a table or a notebook), with the line
    of code that defined it. Reading `.numbers` directly marks nothing as used."""
    lab = LABELS[ctx.lang]
    rows = []
    for key, n in sorted(ctx.registry.numbers.items()):
        if key not in ctx.used_keys:
            continue
        rows.append(f'<tr id="num-{html.escape(key)}"><td><code>{html.escape(key)}</code></td>'
                    f'<td>{html.escape(n.text[ctx.lang])}</td><td>{lab[n.provenance.kind]}</td>'
                    f'<td>{html.escape(n.hover(ctx.lang))}</td><td><code>{html.escape(n.defined_at)}</code></td></tr>')
    return (f'<table class="numbers-appendix" data-table="numbers"><thead><tr><th>{lab["key"]}</th>'
            f'<th>{lab["text"]}</th><th>{lab["kind"]}</th><th>{lab["source"]}</th><th>{lab["defined"]}</th></tr>'
            f'</thead><tbody>{"".join(rows)}</tbody></table>')


def measured_notes(ctx) -> str:
    """The reading notes of the page's lesson: where the numbers came from, then each claim."""
    if ctx.unit is None or ctx.unit.claims is None:
        raise ShortcodeError("table:measured-notes is only for a lesson page whose lesson has claims")
    c = load_claims(ctx.unit.claims)
    items = "".join(f'<li data-claim="{html.escape(x.id)}">{ctx.expand(getattr(x, ctx.lang))}</li>' for x in c.claims)
    return (f'<div class="measured-notes" data-table="measured-notes">'
            f'<p class="measured-meta">{ctx.expand(getattr(c.provenance, ctx.lang))}</p>'
            f'<ul class="measured-claims">{items}</ul></div>')


def course_map(ctx) -> str:
    """Every chapter, lesson and topic of the course map, written or planned, with the pages deferring to each."""
    from course.core.references import course_map_markdown
    if ctx.refs is None:
        raise ShortcodeError("table:course-map needs the course map")
    return course_map_markdown(ctx.refs, ctx.lang, ctx.deferrals, ctx.link)


TABLES = {"numbers": numbers_appendix, "measured-notes": measured_notes, "course-map": course_map}
