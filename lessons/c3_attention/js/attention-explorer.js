// attention-explorer: one attention head on 小明把苹果给了小王, with hand-made teaching vectors (data-config,
// from teaching-vectors.json). The reader sets the scale multiplier m and the causal mask; the widget shows the
// weight matrix (softmax over each row's visible keys of m · q·k / √d), the row of 苹果 and its output Σ w·v.
// Twin: lessons/c3_attention/twins.py weights(), outputs().
(function () {
  "use strict";
  var CW = window.CW;

  function dot(a, b) { var s = 0; for (var i = 0; i < a.length; i++) s += a[i] * b[i]; return s; }
  // each row's weights (null where the mask hides a key); twin: twins.weights
  function weights(cfg, m, causal) {
    var d = cfg.q[0].length, n = cfg.tokens.length, out = [];
    for (var i = 0; i < n; i++) {
      var s = [], top = -Infinity;
      for (var j = 0; j < n; j++) {
        if (causal && j > i) { s.push(null); continue; }
        var x = m * dot(cfg.q[i], cfg.k[j]) / Math.sqrt(d);
        s.push(x); if (x > top) top = x;
      }
      var total = 0, e = s.map(function (x) { if (x === null) return null; var v = Math.exp(x - top); total += v; return v; });
      out.push(e.map(function (v) { return v === null ? null : v / total; }));
    }
    return out;
  }
  function outputs(cfg, w) {
    return w.map(function (row) {
      return cfg.v[0].map(function (_, c) {
        return row.reduce(function (s, x, j) { return s + (x || 0) * cfg.v[j][c]; }, 0);
      });
    });
  }
  function entropy(row) { return row.reduce(function (s, x) { return x ? s - x * Math.log(x) : s; }, 0); }

  function init(root, cfg) {
    var L = cfg.labels, n = cfg.tokens.length, state = { m: cfg.scale.default, causal: true }, out = {};
    var scale = CW.slider({ label: CW.t(L.scale), control: "scale", min: cfg.scale.min, max: cfg.scale.max,
                            step: cfg.scale.step, value: state.m, format: function (v) { return CW.fixed(v, 1); },
                            onchange: function (v) { state.m = v; update(); } });
    var mask = CW.toggle({ label: CW.t(L.mask), control: "mask", checked: true,
                           onchange: function (v) { state.causal = v; update(); } });
    var cells = [], head = CW.el("tr", null, [CW.el("th", { scope: "col", text: CW.t(L.query) })].concat(
      cfg.tokens.map(function (t) { return CW.el("th", { scope: "col", text: t }); })));
    var body = CW.el("tbody", null, cfg.tokens.map(function (t, i) {
      cells.push([]);
      return CW.el("tr", { "data-row": i, class: i === cfg.reader ? "att-reader" : null },
                   [CW.el("th", { scope: "row", text: t })].concat(cfg.tokens.map(function (_, j) {
                     var o = CW.el("output", { "data-readout": "w." + i + "." + j });
                     var td = CW.el("td", null, [o]);
                     cells[i].push({ td: td, out: o });
                     return td;
                   })));
    }));
    var table = CW.el("table", { class: "att-matrix" }, [CW.el("caption", { text: CW.t(L.matrix) }),
                                                         CW.el("thead", null, [head]), body]);
    var leak = CW.el("p", { class: "cw-alert", role: "status" });
    root.appendChild(CW.el("p", { class: "cw-note", text: CW.t(L.title) }));
    root.appendChild(CW.el("div", { class: "cw-controls" }, [scale, mask]));
    root.appendChild(CW.el("div", { class: "cw-scroll", tabindex: "0", role: "region", "aria-label": CW.t(L.matrix) }, [table]));
    root.appendChild(CW.el("div", { class: "cw-readouts" }, [
      CW.readout(out, "reader-weights", CW.t(L.readerWeights)), CW.readout(out, "reader-output", CW.t(L.readerOutput)),
      CW.readout(out, "reader-entropy", CW.t(L.readerEntropy))]));
    root.appendChild(leak);
    root.appendChild(CW.el("p", { class: "cw-note", text: CW.t(L.note) }));

    function update() {
      var w = weights(cfg, state.m, state.causal), o = outputs(cfg, w), r = cfg.reader;
      for (var i = 0; i < n; i++) {
        for (var j = 0; j < n; j++) {
          var x = w[i][j], c = cells[i][j];
          CW.setReadout(c.out, x, x === null ? CW.t(L.hidden) : CW.fixed(x, cfg.digits));
          c.td.className = x === null ? "att-hidden" : "";
          c.td.style.setProperty("--att-w", x === null ? "0%" : (cfg.percent * x) + "%");
        }
      }
      var row = w[r].filter(function (x) { return x !== null; });
      CW.setReadout(out["reader-weights"], w[r], CW.vector(row, cfg.digits));
      CW.setReadout(out["reader-output"], o[r], CW.vector(o[r], cfg.digits));
      CW.setReadout(out["reader-entropy"], entropy(w[r]), CW.fixed(entropy(w[r]), cfg.digits));
      leak.textContent = state.causal ? "" : CW.t(L.leak);
    }
    update();
  }

  CW.register("attention-explorer", init);
})();
