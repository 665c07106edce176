// batchnorm-demo: where a normalization takes its statistics from. The example sentence is batched with a
// companion the reader picks; BatchNorm normalizes 苹果 with statistics over the whole batch, RMSNorm
// (mode "improved") with 苹果's own row only. Twin: lessons/c4_normalization/twins.py batchnorm() and batch_cases().
// The vectors are hand-made teaching data from data/teaching-vectors.json, via data-config.
(function () {
  "use strict";
  var CW = window.CW;

  var L;  // the label table, from data-config (the widget's .labels.json)

  function caseBatches(cfg) {
    var out = [{ id: "none", tokens: cfg.example.tokens.slice() }];
    cfg.companions.forEach(function (c) {
      var toks = c.tokens.slice();
      if (c.padToExample) while (toks.length < cfg.example.tokens.length) toks.push(cfg.pad.token);
      out.push({ id: c.id, tokens: cfg.example.tokens.concat(toks), companion: c });
    });
    out.push({ id: "single", tokens: [cfg.focus] });
    return out;
  }
  function vec(cfg, tok) { return tok === cfg.pad.token ? cfg.pad.vector : cfg.tokens[tok].vector; }
  // training-mode BatchNorm for one token of the batch: per feature, the batch's mean and population variance
  function batchnorm(rows, index, eps) {
    var n = rows.length, dims = rows[0].length, y = [], mean = [], std = [];
    for (var j = 0; j < dims; j++) {
      var mu = 0, v = 0, t;
      for (t = 0; t < n; t++) mu += rows[t][j];
      mu = mu / n;
      for (t = 0; t < n; t++) v += (rows[t][j] - mu) * (rows[t][j] - mu);
      v = v / n;
      mean.push(mu); std.push(Math.sqrt(v));
      y.push((rows[index][j] - mu) / Math.sqrt(v + eps));
    }
    return { y: y, mean: mean, std: std };
  }
  function rmsnorm(x) {
    var s = 0;
    for (var i = 0; i < x.length; i++) s += x[i] * x[i];
    var r = Math.sqrt(s / x.length);
    return x.map(function (a) { return a / r; });
  }

  function init(root, cfg, mode) {
    L = cfg.labels;
    var improved = mode === "improved", digits = cfg.digits, lang = CW.lang();
    var names = { focus: cfg.focus, gloss: cfg.focusGloss, text: cfg.example.text[lang] };
    var cases = caseBatches(cfg).map(function (c) {
      var rows = c.tokens.map(function (t) { return vec(cfg, t); });
      var i = c.tokens.indexOf(cfg.focus);
      var bn = batchnorm(rows, i, cfg.eps);
      return { id: c.id, tokens: c.tokens, companion: c.companion, bn: bn.y, mean: bn.mean, std: bn.std,
               rms: rmsnorm(vec(cfg, cfg.focus)) };
    });
    function caseLabel(c) {
      if (c.id === "none") return CW.t(L.none);
      if (c.id === "single") return CW.fill(CW.t(L.single), names);
      return c.companion.label[lang];
    }
    var group = CW.uid("cw-companion");
    var radios = cases.map(function (c) {
      var id = CW.uid("cw-case");
      var input = CW.el("input", { type: "radio", name: group, id: id, value: c.id, "data-control": "companion",
                                   checked: c.id === cfg.initial });
      input.addEventListener("change", function () { if (input.checked) select(c.id); });
      return CW.el("div", { class: "cw-radio" }, [input, CW.el("label", { for: id, text: caseLabel(c) })]);
    });
    var out = {};
    function readout(name, label) { return CW.readout(out, name, CW.fill(CW.t(label), names)); }
    var chips = CW.el("div", { class: "cw-chips", "data-readout": "batch", "aria-label": CW.t(L.batch), role: "list" });
    var note = CW.el("p", { class: "cw-note cw-alert", "aria-live": "polite" });

    var head = [L.caseCol, L.countCol, L.bn].concat(improved ? [L.rms] : []);
    var rowsById = {};
    var tbody = CW.el("tbody", {}, cases.map(function (c) {
      var cells = [CW.el("th", { scope: "row", text: caseLabel(c) }), CW.el("td", { text: CW.integer(c.tokens.length) }),
                   CW.el("td", { class: "cw-nowrap", text: CW.vector(c.bn, digits) })];
      if (improved) cells.push(CW.el("td", { class: "cw-nowrap", text: CW.vector(c.rms, digits) }));
      return (rowsById[c.id] = CW.el("tr", { "data-case": c.id }, cells));
    }));
    var caption = CW.fill(CW.t(L.table), names);
    var table = CW.el("table", { class: "cw-table", "data-readout": "cases" }, [
      CW.el("caption", { text: caption }),
      CW.el("thead", {}, CW.el("tr", {}, head.map(function (h) {
        return CW.el("th", { scope: "col", class: "cw-nowrap", text: CW.fill(CW.t(h), names) });
      }))),
      tbody]);

    root.appendChild(CW.el("p", { class: "cw-note", text: CW.fill(CW.t(L.teaching), {
      dims: cfg.dims, source: cfg.source, hidden: cfg.hidden.text[lang] }) }));
    root.appendChild(CW.el("fieldset", { class: "cw-radios" }, [CW.el("legend", { text: CW.fill(CW.t(L.pick), names) })].concat(radios)));
    root.appendChild(CW.el("div", { class: "cw-field-block" }, [CW.el("span", { class: "cw-readout-label", text: CW.t(L.batch) }), chips]));
    root.appendChild(CW.el("div", { class: "cw-readouts" }, [
      readout("batch-size", L.count), readout("batch-mean", L.mean), readout("batch-std", L.std),
      readout("batchnorm", L.bn)].concat(improved ? [readout("rmsnorm", L.rms)] : [])));
    root.appendChild(note);
    // a vector on one line: on a phone the table scrolls sideways in its own box (which the keyboard can reach)
    root.appendChild(CW.el("div", { class: "cw-scroll", tabindex: "0", role: "region", "aria-label": caption }, table));

    function select(id) {
      var c = cases.filter(function (k) { return k.id === id; })[0];
      chips.textContent = "";
      c.tokens.forEach(function (t, i) {
        var cls = "cw-chip" + (t === cfg.focus && i === c.tokens.indexOf(cfg.focus) ? " cw-chip-focus" : "") +
                  (t === cfg.pad.token ? " cw-chip-pad" : "");
        chips.appendChild(CW.el("span", { class: cls, role: "listitem", text: t }));
      });
      CW.setReadout(out["batch-size"], c.tokens.length, CW.integer(c.tokens.length));
      CW.setReadout(out["batch-mean"], c.mean, CW.vector(c.mean, digits));
      CW.setReadout(out["batch-std"], c.std, CW.vector(c.std, digits));
      CW.setReadout(out.batchnorm, c.bn, CW.vector(c.bn, digits));
      if (improved) CW.setReadout(out.rmsnorm, c.rms, CW.vector(c.rms, digits));
      note.textContent = c.id === "single" ? CW.t(L.zeros)
        : (c.tokens.indexOf(cfg.pad.token) >= 0 ? CW.t(L.padNote) : "");
      Object.keys(rowsById).forEach(function (k) {
        rowsById[k].classList.toggle("cw-selected", k === id);
        if (k === id) rowsById[k].setAttribute("aria-current", "true"); else rowsById[k].removeAttribute("aria-current");
      });
    }
    select(cfg.initial);
  }

  CW.register("batchnorm-demo", init);
})();
