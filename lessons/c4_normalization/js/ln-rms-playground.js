// ln-rms-playground: LayerNorm and RMSNorm side by side on an editable vector, with an operation log.
// Twin: lessons/c4_normalization/formulas.py layernorm() and rmsnorm() (γ = 1, β = 0, ε = 0). The starting vector, the
// shift and the scale come from the registry (worked.x, worked.shift, worked.scale) via data-config.
(function () {
  "use strict";
  var CW = window.CW;

  var L;  // the label table, from data-config (the widget's .labels.json)

  function mean(x) { var s = 0; for (var i = 0; i < x.length; i++) s += x[i]; return s / x.length; }
  function layernorm(x) {
    var mu = mean(x), v = 0;
    for (var i = 0; i < x.length; i++) v += (x[i] - mu) * (x[i] - mu);
    var sd = Math.sqrt(v / x.length);
    return sd === 0 ? null : x.map(function (a) { return (a - mu) / sd; });
  }
  function rmsnorm(x) {
    var s = 0;
    for (var i = 0; i < x.length; i++) s += x[i] * x[i];
    var r = Math.sqrt(s / x.length);
    return r === 0 ? null : x.map(function (a) { return a / r; });
  }
  function length(x) { var s = 0; for (var i = 0; i < x.length; i++) s += x[i] * x[i]; return Math.sqrt(s); }

  function init(root, cfg) {
    L = cfg.labels;
    var digits = cfg.digits, start = cfg.x.value.slice(), k = cfg.scale.value, c = cfg.shift.value;
    var x = start.slice(), count = 0;
    var fields = x.map(function (v, i) {
      var id = CW.uid("cw-x");
      var input = CW.el("input", { type: "text", inputmode: "decimal", id: id, class: "cw-num",
                                   "data-control": "x", "data-index": i, value: String(v) });
      input.addEventListener("change", function () {
        var val = CW.parse(input.value);
        if (!isFinite(val)) { input.setAttribute("aria-invalid", "true"); input.title = CW.t(L.bad); return; }
        input.removeAttribute("aria-invalid"); input.title = "";
        x[i] = val;
        apply(CW.fill(CW.t(L.edit), { i: i + 1 }));
      });
      return CW.el("span", { class: "cw-dim" }, [
        CW.el("label", { for: id, class: "cw-sr", text: CW.fill(CW.t(L.dim), { i: i + 1 }) }), input]);
    });
    function button(control, label, fn) {
      return CW.el("button", { type: "button", class: "md-button cw-button", "data-control": control, onclick: fn, text: label });
    }
    // a button's label is its label-table prefix followed by the registry's number ("All entries ×" + "3"),
    // so the page can quote both (<!-- label:… --><!-- n:… -->) and neither is typed here
    var scaleLabel = CW.t(L.scale) + cfg.scale.text[CW.lang()];
    var shiftLabel = CW.t(L.shift) + cfg.shift.text[CW.lang()];
    var out = {};
    function readout(name, label) { return CW.readout(out, name, CW.t(label)); }
    var tbody = CW.el("tbody", {});
    var table = CW.el("table", { class: "cw-table", "data-readout": "log" }, [
      CW.el("caption", { text: CW.t(L.log) }),
      CW.el("thead", {}, CW.el("tr", {}, [L.n, L.colInput, L.layernorm, L.rmsnorm].map(function (h) {
        return CW.el("th", { scope: "col", class: "cw-nowrap", text: CW.t(h) });
      }))),
      tbody]);

    root.appendChild(CW.el("fieldset", { class: "cw-vector" }, [CW.el("legend", { text: CW.t(L.input) }), "x = ["]
      .concat(fields.reduce(function (acc, f, i) { return acc.concat(i ? [", ", f] : [f]); }, []), ["]"])));
    root.appendChild(CW.el("div", { class: "cw-buttons", role: "group", "aria-label": CW.t(L.ops) }, [
      button("scale3", scaleLabel, function () { x = x.map(function (v) { return v * k; }); apply(scaleLabel); }),
      button("shift2", shiftLabel, function () { x = x.map(function (v) { return v + c; }); apply(shiftLabel); }),
      button("reset", CW.t(L.reset), function () { x = start.slice(); apply(CW.t(L.reset)); }),
    ]));
    root.appendChild(CW.el("div", { class: "cw-readouts" }, [
      readout("layernorm", L.layernorm), readout("rmsnorm", L.rmsnorm), readout("rms-length", L.length)]));
    root.appendChild(CW.el("p", { class: "cw-note", text: CW.t(L.hint) }));
    // each row on one line: on a phone the log scrolls sideways in its own box (which the keyboard can reach)
    root.appendChild(CW.el("div", { class: "cw-scroll", tabindex: "0", role: "region", "aria-label": CW.t(L.log) }, table));

    // an input as the reader typed it: at most `digits` decimals, no trailing zeros
    function plain(v) { return String(Number(v.toFixed(digits))); }
    function show(v, undef) { return v ? CW.vector(v, digits) : CW.t(undef); }
    function apply(what) {
      var ln = layernorm(x), rn = rmsnorm(x);
      fields.forEach(function (f, i) {
        var input = f.querySelector("input");
        if (document.activeElement !== input || CW.parse(input.value) !== x[i]) input.value = plain(x[i]);
      });
      CW.setReadout(out.layernorm, ln, show(ln, L.undefinedLn));
      CW.setReadout(out.rmsnorm, rn, show(rn, L.undefinedRms));
      var len = rn ? length(rn) : null;
      CW.setReadout(out["rms-length"], len, rn ? CW.fixed(len, digits) : "—");
      count += 1;
      var inputText = "[" + x.map(function (v) { return plain(v).replace("-", "\u2212"); }).join(", ") + "]";
      tbody.appendChild(CW.el("tr", { "data-row": count }, [count + (what ? " · " + what : ""), inputText,
        show(ln, L.undefinedLn), show(rn, L.undefinedRms)].map(function (t) { return CW.el("td", { class: "cw-nowrap", text: t }); })));
    }
    apply(CW.t(L.start));
  }

  CW.register("ln-rms-playground", init);
})();
