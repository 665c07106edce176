// attention-sink: one attention head, one query row (the last token) over the example sentence. Softmax turns
// the row's logits into weights that always sum to 1, so a head that finds nothing must still spend them
// somewhere: on everything (a blur of all values) or, as the reader can make it, on the first token. In
// mode "improved" an output gate σ(g) can scale what the head writes down to ≈ 0 instead.
// Twin: lessons/c4_gating/twins.py sink_row(). The tokens, value vectors and logits are hand-made teaching
// data (lessons/c4_gating/attention-sink.json) and arrive through data-config.
(function () {
  "use strict";
  var CW = window.CW;

  var L;  // the label table, from data-config (the widget's .labels.json)

  function softmax(logits) {
    var top = Math.max.apply(null, logits), e = logits.map(function (v) { return Math.exp(v - top); });
    var total = e.reduce(function (a, b) { return a + b; }, 0);
    return e.map(function (v) { return v / total; });
  }
  function weightedSum(w, values) {
    return values[0].map(function (_, j) {
      var s = 0;
      for (var i = 0; i < w.length; i++) s += w[i] * values[i][j];
      return s;
    });
  }
  function length(x) { return Math.sqrt(x.reduce(function (a, v) { return a + v * v; }, 0)); }
  function sigmoid(x) { return 1 / (1 + Math.exp(-x)); }

  // the twin's sink_row(): every logit 0 but the first token's (the sink) and the matched token's
  function row(cfg, c, sink, gateLogit) {
    var logits = cfg.tokens.map(function () { return 0; });
    logits[0] = sink;
    if (c.match !== null) logits[cfg.tokens.indexOf(c.match)] = c.match_logit;
    var w = softmax(logits), y = weightedSum(w, cfg.values);
    var g = gateLogit === null ? null : sigmoid(gateLogit);
    return { logits: logits, weights: w, output: y, gate: g, written: y.map(function (v) { return g === null ? v : g * v; }) };
  }

  function init(root, cfg, mode) {
    L = cfg.labels;
    var d = cfg.digits, pct = function (x, k) { return CW.fixed(x * cfg.percent, k) + "%"; };
    var state = { case: cfg.initial, sink: cfg.sink.default, gateOn: false, gateLogit: cfg.gateLogit.default };
    var out = {};
    function readout(name, label) { return CW.readout(out, name, CW.t(label)); }

    var group = CW.uid("cw-sink-case");
    var radios = cfg.cases.map(function (c) {
      var id = CW.uid("cw-case");
      var input = CW.el("input", { type: "radio", name: group, id: id, value: c.id, "data-control": "case",
                                   checked: c.id === state.case });
      input.addEventListener("change", function () { if (input.checked) { state.case = c.id; update(); } });
      return CW.el("div", { class: "cw-radio" }, [input, CW.el("label", { for: id, text: CW.t(L.cases[c.id]) })]);
    });
    var sink = CW.slider({ label: CW.t(L.sink), control: "sink-logit", min: cfg.sink.min, max: cfg.sink.max,
                           step: cfg.sink.step, value: state.sink, format: function (v) { return CW.fixed(v, 1); },
                           onchange: function (v) { state.sink = v; update(); } });
    var controls = [sink];
    var gateLogit = null;
    if (cfg.gate) {
      gateLogit = CW.slider({ label: CW.t(L.gateLogit), control: "gate-logit", min: cfg.gateLogit.min,
                              max: cfg.gateLogit.max, step: cfg.gateLogit.step, value: state.gateLogit,
                              format: function (v) { return CW.fixed(v, 1); },
                              onchange: function (v) { state.gateLogit = v; update(); } });
      var toggle = CW.toggle({ label: CW.t(L.gateOn), control: "gate-on", checked: state.gateOn,
                               onchange: function (on) { state.gateOn = on; update(); } });
      controls.push(CW.el("div", { class: "cw-field" }, [toggle, gateLogit]));
    }

    var cells = {};
    var tbody = CW.el("tbody", {}, cfg.tokens.map(function (tok, i) {
      cells[i] = { logit: CW.el("td", {}), weight: CW.el("td", { class: "gs-weight" }) };
      return CW.el("tr", { "data-token": i }, [CW.el("th", { scope: "row", text: tok }), cells[i].logit, cells[i].weight]);
    }));
    var table = CW.el("table", { class: "cw-table gs-row", "data-readout": "weights" }, [
      CW.el("caption", { text: CW.t(L.table) }),
      CW.el("thead", {}, CW.el("tr", {}, [L.token, L.logit, L.weight].map(function (h) {
        return CW.el("th", { scope: "col", text: CW.t(h) });
      }))), tbody]);
    var note = CW.el("p", { class: "cw-note cw-alert", "aria-live": "polite" });

    root.appendChild(CW.el("p", { class: "cw-note", text: CW.fill(CW.t(L.teaching), { source: cfg.source }) }));
    root.appendChild(CW.el("fieldset", { class: "cw-radios" }, [CW.el("legend", { text: CW.t(L.pick) })].concat(radios)));
    root.appendChild(CW.el("div", { class: "cw-controls" }, controls));
    root.appendChild(CW.el("div", { class: "cw-scroll" }, table));
    var shown = [readout("weight-sum", L.sum), readout("first-token", L.first), readout("output", L.output),
                 readout("output-norm", L.outputNorm)];
    if (cfg.gate) shown = shown.concat([readout("gate", L.gate), readout("written", L.written), readout("written-norm", L.writtenNorm)]);
    root.appendChild(CW.el("div", { class: "cw-readouts" }, shown));
    root.appendChild(note);

    function update() {
      var c = cfg.cases.filter(function (k) { return k.id === state.case; })[0];
      var r = row(cfg, c, state.sink, cfg.gate && state.gateOn ? state.gateLogit : null);
      r.weights.forEach(function (w, i) {
        cells[i].logit.textContent = CW.fixed(r.logits[i], 1);
        cells[i].weight.textContent = "";
        cells[i].weight.appendChild(CW.el("span", { class: "gs-bar", "aria-hidden": "true",
                                                    style: "width:" + CW.fixed(w * cfg.percent, d.weight) + "%" }));
        cells[i].weight.appendChild(CW.el("span", { class: "gs-pct", text: pct(w, d.weight) }));
      });
      table.setAttribute("data-value", JSON.stringify(r.weights));
      var sum = r.weights.reduce(function (a, b) { return a + b; }, 0);
      CW.setReadout(out["weight-sum"], sum, pct(sum, 0));
      CW.setReadout(out["first-token"], r.weights[0], pct(r.weights[0], d.weight));
      CW.setReadout(out.output, r.output, CW.vector(r.output, d.vector));
      CW.setReadout(out["output-norm"], length(r.output), CW.fixed(length(r.output), d.norm));
      if (cfg.gate) {
        CW.setReadout(out.gate, r.gate, r.gate === null ? CW.t(L.off) : pct(r.gate, d.gate));
        CW.setReadout(out.written, r.written, CW.vector(r.written, d.vector));
        CW.setReadout(out["written-norm"], length(r.written), CW.fixed(length(r.written), d.normGated));
        gateLogit.input.disabled = !state.gateOn;
      }
      var gated = cfg.gate && state.gateOn;
      note.textContent = CW.t(c.match === null ? (gated ? L.noteGated : (r.weights[0] > r.weights[1] ? L.noteSink : L.noteBlur))
                                                 : (gated ? L.noteFoundGated : L.noteFound));
    }
    update();
  }

  CW.register("attention-sink", init);
})();
