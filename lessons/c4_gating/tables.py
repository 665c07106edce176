"""The gating lesson's table: which of the compared models gate their attention output, each answer a
registry number whose hover names where it comes from (a config key, or the model's code). It reads the
registry only (the rows too), as every page does."""
from __future__ import annotations

import html

from course.core.registry import table_rows

LABELS = {"zh": {"caption": "谁给注意力输出加门", "model": "模型", "year": "年份", "gate": "注意力输出带门",
                 "anchor": "(锚点)"},
          "en": {"caption": "Who gates the attention output", "model": "Model", "year": "Year",
                 "gate": "Attention output gated", "anchor": " (anchor)"}}


def output_gates(ctx) -> str:
    lab = LABELS[ctx.lang]
    rows = [(m["name"] + (lab["anchor"] if m.get("anchor") else ""), str(m.get("year", "")), m["slug"])
            for m in table_rows(ctx.registry, "gating.output_gate.rows")]
    body = "".join(f'<tr data-model="{key}"><th scope="row">{html.escape(name)}</th><td>{year}</td>'
                   f'<td>{ctx.expand(f"<!-- n:gating.output_gate.{key} -->")}</td></tr>' for name, year, key in rows)
    return (f'<div class="output-gates" data-table="output-gates"><table><caption>{lab["caption"]}</caption>'
            f'<thead><tr><th scope="col">{lab["model"]}</th><th scope="col">{lab["year"]}</th>'
            f'<th scope="col">{lab["gate"]}</th></tr></thead><tbody>{body}</tbody></table></div>')


TABLES = {"output-gates": output_gates}
