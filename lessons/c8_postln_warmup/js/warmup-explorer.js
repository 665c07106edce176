// warmup-explorer: Adam's first steps on a stream of synthetic gradients, under a learning-rate schedule.
// Each of P parameters gets g_{t,i} = 10^scale · (signal · a_i + z_{t,i}), a_i and z drawn once from the
// course's seeded PRNG; the charts show the schedule and, per update, the RMS over the parameters of the
// step each takes, in units of the peak learning rate: bias-corrected Adam, Adam without the correction,
// bias-corrected Adam without warmup, and RAdam without warmup.
// Twin: lessons/c8_postln_warmup/twins.py explore() — same draws, order and arithmetic; the optimizer's
// settings and the run's length come from data-config (lessons/c8_postln_warmup/widgets.py).
(function () {
  "use strict";
  var CW = window.CW;
  var L;  // the label table, from data-config (the widget's .labels.json)

  var significant = CW.significant;

  var cache = {};
  function draws(spec, steps) {
    var key = spec.seed + ":" + spec.params + ":" + steps;
    if (cache[key]) return cache[key];
    var rng = new CW.Mulberry32(spec.seed), a = new Float64Array(spec.params), z = new Array(steps), i, t;
    for (i = 0; i < spec.params; i++) a[i] = rng.normal();
    for (t = 0; t < steps; t++) {
      z[t] = new Float64Array(spec.params);
      for (i = 0; i < spec.params; i++) z[t][i] = rng.normal();
    }
    cache[key] = { a: a, z: z };
    return cache[key];
  }

  // models/train.py lr_at: linear ramp (step + 1)/warmup, then constant or cosine down to minFraction
  function lrAt(step, warmup, total, after, minFraction) {
    if (step < warmup) return (step + 1) / warmup;
    if (after === "constant") return 1;
    var progress = (step - warmup) / Math.max(1, total - warmup);
    return minFraction + 0.5 * (1 + Math.cos(Math.PI * progress)) * (1 - minFraction);
  }

  // RAdam's rectification r_t (Liu et al. 2019, Algorithm 2), or null where rho_t <= 4
  function rectification(t, beta2) {
    var inf = 2 / (1 - beta2) - 1, b = Math.pow(beta2, t), rho = inf - 2 * t * b / (1 - b);
    if (rho <= 4) return null;
    return Math.sqrt((rho - 4) * (rho - 2) * inf / ((inf - 4) * (inf - 2) * rho));
  }

  function explore(cfg, beta2, warmup, after, logScale, signal) {
    var spec = cfg.spec, steps = cfg.steps.value, beta1 = cfg.beta1.value, P = spec.params, eps = spec.eps;
    var d = draws(spec, steps), scale = Math.pow(10, logScale), minF = cfg.minLrFraction;
    var m = new Float64Array(P), v = new Float64Array(P);
    var out = { lr: [], adam: [], nobc: [], flat: [], radam: [] };
    for (var t = 0; t < steps; t++) {
      var k = t + 1, c1 = 1 - Math.pow(beta1, k), c2 = 1 - Math.pow(beta2, k), r = rectification(k, beta2);
      var lr = lrAt(t, warmup, steps, after, minF), lr0 = lrAt(t, 0, steps, after, minF);
      var sA = 0, sN = 0, sF = 0, sR = 0, zt = d.z[t];
      for (var i = 0; i < P; i++) {
        var g = scale * (signal * d.a[i] + zt[i]);
        m[i] = beta1 * m[i] + (1 - beta1) * g;
        v[i] = beta2 * v[i] + (1 - beta2) * g * g;
        var mh = m[i] / c1, vh = v[i] / c2, q = mh / (Math.sqrt(vh) + eps);
        sA += (lr * q) * (lr * q);
        sF += (lr0 * q) * (lr0 * q);
        var n = lr * m[i] / (Math.sqrt(v[i]) + eps);
        sN += n * n;
        var rr = lr0 * (r === null ? mh : r * q);
        sR += rr * rr;
      }
      out.lr.push(lr);
      out.adam.push(Math.sqrt(sA / P));
      out.nobc.push(Math.sqrt(sN / P));
      out.flat.push(Math.sqrt(sF / P));
      out.radam.push(Math.sqrt(sR / P));
    }
    var travel = 0, travel0 = 0;
    for (var j = 0; j < spec.window; j++) { travel += out.adam[j]; travel0 += out.flat[j]; }
    out.step1 = out.adam[0];
    out.step1Nobc = out.nobc[0];
    out.travel = travel;
    out.travel0 = travel0;
    out.ratio = travel / travel0;
    return out;
  }

  function init(root, cfg) {
    L = cfg.labels;
    var spec = cfg.spec, lang = CW.lang(), digits = cfg.digits;
    var state = { warmup: spec.default_warmup, after: "cosine", beta2: "ours", scale: spec.default_scale,
                  signal: spec.default_signal };
    var out = {};
    function readout(name, label) { return CW.readout(out, name, CW.t(label)); }

    var warmup = CW.slider({ label: CW.t(L.warmup), control: "warmup", min: 0, max: spec.warmup_max, step: spec.warmup_step,
                             value: state.warmup, format: CW.integer, onchange: function (v) { state.warmup = v; update(); } });
    var scale = CW.slider({ label: CW.t(L.scale), control: "scale", min: spec.scale_min, max: spec.scale_max,
                            step: spec.scale_step, value: state.scale,
                            format: function (v) { return "10^" + CW.fixed(v, 1); },
                            onchange: function (v) { state.scale = v; update(); } });
    var signal = CW.slider({ label: CW.t(L.signal), control: "signal", min: spec.signal_min, max: spec.signal_max,
                             step: spec.signal_step, value: state.signal, format: function (v) { return CW.fixed(v, 1); },
                             onchange: function (v) { state.signal = v; update(); } });
    function radios(group, legend, options, key) {
      var name = CW.uid("cw-" + group);
      var items = options.map(function (o) {
        var id = CW.uid("cw-" + group + "-" + o.id);
        var input = CW.el("input", { type: "radio", name: name, id: id, value: o.id, "data-control": group + "-" + o.id,
                                     checked: state[key] === o.id });
        input.addEventListener("change", function () { if (input.checked) { state[key] = o.id; update(); } });
        return CW.el("div", { class: "cw-radio" }, [input, CW.el("label", { for: id, text: o.label })]);
      });
      return CW.el("fieldset", { class: "cw-radios" }, [CW.el("legend", { text: CW.t(legend) })].concat(items));
    }
    var afterBox = radios("after", L.after, [{ id: "cosine", label: CW.t(L.cosine) }, { id: "constant", label: CW.t(L.constant) }], "after");
    var betaBox = radios("beta2", L.beta2, ["ours", "vaswani", "adam"].map(function (k) {
      return { id: k, label: CW.fill(CW.t(L.beta2Choices[k]), { value: cfg.beta2[k].text[lang] }) };
    }), "beta2");

    var schedule = CW.el("div", { class: "cw-chart", role: "img", "aria-label": CW.t(L.scheduleTitle) });
    var stepsChart = CW.el("div", { class: "cw-chart", role: "img", "aria-label": CW.t(L.stepsTitle) });
    root.appendChild(CW.el("div", { class: "cw-controls" }, [warmup, afterBox, betaBox, scale, signal]));
    root.appendChild(CW.el("div", { class: "cw-readouts" }, [
      readout("step1", L.step1), readout("step1-nobc", L.step1Nobc), readout("travel", L.travel),
      readout("travel-nowarmup", L.travelNowarmup), readout("travel-ratio", L.travelRatio)]));
    root.appendChild(CW.el("div", { class: "cw-chart-pair" }, [schedule, stepsChart]));
    root.appendChild(CW.el("p", { class: "cw-note", text: CW.fill(CW.t(L.note), {
      peak: cfg.peak.text[lang], beta1: cfg.beta1.text[lang], params: CW.integer(spec.params),
      window: CW.integer(spec.window), eps: cfg.eps.text[lang], seed: spec.seed }) }));

    var last = null, pending = false;
    function draw() {
      if (!last) return;
      var col = CW.colors(), xs = [];
      for (var t = 1; t <= last.adam.length; t++) xs.push(t);
      var flatLr = xs.map(function (_, t) { return lrAt(t, 0, xs.length, state.after, cfg.minLrFraction); });
      CW.plot(schedule, [
        { x: xs, y: last.lr, name: CW.t(L.thisSchedule), mode: "lines", line: { color: col.a } },
        { x: xs, y: flatLr, name: CW.t(L.noWarmup), mode: "lines", line: { color: col.fg, dash: "dash", width: 1 } },
      ], { height: 320, xaxis: { title: { text: CW.t(L.update) } },
           yaxis: { title: { text: CW.t(L.lrAxis) }, rangemode: "tozero" }, title: { text: CW.t(L.scheduleTitle), font: { size: 13 } } });
      CW.plot(stepsChart, [
        { x: xs, y: last.adam, name: CW.t(L.adam), mode: "lines", line: { color: col.a } },
        { x: xs, y: last.nobc, name: CW.t(L.nobc), mode: "lines", line: { color: col.b } },
        { x: xs, y: last.flat, name: CW.t(L.flat), mode: "lines", line: { color: col.fg, dash: "dash", width: 1 } },
        { x: xs, y: last.radam, name: CW.t(L.radam), mode: "lines", line: { color: col.c, dash: "dot" } },
      ], { height: 320, xaxis: { title: { text: CW.t(L.update) } },
           yaxis: { type: "log", title: { text: CW.t(L.stepAxis) } }, title: { text: CW.t(L.stepsTitle), font: { size: 13 } } });
    }
    function update() {
      last = explore(cfg, cfg.beta2[state.beta2].value, state.warmup, state.after, state.scale, state.signal);
      CW.setReadout(out["step1"], last.step1, CW.fixed(last.step1, digits + 1));
      CW.setReadout(out["step1-nobc"], last.step1Nobc, CW.fixed(last.step1Nobc, digits + 1));
      CW.setReadout(out["travel"], last.travel, significant(last.travel, digits));
      CW.setReadout(out["travel-nowarmup"], last.travel0, significant(last.travel0, digits));
      CW.setReadout(out["travel-ratio"], last.ratio, CW.percent(last.ratio, 0));
      if (!pending) { pending = true; requestAnimationFrame(function () { pending = false; draw(); }); }
    }
    draw.root = root;
    CW.onPalette(draw);
    update();
  }

  CW.warmupExplorer = { explore: explore };
  CW.register("warmup-explorer", init);
})();
