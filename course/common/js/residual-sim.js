// residual-sim: a stack of N randomly initialized sublayers, forward and backward, live in the browser.
// Twin: course/common/twins.py simulate() — same PRNG, seed, draw order, arithmetic and summation order;
// tests/test_chapter_browser.py and tests/test_residual_browser.py compare it with the twin in each
// lesson's mode. The spec (seed, width, tokens, ranges) and the defaults come from data-config
// (course/common/widgets.py), never from this file.
(function () {
  "use strict";
  var CW = window.CW;

  var L;  // the label table, from data-config (the widget's .labels.json)

  // The seeded draws, in the twin's order: x_0 (T·d), c (d), then W_1 … W_N (d·d each, row-major). A run with
  // N layers uses the first draws of a run with more, so they are drawn once per seed up to the largest N
  // and scaled on every change of N or gain: the same numbers a fresh draw gives, without redrawing them.
  var draws = {};
  function normals(spec, count) {
    var key = spec.seed + ":" + spec.width + ":" + spec.tokens, have = draws[key];
    if (have && have.z.length >= count) return have.z;
    var rng = new CW.Mulberry32(spec.seed), z = new Float64Array(count);
    for (var k = 0; k < count; k++) z[k] = rng.normal();
    draws[key] = { z: z };
    return z;
  }

  // The simulator itself. Returns the read-outs and the per-layer curves (see course/common/twins.py).
  function simulate(spec, N, gain, residual, prenorm, scale) {
    var d = spec.width, T = spec.tokens, eps = spec.eps;
    var z = normals(spec, T * d + d + Math.max(N, spec.layers_max) * d * d), k = 0;
    var x = new Float64Array(T * d), c = new Float64Array(d), i, j, t, l;
    for (i = 0; i < T * d; i++) x[i] = z[k++];
    var sqd = Math.sqrt(d);
    for (i = 0; i < d; i++) c[i] = z[k++] / sqd;
    var sd = gain / sqd, W = new Array(N);
    for (l = 0; l < N; l++) {
      var Wl = new Float64Array(d * d);
      for (i = 0; i < d * d; i++) Wl[i] = z[k++] * sd;
      W[l] = Wl;
    }
    var s = scale ? 1 / Math.sqrt(N) : 1;
    function rmsAll(m) { var a = 0; for (var k = 0; k < m.length; k++) a += m[k] * m[k]; return Math.sqrt(a / m.length); }

    var stream = [rmsAll(x)], read = [], write = [], U = new Array(N), F = new Array(N), R = new Array(N);
    for (l = 0; l < N; l++) {
      var u, r = null;
      if (prenorm) {
        u = new Float64Array(T * d); r = new Float64Array(T);
        for (t = 0; t < T; t++) {
          var ms = 0;
          for (j = 0; j < d; j++) ms += x[t * d + j] * x[t * d + j];
          r[t] = Math.sqrt(ms / d + eps);
          for (j = 0; j < d; j++) u[t * d + j] = x[t * d + j] / r[t];
        }
      } else {
        u = x;
      }
      var f = new Float64Array(T * d), nx = new Float64Array(T * d), w = W[l];
      for (t = 0; t < T; t++) {
        for (i = 0; i < d; i++) {
          var h = 0;
          for (j = 0; j < d; j++) h += w[i * d + j] * u[t * d + j];
          f[t * d + i] = Math.tanh(h);
        }
      }
      for (i = 0; i < T * d; i++) nx[i] = (residual ? x[i] : 0) + s * f[i];
      U[l] = u; F[l] = f; R[l] = r;
      read.push(rmsAll(u));
      write.push(s * rmsAll(f));
      x = nx;
      stream.push(rmsAll(x));
    }

    var g = new Float64Array(T * d), grad = new Array(N);
    for (t = 0; t < T; t++) for (i = 0; i < d; i++) g[t * d + i] = c[i] / T;
    var dh = new Float64Array(T * d), du = new Float64Array(T * d);
    for (l = N - 1; l >= 0; l--) {
      var wl = W[l], ul = U[l], fl = F[l], rl = R[l], ng = new Float64Array(T * d);
      for (i = 0; i < T * d; i++) dh[i] = s * g[i] * (1 - fl[i] * fl[i]);
      for (t = 0; t < T; t++) {
        for (j = 0; j < d; j++) {
          var a = 0;
          for (i = 0; i < d; i++) a += wl[i * d + j] * dh[t * d + i];
          du[t * d + j] = a;
        }
      }
      for (t = 0; t < T; t++) {
        if (prenorm) {
          var m = 0;
          for (j = 0; j < d; j++) m += du[t * d + j] * ul[t * d + j];
          m = m / d;
          for (j = 0; j < d; j++) ng[t * d + j] = (residual ? g[t * d + j] : 0) + (du[t * d + j] - ul[t * d + j] * m) / rl[t];
        } else {
          for (j = 0; j < d; j++) ng[t * d + j] = (residual ? g[t * d + j] : 0) + du[t * d + j];
        }
      }
      g = ng;
      var sq = 0;
      for (i = 0; i < T * d; i++) sq += g[i] * g[i];
      grad[l] = Math.sqrt(sq);
    }
    return { gradRatio: grad[0] / grad[N - 1], streamRms: stream[N], readRmsTop: read[N - 1],
             grad: grad, stream: stream, read: read, write: write };
  }

  function init(root, cfg) {
    L = cfg.labels;
    var spec = cfg.spec, digits = cfg.digits;
    var state = { layers: cfg.layers.value, gain: cfg.gain.value,
                  residual: cfg.toggles.residual, prenorm: cfg.toggles.prenorm, scale: cfg.toggles.scale };
    var out = {},
        streamChart = CW.el("div", { class: "cw-chart", role: "img", "aria-label": CW.fill(CW.t(L.chartLabel), { per: CW.t(L.perLayer), chart: CW.t(L.scaleTitle) }) }),
        gradChart = CW.el("div", { class: "cw-chart", role: "img", "aria-label": CW.fill(CW.t(L.chartLabel), { per: CW.t(L.perLayer), chart: CW.t(L.gradTitle) }) });

    function readout(name, label) { return CW.readout(out, name, CW.t(label)); }
    var layers = CW.slider({ label: CW.t(L.layers), control: "layers", min: spec.layers_min, max: spec.layers_max, step: 1,
                             value: state.layers, format: CW.integer, onchange: function (v) { state.layers = v; update(); } });
    var gain = CW.slider({ label: CW.t(L.gain), control: "gain", min: spec.gain_min, max: spec.gain_max, step: spec.gain_step,
                           value: state.gain, format: function (v) { return CW.fixed(v, 2); },
                           onchange: function (v) { state.gain = v; update(); } });
    var toggles = ["residual", "prenorm", "scale"].map(function (k) {
      return CW.toggle({ label: CW.t(L[k]), control: k, checked: state[k], onchange: function (v) { state[k] = v; update(); } });
    });
    root.appendChild(CW.el("div", { class: "cw-controls" }, [layers, gain,
      CW.el("fieldset", { class: "cw-toggles" }, [CW.el("legend", { text: CW.t(L.options) })].concat(toggles))]));
    root.appendChild(CW.el("div", { class: "cw-readouts" }, [
      readout("grad-ratio", L.gradRatio), readout("stream-rms", L.streamRms), readout("read-rms", L.readRms)]));
    root.appendChild(CW.el("div", { class: "cw-chart-pair" }, [streamChart, gradChart]));
    root.appendChild(CW.el("p", { class: "cw-note", text: CW.fill(CW.t(L.note), { seed: spec.seed, d: spec.width, T: spec.tokens }) }));

    var last = null;
    function draw() {
      if (!last) return;
      var col = CW.colors(), xs = [], xs0 = [];
      for (var l = 1; l <= last.grad.length; l++) xs.push(l);
      for (var k = 0; k < last.stream.length; k++) xs0.push(k);
      // two plots, not two subplots of one: .cw-chart-pair (course.css) stacks them on a narrow screen
      CW.plot(streamChart, [
        { x: xs0, y: last.stream, name: CW.t(L.streamCurve), mode: "lines", line: { color: col.a } },
        { x: xs, y: last.read, name: CW.t(L.readCurve), mode: "lines", line: { color: col.c, dash: "dot" } },
      ], { height: 320, xaxis: { title: { text: CW.t(L.layer) } },
           yaxis: { title: { text: CW.t(L.scaleTitle) }, rangemode: "tozero" } });
      CW.plot(gradChart, [
        { x: xs, y: last.grad, name: CW.t(L.gradCurve), mode: "lines", line: { color: col.b } },
      ], { height: 320, showlegend: true, xaxis: { title: { text: CW.t(L.layer) } },
           yaxis: Object.assign({ type: "log", title: { text: CW.t(L.gradTitle) } },
                                CW.logTicks(Math.min.apply(null, last.grad), Math.max.apply(null, last.grad))) });
    }
    function update() {
      last = simulate(spec, state.layers, state.gain, state.residual, state.prenorm, state.scale);
      // at the extremes the ratio is read in scientific form ("1.6e17", "3.5e−10"), not as 21 digits or 0.00
      CW.setReadout(out["grad-ratio"], last.gradRatio, CW.readable(last.gradRatio, digits));
      CW.setReadout(out["stream-rms"], last.streamRms, CW.fixed(last.streamRms, digits));
      CW.setReadout(out["read-rms"], last.readRmsTop, CW.fixed(last.readRmsTop, digits));
      // the chart follows at the next frame: a fast slider drag redraws it once per frame, not once per event
      if (!pending) { pending = true; requestAnimationFrame(function () { pending = false; draw(); }); }
    }
    var pending = false;
    draw.root = root;
    CW.onPalette(draw);
    update();
  }

  CW.residualSim = { simulate: simulate };
  CW.register("residual-sim", init);
})();
