// activation-explorer: ReLU, GELU (its tanh approximation, as GPT-2's code computes it) and SiLU as curves,
// with their values at a chosen x; and one SwiGLU hidden unit, SiLU(a) · b, as a heat map over the gate
// branch a and the up branch b. Twin: lessons/c4_ffn/formulas.py relu(), gelu_tanh(), course/common
// silu(), swiglu_product(). The range and the starting x, a, b are registry numbers (data-config).
(function () {
  "use strict";
  var CW = window.CW;

  var L;  // the label table, from data-config (the widget's .labels.json)

  var K = Math.sqrt(2 / Math.PI), CUBIC = 0.044715;   // GELU's tanh approximation
  var F = {
    relu: function (x) { return Math.max(0, x); },
    gelu: function (x) { return x * (1 + Math.tanh(K * (x + CUBIC * x * x * x))) / 2; },
    silu: function (x) { return x / (1 + Math.exp(-x)); },
  };
  var NAMES = ["relu", "gelu", "silu"];
  function product(a, b) { return F.silu(a) * b; }

  function init(root, cfg) {
    L = cfg.labels;
    var R = cfg.range.value, digits = cfg.digits;
    var state = { x: cfg.x.value, a: cfg.a.value, b: cfg.b.value };
    var out = {};
    function readout(name, label) { return CW.readout(out, name, label); }
    function fmt(v) { return CW.fixed(v, 2); }
    function slider(name, label, onchange) {
      return CW.slider({ label: CW.t(label), control: name, min: -R, max: R, step: cfg.step, value: state[name],
                         format: fmt, onchange: onchange });
    }
    var xs = [];
    for (var i = 0; i < cfg.samples; i++) xs.push(-R + (2 * R) * i / (cfg.samples - 1));
    var grid = [];
    for (var j = 0; j < cfg.grid; j++) grid.push(-R + (2 * R) * j / (cfg.grid - 1));

    var curves = CW.el("div", { class: "cw-chart", role: "img", "aria-label": CW.t(L.curvesChart) });
    var heat = CW.el("div", { class: "cw-chart", role: "img", "aria-label": CW.t(L.heatChart) });
    var x = slider("x", L.x, function (v) { state.x = v; update(); });
    var a = slider("a", L.a, function (v) { state.a = v; update(); });
    var b = slider("b", L.b, function (v) { state.b = v; update(); });

    root.appendChild(CW.el("p", { class: "cw-note", text: CW.t(L.curves) }));
    root.appendChild(CW.el("div", { class: "cw-controls" }, [x]));
    root.appendChild(CW.el("div", { class: "cw-readouts" }, NAMES.map(function (n) {
      return readout(n, CW.fill(CW.t(L.at), { name: CW.t(L.names[n]) }));
    })));
    root.appendChild(curves);
    root.appendChild(CW.el("p", { class: "cw-note", text: CW.t(L.swiglu) }));
    root.appendChild(CW.el("div", { class: "cw-controls" }, [a, b]));
    root.appendChild(CW.el("div", { class: "cw-readouts" }, [readout("silu-a", CW.t(L.silu_a)), readout("product", CW.t(L.product))]));
    root.appendChild(heat);
    root.appendChild(CW.el("p", { class: "cw-note", text: CW.t(L.note) }));

    function draw() {
      var col = CW.colors(), colors = { relu: col.a, gelu: col.b, silu: col.c };
      var dashes = { relu: "solid", gelu: "dash", silu: "dot" };
      var traces = NAMES.map(function (n) {
        return { x: xs, y: xs.map(F[n]), name: CW.t(L.names[n]), mode: "lines", line: { color: colors[n], dash: dashes[n], width: 2 } };
      });
      var lowest = Math.min.apply(null, traces.map(function (t) { return Math.min.apply(null, t.y); }));
      traces.push({ x: [state.x, state.x], y: [lowest, R], mode: "lines", showlegend: false, hoverinfo: "skip",
                    line: { color: col.fg, width: 1 } });
      CW.plot(curves, traces, { height: 320, xaxis: { title: { text: "x" }, range: [-R, R] } });
      var z = grid.map(function (bv) { return grid.map(function (av) { return product(av, bv); }); });
      CW.plot(heat, [
        { type: "heatmap", x: grid, y: grid, z: z, zmid: 0, colorscale: "RdBu", reversescale: true,
          colorbar: { title: { text: CW.t(L.product) } }, hovertemplate: "a %{x:.2f}, b %{y:.2f}: %{z:.2f}<extra></extra>" },
        { x: [state.a], y: [state.b], mode: "markers", showlegend: false, hoverinfo: "skip",
          marker: { color: "rgba(0,0,0,0)", size: 14, line: { color: col.fg, width: 2 } } },
      ], { height: 360, xaxis: { title: { text: "a" }, constrain: "domain" },
           yaxis: { title: { text: "b" }, scaleanchor: "x", constrain: "domain" } });
    }
    function update() {
      NAMES.forEach(function (n) { var v = F[n](state.x); CW.setReadout(out[n], v, CW.fixed(v, digits)); });
      var s = F.silu(state.a), p = product(state.a, state.b);
      CW.setReadout(out["silu-a"], s, CW.fixed(s, digits));
      CW.setReadout(out.product, p, CW.fixed(p, digits));
      draw();
    }
    draw.root = root;
    CW.onPalette(draw);
    update();
  }

  CW.register("activation-explorer", init);
})();
