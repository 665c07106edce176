"""The gating lesson's table: which of the compared models gate their attention output, how the course knows
(a config key, the model's code, or an inference where no config key records a "no"), and which give each
head a learned sink logit instead. Each answer is a registry number whose hover names its source; a sink cell
for a model whose attention code the course did not read says "not checked", since no config records a sink
logit (the models that have one show it only in their code). It reads the registry only (the rows too), as
every page does."""
from __future__ import annotations

import html

from course.core.registry import table_rows

LABELS = {"zh": {"caption": "谁给注意力输出加门", "model": "模型", "year": "年份", "gate": "注意力输出带门",
                 "how": "依据", "sink": "每个头一个可学的 sink logit", "anchor": "（锚点）",
                 "config": "config 中的键", "code": "模型代码", "inferred": "推断：config 中没有这个键",
                 "unchecked": "未核对（没有读它的注意力代码）", "none": "—"},
          "en": {"caption": "Who gates the attention output", "model": "Model", "year": "Year",
                 "gate": "Attention output gated", "how": "How we know", "sink": "Learned sink logit per head",
                 "anchor": " (anchor)", "config": "a config key", "code": "the model's code",
                 "inferred": "inferred: no config key", "unchecked": "not checked (attention code not read)", "none": "—"}}


def sink_cell(ctx, row, lab) -> str:
    """A registry number where the attention code was read (yes, or no), else 'not checked'."""
    if row.get("sink_how", "unchecked") in ("yes", "code"):
        return ctx.expand(f"<!-- n:gating.sink_logit.{row['slug']} -->")
    return lab["unchecked"]


def output_gates(ctx) -> str:
    lab = LABELS[ctx.lang]
    body = []
    for m in table_rows(ctx.registry, "gating.output_gate.rows"):
        key = m["slug"]
        name = m["name"] + (lab["anchor"] if m.get("anchor") else "")
        body.append(f'<tr data-model="{key}"><th scope="row">{html.escape(name)}</th><td>{m.get("year") or lab["none"]}</td>'
                    f'<td data-col="gate">{ctx.expand(f"<!-- n:gating.output_gate.{key} -->")}</td>'
                    f'<td data-col="how" data-how="{m.get("how", "")}">{lab[m.get("how", "inferred")]}</td>'
                    f'<td data-col="sink" data-how="{m.get("sink_how", "unchecked")}">{sink_cell(ctx, m, lab)}</td></tr>')
    return (f'<div class="output-gates" data-table="output-gates"><table><caption>{lab["caption"]}</caption>'
            f'<thead><tr><th scope="col">{lab["model"]}</th><th scope="col">{lab["year"]}</th>'
            f'<th scope="col">{lab["gate"]}</th><th scope="col">{lab["how"]}</th>'
            f'<th scope="col">{lab["sink"]}</th></tr></thead><tbody>{"".join(body)}</tbody></table></div>')


TABLES = {"output-gates": output_gates}
