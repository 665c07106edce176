"""The FFN lesson's table: d_ff / d of every frontier model with a dense FFN (and the anchor), each cell a
registry number with its provenance, and the expert width of the MoE models among them. It reads the registry
only (the rows too), as every page does. A row whose config we know only from a secondary source is marked,
and so is the one model whose routed experts read a latent vector narrower than d (a note under the table
gives their width against that input)."""
from __future__ import annotations

from course.core.registry import table_rows
from course.project import words

WORDS = words(__file__)   # the table's words: widths.* in lessons/c4_ffn/words.LANG.json


def frontier_widths(ctx) -> str:
    say = WORDS.lang(ctx.lang)
    n = lambda key: ctx.expand(f"<!-- n:ffn.{key} -->")   # noqa: E731 (a cell is one registry number)
    *models, anchor = table_rows(ctx.registry, "ffn.models.rows")
    rows = []
    for m in models:
        k = f"models.{m['slug']}"
        layers = (say("widths.some", k=n(f"{k}.dense_layers"), n=n(f"{k}.num_layers")) if m["moe"]
                  else say("widths.encdec" if m.get("encdec") else "widths.all", n=n(f"{k}.num_layers")))
        expert = (n(f"{k}.expert_ratio") + (say("widths.latent") if m.get("latent") else "")) if m["expert"] \
            else say("widths.none")
        name = m["name"] + (say("widths.secondary") if m.get("secondary") else "")
        rows.append(f'<tr data-model="{m["slug"]}"><th scope="row">{name}</th><td>{m["year"]}</td>'
                    f'<td>{n(k + ".hidden_size")}</td><td>{n(k + ".ffn_width")}</td><td>{n(k + ".ratio")}</td>'
                    f'<td>{say("widths." + m["form"])}</td><td>{layers}</td><td>{expert}</td></tr>')
    rows.append(f'<tr data-model="anchor"><th scope="row"><strong>{anchor["name"]}{say("widths.anchor")}</strong></th>'
                f'<td>{anchor["year"]}</td><td>{ctx.expand("<!-- n:anchor.hidden_size -->")}</td>'
                f'<td>{ctx.expand("<!-- n:anchor.ffn_width -->")}</td><td>{n("models.anchor.ratio")}</td>'
                f'<td>{say("widths.swiglu")}</td><td>{say("widths.all", n=ctx.expand("<!-- n:anchor.num_layers -->"))}</td>'
                f'<td>{say("widths.none")}</td></tr>')
    head = "".join(f'<th scope="col">{say("widths." + c)}</th>'
                   for c in ("model", "year", "d", "width", "ratio", "form", "layers", "expert"))
    return (f'<div class="cw-scroll" data-table="ffn-widths"><table>'
            f'<caption>{say("widths.caption")}</caption><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>'
            f'<p class="table-note">{ctx.expand(say("widths.note"))}</p></div>')


TABLES = {"ffn-widths": frontier_widths}
