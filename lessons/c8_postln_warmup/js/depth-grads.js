// depth-grads: a random stack of L layers at initialization, in both placements, forward then backward.
// Layer l: Post-LN  x <- Norm(x + A(x)), x <- Norm(x + FFN(x));  Pre-Norm  x <- x + A(Norm(x)),
// x <- x + FFN(Norm(x)), with a final Norm. A is a causal mean over positions times W^V W^O (Xiong et al.'s
// attention with W^Q = W^K = 0), FFN(u) = ReLU(u W1) W2, Norm an RMSNorm with gain 1. The charts show the
// gradient of each layer's W2 (Xiong et al.'s W^2) at the chosen depth, and the last layer's against depth.
// Twin: lessons/c8_postln_warmup/twins.py stack() / depth_curve() — same draws, order and arithmetic;
// the spec and both initializations come from data-config (lessons/c8_postln_warmup/widgets.py).
(function () {
  "use strict";
  var CW = window.CW;
  var L;  // the label table, from data-config (the widget's .labels.json)

  var significant = CW.significant;

  var cache = {};
  function normals(spec) {
    var key = spec.seed + ":" + spec.width + ":" + spec.tokens + ":" + spec.layers_max;
    if (cache[key]) return cache[key];
    var n = 2 * spec.tokens * spec.width + spec.layers_max * 4 * spec.width * spec.width;
    var rng = new CW.Mulberry32(spec.seed), z = new Float64Array(n);
    for (var k = 0; k < n; k++) z[k] = rng.normal();
    cache[key] = z;
    return z;
  }

  // C = A W (A: T x d, W: d x d row-major, starting at W[off]) times s
  function mul(A, W, off, s, T, d) {
    var C = new Float64Array(T * d);
    for (var t = 0; t < T; t++) for (var c = 0; c < d; c++) {
      var a = 0;
      for (var j = 0; j < d; j++) a += A[t * d + j] * W[off + j * d + c];
      C[t * d + c] = a * s;
    }
    return C;
  }
  // C = G W^T (the backward of mul), times s
  function mulT(G, W, off, s, T, d) {
    var C = new Float64Array(T * d);
    for (var t = 0; t < T; t++) for (var j = 0; j < d; j++) {
      var a = 0;
      for (var c = 0; c < d; c++) a += G[t * d + c] * W[off + j * d + c];
      C[t * d + j] = a * s;
    }
    return C;
  }
  function norm(x, T, d, eps) {
    var y = new Float64Array(T * d), r = new Float64Array(T);
    for (var t = 0; t < T; t++) {
      var ms = 0;
      for (var j = 0; j < d; j++) ms += x[t * d + j] * x[t * d + j];
      r[t] = Math.sqrt(ms / d + eps);
      for (j = 0; j < d; j++) y[t * d + j] = x[t * d + j] / r[t];
    }
    return { y: y, r: r };
  }
  function normBack(g, y, r, T, d) {
    var out = new Float64Array(T * d);
    for (var t = 0; t < T; t++) {
      var m = 0;
      for (var j = 0; j < d; j++) m += g[t * d + j] * y[t * d + j];
      m = m / d;
      for (j = 0; j < d; j++) out[t * d + j] = (g[t * d + j] - y[t * d + j] * m) / r[t];
    }
    return out;
  }
  function causalMean(u, T, d) {
    var out = new Float64Array(T * d), acc = new Float64Array(d);
    for (var t = 0; t < T; t++) for (var j = 0; j < d; j++) { acc[j] += u[t * d + j]; out[t * d + j] = acc[j] / (t + 1); }
    return out;
  }
  // the backward of causalMean: g_u[j] = sum over t >= j of g[t] / (t + 1)
  function causalMeanBack(g, T, d) {
    var out = new Float64Array(T * d), acc = new Float64Array(d);
    for (var t = T - 1; t >= 0; t--) for (var j = 0; j < d; j++) { acc[j] += g[t * d + j] / (t + 1); out[t * d + j] = acc[j]; }
    return out;
  }
  function add(a, b) { var o = new Float64Array(a.length); for (var i = 0; i < a.length; i++) o[i] = a[i] + b[i]; return o; }
  function rms(x) { var a = 0; for (var i = 0; i < x.length; i++) a += x[i] * x[i]; return Math.sqrt(a / x.length); }

  function stack(spec, layers, placement, preset, scale, eps) {
    var d = spec.width, T = spec.tokens, z = normals(spec), dd = d * d, i, l, t;
    var x = new Float64Array(T * d), gy = new Float64Array(T * d);
    for (i = 0; i < T * d; i++) x[i] = z[i] * preset.input_std;
    for (i = 0; i < T * d; i++) gy[i] = z[T * d + i] / T;
    var base = 2 * T * d, s = scale ? 1 / Math.sqrt(2 * layers) : 1, sd = preset.weight_std;
    var offs = [], cache = [], lastIn = null;
    for (l = 0; l < layers; l++) offs.push(base + l * 4 * dd);
    // the four matrices of layer l start at offs[l] + 0, dd, 2dd, 3dd (W^V, W^O, W1, W2); W^O and W2 carry s
    for (l = 0; l < layers; l++) {
      var o = offs[l], c = {};
      if (placement === "post") {
        var x1 = add(x, mul(mul(causalMean(x, T, d), z, o, sd, T, d), z, o + dd, sd * s, T, d));
        var n1 = norm(x1, T, d, eps);
        c.h = mul(n1.y, z, o + 2 * dd, sd, T, d);
        c.hr = c.h.map(function (v) { return v > 0 ? v : 0; });
        var x3 = add(n1.y, mul(c.hr, z, o + 3 * dd, sd * s, T, d));
        var n2 = norm(x3, T, d, eps);
        c.x2 = n1.y; c.r1 = n1.r; c.out = n2.y; c.r2 = n2.r;
        lastIn = x3;
        x = n2.y;
      } else {
        var nu = norm(x, T, d, eps);
        var y1 = add(x, mul(mul(causalMean(nu.y, T, d), z, o, sd, T, d), z, o + dd, sd * s, T, d));
        var nv = norm(y1, T, d, eps);
        c.h = mul(nv.y, z, o + 2 * dd, sd, T, d);
        c.hr = c.h.map(function (v) { return v > 0 ? v : 0; });
        c.u = nu.y; c.ru = nu.r; c.v = nv.y; c.rv = nv.r;
        x = add(y1, mul(c.hr, z, o + 3 * dd, sd * s, T, d));
      }
      cache.push(c);
    }
    var g;
    if (placement === "pre") {
      lastIn = x;
      var nf = norm(x, T, d, eps);
      g = normBack(gy, nf.y, nf.r, T, d);
    } else {
      g = gy;
    }
    var grads = new Array(layers);
    function w2Grad(hr, gg) {
      var sq = 0;
      for (var a = 0; a < d; a++) for (var b = 0; b < d; b++) {
        var acc = 0;
        for (var tt = 0; tt < T; tt++) acc += hr[tt * d + a] * gg[tt * d + b];
        sq += acc * acc;
      }
      return Math.sqrt(sq);
    }
    function relu(gg, h) { var out = new Float64Array(gg.length); for (var k = 0; k < gg.length; k++) out[k] = h[k] > 0 ? gg[k] : 0; return out; }
    for (l = layers - 1; l >= 0; l--) {
      var oo = offs[l], cc = cache[l];
      if (placement === "post") {
        var g3 = normBack(g, cc.out, cc.r2, T, d);
        grads[l] = w2Grad(cc.hr, g3);
        var g2 = add(g3, mulT(relu(mulT(g3, z, oo + 3 * dd, sd * s, T, d), cc.h), z, oo + 2 * dd, sd, T, d));
        var g1 = normBack(g2, cc.x2, cc.r1, T, d);
        var ga = mulT(mulT(g1, z, oo + dd, sd * s, T, d), z, oo, sd, T, d);
        g = add(g1, causalMeanBack(ga, T, d));
      } else {
        grads[l] = w2Grad(cc.hr, g);
        var h1 = add(g, normBack(mulT(relu(mulT(g, z, oo + 3 * dd, sd * s, T, d), cc.h), z, oo + 2 * dd, sd, T, d), cc.v, cc.rv, T, d));
        var gb = mulT(mulT(h1, z, oo + dd, sd * s, T, d), z, oo, sd, T, d);
        g = add(h1, normBack(causalMeanBack(gb, T, d), cc.u, cc.ru, T, d));
      }
    }
    return { w2: grads, lastRms: rms(lastIn) };
  }

  function curve(spec, preset, scale, eps) {
    var out = { post: [], pre: [], preRms: [], postRms: [] };
    spec.depths.forEach(function (n) {
      var a = stack(spec, n, "post", preset, scale, eps), b = stack(spec, n, "pre", preset, scale, eps);
      out.post.push(a.w2[n - 1]); out.pre.push(b.w2[n - 1]); out.postRms.push(a.lastRms); out.preRms.push(b.lastRms);
    });
    return out;
  }

  function init(root, cfg) {
    L = cfg.labels;
    var spec = cfg.spec, digits = cfg.digits, eps = cfg.eps.value, lang = CW.lang();
    var state = { layers: spec.default_layers, preset: "xavier", scale: false };
    var out = {};
    function readout(name, label) { return CW.readout(out, name, CW.t(label)); }
    var layers = CW.slider({ label: CW.t(L.layers), control: "layers", min: spec.layers_min, max: spec.layers_max, step: 1,
                             value: state.layers, format: CW.integer, onchange: function (v) { state.layers = v; update(); } });
    var group = CW.uid("cw-init");
    var presetBox = CW.el("fieldset", { class: "cw-radios" }, [CW.el("legend", { text: CW.t(L.init) })].concat(
      ["xavier", "ours"].map(function (k) {
        var id = CW.uid("cw-init-" + k);
        var input = CW.el("input", { type: "radio", name: group, id: id, value: k, "data-control": "init-" + k, checked: state.preset === k });
        input.addEventListener("change", function () { if (input.checked) { state.preset = k; update(); } });
        return CW.el("div", { class: "cw-radio" }, [input, CW.el("label", { for: id, text: CW.t(L.presets[k]) })]);
      })));
    var scale = CW.toggle({ label: CW.t(L.scale), control: "scale", checked: state.scale,
                            onchange: function (v) { state.scale = v; update(); } });
    var perLayer = CW.el("div", { class: "cw-chart", role: "img", "aria-label": CW.t(L.perLayerTitle) });
    var byDepth = CW.el("div", { class: "cw-chart", role: "img", "aria-label": CW.t(L.depthTitle) });
    root.appendChild(CW.el("div", { class: "cw-controls" }, [layers, presetBox, CW.el("fieldset", { class: "cw-toggles" },
      [CW.el("legend", { text: CW.t(L.options) }), scale])]));
    root.appendChild(CW.el("div", { class: "cw-readouts" }, [
      readout("post-last", L.postLast), readout("pre-last", L.preLast), readout("pre-over-post", L.preOverPost),
      readout("pre-rms", L.preRms), readout("post-depth-ratio", L.postDepthRatio), readout("pre-depth-ratio", L.preDepthRatio)]));
    root.appendChild(CW.el("div", { class: "cw-chart-pair" }, [perLayer, byDepth]));
    root.appendChild(CW.el("p", { class: "cw-note", text: CW.fill(CW.t(L.note), {
      d: spec.width, T: spec.tokens, seed: spec.seed, std: cfg.initStd.text[lang], dModel: cfg.dModel.text[lang] }) }));

    var curves = {}, now = null, pending = false;
    function key() { return state.preset + ":" + state.scale; }
    function draw() {
      if (!now) return;
      var col = CW.colors(), xs = [], c = curves[key()];
      for (var l = 1; l <= now.post.w2.length; l++) xs.push(l);
      CW.plot(perLayer, [
        { x: xs, y: now.post.w2, name: CW.t(L.post), mode: "lines+markers", line: { color: col.d } },
        { x: xs, y: now.pre.w2, name: CW.t(L.pre), mode: "lines+markers", line: { color: col.a } },
      ], { height: 320, xaxis: { title: { text: CW.t(L.layer) } }, yaxis: { type: "log", title: { text: CW.t(L.gradAxis) } },
           title: { text: CW.t(L.perLayerTitle), font: { size: 13 } } });
      var guide = spec.depths.map(function (n) { return c.pre[0] * Math.sqrt(spec.depths[0] / n); });
      var matched = c.pre.map(function (v, i) { return v * c.preRms[i]; });
      CW.plot(byDepth, [
        { x: spec.depths, y: c.post, name: CW.t(L.post), mode: "lines+markers", line: { color: col.d } },
        { x: spec.depths, y: c.pre, name: CW.t(L.pre), mode: "lines+markers", line: { color: col.a } },
        { x: spec.depths, y: matched, name: CW.t(L.preMatched), mode: "lines+markers", line: { color: col.c, dash: "dot" } },
        { x: spec.depths, y: guide, name: CW.t(L.guide), mode: "lines", line: { color: col.fg, dash: "dash", width: 1 } },
      ], { height: 320, xaxis: { type: "log", title: { text: CW.t(L.depth) } }, yaxis: { type: "log", title: { text: CW.t(L.lastAxis) } },
           title: { text: CW.t(L.depthTitle), font: { size: 13 } } });
    }
    function update() {
      var preset = cfg.presets[state.preset];
      if (!curves[key()]) curves[key()] = curve(spec, preset, state.scale, eps);
      var c = curves[key()], n = state.layers;
      now = { post: stack(spec, n, "post", preset, state.scale, eps), pre: stack(spec, n, "pre", preset, state.scale, eps) };
      var a = now.post.w2[n - 1], b = now.pre.w2[n - 1], last = c.post.length - 1;
      CW.setReadout(out["post-last"], a, significant(a, digits));
      CW.setReadout(out["pre-last"], b, significant(b, digits));
      CW.setReadout(out["pre-over-post"], b / a, significant(b / a, digits));
      CW.setReadout(out["pre-rms"], now.pre.lastRms, significant(now.pre.lastRms, digits));
      CW.setReadout(out["post-depth-ratio"], c.post[last] / c.post[0], CW.fixed(c.post[last] / c.post[0], 2));
      CW.setReadout(out["pre-depth-ratio"], c.pre[last] / c.pre[0], CW.fixed(c.pre[last] / c.pre[0], 2));
      if (!pending) { pending = true; requestAnimationFrame(function () { pending = false; draw(); }); }
    }
    draw.root = root;
    CW.onPalette(draw);
    update();
  }

  CW.depthGrads = { stack: stack, curve: curve };
  CW.register("depth-grads", init);
})();
