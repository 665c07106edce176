"""Chinese typography in the built pages and the widgets' label tables (the course's style rules, after
the common guidelines of sparanoid/chinese-copywriting-guidelines):

- `halfwidth`: a half-width , : ; ( ) next to a Chinese character (「残差:x」「GELU(宽」「梯度之比(底层」);
  Chinese prose uses ，：；（）.
- `spacing`: a Chinese character right beside a Latin letter or a digit (「有64层」「用RMSNorm」); the two are
  written with a space between them.
- `space`: a space beside a full-width mark (「先给答案。 假如」「（计划中） 去比较」); a full-width mark carries
  its own spacing. (A bold lead-in is where it hides: `**先给答案。** 假如`.)

What is not prose is left out: code (<code>, <pre>, <kbd>, <samp>, scripts and styles), formulas (KaTeX's
and arithmatex's spans), and, in a provenance tooltip, the identifiers it names: a function with its
arguments (`best_line()`, `anchor_ledger()['ffn']`), a file (`course/chapter/twins.py`), a dotted or
snake_case name (`ffn.ledger.total`, `final_val_loss`). Text in backticks is code too (label tables).

    check_text("残差:x + F(x)")           → [Finding("halfwidth", ":", …)]
    check_html(page_html)                  → findings in the page's text and its title/alt/aria-label/placeholder
    check_labels(json_table)               → findings in a label table's Chinese strings
    check_figure(figure)                   → findings in a figure's text in one language (its title, axis
                                             titles, trace names, hovers, annotations, text alternative)
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser

HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
CJK_CHAR = re.compile(f"[{HAN}]")
HALF = ",:;()"
# a half-width mark with a Chinese character on either side ("残差:x", "x:残差", "(宽", "宽)")
# (a comma, colon or semicolon also with one space between: "RMSNorm, 先"; a parenthesis only touching,
# so that a formula's "F(x) 的" is not read as prose)
HALFWIDTH = re.compile(f"(?<=[{HAN}])[{re.escape(HALF)}]|[{re.escape(HALF)}](?=[{HAN}])"
                       f"|(?<=[{HAN}] )[,:;]|[,:;](?= [{HAN}])")
# a Chinese character touching a Latin letter or a digit, either way round
SPACING = re.compile(f"[{HAN}](?=[A-Za-z0-9])|[A-Za-z0-9](?=[{HAN}])")
FULL_MARKS = "，。、：；！？（）「」『』《》"
# a space between a full-width mark and the text beside it (not at the start or end of a run)
SPACE_BESIDE = re.compile(fr"(?<=[{FULL_MARKS}])[ \t]+(?=\S)|(?<=\S)[ \t]+(?=[{FULL_MARKS}])")
# what stands in for code or a formula inside a run of prose: it keeps the words on either side apart (no
# `spacing` finding across it) without being a space a reader sees
HIDDEN = "\u2060"

# identifiers a provenance tooltip names: functions with their arguments and subscripts, files, keys
IDENTIFIER = re.compile(r"""
    [A-Za-z_][\w.]*\([^()]*\)(?:\[[^\]]*\]|\.\w+)*     # best_line(), anchor_ledger()['ffn'], f(x).y
  | (?:[\w.-]+/)+[\w.-]+                               # course/chapter/twins.py, data/results/cpu
  | [\w-]+\.(?:py|json|js|md|ipynb|css|html|yml|txt)\b # numbers.py
  | [A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+                    # ffn.ledger.total
  | [A-Za-z]\w*_\w+                                    # final_val_loss
""", re.X)
BACKTICKS = re.compile(r"`[^`]*`")

SKIP_TAGS = {"code", "pre", "kbd", "samp", "script", "style", "math", "annotation", "template", "noscript"}
SKIP_CLASSES = {"arithmatex", "katex", "katex-display", "katex-mathml", "MathJax", "highlight", "codehilite",
                "clipboard-copy-txt"}   # the copy of a notebook cell's code the copy button reads
ATTRIBUTES = ("title", "alt", "aria-label", "placeholder")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"}


@dataclass(frozen=True)
class Finding:
    kind: str       # "halfwidth", "spacing" or "space"
    mark: str       # the mark, or the two characters that touch
    context: str    # a few characters around it
    where: str = "text"   # "text", or the attribute it was found in ("title", …)

    def __str__(self) -> str:
        return f"{self.kind} {self.mark!r} in {self.where}: …{self.context}…"


# a function written out, its argument a word: "σ(门)", "RMS(写入)" are formulas, not prose in parentheses
APPLIED = re.compile(r"(?<=[A-Za-z\u0370-\u03ff])\(([^()\s]{1,8})\)")


def prose(text: str, identifiers: bool = False) -> str:
    """The text with what is not prose blanked out (backticked code; a function applied to a word;
    identifiers, if asked)."""
    text = APPLIED.sub(lambda m: "⟨" + m.group(1) + "⟩", BACKTICKS.sub(HIDDEN, text))
    return IDENTIFIER.sub(HIDDEN, text) if identifiers else text


def check_text(text: str, where: str = "text", identifiers: bool = False) -> list[Finding]:
    """Findings in one run of text; `identifiers` leaves out the names a provenance tooltip quotes."""
    text = prose(text, identifiers)
    out = []
    for m in HALFWIDTH.finditer(text):
        out.append(Finding("halfwidth", m.group(0), text[max(0, m.start() - 8):m.end() + 8], where))
    for m in SPACING.finditer(text):
        out.append(Finding("spacing", text[m.start():m.start() + 2], text[max(0, m.start() - 8):m.start() + 10], where))
    for m in SPACE_BESIDE.finditer(text):
        out.append(Finding("space", m.group(0), text[max(0, m.start() - 8):m.end() + 8], where))
    return out


class _Text(HTMLParser):
    """Collects the prose of a page: runs of text outside code and formulas, and the attributes a reader
    meets (tooltips, alt texts, labels), each run kept whole so a mark is seen with its neighbours."""

    def __init__(self, skip_selectors: tuple[str, ...] = ()):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []   # (tag, skipped here or above)
        self.runs: list[tuple[str, str, bool]] = []   # (text, where, identifiers?)
        self.buf: list[str] = []
        self.skip_selectors = skip_selectors

    def _skipped(self) -> bool:
        return bool(self.stack) and self.stack[-1][1]

    def _flush(self):
        if self.buf:
            self.runs.append(("".join(self.buf), "text", False))
            self.buf = []

    def _matches(self, tag: str, attrs: dict) -> bool:
        classes = set((attrs.get("class") or "").split())
        for sel in self.skip_selectors:   # "tag", ".class", "[attr]", "tag.class"
            m = re.fullmatch(r"([\w-]*)(?:\.([\w-]+))?(?:\[([\w-]+)\])?", sel)
            if m and (not m.group(1) or m.group(1) == tag) and (not m.group(2) or m.group(2) in classes) \
                    and (not m.group(3) or m.group(3) in attrs):
                return True
        return False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = set((a.get("class") or "").split())
        skip = self._skipped() or tag in SKIP_TAGS or bool(classes & SKIP_CLASSES) or self._matches(tag, a)
        if tag not in ("span", "a", "strong", "em", "b", "i", "sub", "sup", "small", "abbr", "mark", "wbr", "br"):
            self._flush()   # a block boundary: a new run
        if not skip:
            tip = "reg-num" in classes   # a provenance tooltip: its identifiers are not prose
            for name in ATTRIBUTES:
                value = a.get(name)
                if value and not (name == "aria-label" and a.get("title")):   # a number's label repeats its title
                    self.runs.append((value, name, tip or name == "title"))
        if tag == "br":
            self.buf.append("\n")   # a line break separates what is on either side
        if tag not in VOID:
            self.stack.append((tag, skip))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self.stack and self.stack[-1][0] == tag:
            self.stack.pop()

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break
        if tag not in ("span", "a", "strong", "em", "b", "i", "sub", "sup", "small", "abbr", "mark"):
            self._flush()

    def handle_data(self, data):
        if not self._skipped():
            self.buf.append(data)
        else:
            self.buf.append(HIDDEN)   # code between two words still separates them

    def close(self):
        super().close()
        self._flush()


def check_html(html: str, skip: tuple[str, ...] = (), region: str | None = None) -> list[Finding]:
    """Findings in an HTML page or fragment. `skip`: more elements to leave out ("[data-table]",
    ".reg-num", "nav"); `region`: only the part between this opening tag and its match (e.g. "<article")."""
    if region:
        start = html.find(region)
        html = html[start:] if start >= 0 else ""
        end = html.find("</article>") if region.startswith("<article") else -1
        html = html[:end] if end >= 0 else html
    p = _Text(skip)
    p.feed(html)
    p.close()
    out = []
    for text, where, identifiers in p.runs:
        if CJK_CHAR.search(text):
            out += check_text(text, where, identifiers)
    return out


def check_labels(table: dict, lang: str = "zh") -> list[tuple[str, Finding]]:
    """Findings in a widget's label table (its `lang` strings), with the label's path ("gradRatio")."""
    out = []

    def walk(node, path):
        if isinstance(node, dict):
            if lang in node and isinstance(node[lang], str):
                out.extend((path, f) for f in check_text(node[lang], where=path))
            for k, v in node.items():   # a label's texts are strings: walking one finds nothing
                walk(v, f"{path}.{k}" if path else k)
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{path}[{i}]")
    walk(table, "")
    return out


# what a figure says: a trace's name and hovers, any title's or annotation's text, the text alternative
FIGURE_TEXTS = {"text", "name", "hovertemplate", "hovertext", "texttemplate", "alt"}
# Plotly's markup in a text: a tag ("<br>", "<extra></extra>") or a placeholder it fills ("%{y:.3f}")
PLOTLY_MARKUP = re.compile(r"<br\s*/?>|<[^>]*>|%\{[^}]*\}")


def check_figure(figure: dict) -> list[tuple[str, Finding]]:
    """Findings in one language's figure ({data, layout, alt}), with the path of the text ("data[2].name")."""
    out = []

    def check(text: str, path: str):
        if CJK_CHAR.search(text):
            plain = PLOTLY_MARKUP.sub(lambda m: "\n" if m.group(0).startswith("<br") else HIDDEN, text)
            out.extend((path, f) for f in check_text(plain, where=path))

    def walk(node, path):
        if isinstance(node, dict):
            for k, v in node.items():
                where = f"{path}.{k}" if path else k
                if k in FIGURE_TEXTS and isinstance(v, str):
                    check(v, where)
                elif k in FIGURE_TEXTS and isinstance(v, list):
                    for i, t in enumerate(v):
                        if isinstance(t, str):
                            check(t, f"{where}[{i}]")
                else:
                    walk(v, where)
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{path}[{i}]")
    walk(figure, "")
    return out


def counts(findings) -> dict[str, int]:
    c = {"halfwidth": 0, "spacing": 0, "space": 0}
    for f in findings:
        f = f[1] if isinstance(f, tuple) else f
        c[f.kind] += 1
    return c


# ---------------------------------------------------------------- the mechanical pass

FULL = {",": "，", ":": "：", ";": "；", "(": "（", ")": "）"}
PROTECTED = re.compile(r"""
    ```[\s\S]*?```              # fenced code
  | `[^`\n]*`                   # code span
  | <!--[\s\S]*?-->             # a shortcode or comment
  | \$\$[\s\S]*?\$\$ | \$[^$\n]+\$ | \\\([\s\S]*?\\\) | \\\[[\s\S]*?\\\]   # math
  | <[^>\n]+>                   # an HTML tag with its attributes
  | \]\([^)\n]*\)               # a link's target
  | \{[\w.]+\}                  # a label's placeholder
  | https?://\S+
""", re.X)


def fullwidth(text: str) -> str:
    """The mechanical pass: a half-width , : ; ( ) next to a Chinese character becomes full-width (a
    parenthesis with its partner), and the spaces beside a full-width mark go. Code, math, shortcodes,
    tags, link targets and placeholders are left as they are. What the pass cannot judge (a half-width
    mark between a number and Latin text inside Chinese prose) is left for a person."""
    flat = masked_like(text)
    change = {m.start() for m in HALFWIDTH.finditer(flat)}
    # parentheses come in pairs: when one of a pair changes, so does its partner
    stack, pairs = [], {}
    for i, ch in enumerate(flat):
        if ch == "(":
            stack.append(i)
        elif ch == ")" and stack:
            j = stack.pop()
            pairs[i], pairs[j] = j, i
    for i in list(change):
        if i in pairs:
            change.add(pairs[i])
    out = list(text)
    for i in change:
        out[i] = FULL[text[i]]
    result = bold_marks_out("".join(out))
    # no space beside a full-width mark (outside protected text: the mask has the same length)
    keep = masked_like(result)
    spans = [(m.start(), m.end()) for m in re.finditer(f"[ \t]+(?=[{FULL_MARKS}])|(?<=[{FULL_MARKS}])[ \t]+", keep)]
    for a, b in reversed(spans):
        result = result[:a] + result[b:]
    return spaced(result)


# a bold lead-in that ends in a full-width mark, then a space: `**先给答案。** 假如`. pymdownx.betterem does not
# close `**…。**` before a Chinese character, so the space cannot simply go: the mark moves after the bold
# (`**先给答案**。假如`), and a quoted bold question keeps its quotes outside (`「**……？**」答`)
BOLD_QUOTED = re.compile(r"\*\*「([^*\n]+?)」\*\*[ \t]+")
BOLD_STOP = re.compile(r"\*\*([^*\n]+?)([。：；，！？])\*\*[ \t]+")


def masked_like(text: str) -> str:
    """The text with its protected parts (code, math, shortcodes, tags, links) replaced, length kept."""
    masked = list(text)
    for m in PROTECTED.finditer(text):
        for i in range(m.start(), m.end()):
            masked[i] = "\ue000"
    return "".join(masked)


def bold_marks_out(text: str) -> str:
    """Move a bold lead-in's closing full-width mark (or quote) out of the bold, and drop the space after it;
    a match whose asterisks lie in protected text (code, math) is left alone."""
    for pattern, repl in ((BOLD_QUOTED, r"「**\1**」"), (BOLD_STOP, r"**\1**\2")):
        flat = masked_like(text)
        pieces, last = [], 0
        for m in pattern.finditer(text):
            if "\ue000" in flat[m.start():m.start() + 2] + flat[m.end(1):m.end()]:
                continue
            pieces += [text[last:m.start()], m.expand(repl)]
            last = m.end()
        text = "".join(pieces) + text[last:]
    return text


def spaced(text: str) -> str:
    """A space between a Chinese character and a Latin letter or digit beside it, outside protected text."""
    at = [m.start() + 1 for m in SPACING.finditer(masked_like(text))]
    for i in reversed(at):
        text = text[:i] + " " + text[i:]
    return text
