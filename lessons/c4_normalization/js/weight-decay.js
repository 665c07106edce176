// weight-decay: what decoupled weight decay alone does to a norm's gain. A standard gain g is the parameter
// itself and shrinks toward 0; a zero-centered gain stores w = gain − 1, applies 1 + w, and shrinks toward 1.
// Each step multiplies the parameter by (1 − lr·wd); lr and weight_decay are the project's (registry keys
// project.lr, project.weight_decay), like the defaults (wd.default_gain, wd.default_steps), via data-config.
// Twin: lessons/c4_normalization/formulas.py standard_gain_after_decay(), zero_centered_gain_after_decay().
(function () {
  "use strict";
  var CW = window.CW;

  var L;  // the label table, from data-config (the widget's .labels.json)

  function standardGain(g, k, steps) { return g * Math.pow(k, steps); }
  function zeroCenteredGain(g, k, steps) { return 1 + (g - 1) * Math.pow(k, steps); }

  function init(root, cfg) {
    L = cfg.labels;
    var lang = CW.lang(), digits = cfg.digits;
    var k = 1 - cfg.lr.value * cfg.weightDecay.value;
    var state = { gain: cfg.gain.value, steps: cfg.steps.value };
    var out = {};
    function readout(name, label) { return CW.readout(out, name, CW.t(label)); }
    var gain = CW.slider({ label: CW.t(L.gain), control: "trained-gain", min: cfg.gainRange.min, max: cfg.gainRange.max,
                           step: cfg.gainRange.step, value: state.gain, format: function (v) { return CW.fixed(v, 2); },
                           onchange: function (v) { state.gain = v; update(); } });
    var steps = CW.slider({ label: CW.t(L.steps), control: "steps", min: cfg.stepsRange.min, max: cfg.stepsRange.max,
                            step: cfg.stepsRange.step, value: state.steps, format: CW.integer,
                            onchange: function (v) { state.steps = v; update(); } });
    var chart = CW.el("div", { class: "cw-chart", role: "img", "aria-label": CW.t(L.chart) });
    root.appendChild(CW.el("div", { class: "cw-controls" }, [gain, steps]));
    root.appendChild(CW.el("p", { class: "cw-note", text: CW.fill(CW.t(L.factor), { lr: cfg.lr.text[lang], wd: cfg.weightDecay.text[lang] }) }));
    root.appendChild(CW.el("div", { class: "cw-readouts" }, [readout("standard-gain", L.standard), readout("zero-centered-gain", L.zero)]));
    root.appendChild(chart);
    root.appendChild(CW.el("p", { class: "cw-note", text: CW.t(L.note) }));

    function draw() {
      var col = CW.colors(), xs = [], gs = [], zs = [], end = Math.max(state.steps, cfg.stepsRange.max);
      for (var i = 0; i <= cfg.samples; i++) {
        var s = Math.round(end * i / cfg.samples);
        xs.push(s); gs.push(standardGain(state.gain, k, s)); zs.push(zeroCenteredGain(state.gain, k, s));
      }
      var g = standardGain(state.gain, k, state.steps), z = zeroCenteredGain(state.gain, k, state.steps);
      CW.plot(chart, [
        { x: xs, y: gs, name: CW.t(L.standard), mode: "lines", line: { color: col.b } },
        { x: xs, y: zs, name: CW.t(L.zero), mode: "lines", line: { color: col.a } },
        { x: [state.steps, state.steps], y: [g, z], name: CW.t(L.now), mode: "markers",
          marker: { color: col.fg, size: 11, symbol: "circle-open" } },
      ], { height: 320, xaxis: { title: { text: CW.t(L.step) } }, yaxis: { title: { text: CW.t(L.value) }, rangemode: "tozero" } });
    }
    function update() {
      var g = standardGain(state.gain, k, state.steps), z = zeroCenteredGain(state.gain, k, state.steps);
      CW.setReadout(out["standard-gain"], g, CW.fixed(g, digits));
      CW.setReadout(out["zero-centered-gain"], z, CW.fixed(z, digits));
      draw();
    }
    draw.root = root;
    CW.onPalette(draw);
    update();
  }

  CW.register("weight-decay", init);
})();
