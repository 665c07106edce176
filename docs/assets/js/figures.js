// Draw every <div class="plotly-figure" data-figure="NAME"> from assets/figures/NAME.json with the
// site's one local plotly.js. A figure file holds one {data, layout} per language; colors follow the
// reader's palette and are redrawn when the palette is switched.
(function () {
  function siteBase() {
    var cfg = document.getElementById("__config");
    var base = cfg ? JSON.parse(cfg.textContent).base : ".";
    return new URL(base.replace(/\/?$/, "/"), location.href);
  }
  function dark() {
    return document.body.getAttribute("data-md-color-scheme") === "slate";
  }
  function themed(layout) {
    var fg = dark() ? "#e6e6ef" : "#1f2330";
    var grid = dark() ? "#3a3f55" : "#dde1ea";
    var axis = { gridcolor: grid, zerolinecolor: grid, color: fg };
    var out = Object.assign({}, layout, {
      paper_bgcolor: "rgba(0,0,0,0)", plot_bgcolor: "rgba(0,0,0,0)",
      font: Object.assign({}, layout.font || {}, { color: fg }),
    });
    Object.keys(out).forEach(function (k) {
      if (/^[xy]axis\d*$/.test(k)) out[k] = Object.assign({}, out[k], axis);
    });
    if (!out.xaxis) out.xaxis = axis;
    if (!out.yaxis) out.yaxis = axis;
    return out;
  }
  var cache = {};
  function plot(el, f) {
    Plotly.react(el, f.data, themed(f.layout || {}), { responsive: true, displaylogo: false });
    el.dispatchEvent(new CustomEvent("figure:drawn", { bubbles: true }));
  }
  function draw(el) {
    if (el.dataset.inline) return plot(el, JSON.parse(el.dataset.inline)); // a notebook's own figure
    var name = el.dataset.figure, lang = el.dataset.lang || "zh";
    var url = new URL("assets/figures/" + name + ".json", siteBase());
    (cache[url] = cache[url] || fetch(url).then(function (r) { return r.json(); }))
      .then(function (fig) {
        var f = fig[lang] || fig.en;
        el.setAttribute("aria-label", f.alt || f.layout.title && f.layout.title.text || name);
        plot(el, f);
      });
  }
  function drawAll() { document.querySelectorAll(".plotly-figure[data-figure], .plotly-figure[data-inline]").forEach(draw); }
  document$.subscribe(drawAll);
  new MutationObserver(drawAll).observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
})();
