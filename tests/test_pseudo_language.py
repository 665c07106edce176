"""Adding a language is adding files: a pseudo language made from the English files (tests/pseudo_language.py:
every text wrapped ⟦…⟧) builds strict in a copy of the project, with no edit of any code but the one line that
declares the project's languages, and every page, figure and notebook comes in it, in its words. A word
missing in a language fails the build, naming the unit, the key and the language."""
from __future__ import annotations

import json

from conftest import SESSION_BUILD, run_build
from course.project import units
from pseudo_language import add_pseudo_language, pseudo


def test_a_pseudo_language_made_of_files_builds_every_page_in_its_own_words(project_copy):
    root = project_copy()
    touched = add_pseudo_language(root, "xx")
    code = [p.relative_to(root).as_posix() for p in touched if p.suffix == ".py"]
    assert code == ["course/project.py"], f"adding a language edited code: {code}"

    r = run_build(root, *SESSION_BUILD)   # mkdocs.yml is strict (--frozen, or the draft build while drafting)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-4000:]
    site = root / "site" / "xx"
    for u in units().all:
        for stem in u.pages + u.notebooks:
            page = site / stem.removesuffix("index") / "index.html"
            assert page.exists(), f"no page for {stem} in the pseudo language"
            html = page.read_text(encoding="utf-8")
            assert '<html lang="xx"' in html
            if u.title:   # the navigation names the unit by its words in the language
                assert pseudo(u.words.lang("en")("title")) in html, f"{stem}: its title is not in the language's words"
    # the figures speak it, and the lab prints in it
    for fig in sorted((root / "figures").glob("*.xx.json")):   # what a page in the language fetches
        alt = json.loads(fig.read_text(encoding="utf-8"))["alt"]
        assert alt.startswith("⟦"), f"{fig.name}: its text alternative is not in the language's words: {alt[:60]}"
    lab = (site / "c4/normalization-lab/index.html").read_text(encoding="utf-8")
    assert "⟦Project: " in lab, "the lab's set-up line is not in the language's words"

    # a word missing in the language stops the build, naming the unit, the key and the language
    words = root / "lessons/c4_ffn/words.xx.json"
    table = json.loads(words.read_text(encoding="utf-8"))
    del table["title"]
    words.write_text(json.dumps(table, ensure_ascii=False), encoding="utf-8")
    r = run_build(root, "--frozen")
    assert r.returncode == 2, r.stdout[-2000:] + r.stderr[-2000:]
    assert "lessons/c4_ffn: no word 'title' in words.xx.json (language xx)" in r.stdout + r.stderr
