"""The FFN lesson's table: d_ff / d of every frontier model with a dense FFN (and the anchor), each cell a
registry number with its provenance, and the expert width of the MoE models among them. It reads the registry
only (the rows too), as every page does. A row whose config we know only from a secondary source is marked,
and so is the one model whose routed experts read a latent vector narrower than d (a note under the table
gives their width against that input)."""
from __future__ import annotations

from course.core.registry import table_rows

LABELS = {
    "zh": {"caption": "各模型稠密 FFN 的宽度（由各自的 config 算出；标 † 的一行只有二手来源，鼠标移到数字上可看出处）",
           "model": "模型", "year": "年份", "d": "d", "width": "d_ff", "ratio": "d_ff / d", "form": "形式",
           "layers": "有稠密 FFN 的层", "expert": "专家宽度 / d", "two_matrix": "两矩阵", "swiglu": "门控三矩阵",
           "all": "全部 {n} 层", "encdec": "编码器、解码器各 {n} 层", "some": "{k} / {n} 层", "anchor": "（锚点）", "none": "—",
           "secondary": " †", "latent": " *",
           "note": "* Kimi K3 的路由专家读的不是 <!-- n:ffn.models.kimi_k3.hidden_size --> 维的 token 本身，而是先压缩成的 "
                   "<!-- n:kimik3.routed_expert_hidden_size --> 维潜向量（config 里的 routed_expert_hidden_size，"
                   "只有 d 的 <!-- n:ffn.models.kimi_k3.latent_share --> 倍）；对它们自己的输入来说，专家宽度是输入的 "
                   "<!-- n:ffn.models.kimi_k3.latent_expert_ratio --> 倍。"
                   "† DeepSeek-LLM-67B 的 config 我们没能读到官方文件，这一行的数字来自二手转述。"},
    "en": {"caption": "Dense FFN widths across models (computed from each model's config; the row marked † rests on a "
                      "secondary source; hover a number for its source)",
           "model": "Model", "year": "Year", "d": "d", "width": "d_ff", "ratio": "d_ff / d", "form": "Form",
           "layers": "Layers with a dense FFN", "expert": "Expert width / d", "two_matrix": "two-matrix",
           "swiglu": "gated", "all": "all {n}", "encdec": "{n} + {n} (encoder, decoder)", "some": "{k} of {n}", "anchor": " (the anchor)", "none": "—",
           "secondary": " †", "latent": " *",
           "note": "* Kimi K3's routed experts do not read the token's <!-- n:ffn.models.kimi_k3.hidden_size --> numbers "
                   "themselves but a latent vector of <!-- n:kimik3.routed_expert_hidden_size --> "
                   "(routed_expert_hidden_size in its config, <!-- n:ffn.models.kimi_k3.latent_share --> of d); against "
                   "that input, each expert is <!-- n:ffn.models.kimi_k3.latent_expert_ratio --> times as wide. "
                   "† We could not read DeepSeek-LLM-67B's official config: this row's numbers come from a "
                   "secondary source."},
}


def frontier_widths(ctx) -> str:
    lab = LABELS[ctx.lang]
    n = lambda key: ctx.expand(f"<!-- n:ffn.{key} -->")   # noqa: E731 (a cell is one registry number)
    *models, anchor = table_rows(ctx.registry, "ffn.models.rows")
    rows = []
    for m in models:
        k = f"models.{m['slug']}"
        layers = (lab["some"].format(k=n(f"{k}.dense_layers"), n=n(f"{k}.num_layers")) if m["moe"]
                  else lab["encdec" if m.get("encdec") else "all"].format(n=n(f"{k}.num_layers")))
        expert = (n(f"{k}.expert_ratio") + (lab["latent"] if m.get("latent") else "")) if m["expert"] else lab["none"]
        name = m["name"] + (lab["secondary"] if m.get("secondary") else "")
        rows.append(f'<tr data-model="{m["slug"]}"><th scope="row">{name}</th><td>{m["year"]}</td>'
                    f'<td>{n(k + ".hidden_size")}</td><td>{n(k + ".ffn_width")}</td><td>{n(k + ".ratio")}</td>'
                    f'<td>{lab[m["form"]]}</td><td>{layers}</td><td>{expert}</td></tr>')
    rows.append(f'<tr data-model="anchor"><th scope="row"><strong>{anchor["name"]}{lab["anchor"]}</strong></th>'
                f'<td>{lab["none"]}</td><td>{ctx.expand("<!-- n:anchor.hidden_size -->")}</td>'
                f'<td>{ctx.expand("<!-- n:anchor.ffn_width -->")}</td><td>{n("models.anchor.ratio")}</td>'
                f'<td>{lab["swiglu"]}</td><td>{lab["all"].format(n=ctx.expand("<!-- n:anchor.num_layers -->"))}</td>'
                f'<td>{lab["none"]}</td></tr>')
    head = "".join(f'<th scope="col">{lab[c]}</th>' for c in ("model", "year", "d", "width", "ratio", "form", "layers", "expert"))
    return (f'<div class="cw-scroll" data-table="ffn-widths"><table>'
            f'<caption>{lab["caption"]}</caption><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>'
            f'<p class="table-note">{ctx.expand(lab["note"])}</p></div>')


TABLES = {"ffn-widths": frontier_widths}
