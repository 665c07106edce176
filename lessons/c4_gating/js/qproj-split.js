// qproj-split: the anchor's q_proj output for one token, split into queries and output gate. The code views
// the output as one block of 2 × head_dim per head and cuts each block in two: queries first, then that
// head's gate. Pick a head to see which outputs are its queries and which its gate.
// Twin: lessons/c4_gating/formulas.py q_proj_split(), head_slices(). Widths come from the anchor's config
// (anchor.hidden_size, anchor.num_heads, anchor.head_dim, anchor.q_proj_out) through data-config.
(function () {
  "use strict";
  var CW = window.CW;

  var L;  // the label table, from data-config (the widget's .labels.json)

  function slices(head, headDim) {  // head counted from 0, ranges as [start, end)
    var start = 2 * head * headDim;
    return { query: [start, start + headDim], gate: [start + headDim, start + 2 * headDim] };
  }

  function init(root, cfg) {
    L = cfg.labels;
    var lang = CW.lang(), heads = cfg.heads.value, headDim = cfg.headDim.value;
    var out = {}, blocks = [];
    function readout(name, label) { return CW.readout(out, name, CW.t(label)); }
    function range(r) { return CW.integer(r[0]) + "–" + CW.integer(r[1] - 1); }

    var strip = CW.el("div", { class: "qp-strip", role: "img", "aria-label": CW.fill(CW.t(L.strip), {
      heads: cfg.heads.text[lang], headDim: cfg.headDim.text[lang] }) });
    for (var h = 0; h < heads; h++) {
      var block = CW.el("div", { class: "qp-head", "data-head": h + 1 }, [
        CW.el("span", { class: "qp-q" }), CW.el("span", { class: "qp-g" })]);
      blocks.push(block);
      strip.appendChild(block);
    }
    var head = CW.slider({ label: CW.t(L.head), control: "head", min: 1, max: heads, step: 1, value: cfg.initial,
                           format: CW.integer, onchange: function (v) { select(v); } });

    root.appendChild(CW.el("p", { class: "cw-note", text: CW.fill(CW.t(L.title), {
      d: cfg.hidden.text[lang], out: cfg.out.text[lang] }) }));
    root.appendChild(strip);
    root.appendChild(CW.el("p", { class: "cw-note qp-legend" }, [
      CW.el("span", { class: "qp-key qp-q", "aria-hidden": "true" }), " " + CW.t(L.queries) + "  ",
      CW.el("span", { class: "qp-key qp-g", "aria-hidden": "true" }), " " + CW.t(L.gates)]));
    root.appendChild(CW.el("div", { class: "cw-controls" }, [head]));
    root.appendChild(CW.el("div", { class: "cw-readouts" }, [
      readout("head-query", L.headQuery), readout("head-gate", L.headGate),
      readout("query-width", L.queryWidth), readout("gate-width", L.gateWidth),
      readout("gate-share", L.gateShare), readout("gate-params", L.gateParams)]));
    root.appendChild(CW.el("p", { class: "cw-note", text: CW.t(L.note) }));

    CW.setReadout(out["query-width"], cfg.query.value, CW.fill(CW.t(L.widthOf), {
      n: cfg.query.text[lang], heads: cfg.heads.text[lang], headDim: cfg.headDim.text[lang] }));
    CW.setReadout(out["gate-width"], cfg.gate.value, CW.fill(CW.t(L.widthOf), {
      n: cfg.gate.text[lang], heads: cfg.heads.text[lang], headDim: cfg.headDim.text[lang] }));
    var share = cfg.gate.value / cfg.out.value;
    CW.setReadout(out["gate-share"], share, CW.fill(CW.t(L.shareOf), { gate: cfg.gate.text[lang], out: cfg.out.text[lang] }));
    CW.setReadout(out["gate-params"], cfg.gateParams.value, cfg.gateParams.text[lang]);
    out["gate-params"].title = cfg.gateParams.source[lang];

    function select(n) {
      var s = slices(n - 1, headDim);
      CW.setReadout(out["head-query"], s.query, range(s.query));
      CW.setReadout(out["head-gate"], s.gate, range(s.gate));
      blocks.forEach(function (b, i) { b.classList.toggle("qp-selected", i === n - 1); });
    }
    select(cfg.initial);
  }

  CW.register("qproj-split", init);
})();
