"""A page's inline stylesheets cut to the rules that can apply to it. A lab's page comes with the whole of
JupyterLab's stylesheet inlined (over half a megabyte, by the notebook renderer): a rule is kept when one of its
selectors names only classes the page's markup has (and @font-face, @keyframes, @page and the like always), so
what is left styles the same page. Nothing here runs in the reader's browser, which then parses a tenth of it.
"""
from __future__ import annotations

import re

STYLE = re.compile(r"(<style[^>]*>)(.*?)(</style>)", re.S)
CLASS_ATTR = re.compile(r'\sclass="([^"]*)"')
CLASS_IN_SELECTOR = re.compile(r"\.(-?[_a-zA-Z][\w-]*)")
COMMENT = re.compile(r"/\*.*?\*/", re.S)
# at-rules whose blocks hold rules (kept when a rule inside is); the others are kept whole
NESTING = ("@media", "@supports", "@layer", "@container", "@document")


def _blocks(css: str):
    """(prelude, body) of each top-level block, and (statement, None) of each top-level `@…;` statement."""
    i, n = 0, len(css)
    while i < n:
        j = i
        while j < n and css[j] not in "{;":
            if css[j] in "\"'":   # a string in a selector or statement
                q = css[j]
                j += 1
                while j < n and css[j] != q:
                    j += 2 if css[j] == "\\" else 1
            j += 1
        if j >= n:
            if css[i:].strip():
                yield css[i:].strip(), None
            return
        if css[j] == ";":
            yield css[i:j + 1].strip(), None
            i = j + 1
            continue
        depth, k = 1, j + 1
        while k < n and depth:
            c = css[k]
            if c in "\"'":
                q = c
                k += 1
                while k < n and css[k] != q:
                    k += 2 if css[k] == "\\" else 1
            elif c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
            k += 1
        yield css[i:j].strip(), css[j + 1:k - 1]
        i = k


def _selectors(prelude: str) -> list[str]:
    """A selector list split at its top-level commas (not those inside :is(), :not(), …)."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(prelude):
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "," and depth == 0:
            out.append(prelude[start:i])
            start = i + 1
    return out + [prelude[start:]]


def prune(css: str, classes: set[str]) -> str:
    """The rules of `css` that can match markup using only `classes`."""
    out = []
    for prelude, body in _blocks(COMMENT.sub("", css)):
        if body is None:
            out.append(prelude)
        elif prelude.startswith("@"):
            if prelude.lower().startswith(NESTING):
                inner = prune(body, classes)
                if inner:
                    out.append(f"{prelude}{{{inner}}}")
            else:
                out.append(f"{prelude}{{{body}}}")
        else:
            # a selector's classes outside :not() must all be on the page for it to match anything
            kept = [s for s in _selectors(prelude)
                    if set(CLASS_IN_SELECTOR.findall(re.sub(r":not\([^)]*\)", "", s))) <= classes]
            if kept:
                out.append(f"{','.join(k.strip() for k in kept)}{{{body}}}")
    return "".join(out)


def prune_inline_styles(html_out: str) -> str:
    """The page with each of its <style> blocks cut to the rules that can apply to its markup."""
    classes = {c for attr in CLASS_ATTR.findall(html_out) for c in attr.split()}
    return STYLE.sub(lambda m: m.group(1) + prune(m.group(2), classes) + m.group(3), html_out)
