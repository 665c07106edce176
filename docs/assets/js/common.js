// The helper layer every widget shares (window.CW): DOM building, number formatting that matches
// course/core/formats.py (format.js), labels in the page's language, the seeded PRNG of course/common/twins.py, palette-aware
// chart layouts, and (re-)initialization on mkdocs-material's document$.
//
// A widget registers itself with CW.register(NAME, init); init(root, config, mode) runs once for every
// <div data-widget="NAME" data-config="…"> on the page, after every page switch. Its settings (numbers
// from the registry) arrive in data-config, written by course/core/widgets.py.
(function () {
  "use strict";
  var CW = (window.CW = window.CW || {});
  var inits = {};

  // ------------------------------------------------------------ language

  // The page's language is the one the build wrote: on <html lang>, and on a widget's root and a figure
  // (data-lang), each one of the project's languages (course/project.py). A label is one text per language
  // (a widget's *.labels.json) or one text for all; a label without the page's language is an error the
  // console names and the page shows (⟨LANG?⟩), never another language's text.
  CW.lang = function (el) {
    var holder = el && el.closest ? el.closest("[data-lang]") : null;
    return (holder && holder.dataset.lang) || document.documentElement.getAttribute("lang") || "";
  };
  CW.missing = function (what, lang) {
    console.error("course: " + what + " has no text in the page's language (" + (lang || "none") + ")");
    return "\u27e8" + lang + "?\u27e9";
  };
  // t(label) → the label in the page's language
  CW.t = function (labels) {
    if (labels == null) return "";
    if (typeof labels === "string") return labels;
    var l = CW.lang();
    return typeof labels[l] === "string" ? labels[l] : CW.missing("the label " + JSON.stringify(labels).slice(0, 160), l);
  };
  // fill("{a} of {b}", {a: 1, b: 2})
  CW.fill = function (text, values) {
    return text.replace(/\{(\w+)\}/g, function (m, k) { return values[k] != null ? values[k] : m; });
  };

  // ------------------------------------------------------------ numbers (format.js: the rules of course/core/formats.py)

  CW.fixed = CWFormat.fixed;
  CW.integer = CWFormat.integer;
  CW.percent = CWFormat.percent;
  CW.vector = CWFormat.vector;
  CW.parse = CWFormat.parse;
  CW.readable = CWFormat.readable;
  CW.significant = CWFormat.significant;
  // the ticks of a log axis over [lo, hi] (data values), labelled as numbers: powers of ten where the
  // range spans a decade or more (every k-th, for six at most), else 4–6 round values inside it; plotly.js's
  // own labels there are single digits ("9 8 7 … 3" for 0.9 … 0.3)
  CW.logTicks = function (lo, hi) {
    if (!(lo > 0) || !(hi > 0)) return {};
    if (hi < lo) { var s = lo; lo = hi; hi = s; }
    if (hi - lo <= 1e-9 * hi) return { tickmode: "array", tickvals: [lo], ticktext: [CWFormat.readable(lo, 2)] };  // one value
    var a = Math.log10(lo), b = Math.log10(hi), vals = [];
    function label(v) {
      var e = Math.round(Math.log10(v));
      if (Math.abs(v - Math.pow(10, e)) < 1e-9 * v && (e < -3 || e > 5)) return CWFormat.scientific2(v);
      if (v >= 1e-3 && v < 1e6) return CWFormat.fixed(v, Math.max(0, Math.min(6, -Math.floor(Math.log10(v)) + 1)))
        .replace(/(\.\d*?)0+$/, "$1").replace(/\.$/, "");
      return CWFormat.scientific2(v);
    }
    if (Math.floor(b) - Math.ceil(a) >= 1) {
      var k = Math.max(1, Math.ceil((Math.floor(b) - Math.ceil(a) + 1) / 6));
      for (var e = Math.ceil(a); e <= Math.floor(b); e += k) vals.push(Math.pow(10, e));
    } else {
      var raw = (hi - lo) / 4, p = Math.pow(10, Math.floor(Math.log10(raw))), step = [1, 2, 2.5, 5, 10]
        .map(function (m) { return m * p; }).filter(function (st) { return st >= raw * 0.7; })[0];
      for (var v = Math.ceil(lo / step) * step; v <= hi * (1 + 1e-9); v += step) vals.push(Number(v.toPrecision(12)));
      if (vals.length < 2) vals = [lo, hi].map(function (x) { return Number(x.toPrecision(2)); });
      // as many decimals as the step needs (0.005 → 3, 2.5 → 1), so no two ticks read alike
      var dec = Math.max(0, Math.ceil(-Math.log10(step) - 1e-9));
      if (Math.abs(step * Math.pow(10, dec) - Math.round(step * Math.pow(10, dec))) > 1e-6) dec += 1;
      if (vals[0] >= 1e-3 && vals[vals.length - 1] < 1e6)
        return { tickmode: "array", tickvals: vals, ticktext: vals.map(function (x) { return CWFormat.fixed(x, dec); }) };
    }
    return { tickmode: "array", tickvals: vals, ticktext: vals.map(label) };
  };

  // ------------------------------------------------------------ the seeded PRNG (twin: course/common/twins.py Mulberry32)

  // mulberry32: uniform() in [0, 1); normal() is Box–Muller's cosine branch with u1 = 1 − uniform().
  CW.Mulberry32 = function (seed) {
    var a = seed >>> 0;
    this.uniform = function () {
      a = (a + 0x6D2B79F5) >>> 0;
      var t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1) >>> 0;
      t = ((t + (Math.imul(t ^ (t >>> 7), t | 61) >>> 0)) >>> 0 ^ t) >>> 0;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    this.normal = function () {
      var u1 = 1 - this.uniform(), u2 = this.uniform();
      return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    };
  };

  // ------------------------------------------------------------ DOM

  var counter = 0;
  CW.uid = function (prefix) { counter += 1; return (prefix || "cw") + "-" + counter; };
  // el("button", {type: "button", "data-control": "reset", onclick: fn}, ["text", childNode])
  CW.el = function (tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      var v = attrs[k];
      if (v == null || v === false) return;
      if (k.indexOf("on") === 0 && typeof v === "function") e.addEventListener(k.slice(2), v);
      else if (k === "text") e.textContent = v;
      else if (k === "class") e.className = v;
      else e.setAttribute(k, v === true ? "" : v);
    });
    [].concat(children || []).forEach(function (c) {
      if (c == null) return;
      e.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
    });
    return e;
  };
  // a read-out: text for the reader, the full-precision value in data-value for anyone who checks
  CW.setReadout = function (node, value, text) {
    node.textContent = text;
    node.setAttribute("data-value", JSON.stringify(value));
  };
  // a labelled read-out: out[name] becomes its <output>, which CW.setReadout fills; returns the block
  CW.readout = function (out, name, label) {
    out[name] = CW.el("output", { class: "cw-readout-value", "data-readout": name, "aria-live": "polite" });
    return CW.el("div", { class: "cw-readout" }, [CW.el("span", { class: "cw-readout-label", text: label }), out[name]]);
  };
  // a labelled slider with its current value shown beside it
  CW.slider = function (opts) {
    var id = CW.uid("cw-range");
    var out = CW.el("output", { for: id, class: "cw-value" });
    var input = CW.el("input", {
      type: "range", id: id, min: opts.min, max: opts.max, step: opts.step, value: opts.value,
      "data-control": opts.control,
    });
    function show() { out.textContent = opts.format(Number(input.value)); input.setAttribute("aria-valuetext", out.textContent); }
    input.addEventListener("input", function () { show(); opts.onchange(Number(input.value)); });
    show();
    var wrap = CW.el("div", { class: "cw-field" }, [CW.el("label", { for: id, text: opts.label }), input, out]);
    wrap.input = input;
    wrap.set = function (v) { input.value = v; show(); };
    return wrap;
  };
  // a labelled checkbox
  CW.toggle = function (opts) {
    var id = CW.uid("cw-check");
    var input = CW.el("input", { type: "checkbox", id: id, "data-control": opts.control, checked: opts.checked });
    input.addEventListener("change", function () { opts.onchange(input.checked); });
    var wrap = CW.el("div", { class: "cw-toggle" }, [input, CW.el("label", { for: id, text: opts.label })]);
    wrap.input = input;
    return wrap;
  };

  // ------------------------------------------------------------ palette and charts

  CW.dark = function () { return document.body.getAttribute("data-md-color-scheme") === "slate"; };
  CW.colors = function () {
    return CW.dark()
      ? { fg: "#e6e6ef", grid: "#3a3f55", a: "#8ab4ff", b: "#ffb74d", c: "#81c995", d: "#f28b82" }
      : { fg: "#1f2330", grid: "#dde1ea", a: "#2f4fb5", b: "#c25400", c: "#1b7a3d", d: "#b3261e" };
  };
  CW.SMALL_TITLE = 13;   // the font size of a small chart's title beside another (px)
  CW.layout = function (extra) {
    var c = CW.colors();
    var axis = { gridcolor: c.grid, zerolinecolor: c.grid, color: c.fg, automargin: true };
    var out = Object.assign({
      paper_bgcolor: "rgba(0,0,0,0)", plot_bgcolor: "rgba(0,0,0,0)", font: { color: c.fg, size: 12 },
      margin: { l: 55, r: 15, t: 30, b: 45 }, legend: { orientation: "h" },
    }, extra || {});
    Object.keys(out).forEach(function (k) {
      if (/^[xy]axis\d*$/.test(k)) out[k] = Object.assign({}, axis, out[k]);
    });
    return out;
  };

  // ------------------------------------------------------------ charts that fit their box (390 px to desktop)
  // A chart's text is placed by measure, not by a fraction of its plot: the title at the top left, below
  // the band where the modebar shows on hover, wrapped to the chart's width; the legend at the chart's
  // bottom, under the x axis and its title, wrapped by plotly.js into rows; axis titles wrapped to their
  // axis. CW.fit does what can be computed before drawing; CW.settle measures the drawn chart (legend rows,
  // tick labels) and moves the margins once, growing the chart where its plot would get too short.
  // Dotted and dashed traces are drawn 2 px wide at least, so they stay visible on the dark palette.
  var MODEBAR_BAND = 36, LINE = 1.3;
  var ctx2d = null;
  CW.fontFamily = function () { return getComputedStyle(document.body).fontFamily || "sans-serif"; };
  function textWidth(text, px) {
    ctx2d = ctx2d || document.createElement("canvas").getContext("2d");
    ctx2d.font = px + "px " + CW.fontFamily();
    return ctx2d.measureText(text.replace(/<[^>]+>/g, "").replace(/&[a-z]+;|&#\d+;/g, "x")).width;
  }
  var CJK_CHAR = "\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f";
  var TOKENS = new RegExp("[" + CJK_CHAR + "]|[^\\s" + CJK_CHAR + "]+\\s*|\\s+", "g");
  var NO_START = /^[，。、：；！？）」』》〉,.;:!?)\]}%]/, NO_END = /[（「『《〈(\[{]$/;
  // lines no wider than max px: broken at spaces, or between two Chinese characters, never before closing
  // punctuation or after an opening bracket
  function wrapLine(text, px, max) {
    var tokens = text.match(TOKENS) || [], lines = [], cur = "";
    tokens.forEach(function (tok) {
      if (cur.trim() && !NO_START.test(tok) && textWidth((cur + tok).trim(), px) > max) {
        var carry = "";
        while (NO_END.test(cur.trimEnd())) { var t = cur.trimEnd(); carry = t.slice(-1) + carry; cur = t.slice(0, -1); }
        lines.push(cur.trim());
        cur = carry + tok.replace(/^\s+/, "");
      } else {
        cur += tok;
      }
    });
    if (cur.trim()) lines.push(cur.trim());
    return lines.length ? lines : [text];
  }
  // a plotly.js text ("…<br><sub>…</sub>") wrapped to max px; returns {text, lines (in units of the font size)}
  CW.wrapText = function (text, px, max) {
    var size = 0;
    var out = String(text == null ? "" : text).split(/<br\s*\/?>/i).map(function (seg) {
      var sub = /^\s*<sub>([\s\S]*)<\/sub>\s*$/i.exec(seg);
      if (sub) {
        var ls = wrapLine(sub[1], px * 0.8, max);
        size += ls.length * 0.8;
        return ls.map(function (l) { return "<sub>" + l + "</sub>"; }).join("<br>");
      }
      if (/<[a-z]/i.test(seg)) { size += 1; return seg; }  // other markup: left as written
      var lines = wrapLine(seg, px, max);
      size += lines.length;
      return lines.join("<br>");
    }).join("<br>");
    return { text: out, lines: size };
  };
  function titleOf(t) { return t == null ? null : typeof t === "string" ? { text: t } : Object.assign({}, t); }
  function legendShown(data, layout) {
    if (layout.showlegend === false) return false;
    var entries = data.filter(function (t) { return t.showlegend !== false && t.visible !== false; }).length;
    return layout.showlegend === true ? entries > 0 : entries > 1;
  }

  // layout → the layout to draw in `node` (its width now), given whether the modebar shows
  CW.fit = function (node, data, layout, modebar) {
    var W = node.clientWidth || 600, narrow = W < 560, L = Object.assign({}, layout);
    var px = narrow ? 11 : 12, cached = node.__cwFit || {};
    L.font = Object.assign({}, L.font, { family: CW.fontFamily() });
    if (narrow) L.font.size = Math.min(L.font.size || px, px);
    var m = L.margin = Object.assign({ l: 55, r: 15, t: 30, b: 45 }, L.margin);
    m.l = Math.min(m.l, narrow ? 44 : 60);   // the y axes' automargin makes room for their tick labels
    if (narrow) m.r = Math.min(m.r, 40);
    var top = modebar ? MODEBAR_BAND : 6, t = titleOf(L.title);
    m.t = top + 4;
    if (t && t.text) {
      var tpx = Math.min((t.font && t.font.size) || 15, narrow ? 13.5 : 15);
      var w = CW.wrapText(t.text, tpx, W - 16);
      L.title = Object.assign(t, { text: w.text, font: Object.assign({}, t.font, { size: tpx }), x: 0, xref: "container",
                                   xanchor: "left", y: 1, yref: "container", yanchor: "top", pad: { t: top + tpx, l: 8, r: 8, b: 0 } });
      m.t = top + Math.ceil(w.lines * tpx * LINE) + 12;   // plotly.js sets the first line's baseline at pad.t
    }
    (L.updatemenus || []).forEach(function (u) { if ((u.y == null ? 1 : u.y) >= 1) m.t += 36; });
    var H = L.height || 450, used = node.__cwRoomUsed = {};   // the width each axis title was wrapped to
    Object.keys(L).forEach(function (k) {
      if (!/^[xy]axis\d*$/.test(k)) return;
      var a = L[k] = Object.assign({ automargin: true }, L[k]), at = titleOf(a.title);
      if (!at || !at.text) return;
      var apx = (at.font && at.font.size) || Math.round((L.font.size || px) * 1.17);   // plotly.js: 14 px for 12
      var room = k[0] === "x" ? (W - m.l - m.r) * ((a.domain ? a.domain[1] - a.domain[0] : 1)) - 8
                              : (H - m.t - m.b) * ((a.domain ? a.domain[1] - a.domain[0] : 1)) - 8;
      if (cached.room && cached.room[k]) room = Math.min(room, cached.room[k]);
      used[k] = Math.max(room, 60);
      a.title = Object.assign(at, { text: CW.wrapText(at.text.replace(/<br\s*\/?>/gi, " "), apx, used[k]).text });
    });
    if (legendShown(data, L)) {
      L.legend = Object.assign({}, L.legend, { orientation: "h", x: 0, xref: "container", xanchor: "left",
                                               y: 0, yref: "container", yanchor: "bottom", itemwidth: 30 });
      L.legend.font = Object.assign({ size: narrow ? 11 : 12 }, L.legend.font);
    }
    if (cached.t != null) { m.t = Math.max(m.t, cached.t); m.b = cached.b; L.height = cached.height; }
    return L;
  };
  // thicker dotted and dashed lines (data is copied, not changed)
  CW.visibleDashes = function (data) {
    return data.map(function (t) {
      var line = t.line;
      if (!line || !line.dash || line.dash === "solid" || (line.width || 2) >= 2) return t;
      return Object.assign({}, t, { line: Object.assign({}, line, { width: 2 }) });
    });
  };
  // the drawn chart → the margins and height that make its text fit; relayouts once if they differ
  CW.settle = function (node, layout) {
    var box = node.getBoundingClientRect(), rect = function (e) { return e.getBoundingClientRect(); };
    var areas = [].map.call(node.querySelectorAll(".nsewdrag"), rect);
    if (!areas.length || !box.height) return;
    var plotTop = Math.min.apply(null, areas.map(function (a) { return a.top; }));
    var plotBottom = Math.max.apply(null, areas.map(function (a) { return a.bottom; }));
    var lowest = plotBottom;
    node.querySelectorAll('.xaxislayer-above text, g[class^="g-x"][class$="title"] text').forEach(function (e) {
      var r = rect(e); if (r.height && e.textContent.trim()) lowest = Math.max(lowest, r.bottom);
    });
    var bg = node.querySelector(".legend .bg"), legend = bg ? rect(bg).height : 0;
    var m = layout.margin, full = node._fullLayout, H = full ? full.height : layout.height || 450;
    var b = Math.ceil(m.b + (lowest - plotBottom) + (legend ? 10 + legend + 4 : 6) - (box.bottom - plotBottom));
    var t = m.t, title = node.querySelector(".g-gtitle text");
    if (title && rect(title).height) {
      var menus = node.querySelector(".updatemenu-container"), mr = menus && rect(menus);
      var above = mr && mr.height && mr.bottom <= plotTop + 1 ? plotTop - mr.top + 6 : 8;
      t = Math.max(m.t, Math.ceil(rect(title).bottom - box.top + above));
    }
    // an axis title longer than its plot, or out of the chart's box: wrap it to the plot (the next draw does)
    var room = {};
    node.querySelectorAll('g[class^="g-x"][class$="title"] text, g[class^="g-y"][class$="title"] text').forEach(function (e) {
      var cls = e.closest("g").getAttribute("class"), k = cls[2] + "axis" + cls.slice(3, -5), r = rect(e);
      var y = k[0] === "y", own = areas.filter(function (a, i) {
        var sp = node.querySelectorAll(".nsewdrag")[i].getAttribute("data-subplot") || "xy";
        var ax = y ? sp.slice(sp.indexOf("y")) : sp.slice(0, sp.indexOf("y"));
        return ax === k[0] + k.slice(5);
      });
      // a y title has its plot's height; an x title, centered under its plot, may reach either edge of the chart
      var extent = Math.min.apply(null, (own.length ? own : areas).map(function (a) {
        var cx = (a.left + a.right) / 2;
        return y ? a.height : Math.max(a.width, 2 * Math.min(box.right - cx, cx - box.left) - 8);
      }));
      var out = r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1;
      var length = y ? r.height : r.width, want = extent - 12, had = (node.__cwRoomUsed || {})[k] || want;
      if (length > extent - 4 || out) room[k] = Math.max(60, Math.min(want, had * want / length));
    });
    var minPlot = box.width < 560 ? 190 : 230;
    var plot = (plotBottom - plotTop) - (t - m.t) - (b - m.b);
    var height = Math.round(H + Math.max(0, minPlot - plot));
    var prev = node.__cwFit || { room: {} }, roomChanged = false;
    Object.keys(room).forEach(function (k) {
      if (!prev.room[k] || Math.abs(prev.room[k] - room[k]) > 4) roomChanged = true;
    });
    var fit = { t: t, b: Math.max(b, 20), height: height, room: Object.assign({}, prev.room, room) };
    node.__cwFit = fit;
    // plotly.js draws a margin of max(asked, what its automargin pushes for): where the push already exceeds
    // what was asked, asking for any margin up to the push draws the same chart, so it is no reason to draw again
    var drawn = full && full._size || {};
    function moves(want, asked, side) {
      var pushed = drawn[side] > asked + 1;
      return Math.abs(want - asked) > 2 && !(pushed && want <= drawn[side] + 1);
    }
    var changed = moves(t, m.t, "t") || moves(fit.b, m.b, "b") || Math.abs(height - H) > 2 || roomChanged;
    return changed ? fit : null;
  };
  // a chart whose width changes (a window resized, a content tab opened) is fitted again
  var resized = window.ResizeObserver && new ResizeObserver(function (entries) {
    entries.forEach(function (e) {
      var n = e.target, w = Math.round(e.contentRect.width);
      if (!n.__cwLast || !w || Math.abs(w - (n.__cwWidth || 0)) < 2) return;
      n.__cwFit = null;
      if (n.__cwRedraw) n.__cwRedraw(); else CW.draw.apply(null, [n].concat(n.__cwLast));
    });
  });
  // the draws (and figure fetches) still under way: CW.idle() is true once every chart has settled, which
  // is what a page's tests wait for instead of a fixed pause
  var busy = 0;
  CW.track = function (promise) {
    busy++;
    return Promise.resolve(promise).finally(function () { busy--; });
  };
  CW.idle = function () { return busy === 0; };

  // ------------------------------------------------------------ loading when a reader comes near

  // A widget initializes, and a figure fetches its data and draws, when it comes within a screen's height of
  // the viewport (scrolled to, a tab or a block opened, focus moved there), so the first view parses no chart
  // code; CW.wakeAll() starts everything still waiting (before printing; the tests, which then wait for it).
  // plotly.js loads with the first chart drawn: the page names it in <meta name="course-plotly">.
  var waiting = new Map();
  var near = window.IntersectionObserver && new IntersectionObserver(function (entries) {
    entries.forEach(function (e) { if (e.isIntersecting) wake(e.target); });
  }, { rootMargin: "100% 0px" });
  function wake(el) {
    var fn = waiting.get(el);
    if (!fn) return;
    waiting.delete(el);
    near.unobserve(el);
    layOut(el);
    fn();
  }
  CW.whenNear = function (el, fn) {
    if (!near || CW.eager) { layOut(el); return fn(); }
    waiting.set(el, fn);
    near.observe(el);
  };
  CW.wakeAll = function () {
    CW.eager = true;
    Array.from(waiting.keys()).forEach(wake);
  };
  window.addEventListener("beforeprint", function () { CW.wakeAll(); });

  // a lesson's blocks: what course.css defers, what the pass lays out and what the reader's place counts in
  var BLOCK = ".md-content__inner > *";
  function blocks() { return document.querySelectorAll(BLOCK); }
  // the block that holds el, laid out now (a screen away, the browser would still skip it): what starts there
  // measures what it draws, and a skipped block's measures are not its own
  function layOut(el) {
    var block = el.closest(BLOCK);
    if (block && getComputedStyle(block).contentVisibility === "auto") block.classList.add("laid-out");
  }
  // A block of a lesson is laid out when a reader comes near it (course.css: content-visibility, on a page whose
  // scripts run). Once the page has loaded, CW.layOutRest lays out the rest, in document order, a few blocks per
  // task of about 8 ms, so that no task keeps a tap waiting, and the page's height and positions become true (an
  // accessibility checker, the scroll bar and a jump to a heading read them). What course.css defers is what it
  // lays out; CW.idle() waits for it.
  CW.layOutRest = function () {
    var all = Array.from(document.querySelectorAll(BLOCK + ", .md-content__inner div.arithmatex"));
    return CW.track(new Promise(function (resolve) {
      (function step() {
        try {
          var end = performance.now() + 8;
          while (all.length && performance.now() < end) {
            var block = all.shift();
            if (getComputedStyle(block).contentVisibility !== "auto") continue;
            block.classList.add("laid-out");
            void block.offsetHeight;   // laid out now, within this task's time
          }
        } finally {
          if (all.length) setTimeout(step, 0); else resolve();
        }
      })();
    }));
  };
  // in a task of its own: on a fast network the load event comes in the same task as DOMContentLoaded, whose
  // handlers (Material's components measuring the page) are long enough already
  function layOutLater() { setTimeout(function () { CW.layOutRest(); }, 0); }
  if (document.readyState === "complete") layOutLater();
  else window.addEventListener("load", layOutLater);

  // The reader's place, kept in the page's history entry. The browser restores a reloaded page (or one reached by
  // going back, out of its cache) at the same offset in pixels, once it has loaded; while blocks above still have
  // guessed heights (above) and widgets have not started, that offset is somewhere else in the lesson. So where
  // the browser keeps the view still as heights above change (scroll anchoring), the page keeps its place itself
  // (overrides/main.html turns the browser's off there): the first block that begins in the view and where, or,
  // inside a block longer than the view, how far into it. It returns there as soon as the page's blocks exist and
  // on going back or forward within the page (after a link to a heading), and again whenever that block's own
  // height changes (a widget in it starting), until the reader scrolls, taps or types.
  var ours = history.scrollRestoration === "manual", keeping = 0;
  function keepPlace() {
    var all = blocks(), place = null;
    for (var i = 0; i < all.length && !place; i++) {
      var box = all[i].getBoundingClientRect();
      if (box.height && box.bottom > 0) {
        var next = box.top < 0 && all[i + 1] && all[i + 1].getBoundingClientRect().top;
        place = next !== false && next < window.innerHeight ? { block: i + 1, into: Math.round(-next) }
          : { block: i, into: Math.round(-box.top) };
      }
    }
    try { history.replaceState(Object.assign({}, history.state, { coursePlace: place }), ""); } catch (e) { /* a sandboxed frame */ }
  }
  var INPUT = ["wheel", "touchstart", "pointerdown", "keydown"], held = null, holding = 0;
  function letGo() {
    if (held) held.disconnect();
    held = null;
    clearTimeout(holding);
    INPUT.forEach(function (type) { window.removeEventListener(type, letGo, true); });
  }
  function returnTo(place) {
    var el = place && typeof place.block === "number" && blocks()[place.block];
    if (!el) return;
    letGo();
    layOut(el);
    var go = function () { window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY + (+place.into || 0)); };
    go();
    if (!window.ResizeObserver) return;
    held = new ResizeObserver(go);
    held.observe(el);
    INPUT.forEach(function (type) { window.addEventListener(type, letGo, { capture: true, passive: true }); });
    holding = setTimeout(letGo, 10000);
  }
  if (ours) {
    try { returnTo((history.state || {}).coursePlace); } catch (e) { console.warn("course: the reader's place", e); }
    window.addEventListener("popstate", function (e) { returnTo((e.state || {}).coursePlace); });
    window.addEventListener("scroll", function () { clearTimeout(keeping); keeping = setTimeout(keepPlace, 200); }, { passive: true });
    window.addEventListener("pagehide", keepPlace);
    // a link within the page makes a new history entry: the place it leaves is kept first
    document.addEventListener("click", function (e) {
      if (e.target.closest && e.target.closest('a[href^="#"]')) keepPlace();
    }, true);
  }
  var plotly = null;
  CW.plotly = function () {
    if (window.Plotly) return Promise.resolve(window.Plotly);
    return plotly = plotly || new Promise(function (resolve, reject) {
      var named = document.querySelector('meta[name="course-plotly"]'), s = document.createElement("script");
      if (!named) return reject(new Error("course: a chart on a page that names no plotly.js"));
      s.src = named.getAttribute("content");
      s.onload = function () { resolve(window.Plotly); };
      s.onerror = function () { plotly = null; reject(new Error("course: plotly.js did not load from " + s.src)); };
      document.head.appendChild(s);
    });
  };
  // draw `layout` in node, fitted; `config` is plotly's; resolves once the text has been fitted
  CW.draw = function (node, data, layout, config) {
    if (!window.Plotly) {
      var args = arguments;
      return CW.track(CW.plotly().then(function () { return CW.draw.apply(null, args); }));
    }
    var modebar = config.displayModeBar !== false;
    var d = CW.visibleDashes(data);
    if (!node.__cwLast && resized) resized.observe(node);
    node.__cwLast = [data, layout, config];
    node.__cwWidth = Math.round(node.clientWidth);
    function pass(n) {   // draw, measure, and draw again while the text does not fit yet (four draws at most)
      var L = CW.fit(node, d, layout, modebar);
      return Promise.resolve(window.Plotly.react(node, d, L, config)).then(function () {
        if (CW.settle(node, L) && n < 4) return pass(n + 1);
      });
    }
    return CW.track(pass(1));
  };
  CW.plot = function (node, data, layout) {
    return CW.draw(node, data, CW.layout(layout), { responsive: true, displaylogo: false, displayModeBar: false });
  };
  var paletteWatchers = [];
  CW.onPalette = function (fn) { paletteWatchers.push(fn); };

  // ------------------------------------------------------------ registration and page switches

  CW.register = function (name, init) { inits[name] = init; };
  CW.initAll = function () {
    paletteWatchers = paletteWatchers.filter(function (fn) { return fn.root && document.body.contains(fn.root); });
    document.querySelectorAll("[data-widget]").forEach(function (root) {
      var init = inits[root.getAttribute("data-widget")];
      if (!init || root.getAttribute("data-ready") === "true") return;
      CW.whenNear(root, function () {
        if (root.getAttribute("data-ready") === "true" || !document.body.contains(root)) return;
        var config = JSON.parse(root.getAttribute("data-config") || "{}");
        root.textContent = "";
        init(root, config, root.getAttribute("data-mode"));
        root.setAttribute("data-ready", "true");
      });
    });
  };
  function start() {
    if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(CW.initAll);
    else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", CW.initAll);
    else CW.initAll();
    new MutationObserver(function () { paletteWatchers.forEach(function (fn) { fn(); }); })
      .observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
  }
  // the widget modules load after this file and register synchronously; start once they have
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else setTimeout(start, 0);
})();
