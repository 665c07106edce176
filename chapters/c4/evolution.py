"""The chapter's evolution table as each page shows it. The chapter page shows every row in full; a lesson's
page shows its own row and the earlier lessons' rows in full, and a later lesson's row only as a link to that
lesson, so that a page does not answer in its table the question it leaves for the next lesson (the gating
row would give away what the other half of q_proj is for on lesson 3's page). The table itself is the
course's (course/common/tables.py); this keeps its markup and replaces only the cells of the later rows."""
from __future__ import annotations

import re

from course.common.tables import evolution as full_table

LATER = {"zh": "这一行留到{lesson}再讲。", "en": "{lesson} fills in this row."}
ROW = re.compile(r'(<tr role="row"[^>]*data-lesson="(?P<lesson>[^"]+)">)(?P<head><th scope="row"[^>]*>.*?</th>)'
                 r'(?P<cells>.*?)</tr>', re.S)
CELL = re.compile(r'<td role="cell"[^>]*>')
ROW_LESSON = re.compile(r'<tr role="row"[^>]*data-lesson="([^"]+)"')


def evolution(ctx) -> str:
    table = full_table(ctx)
    unit = ctx.unit
    if unit is None or not unit.is_lesson:
        return table
    later = {u.id: u for u in ctx.units.lessons if u.order[:1] == unit.order[:1] and u.order > unit.order}
    hidden = set()

    def row(m: re.Match) -> str:
        lesson = later.get(m["lesson"])
        if lesson is None:
            return m[0]
        hidden.add(lesson.id)
        link = ctx.expand(f"<!-- ref:{lesson.ref} -->")
        cell = (f'<td role="cell" class="evo-later" colspan="{len(CELL.findall(m["cells"]))}">'
                f'{LATER[ctx.lang].format(lesson=link)}</td>')
        return f'{m[1]}{m["head"]}{cell}</tr>'
    shown = ROW.sub(row, table)
    rows = set(ROW_LESSON.findall(table))
    missing = (rows & set(later)) - hidden
    if missing:   # the table's markup changed under this pattern: fail rather than give the answers away
        raise ValueError(f"evolution table: the rows of {', '.join(sorted(missing))} were not recognized")
    return shown

