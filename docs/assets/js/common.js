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

  CW.lang = function () {
    var l = (document.documentElement.getAttribute("lang") || "zh").toLowerCase();
    return l.indexOf("zh") === 0 ? "zh" : "en";
  };
  // t({zh: "…", en: "…"}) → the label in the page's language
  CW.t = function (labels) {
    if (labels == null) return "";
    if (typeof labels === "string") return labels;
    var l = CW.lang();
    return labels[l] != null ? labels[l] : labels.en;
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
  CW.layout = function (extra) {
    var c = CW.colors();
    var axis = { gridcolor: c.grid, zerolinecolor: c.grid, color: c.fg };
    var out = Object.assign({
      paper_bgcolor: "rgba(0,0,0,0)", plot_bgcolor: "rgba(0,0,0,0)", font: { color: c.fg, size: 12 },
      margin: { l: 55, r: 15, t: 30, b: 45 }, legend: { orientation: "h", y: -0.3 },
    }, extra || {});
    Object.keys(out).forEach(function (k) {
      if (/^[xy]axis\d*$/.test(k)) out[k] = Object.assign({}, axis, out[k]);
    });
    return out;
  };
  CW.plot = function (node, data, layout) {
    if (!window.Plotly) return;
    window.Plotly.react(node, data, CW.layout(layout), { responsive: true, displaylogo: false, displayModeBar: false });
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
      var config = JSON.parse(root.getAttribute("data-config") || "{}");
      root.textContent = "";
      init(root, config, root.getAttribute("data-mode"));
      root.setAttribute("data-ready", "true");
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
