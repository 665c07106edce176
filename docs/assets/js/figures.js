// Draw every <div class="plotly-figure" data-figure="NAME"> from assets/figures/NAME.json with the
// site's one local plotly.js (loaded only on pages that have a figure). A figure file holds one
// {data, layout, alt, narrow?} per language; colors follow the reader's palette (CW.layout, common.js) and
// are redrawn when the palette is switched. CW.draw (common.js) fits the text to the figure's width; on a
// narrow screen (under 560 px) a figure's `narrow` layout, if it has one, is merged over its layout (two
// subplots side by side stacked, say). The modebar keeps two buttons: save as PNG, reset the axes.
(function () {
  var CW = window.CW;
  var NARROW = 560;
  var CONFIG = { responsive: true, displaylogo: false, modeBarButtons: [["toImage", "resetScale2d"]] };
  function siteBase() {
    var cfg = document.getElementById("__config");
    var base = cfg ? JSON.parse(cfg.textContent).base : ".";
    return new URL(base.replace(/\/?$/, "/"), location.href);
  }
  function merge(a, b) {   // b over a, recursively for plain objects
    var out = Object.assign({}, a);
    Object.keys(b || {}).forEach(function (k) {
      var x = a && a[k], y = b[k];
      out[k] = x && y && typeof x === "object" && typeof y === "object" && !Array.isArray(x) && !Array.isArray(y) ? merge(x, y) : y;
    });
    return out;
  }
  var cache = {};
  function plot(el, f, name) {
    el.__cwRedraw = function () { plot(el, f, name); };   // a new width may cross NARROW
    var layout = f.layout || {};
    if (f.narrow && (el.clientWidth || window.innerWidth) < NARROW) layout = merge(layout, f.narrow);
    var config = Object.assign({}, CONFIG, { toImageButtonOptions: { filename: name || "figure" } });
    return Promise.resolve(CW.draw(el, f.data, CW.layout(layout), config)).then(function () {
      el.classList.add("figure-drawn");
      el.dispatchEvent(new CustomEvent("figure:drawn", { bubbles: true }));
    });
  }
  function draw(el) {
    if (el.dataset.inline) return plot(el, JSON.parse(el.dataset.inline)); // a notebook's own figure
    var name = el.dataset.figure, lang = CW.lang(el);
    var url = new URL("assets/figures/" + name + ".json", siteBase());
    CW.track((cache[url] = cache[url] || fetch(url).then(function (r) { return r.json(); }))
      .then(function (fig) {
        var f = fig[lang];
        if (!f) { el.textContent = CW.missing("the figure " + name, lang); return; }
        el.setAttribute("aria-label", f.alt || f.layout.title && f.layout.title.text || name);
        return plot(el, f, name);
      }));
  }
  function drawAll() {
    if (!window.Plotly) return;
    document.querySelectorAll(".plotly-figure[data-figure], .plotly-figure[data-inline]").forEach(draw);
  }
  drawAll.root = document.body;
  document$.subscribe(drawAll);
  CW.onPalette(drawAll);
})();
