"""Check-yourself questions: a lesson asks the reader something whose answer is a registry number, or a
choice its evidence supports; the page checks what the reader types and shows the worked route only
after an attempt (docs/assets/js/questions.js, whose checking this module twins).

A unit declares its questions as data, `questions.json` beside its code (the unit's `questions`):

    {"questions": [
      {"id": "v3-bytes", "number": "kv_cache.models.deepseek_v3.bytes_per_token"},
      {"id": "fewest", "choices": ["llama", "v3", "oss"], "answer": "oss",
       "check": "{kv_cache.models.gpt_oss_120b.at_128k} < {kv_cache.models.deepseek_v3.at_128k}",
       "why": "what the condition tests"},
      {"id": "scale", "choices": ["grows", "stays"], "answer": "grows", "claim": "no-scale-logits"}
    ]}

A number's answer is a registry key; a choice's is one of its choices, supported either by a condition
over registry values (a claim's syntax, course/core/claims.py) or by one of the unit's reading notes
(`claim`: its id), which must hold. What a question says is in the unit's words, in every language:
`question.ID.ask`, `question.ID.route` (the worked route) and, for a choice, `question.ID.choice.C`; a
text names numbers by key (`<!-- n:KEY -->`; tests/test_questions.py fails on a registry number typed into
one) and writes math between dollars.

A page places a question with `<!-- question:ID -->` (its own unit's). A number's answer is the number
as the page shows it in the page's language ("2.30 GB"): its digits are the target, the text around them
stands around the reader's input, and the tolerance is half a unit of its last digit (2.30 → 0.005,
70,272 → 0.5). The text must hold exactly one number.
"""
from __future__ import annotations

import html
import json
import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Optional

from pydantic import BaseModel, ConfigDict, Field, model_validator

from course.core.claims import evaluate, load_claims
from course.core.errors import ClaimError, ShortcodeError
from course.core.schema import load
from course.core.words import core_words

ID = r"^[a-z0-9]+(-[a-z0-9]+)*$"


class Question(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=ID)
    number: Optional[str] = None          # a registry key: the answer is that number as the page shows it
    choices: list[str] = []               # or the reader picks one of these (ids: the words say them)
    answer: Optional[str] = None          # the right choice
    claim: Optional[str] = None           # the unit's reading note that supports it
    check: Optional[str] = None           # or a condition over registry values that does
    why: str = ""                         # what the condition tests, for whoever edits it

    @model_validator(mode="after")
    def _one_kind(self):
        if (self.number is None) == (not self.choices):
            raise ValueError(f"question {self.id!r}: give either a number (a registry key) or choices")
        if self.number is not None and (self.answer or self.claim or self.check):
            raise ValueError(f"question {self.id!r}: a number's answer is its key; answer, claim and check are "
                             f"for choices")
        if self.choices:
            if len(self.choices) < 2 or len(set(self.choices)) != len(self.choices):
                raise ValueError(f"question {self.id!r}: give two or more different choices")
            if any(not re.match(ID, c) for c in self.choices):
                raise ValueError(f"question {self.id!r}: a choice is an id (lower case, '-' between words)")
            if self.answer not in self.choices:
                raise ValueError(f"question {self.id!r}: its answer {self.answer!r} is not one of its choices")
            if (self.claim is None) == (self.check is None):
                raise ValueError(f"question {self.id!r}: say what supports its answer, a reading note of the "
                                 f"lesson (claim) or a condition over registry values (check), one of them")
            if self.check is not None and not self.why:
                raise ValueError(f"question {self.id!r}: say in `why` what its check tests")
        return self


class Questions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    questions: list[Question]

    @model_validator(mode="after")
    def _unique(self):
        ids = [q.id for q in self.questions]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"questions asked twice: {', '.join(dupes)}")
        return self

    def get(self, qid: str) -> Question:
        for q in self.questions:
            if q.id == qid:
                return q
        raise KeyError(qid)


def load_questions(path: Path) -> Questions:
    return load(path, Questions)


# ---------------------------------------------------------------- a number's answer (twin of questions.js)

NUMBER = re.compile(r"[\u2212\-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?")


@dataclass(frozen=True)
class Target:
    """A number's answer as one language shows it: the value of its digits, the tolerance, and the text
    before and after them ("", " GB")."""
    value: float
    tolerance: float
    before: str
    after: str


def target(text: str) -> Target:
    """The answer a number's shown text asks for; ValueError unless it holds exactly one number."""
    found = NUMBER.findall(text)
    if len(found) != 1 or re.search(r"\d", NUMBER.sub("", text)):
        raise ValueError(f"{text!r}: a question's answer shows exactly one number, as digits")
    m = NUMBER.search(text)
    digits = m.group(0).replace("\u2212", "-").replace(",", "")
    decimals = len(digits.partition(".")[2])
    return Target(float(Decimal(digits)), float(Decimal(5).scaleb(-decimals - 1)), text[:m.start()], text[m.end():])


MINUSES = "\u2212\u2012\u2013\ufe63\uff0d"
SPACES = re.compile(r"[\s,'\u00a0\u2009\u202f]")
PLAIN = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)$")


def _plain(s: str) -> str:
    s = unicodedata.normalize("NFKC", s)
    for c in MINUSES:
        s = s.replace(c, "-")
    return SPACES.sub("", s)


def parse(typed: str, t: Target) -> Optional[float]:
    """What a reader typed, as a number: full-width digits, grouping commas and spaces, a typographic minus
    and the answer's own unit around it are allowed ("７０，２７２", "2.3 GB"); None if it is no number."""
    s = _plain(typed)
    before, after = _plain(t.before), _plain(t.after)
    if after and s.endswith(after):
        s = s[: -len(after)]
    if before and s.startswith(before):
        s = s[len(before):]
    return float(s) if PLAIN.match(s) else None


def accepts(typed: str, t: Target) -> Optional[bool]:
    """Right (True), wrong (False) or not a number (None): right within half a unit of the shown number's last
    digit (and a hair more, so that the shown text itself is always right in binary floating point)."""
    x = parse(typed, t)
    if x is None:
        return None
    return abs(x - t.value) <= t.tolerance * (1 + 1e-9) + 1e-12 * abs(t.value)


# ---------------------------------------------------------------- the page's side

MATH = re.compile(r"\$([^$\n]+)\$")


def _words(unit, qid: str, what: str, lang: str) -> str:
    return unit.words.lang(lang)(f"question.{qid}.{what}")


def _text(ctx, unit, qid: str, what: str) -> str:
    """A question's words in the page's language, with its numbers (<!-- n:KEY -->) and math ($…$)."""
    raw = _words(unit, qid, what, ctx.lang)
    return MATH.sub(lambda m: f'<span class="arithmatex">\\({html.escape(m.group(1), quote=False)}\\)</span>',
                    ctx.expand(raw))


def supported(q: Question, unit, registry) -> None:
    """A choice's answer must hold: its condition over the registry, or its reading note (which the build's
    numbers stage checks too, and which must exist)."""
    if q.check is not None:
        holds, values = evaluate(q.check, registry)
        if not holds:
            seen = ", ".join(f"{k} = {v}" for k, v in values.items())
            raise ShortcodeError(f"question {q.id!r}: its answer {q.answer!r} is no longer supported: {q.check} "
                                 f"[{seen}] ({q.why})")
        return
    notes = load_claims(unit.claims) if unit.claims else None
    claim = next((c for c in notes.claims if c.id == q.claim), None) if notes else None
    if claim is None:
        raise ShortcodeError(f"question {q.id!r}: its answer rests on the reading note {q.claim!r}, which "
                             f"{unit.id}'s claims.json does not have")
    try:
        holds, _ = evaluate(claim.check, registry)
    except ClaimError as e:
        raise ShortcodeError(f"question {q.id!r}: its reading note {q.claim!r}: {e}") from None
    if not holds:
        raise ShortcodeError(f"question {q.id!r}: its reading note {q.claim!r} no longer holds")


def question_html(ctx, qid: str) -> str:
    """One question as its page shows it: the question, an input (or the choices) and a check button that
    questions.js brings to life, a line for the verdict, and the worked route, which the script hides until
    the reader has tried (without the script it is a closed block the reader may open)."""
    unit = ctx.unit
    if unit is None or unit.questions is None:
        raise ShortcodeError(f"question:{qid}: the page's unit declares no questions (questions.json)")
    q = load_questions(unit.questions).get(qid)   # KeyError: an unknown question
    say = core_words().lang(ctx.lang)
    e = html.escape
    name = f"{unit.id}.{q.id}"
    dom = f"cq-{unit.id}-{q.id}".replace("_", "-")
    ask, route = _text(ctx, unit, q.id, "ask"), _text(ctx, unit, q.id, "route")
    words = {k: say(f"questions.{k}") for k in ("right", "wrong", "not_a_number", "choose")}
    attrs = {"data-question": name, "data-lang": ctx.lang, "data-say": json.dumps(words, ensure_ascii=False)}
    if q.number is not None:
        n = ctx.registry[q.number]                                   # KeyError: an unknown key
        try:
            t = target(n.text[ctx.lang])
        except ValueError as err:
            raise ShortcodeError(f"question {q.id!r}: {q.number}: {err}") from None
        attrs |= {"data-kind": "number", "data-key": q.number, "data-target": repr(t.value),
                  "data-tolerance": repr(t.tolerance), "data-before": t.before, "data-after": t.after}
        form = (f'<label for="{dom}-input">{e(say("questions.answer"))}</label> '
                f'<span class="cq-field">{e(t.before)}<input type="text" id="{dom}-input" class="cq-input" '
                f'inputmode="decimal" autocomplete="off" spellcheck="false" data-control="answer">{e(t.after)}</span>')
    else:
        supported(q, unit, ctx.registry)
        attrs |= {"data-kind": "choice", "data-answer": q.answer}
        options = "".join(
            f'<div class="cq-choice"><input type="radio" name="{dom}" id="{dom}-{c}" value="{c}" data-control="choice">'
            f'<label for="{dom}-{c}">{_text(ctx, unit, q.id, "choice." + c)}</label></div>' for c in q.choices)
        form = f'<fieldset class="cq-choices" aria-labelledby="{dom}-ask">{options}</fieldset>'
    attr_text = " ".join(f'{k}="{e(v, quote=True)}"' for k, v in attrs.items())
    return (f'<div class="cq admonition question" {attr_text}>'
            f'<p class="admonition-title">{e(say("questions.title"))}</p>'
            f'<p class="cq-ask" id="{dom}-ask">{ask}</p>'
            f'<noscript><p class="cq-noscript">{e(say("questions.noscript"))}</p></noscript>'
            f'<div class="cq-form" hidden>{form} <button type="button" class="md-button cq-check" '
            f'data-control="check">{e(say("questions.check"))}</button></div>'
            f'<p class="cq-verdict" role="status" aria-live="polite"></p>'
            f'<details class="cq-route"><summary>{e(say("questions.route"))}</summary><p>{route}</p></details></div>')


def question_ids(markdown: str) -> list[str]:
    """The questions a page places, in order."""
    return re.findall(r"<!--\s*question:([\w\-]+)\s*-->", markdown)
