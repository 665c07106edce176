"""The KV-cache lesson's table: what every model of our data keeps per sequence to generate, in BF16, each cell
a registry number with its provenance (course/common/kv_cache.py counts it from the model's config). It reads
the registry only (the rows too), as every page does."""
from __future__ import annotations

from course.core.registry import table_rows
from course.project import words

WORDS = words(__file__)   # the table's words: table.* in lessons/c3_kv_cache/words.LANG.json


def kv_table(ctx) -> str:
    say = WORDS.lang(ctx.lang)
    n = lambda key: ctx.expand(f"<!-- n:kv_cache.{key} -->")   # noqa: E731 (a cell is one registry number)
    rows = []
    for m in table_rows(ctx.registry, "kv_cache.models.rows"):
        k = f"models.{m['slug']}"
        if m["attention"] == "MLA":
            attention = say("att.mla_nope" if m.get("nope") else "att.mla", latent=n(f"{k}.kv_lora_rank"),
                            rope=n(f"{k}.qk_rope_head_dim"))
        elif m["attention"] == "CSA/HCA":
            attention = say("att.v4", dim=n(f"{k}.head_dim"))
        elif m["anchor"]:
            attention = say("att.heads", kind=m["attention"], h=ctx.expand("<!-- n:anchor.num_heads -->"),
                            kv=n("anchor.num_kv_heads"))
        else:
            attention = say("att.heads", kind=m["attention"], h=n(f"{k}.num_heads"), kv=n(f"{k}.num_kv_heads"))
        if "indexer" in m["parts"]:
            layers = say("lay.v4", n=n(f"{k}.num_layers"), w=n(f"{k}.sliding_window"), csa=n(f"{k}.csa_layers"),
                         hca=n(f"{k}.hca_layers"))
        else:
            layers = WORDS.lang(ctx.lang).join("list", [
                say(f"lay.{what}", n=n(f"{k}.layers.{what}"), w=n("oss.sliding_window") if what == "sliding" else "")
                for what in m["parts"] if what != "linear_conv"])
        if m.get("encdec"):
            layers += say("table.encdec")

        def at(key: str) -> str:
            return n(f"{k}.{key}") + (say("table.beyond_mark") if key in m["beyond"] else "")
        most = (n(f"{k}.max_context") + (say("table.paper_mark") if m.get("max_from_paper") else "")
                if m["max"] else say("table.no_max"))
        at_max = n(f"{k}.at_max") if m["max"] else say("table.none")
        fixed = n(f"{k}.fixed") if "linear_state" in m["parts"] else say("table.none")
        name = (f"<strong>{m['name']}{say('table.anchor')}</strong>" if m["anchor"]
                else m["name"] + (say("table.secondary") if m.get("secondary") else ""))
        year = str(m["year"])
        rows.append(f'<tr data-model="{m["slug"]}"><th scope="row">{name}</th><td>{year}</td><td>{attention}</td>'
                    f'<td>{layers}</td><td>{n(k + ".bytes_per_token")}</td><td>{at("at_32k")}</td>'
                    f'<td>{at("at_128k")}</td><td>{most}</td><td>{at_max}</td><td>{fixed}</td></tr>')
    head = "".join(f'<th scope="col">{say("table." + c)}</th>'
                   for c in ("model", "year", "attention", "layers", "per_token", "at_32k", "at_128k", "max", "at_max",
                             "fixed"))
    return (f'<div class="cw-scroll" data-table="kv-cache"><table>'
            f'<caption>{say("table.caption")}</caption><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>'
            f'<p class="table-note">{ctx.expand(say("table.note"))}</p></div>')


TABLES = {"kv-cache": kv_table}
