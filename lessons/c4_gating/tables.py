"""The gating lesson's table: which of the compared models gate their attention output, how the course knows
(a config key, the model's code, or an inference where no config key records a "no"), and which give each
head a learned sink logit instead. Each answer is a registry number whose hover names its source; a sink cell
for a model whose attention code the course did not read says "not checked", since no config records a sink
logit (the models that have one show it only in their code). It reads the registry only (the rows too), as
every page does."""
from __future__ import annotations

import html

from course.core.registry import table_rows
from course.project import words

WORDS = words(__file__)   # the table's headings and cells: output_gates.* in lessons/c4_gating/words.LANG.json


def sink_cell(ctx, row, say) -> str:
    """A registry number where the attention code was read (yes, or no), else 'not checked'."""
    if row.get("sink_how", "unchecked") in ("yes", "code"):
        return ctx.expand(f"<!-- n:gating.sink_logit.{row['slug']} -->")
    return say("output_gates.unchecked")


def output_gates(ctx) -> str:
    say = WORDS.lang(ctx.lang)
    body = []
    for m in table_rows(ctx.registry, "gating.output_gate.rows"):
        key = m["slug"]
        name = m["name"] + (say("output_gates.anchor") if m.get("anchor") else "")
        body.append(f'<tr data-model="{key}"><th scope="row">{html.escape(name)}</th><td>{m.get("year") or say("output_gates.none")}</td>'
                    f'<td data-col="gate">{ctx.expand(f"<!-- n:gating.output_gate.{key} -->")}</td>'
                    f'<td data-col="how" data-how="{m.get("how", "")}">{say("output_gates." + m.get("how", "inferred"))}</td>'
                    f'<td data-col="sink" data-how="{m.get("sink_how", "unchecked")}">{sink_cell(ctx, m, say)}</td></tr>')
    head = "".join(f'<th scope="col">{say("output_gates." + col)}</th>' for col in ("model", "year", "gate", "how", "sink"))
    return (f'<div class="output-gates" data-table="output-gates"><table><caption>{say("output_gates.caption")}</caption>'
            f'<thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>')


TABLES = {"output-gates": output_gates}
