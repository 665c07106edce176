"""What fits a phone-width screen (390 px) on a lesson page: nothing overflows a widget, no axis title of a
chart lies on a plot area or on another title; formulas at a legible size, inside their box or in one that
scrolls and shows it; diagrams' text legible; every tab label on the screen and the selected one marked;
tables inside their box or in one that scrolls and shows it, no column too narrow for its words; no caption
where the back-to-top button floats (the check runs in tests/test_chart_layout.py's visit of every lesson at
that width, in both languages, with each content tab shown in turn). (That every chart draws with the
vendored plotly.js bundle is checked where every chart is drawn anyway: tests/test_chart_layout.py.)"""
import re

import pytest

from conftest import LANGS, page_url, placed
from course.paths import ROOT

PHONE = 390

SHOW_TAB_OF = """el => {  // a widget or figure in a content tab that is not selected: select that tab
    const block = el.closest('.tabbed-block');
    if (!block || block.offsetParent !== null) return false;
    const index = Array.from(block.parentElement.children).indexOf(block);
    block.closest('.tabbed-set').querySelectorAll(':scope > .tabbed-labels > label')[index].click();
    return true;
}"""

CHARTS_DRAWN = """() => [...document.querySelectorAll('.js-plotly-plot, .plotly-figure, .cw-chart')]
                     .every(e => e.querySelector('.main-svg'))"""

# each chart's axis titles must lie off every plot area and off each other
OVERLAPS = """root => {
    const box = e => e.getBoundingClientRect();
    const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
    const found = [];
    root.querySelectorAll('.js-plotly-plot').forEach(gd => {
        const titles = [...gd.querySelectorAll('g[class^="g-"][class$="title"] text')]
            .filter(t => t.textContent.trim() && !t.closest('.g-gtitle'));
        const areas = [...gd.querySelectorAll('.nsewdrag')];
        titles.forEach((t, i) => {
            areas.forEach(a => meet(box(t), box(a)) &&
                found.push(`axis title "${t.textContent}" lies on the plot area ${a.dataset.subplot}`));
            titles.slice(i + 1).forEach(u => meet(box(t), box(u)) &&
                found.push(`axis titles "${t.textContent}" and "${u.textContent}" overlap`));
        });
    });
    return found;
}"""


# contents entries showing raw TeX, and whether the page scrolls sideways
FORMULAS = """() => ({
    raw: [...document.querySelectorAll('.md-nav__link')].filter(a => a.textContent.includes('\\\\(')).map(a => a.textContent.trim()),
    sideways: document.documentElement.scrollWidth > innerWidth})"""

LEGIBLE_FORMULA = 0.85   # a formula's font size, at least this share of the body text's
LEGIBLE_DIAGRAM_PX = 11  # a diagram's text as drawn, after the drawing is scaled to its column

# What a phone reader meets on the page as it is shown now (what a hidden content tab holds is skipped).
# A box that scrolls sideways shows that it does by its scroll shadows (background-attachment: local,
# docs/assets/course.css); a formula's also takes the keyboard's focus.
PHONE_CHECKS = """([formulaShare, diagramPx]) => {
    const article = document.querySelector('article'), found = [], screen = {left: 0, right: innerWidth};
    const shown = e => e.getClientRects().length > 0;
    const srOnly = e => { for (let a = e; a && a !== article; a = a.parentElement) {
        const r = a.getBoundingClientRect(); if (r.width <= 1 || r.height <= 1) return true; } return false; };
    const scroller = e => { for (let a = e.parentElement; a && a !== article; a = a.parentElement)
        if (/auto|scroll/.test(getComputedStyle(a).overflowX)) return a; return null; };
    const marked = s => !!s && getComputedStyle(s).backgroundAttachment.split(',').some(v => v.trim() === 'local');
    const inside = (r, box) => r.left >= box.left - 1 && r.right <= box.right + 1;
    const name = e => (e.getAttribute('aria-label') || e.textContent).trim().replace(/\\s+/g, ' ').slice(0, 60);
    const body = parseFloat(getComputedStyle(article).fontSize);
    const textLines = e => {   // the lines an element's text (formulas aside) takes, and how long they are on average in em
        const walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT), mids = [], em = parseFloat(getComputedStyle(e).fontSize);
        let width = 0;
        for (let n; (n = walk.nextNode());) {
            if (!n.textContent.trim() || n.parentElement.closest('.katex')) continue;
            const range = document.createRange();
            range.selectNodeContents(n);
            [...range.getClientRects()].forEach(r => { if (r.width > 0) { width += r.width; mids.push((r.top + r.bottom) / 2); } });
        }
        mids.sort((a, b) => a - b);
        const lines = mids.filter((m, i) => i === 0 || m - mids[i - 1] > em / 2).length;
        return [lines, lines ? width / lines / em : 0];
    };

    article.querySelectorAll('.katex').forEach(k => {
        if (!shown(k)) return;
        const tex = name(k.querySelector('annotation') || k), size = parseFloat(getComputedStyle(k).fontSize);
        if (size < formulaShare * body - 0.01)
            found.push(`formula "${tex}" at ${size.toFixed(1)} px, the body text at ${body} px`);
        const block = k.closest('div.arithmatex') || k.parentElement.closest('p, li, td, th, dd, dt, caption, figcaption, summary, h1, h2, h3, h4, h5, h6, div');
        const box = block.getBoundingClientRect(), s = scroller(k);
        const out = [...k.querySelectorAll('.base')].some(b => {
            const r = b.getBoundingClientRect(); return r.width > 0 && !(inside(r, box) && inside(r, screen)); });
        if (out && !(marked(s) && (!s.matches('div.arithmatex') || s.tabIndex === 0)))
            found.push(`formula "${tex}" runs past its box (${Math.round(box.width)} px) and does not show that it scrolls`);
    });
    article.querySelectorAll('svg text, svg tspan').forEach(t => {
        if (t.closest('.js-plotly-plot') || !shown(t) || !t.textContent.trim()) return;
        const m = t.getScreenCTM(), px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
        if (px < diagramPx - 0.05) found.push(`diagram text "${name(t)}" drawn at ${px.toFixed(1)} px`);
    });
    article.querySelectorAll('table').forEach(t => {
        if (!shown(t) || srOnly(t)) return;
        const s = scroller(t), r = t.getBoundingClientRect(), label = name(t.caption || t);
        if ((!(inside(r, (s || t.parentElement).getBoundingClientRect()) && inside(r, screen)) && !marked(s))
                || (t.scrollWidth > t.clientWidth + 1 && !marked(t)))   // Material lets a table scroll itself
            found.push(`table "${label}" runs past its box (${Math.round(r.width)} px) and does not show that it scrolls`);
        t.querySelectorAll('th, td').forEach(c => {   // a column squeezed: 3 lines or more of a character or two
            if (srOnly(c)) return;
            const [lines, ems] = textLines(c);
            if (lines >= 3 && ems < 2.5)
                found.push(`table "${label}": "${c.textContent.trim().slice(0, 20)}" in ${lines} lines of ${ems.toFixed(1)} em on average`);
        });
    });
    article.querySelectorAll('.tabbed-set').forEach(set => {
        const labels = [...set.querySelectorAll(':scope > .tabbed-labels > label')];
        if (!labels.length || !shown(labels[0])) return;
        const row = labels[0].parentElement.getBoundingClientRect();
        labels.forEach(l => { const r = l.getBoundingClientRect();
            if (!(inside(r, row) && inside(r, screen)) && !marked(l.parentElement))
                found.push(`tab label "${name(l)}" lies past the edge (${Math.round(r.left)}..${Math.round(r.right)} px)`); });
        const selected = labels[[...set.querySelectorAll(':scope > input')].findIndex(i => i.checked)];
        const cs = getComputedStyle(selected);
        if (!(parseFloat(cs.borderBottomWidth) > 0 && !/rgba\\(.*, 0\\)$|transparent/.test(cs.borderBottomColor)))
            found.push(`the selected tab label "${name(selected)}" is not underlined`);
    });
    const top = document.querySelector('.md-top');
    if (top) {   // the back-to-top button, where it shows when the reader scrolls up
        const hidden = top.hidden;
        top.hidden = false;
        const b = top.getBoundingClientRect();
        top.hidden = hidden;
        article.querySelectorAll('caption, figcaption').forEach(c => {
            if (!shown(c) || srOnly(c)) return;
            const range = document.createRange(), s = scroller(c);
            range.selectNodeContents(c);
            const clip = s ? s.getBoundingClientRect() : {left: -Infinity, right: Infinity};
            if ([...range.getClientRects()].some(r => r.width > 0 && Math.max(r.left, clip.left) < b.right
                                                       && Math.min(r.right, clip.right) > b.left))
                found.push(`caption "${name(c)}" reaches under the back-to-top button (${Math.round(b.left)}..${Math.round(b.right)} px)`);
        });
    }
    return found;
}"""


def page_problems(v) -> list[str]:
    """PHONE_CHECKS on the page as it opens, then with each content tab shown in turn (each problem once)."""
    check = lambda: v.page.evaluate(PHONE_CHECKS, [LEGIBLE_FORMULA, LEGIBLE_DIAGRAM_PX])
    found = dict.fromkeys(check())
    labels = v.page.locator("article .tabbed-labels > label")
    for i in range(labels.count()):
        if labels.nth(i).is_visible():   # a tab set inside a tab not shown is seen when that tab is
            labels.nth(i).click()
            v.settle()
            found.update(dict.fromkeys(check()))
    return list(found)


# where each block of the lesson is, and the page's height
BLOCK_TOPS = """() => [...document.querySelectorAll('.md-content__inner > *')]
    .map(b => [[b.tagName.toLowerCase(), ...[...b.classList].filter(c => c !== 'laid-out')].join('.'),
               Math.round(b.getBoundingClientRect().top + scrollY)])
    .concat([['height', document.documentElement.scrollHeight]])"""
WHOLE = ".md-content__inner > *, .md-typeset div.arithmatex { content-visibility: visible !important; contain: none !important; }"


def spacing_problems(v) -> list[str]:
    """With scripts a lesson's blocks are laid out contained (docs/assets/course.css), which keeps their children's
    margins inside them; once every block is laid out, taking the containment off (as printing and a page
    without scripts do) must move no block."""
    v.settle()   # the pass that lays out every block (CW.layOutRest) has ended
    page = v.page
    contained = page.evaluate(BLOCK_TOPS)
    page.add_style_tag(content=WHOLE)
    whole = page.evaluate(BLOCK_TOPS)
    moved = [i for i, ((_, a), (_, b)) in enumerate(zip(contained, whole)) if abs(b - a) > 1]
    if not moved:
        return []
    i = moved[0]
    return [f"laid out without containment, {contained[i][0]} moves {whole[i][1] - contained[i][1]:+d} px, "
            f"after {contained[i - 1][0] if i else 'the top'} (and {len(moved) - 1} blocks below it)"]


def phone_problems(v, placed_widgets: list[str]) -> list[str]:
    """What does not fit on a lesson page opened at 390 px (tests/test_chart_layout.py calls this in its visit
    of every lesson at a phone's width): each widget the page places (`placed_widgets`: a lesson may place
    none) must lie inside the screen and its content inside it; each display formula must fit or scroll by
    itself; the contents list must render math, not TeX; containment moves no block (spacing_problems)."""
    page, where = v.page, v.page.url
    problems = []
    formulas = page.evaluate(FORMULAS)
    if formulas != {"raw": [], "sideways": False}:
        problems.append(f"{where}: formulas {formulas}")
    problems += [f"{where}: {p}" for p in page_problems(v)]
    roots = page.locator("[data-widget]")
    if roots.count() != len(placed_widgets):
        return problems + [f"{where}: {roots.count()} widgets drawn for {placed_widgets}"]
    for i in range(roots.count()):
        w = roots.nth(i)
        name = f'{where} {w.get_attribute("data-widget")} {w.get_attribute("data-mode") or ""}'
        w.evaluate(SHOW_TAB_OF)
        w.scroll_into_view_if_needed()
        v.settle()  # a chart drawn while hidden follows its new width
        page.wait_for_function(CHARTS_DRAWN, timeout=30000)
        box = w.bounding_box()
        if box["x"] < 0 or box["x"] + box["width"] > PHONE + 0.5:
            problems.append(f"{name}: spans x {box['x']:.0f}..{box['x'] + box['width']:.0f} of {PHONE}")
        inner = w.evaluate("e => [e.scrollWidth, e.clientWidth]")
        if inner[0] > inner[1] + 1:
            problems.append(f"{name}: its content is {inner[0]} px wide in {inner[1]} px")
        problems += [f"{name}: {p}" for p in w.evaluate(OVERLAPS)]
    return problems + [f"{where}: {p}" for p in spacing_problems(v)]


def test_some_lesson_places_a_widget(units):
    """The phone check of widgets has something to check (a lesson may place none; the course has some)."""
    assert any(placed(u.pages[0], "widget", lang) for u in units.lessons for lang in LANGS)


def test_the_ready_wait_waits_for_a_chart_being_drawn(open_page, units):
    """Visit.settle, which the browser tests wait on instead of a pause, sees a draw under way: CW.draw counts
    as busy until its last fitting pass is done, and a draw that never ends keeps the page from settling.
    On the first page that places a figure."""
    stem = next((p for u in units.all for p in u.pages if placed(p, "figure")), None)
    assert stem, "no page places a figure (<!-- figure:NAME -->) to draw"
    v = open_page(page_url(stem))
    busy_then_idle = v.page.evaluate("""() => {
        const gd = document.querySelector('.plotly-figure');
        const drawn = CW.draw(gd, gd.data, gd.layout, {displayModeBar: false});
        const busy = !CW.idle();
        return drawn.then(() => [busy, CW.idle()]);
    }""")
    assert busy_then_idle == [True, True]
    v.page.evaluate("() => { CW.track(new Promise(() => {})); }")
    with pytest.raises(AssertionError, match="chart draws"):
        v.settle(timeout_ms=500)


# What the issue's reader saw at 390 px, put back on a lesson page: a display formula shrunk to 70% that still
# runs past its box, a diagram scaled down to half its size, a table that squeezes a column and one that runs
# past its box, tab labels in one row that runs off the screen with no mark on the selected one, and a caption
# that reaches the screen's right edge.
AS_THE_ISSUE_SAW = """() => {
    const article = document.querySelector('article'), box = document.createElement('div');
    article.appendChild(box);
    const formula = document.createElement('div');
    formula.className = 'arithmatex';
    box.appendChild(formula);
    katex.render('\\\\frac{a+b+c+d+e+f+g+h+i+j+k+l+m+n+o+p+q+r+s+t+u+v+w+x+y+z}{2}', formula, {displayMode: true});
    formula.querySelector('.katex').style.fontSize = '70%';
    box.insertAdjacentHTML('beforeend', `
        <svg viewBox="0 0 640 60" style="width: 320px"><text x="10" y="40" style="font-size: 13px">a label</text></svg>
        <table><tr><td style="width: 1.5em">[1, 2, 3, 6]</td><td>[−1.069, −0.535, 0, 1.604]</td></tr></table>
        <div style="width: 200px"><table><tr><td style="white-space: nowrap">a row wider than its box, on one line</td></tr></table></div>
        <figure style="display: block; width: auto; margin: 0"><figcaption style="text-align: right; padding: 0">a caption as wide as the column</figcaption></figure>`);
    const style = document.createElement('style');
    style.textContent = `.md-typeset .tabbed-labels { flex-wrap: nowrap; }
        .md-typeset .tabbed-labels > label { white-space: nowrap; flex-shrink: 0; border-bottom-color: transparent !important; }`;
    document.head.appendChild(style);
    article.querySelectorAll('.tabbed-labels > label').forEach(l => (l.querySelector('a') || l).append(' (a long label)'));
}"""


def test_the_phone_check_sees_what_the_issue_saw(open_page, units):
    """The phone check is not blind: on a lesson page with content tabs at 390 px, what the issue's reader saw,
    put back, is found (each kind of problem)."""
    stem = next((p for u in units.lessons for p in u.pages
                 if (ROOT / "docs" / f"{p}.md").read_text(encoding="utf-8").count('=== "') >= 2), None)
    assert stem, "no lesson page has content tabs"
    v = open_page(page_url(stem), width=PHONE)
    assert v.page.evaluate(PHONE_CHECKS, [LEGIBLE_FORMULA, LEGIBLE_DIAGRAM_PX]) == [], "the page has problems of its own"
    v.page.add_script_tag(path=str(ROOT / "docs/assets/vendor/katex/katex.min.js"))  # pages load none: the build renders
    v.page.evaluate(AS_THE_ISSUE_SAW)
    found = "\n".join(v.page.evaluate(PHONE_CHECKS, [LEGIBLE_FORMULA, LEGIBLE_DIAGRAM_PX]))
    for seen in [r'formula "\\frac.*" at [\d.]+ px, the body text', r'formula "\\frac.*" runs past its box',
                 r'diagram text "a label" drawn at 6\.5 px', r'"\[1, 2, 3, 6\]" in \d lines',
                 r'table "a row wider than its box.*" runs past its box', r"tab label .* lies past the edge",
                 r"the selected tab label .* is not underlined", r'caption "a caption as wide .*" reaches under the back-to-top']:
        assert re.search(seen, found), f"not found: {seen}\nin:\n{found}"
