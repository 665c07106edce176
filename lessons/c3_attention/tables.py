"""The attention lesson's table: what one layer's attention and FFN cost per token in every model it counts, and
the context at which they are equal, each cell a registry number with its provenance. It reads the registry only
(the rows too), as every page does; the models it leaves out are named under it with the reason."""
from __future__ import annotations

from course.core.registry import table_rows
from course.project import words
from lessons.c3_attention.numbers import SKIPPED

WORDS = words(__file__)   # the table's words: cost_table.* in lessons/c3_attention/words.LANG.json


def cost_table(ctx) -> str:
    say = WORDS.lang(ctx.lang)
    n = lambda key: ctx.expand(f"<!-- n:attention.{key} -->")   # noqa: E731 (a cell is one registry number)
    rows = []
    for m in table_rows(ctx.registry, "attention.cost.rows"):
        k = f"cost.{m['slug']}"
        kind = say("cost_table.mla" if m["mla"] else "cost_table.gqa")
        layer = say("cost_table.layer." + ("hybrid_moe" if m["hybrid"] and m["moe"] else "hybrid" if m["hybrid"]
                                           else "moe" if m["moe"] else "dense"))
        at_max = n(f"{k}.at_max_over_ffn") if m["max"] else say("cost_table.none")
        name = f"<strong>{m['name']}{say('cost_table.anchor')}</strong>" if m.get("anchor") else m["name"]
        rows.append(f'<tr data-model="{m["slug"]}"><th scope="row">{name}</th><td>{kind}</td><td>{layer}</td>'
                    f'<td>{n(k + ".ffn_flops")}</td><td>{n(k + ".projection_flops")}</td><td>{n(k + ".per_key")}</td>'
                    f'<td>{n(k + ".crossover")}</td><td>{at_max}</td></tr>')
    head = "".join(f'<th scope="col">{say("cost_table." + c)}</th>'
                   for c in ("model", "attention", "layer", "ffn", "projections", "per_key", "crossover", "at_max"))
    skipped = WORDS.lang(ctx.lang).join("clauses", [say(f"cost_table.skip.{why}", name=name) for name, why in SKIPPED.items()])
    return (f'<div class="cw-scroll" data-table="attention-cost"><table>'
            f'<caption>{say("cost_table.caption")}</caption><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>'
            f'<p class="table-note">{say("cost_table.note", skipped=skipped)}</p></div>')


TABLES = {"attention-cost": cost_table}
