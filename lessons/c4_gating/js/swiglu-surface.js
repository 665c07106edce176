// swiglu-surface: SiLU(a)·b, the gated FFN's product for one hidden unit, over a grid of gate inputs a and up
// inputs b. Without a clamp it grows without bound; with one (our small model's and DeepSeek-V4's form: the
// gate's input clamped from above at the limit, the up branch to ±limit) its maximum is SiLU(limit)·limit.
// Twin: lessons/c4_gating/formulas.py swiglu(), surface(). The limits (gpt-oss's and DeepSeek V4's
// swiglu_limit), the grid and the starting point come from the registry through data-config.
(function () {
  "use strict";
  var CW = window.CW;

  var L;  // the label table, from data-config (the widget's .labels.json)

  function silu(x) { return x / (1 + Math.exp(-x)); }
  function swiglu(a, b, limit) {
    if (limit !== null) { a = Math.min(a, limit); b = Math.max(-limit, Math.min(b, limit)); }
    return silu(a) * b;
  }
  function axis(extent, points) {
    var out = [];
    for (var i = 0; i < points; i++) out.push(-extent + 2 * extent * i / (points - 1));
    return out;
  }

  function init(root, cfg) {
    L = cfg.labels;
    var lang = CW.lang(), extent = cfg.extent.value, grid = axis(extent, cfg.points.value);
    var limits = cfg.limits.map(function (l) { return l === null ? null : l.value; });
    var state = { clamp: 0, a: cfg.point.value, b: cfg.point.value };
    var out = {};
    function readout(name, label) { return CW.readout(out, name, CW.t(label)); }
    function optionLabel(i) {
      if (limits[i] === null) return CW.t(L.none);
      return CW.fill(CW.t(i === 1 ? L.gptOss : L.deepseek), { limit: cfg.limits[i].text[lang] });
    }
    var group = CW.uid("cw-clamp");
    var radios = limits.map(function (_, i) {
      var id = CW.uid("cw-clamp-opt");
      var input = CW.el("input", { type: "radio", name: group, id: id, value: String(i), "data-control": "clamp",
                                   checked: i === state.clamp });
      input.addEventListener("change", function () { if (input.checked) { state.clamp = i; update(); } });
      return CW.el("div", { class: "cw-radio" }, [input, CW.el("label", { for: id, text: optionLabel(i) })]);
    });
    function slider(name, control) {
      return CW.slider({ label: CW.t(L[name]), control: control, min: -extent, max: extent, step: cfg.pointStep,
                         value: state[name], format: function (v) { return CW.fixed(v, 1); },
                         onchange: function (v) { state[name] = v; update(); } });
    }
    var chart = CW.el("div", { class: "cw-chart", role: "img", "aria-label": CW.t(L.chart) });
    root.appendChild(CW.el("fieldset", { class: "cw-radios" }, [CW.el("legend", { text: CW.t(L.clamp) })].concat(radios)));
    root.appendChild(CW.el("div", { class: "cw-controls" }, [slider("a", "gate-input"), slider("b", "up-input")]));
    root.appendChild(CW.el("div", { class: "cw-readouts" }, [readout("max", L.max), readout("min", L.min),
      readout("point", L.point), readout("point-unclamped", L.unclamped)]));
    root.appendChild(chart);
    root.appendChild(CW.el("p", { class: "cw-note", text: CW.t(L.note) }));

    var z = [];
    function surface() {
      var limit = limits[state.clamp];
      z = grid.map(function (b) { return grid.map(function (a) { return swiglu(a, b, limit); }); });
    }
    function draw() {
      var col = CW.colors();
      CW.plot(chart, [
        { type: "heatmap", x: grid, y: grid, z: z, zmid: 0, colorscale: "RdBu", reversescale: true,
          colorbar: { title: { text: "SiLU(a)·b" } }, hovertemplate: "a %{x}<br>b %{y}<br>SiLU(a)·b %{z:.2f}<extra></extra>" },
        { type: "scatter", mode: "markers", x: [state.a], y: [state.b], name: CW.t(L.point), showlegend: false,
          marker: { color: col.fg, size: cfg.markerSize, symbol: "circle-open", line: { width: 2 } } },
      ], { height: cfg.height, xaxis: { title: { text: CW.t(L.a) } }, yaxis: { title: { text: CW.t(L.b) } } });
    }
    draw.root = root;
    CW.onPalette(draw);
    var lastClamp = null;
    function update() {
      if (state.clamp !== lastClamp) { surface(); lastClamp = state.clamp; }
      var flat = [].concat.apply([], z), top = Math.max.apply(null, flat), bottom = Math.min.apply(null, flat);
      var p = swiglu(state.a, state.b, limits[state.clamp]), raw = swiglu(state.a, state.b, null);
      CW.setReadout(out.max, top, CW.fixed(top, cfg.digits));
      CW.setReadout(out.min, bottom, CW.fixed(bottom, cfg.digits));
      CW.setReadout(out.point, p, CW.fixed(p, cfg.digits));
      CW.setReadout(out["point-unclamped"], raw, CW.fixed(raw, cfg.digits));
      draw();
    }
    update();
  }

  CW.register("swiglu-surface", init);
})();
