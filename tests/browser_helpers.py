"""Helpers for the widgets' browser tests: find a widget's root, read its read-outs (visible text and the
full-precision value in data-value), compare numbers, check that it speaks the page's language and that
its colors are readable."""
from __future__ import annotations

import json
import math
import re

CJK = re.compile(r"[\u4e00-\u9fff]")


def root(page, name, mode=None):
    sel = f'[data-widget="{name}"]' + (f'[data-mode="{mode}"]' if mode else "")
    r = page.locator(sel).first
    r.scroll_into_view_if_needed()
    assert r.get_attribute("data-ready") == "true", f"{name} did not initialize"
    return r


def value(widget, name):
    return json.loads(widget.locator(f'[data-readout="{name}"]').get_attribute("data-value"))


def text(widget, name):
    return widget.locator(f'[data-readout="{name}"]').inner_text()


def close(a, b, rel=1e-6):
    if isinstance(a, list):
        return len(a) == len(b) and all(close(x, y, rel) for x, y in zip(a, b))
    return math.isclose(a, b, rel_tol=rel, abs_tol=1e-12)


def labels_in_language(widget, lang):
    """Every control has an accessible name, and the widget speaks the page's language."""
    for c in widget.locator("input[data-control]").all():
        cid = c.get_attribute("id")
        assert cid and widget.locator(f'label[for="{cid}"]').count() == 1, f"unlabelled control {c.get_attribute('data-control')}"
    words = widget.inner_text()
    if lang == "zh":
        assert CJK.search(widget.locator("legend, label, .cw-readout-label").first.inner_text() + words)
    else:
        labels = " ".join(widget.locator("legend, label, .cw-readout-label, caption, th[scope=col]").all_inner_texts())
        # English labels: the only Chinese left is the example sentence's tokens
        assert not CJK.search(re.sub(r"[小明把苹果给了王我饿今天下午们在公园里吃一个大西瓜]", "", labels)), labels


def _luminance(rgb: str) -> float:
    r, g, b = (int(c) / 255 for c in re.findall(r"\d+", rgb)[:3])
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(fg: str, bg: str) -> float:
    lf, lb = _luminance(fg), _luminance(bg)
    return (max(lf, lb) + 0.05) / (min(lf, lb) + 0.05)
