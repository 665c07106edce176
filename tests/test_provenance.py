"""A number's provenance, twice: in the reader's words for its tooltip (`Number.hover`), and for authors in
the numbers appendix (`Number.source`: the files read, the run's device, date and commit). The units'
source readers (course/core/registry.py `SourceReader`) say what a computed number's sources are."""
from __future__ import annotations

import re

import pytest

from course.core.registry import Computed, Measured, Registry, SourceError, SourceReaders
from course.core.words import in_lang
from course.paths import ROOT

LANGS = ("zh", "en")


def of_kind(reg, kind: str):
    found = [(k, n) for k, n in reg.numbers.items() if n.provenance.kind == kind]
    assert found, f"the registry has no {kind} number"
    return found


def test_every_number_is_told_in_the_readers_words_in_every_language(reg):
    for key, n in reg.numbers.items():
        assert set(n.told) == set(reg.languages), key
        for lang in reg.languages:
            assert n.hover(lang) == n.told[lang], (key, lang)


def test_a_computed_number_names_no_file_it_read(reg):
    """Not even in its formula's words: the files stay in the numbers appendix."""
    for key, n in of_kind(reg, "computed"):
        for lang in LANGS:
            for s in n.provenance.sources:
                path = in_lang(s, lang).split()[0].split("（")[0]
                assert path not in n.hover(lang), (key, lang, n.hover(lang))
                assert path in n.source(lang), (key, lang)


# a path in this repository: one of its top folders, then a file (not a folder of another site's path, as in
# "huggingface.co/org/models/…")
FOLDERS = sorted(p.name for p in ROOT.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))
PROJECT_PATH = re.compile(rf"(?<![\w./-])(?:{'|'.join(map(re.escape, FOLDERS))})/[\w./-]*\w")


def test_no_tooltip_names_a_file_of_the_project(reg):
    """Where a number comes from is told in the reader's words (a model's config and field, a paper and its table,
    our runs and their seeds), whatever its kind; a path in this repository is for authors, in the appendix."""
    assert {"course", "data", "models"} <= set(FOLDERS), f"the repository's folders are not where the test looks: {FOLDERS}"
    named = [(key, lang, n.hover(lang)) for key, n in reg.numbers.items() for lang in LANGS
             if PROJECT_PATH.search(n.hover(lang))]
    assert named == []


def test_a_measured_number_names_its_run_but_not_its_commit_files_device_or_date(reg):
    """Its run as a reader is told of it (`Measured.told`, else the run's own words), never a commit or a result
    file, which stay in the appendix with the run's full words; the device and date only where the run's words
    say them (a comparison with another machine names that machine)."""
    told_apart = 0
    for key, n in of_kind(reg, "measured"):
        p = n.provenance
        for lang in LANGS:
            told, run = n.hover(lang), in_lang(p.told or p.run, lang)
            assert run in told, (key, lang)
            assert p.commit not in told and "data/" not in told, (key, lang, told)
            for said in (p.date, in_lang(p.device, lang)):
                assert said in run or said not in told, (key, lang, told)
            source = n.source(lang)
            assert p.commit in source and p.date in source and in_lang(p.run, lang) in source, (key, lang)
        told_apart += bool(p.told)
    assert told_apart, "no measured number is told in other words than its run's"


def test_a_number_from_the_anchors_config_names_the_field_it_read(reg, units):
    course = next(u for u in units.all if u.kind == "course")
    said = {lang: course.words.lang(lang)("source.anchor_field", field="\0").split("\0")[0] for lang in LANGS}
    fields = [(k, n, s.split("text_config.")[1].rstrip(")")) for k, n in of_kind(reg, "computed")
              for s in n.provenance.sources if isinstance(s, str) and "text_config." in s]
    assert fields, "no number reads a field of the anchor's config"
    for key, n, field in fields:
        for lang in LANGS:
            assert said[lang] + field in n.hover(lang), (key, lang, n.hover(lang))


def test_a_cited_number_names_its_paper_and_table(reg):
    for key, n in of_kind(reg, "cited"):
        for lang in LANGS:
            assert n.provenance.paper in n.hover(lang) and in_lang(n.provenance.table, lang) in n.hover(lang)


def test_a_source_no_unit_reads_fails_naming_the_key_and_the_source():
    reg = Registry(languages=LANGS, readers=SourceReaders())
    with pytest.raises(SourceError, match=r"'x\.y'.*'data/unknown\.json'"):
        reg.add("x.y", 1, "1", Computed(formula="a", sources=["data/unknown.json"]))
    reg.add("x.z", 1, "1", Measured(run="r", device="d", date="2026-01-01", commit="abc"))   # no sources to read
