// Draw every <div class="plotly-figure" data-figure="NAME"> from assets/figures/NAME.json with the
// site's one local plotly.js (loaded only on pages that have a figure). A figure file holds one
// {data, layout, alt} per language; colors follow the reader's palette (CW.layout, common.js) and are
// redrawn when the palette is switched.
(function () {
  var CW = window.CW;
  function siteBase() {
    var cfg = document.getElementById("__config");
    var base = cfg ? JSON.parse(cfg.textContent).base : ".";
    return new URL(base.replace(/\/?$/, "/"), location.href);
  }
  var cache = {};
  function plot(el, f) {
    Plotly.react(el, f.data, CW.layout(f.layout || {}), { responsive: true, displaylogo: false });
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
  function drawAll() {
    if (!window.Plotly) return;
    document.querySelectorAll(".plotly-figure[data-figure], .plotly-figure[data-inline]").forEach(draw);
  }
  drawAll.root = document.body;
  document$.subscribe(drawAll);
  CW.onPalette(drawAll);
})();
