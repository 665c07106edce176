"""The gating lesson's table: which of the compared models gate their attention output, each answer a
registry number whose hover names where it comes from (a config key, or the model's code)."""
from __future__ import annotations

import html

from course.chapter.schema import AnchorModel, FrontierModels
from course.core.paths import DATA
from course.core.schema import load
from lessons.c4_gating.numbers import slug

LABELS = {"zh": {"caption": "谁给注意力输出加门", "model": "模型", "year": "年份", "gate": "注意力输出带门",
                 "anchor": "(锚点)"},
          "en": {"caption": "Who gates the attention output", "model": "Model", "year": "Year",
                 "gate": "Attention output gated", "anchor": " (anchor)"}}


def output_gates(ctx) -> str:
    lab = LABELS[ctx.lang]
    anchor = load(DATA / "anchor-model.json", AnchorModel)
    models = [m for m in load(DATA / "frontier-models.json", FrontierModels).models if m.attn_output_gate is not None]
    rows = [(anchor.name + lab["anchor"], "", slug(anchor.name))]
    rows += [(m.name, str(m.year), slug(m.name)) for m in sorted(models, key=lambda m: (m.year, m.name))]
    body = "".join(f'<tr data-model="{key}"><th scope="row">{html.escape(name)}</th><td>{year}</td>'
                   f'<td>{ctx.expand(f"<!-- n:gating.output_gate.{key} -->")}</td></tr>' for name, year, key in rows)
    return (f'<div class="output-gates" data-table="output-gates"><table><caption>{lab["caption"]}</caption>'
            f'<thead><tr><th scope="col">{lab["model"]}</th><th scope="col">{lab["year"]}</th>'
            f'<th scope="col">{lab["gate"]}</th></tr></thead><tbody>{body}</tbody></table></div>')


TABLES = {"output-gates": output_gates}
