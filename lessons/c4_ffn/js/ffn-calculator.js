// ffn-calculator: what one FFN costs. The reader sets d and d_ff/d (or picks a model's preset) and the form,
// two matrices (W_1, W_2) or SwiGLU's three (gate, up, down); the widget shows d_ff, the weights per layer
// (matrices × d × d_ff) and the width at which the other form would have the same weights
// (d_ff × matrices / other matrices). Twin: lessons/c4_ffn/formulas.py ffn_params(), equal_params_width().
// Every preset's d and d_ff are registry numbers (data-config), so nothing here is a model's size.
(function () {
  "use strict";
  var CW = window.CW;

  var L;  // the label table, from data-config (the widget's .labels.json)

  function init(root, cfg) {
    L = cfg.labels;
    var lang = CW.lang(), M = cfg.matrices;
    var byId = {};
    cfg.presets.forEach(function (p) { byId[p.id] = p; });
    var state = { d: 0, width: 0, kind: "swiglu", preset: null };
    var out = {};
    function readout(name, label) { return CW.readout(out, name, label); }
    function other(kind) { return kind === "swiglu" ? "two_matrix" : "swiglu"; }
    function presetName(p) {
      if (p.id === "project") return CW.t(L.project);
      return p.id === "anchor" ? CW.fill(CW.t(L.anchorTag), { name: p.name }) : p.name;
    }

    var presetButtons = cfg.presets.map(function (p) {
      return CW.el("button", { type: "button", class: "md-button cw-button", "data-control": "preset", "data-preset": p.id,
                               "aria-pressed": "false", onclick: function () { choose(p.id); }, text: presetName(p) });
    });
    var group = CW.uid("cw-form");
    var radios = {};
    var form = CW.el("fieldset", { class: "cw-form" }, [CW.el("legend", { text: CW.t(L.form) })].concat(
      ["two_matrix", "swiglu"].map(function (kind) {
        var id = CW.uid("cw-kind");
        radios[kind] = CW.el("input", { type: "radio", name: group, id: id, value: kind, "data-control": "kind" });
        radios[kind].addEventListener("change", function () { if (radios[kind].checked) { state.kind = kind; state.preset = null; update(); } });
        return CW.el("div", { class: "cw-radio" }, [radios[kind], CW.el("label", { for: id, text: CW.t(L.kinds[kind]) })]);
      })));
    var dSlider = CW.slider({ label: CW.t(L.d), control: "d", min: cfg.dRange.min, max: cfg.dRange.max, step: cfg.dRange.step,
                              value: cfg.dRange.min, format: CW.integer,
                              onchange: function (v) {
                                var r = state.width / state.d;
                                state.d = v; state.width = Math.round(r * v); state.preset = null; update();
                              } });
    var ratioSlider = CW.slider({ label: CW.t(L.ratio), control: "ratio", min: cfg.ratioRange.min, max: cfg.ratioRange.max,
                                  step: cfg.ratioRange.step, value: cfg.ratioRange.min,
                                  format: function () { return CW.fixed(state.width / state.d, 2); },
                                  onchange: function (v) { state.width = Math.round(v * state.d); state.preset = null; update(); } });

    root.appendChild(CW.el("p", { class: "cw-note", text: CW.t(L.title) }));
    root.appendChild(CW.el("div", { class: "cw-buttons", role: "group", "aria-label": CW.t(L.presets) }, presetButtons));
    root.appendChild(CW.el("div", { class: "cw-controls" }, [form, dSlider, ratioSlider]));
    root.appendChild(CW.el("div", { class: "cw-readouts" }, [
      readout("width", CW.t(L.width)), readout("params", CW.t(L.params)), readout("sum", CW.t(L.sum)),
      readout("equal-width", CW.t(L.equal)), readout("equal-ratio", CW.t(L.equalRatio))]));
    root.appendChild(CW.el("p", { class: "cw-note", text: CW.t(L.note) }));

    function choose(id) {
      var p = byId[id];
      state = { d: p.d.value, width: p.width.value, kind: p.kind, preset: id };
      update();
    }
    function update() {
      var d = state.d, w = state.width, kind = state.kind, o = other(kind);
      var params = M[kind] * d * w;
      var equal = w * M[kind] / M[o];
      radios[kind].checked = true;
      dSlider.set(d);
      ratioSlider.set(w / d);
      presetButtons.forEach(function (b) { b.setAttribute("aria-pressed", b.getAttribute("data-preset") === state.preset ? "true" : "false"); });
      CW.setReadout(out.width, w, CW.integer(w));
      CW.setReadout(out.params, params, CW.integer(params));
      CW.setReadout(out.sum, [M[kind], d, w], M[kind] + " × " + CW.integer(d) + " × " + CW.integer(w));
      CW.setReadout(out["equal-width"], equal, CW.fixed(equal, 1));
      CW.setReadout(out["equal-ratio"], equal / d, CW.fixed(equal / d, 2) + "d");
    }
    choose(cfg.initial);
  }

  CW.register("ffn-calculator", init);
})();
