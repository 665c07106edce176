"""Reading notes as claims: each qualitative sentence about our runs carries a check the build evaluates.

A lesson's claims.json holds the sentences (one per language, numbers only as `<!-- n:KEY -->`) and, for
each, a condition over registry values written with keys in braces, e.g.
    "{normalization.compare.ln_vs_rms.final_val_loss.diff.max} < 0"   (LayerNorm lower in every seed)
Only arithmetic, comparisons, and/or/not, abs/min/max are allowed. When a rerun no longer supports a
sentence, the build stops and names the claim, its condition and the values it saw.
"""
from __future__ import annotations

import ast
import operator
import re
from pathlib import Path

from pydantic import BaseModel, ConfigDict, model_validator

from course.core.errors import ClaimError  # noqa: F401 (raised here, caught by the build)
from course.core.registry import Registry
from course.core.schema import load
KEY = re.compile(r"\{([\w.\-]+)\}")
SHORTCODE_KEY = re.compile(r"<!--\s*n:([\w.\-]+)(?:\s+\w+)?\s*-->")
TYPED_NUMBER = re.compile(r"(?<![A-Za-z])\d")  # a digit that is not part of a name like "C8"
# a number's shortcode, and a cross-reference (<!-- ref:c8-2 short -->: an id, not a number), are not typed numbers
SHORTCODES = re.compile(r"<!--\s*(?:n|ref):[^>]*?-->")



def _no_typed_numbers(text: str) -> str:
    bare = SHORTCODES.sub("", text)
    if TYPED_NUMBER.search(bare):
        raise ValueError(f"a number is typed into the sentence (use <!-- n:KEY -->): {text!r}")
    return text


class Sentences(BaseModel):
    """A sentence in each language: every field but the named ones is a language ("zh": …, "en": …), checked
    for a typed number here and for the project's languages by the build (`missing`)."""
    model_config = ConfigDict(extra="allow")

    @model_validator(mode="after")
    def _texts(self):
        for lang, text in self.texts().items():
            if not isinstance(text, str):
                raise ValueError(f"{lang}: expected the sentence in that language, got {text!r}")
            _no_typed_numbers(text)
        return self

    def texts(self) -> dict[str, str]:
        """Language → the sentence in it."""
        return dict(self.model_extra or {})

    def __getitem__(self, lang: str) -> str:
        return self.texts()[lang]

    def missing(self, languages) -> list[str]:
        return [lang for lang in languages if lang not in self.texts()]


class Claim(Sentences):
    id: str
    check: str          # the condition, keys in braces
    why: str            # what the condition tests, for whoever edits it


class Claims(BaseModel):
    model_config = ConfigDict(extra="forbid")
    provenance: Sentences   # the note above the claims: device, date, commit, corpus, seeds
    claims: list[Claim]


def load_claims(path: Path) -> Claims:
    return load(path, Claims)


_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}
_CMPOPS = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
           ast.Eq: operator.eq, ast.NotEq: operator.ne}
_FUNCS = {"abs": abs, "min": min, "max": max}


def _eval(node, env: dict):
    if isinstance(node, ast.Expression):
        return _eval(node.body, env)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str)):
        return node.value
    if isinstance(node, ast.Name) and node.id in env:
        return env[node.id]
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        return _BINOPS[type(node.op)](_eval(node.left, env), _eval(node.right, env))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_eval(node.operand, env)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return not _eval(node.operand, env)
    if isinstance(node, ast.BoolOp):
        vals = [_eval(v, env) for v in node.values]
        return all(vals) if isinstance(node.op, ast.And) else any(vals)
    if isinstance(node, ast.Compare):
        left = _eval(node.left, env)
        for op, comp in zip(node.ops, node.comparators):
            right = _eval(comp, env)
            if type(op) not in _CMPOPS or not _CMPOPS[type(op)](left, right):
                return False
            left = right
        return True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCS:
        return _FUNCS[node.func.id](*[_eval(a, env) for a in node.args])
    raise ClaimError(f"unsupported expression: {ast.dump(node)[:80]}")


def evaluate(check: str, reg: Registry) -> tuple[bool, dict]:
    """(holds, {key: value}) for one condition."""
    keys = list(dict.fromkeys(KEY.findall(check)))
    missing = [k for k in keys if k not in reg]
    if missing:
        raise ClaimError(f"unknown registry keys {missing}")
    values = {k: reg[k].value for k in keys}
    names = {k: f"v{i}" for i, k in enumerate(keys)}
    expr = KEY.sub(lambda m: names[m.group(1)], check)
    env = {names[k]: v for k, v in values.items()}
    try:
        holds = bool(_eval(ast.parse(expr, mode="eval"), env))
    except TypeError:  # e.g. a diverged run's loss is the text "diverged": the comparison fails
        holds = False
    return holds, values


def check_claims(reg: Registry, path: Path, paths=None) -> int:
    """Evaluate every claim; raise ClaimError naming each one that fails (or lacks a sentence in one of the
    registry's languages). Returns how many hold."""
    notes = load_claims(path)
    claims = notes.claims
    failures = [f"the provenance note has no sentence in {lang}" for lang in notes.provenance.missing(reg.languages)]
    failures += [f"provenance note names unknown key {key!r}"
                 for text in notes.provenance.texts().values()
                 for key in SHORTCODE_KEY.findall(text) if key not in reg]
    for c in claims:
        failures += [f"claim {c.id!r} has no sentence in {lang}" for lang in c.missing(reg.languages)]
        for text in c.texts().values():
            for key in SHORTCODE_KEY.findall(text):
                if key not in reg:
                    failures.append(f"claim {c.id!r}: its sentence names unknown key {key!r}")
        try:
            holds, values = evaluate(c.check, reg)
        except ClaimError as e:
            failures.append(f"claim {c.id!r}: {e}")
            continue
        if not holds:
            last = reg.languages[-1] if reg.languages else None
            seen = ", ".join(f"{k} = {reg[k].text[last] if last else reg[k].value}" for k in values)
            sentence = c.texts().get(last, next(iter(c.texts().values()), ""))
            failures.append(f"claim {c.id!r} no longer holds: {c.check}  [{seen}]  ({c.why})\n"
                            f"      sentence: {sentence}")
    if failures:
        name = paths.relative(path) if paths else path.as_posix()
        raise ClaimError(f"{name}: {len(failures)} reading note(s) not supported by the results:\n    "
                         + "\n    ".join(failures))
    return len(claims)
