// decoder-flow: one decoder layer of the anchor as a data flow (input → norm → attention or Gated DeltaNet
// → add → norm → FFN → add). Every part is a button; pressing it shows the part's shape per token and its
// parameters in one layer. Sizes and counts come from the registry (anchor.hidden_size, anchor.layer.*,
// computed from data/anchor-model.json) through data-config; this file only lays them out.
(function () {
  "use strict";
  var CW = window.CW;

  var L;  // the label table, from data-config (the widget's .labels.json)

  // Attention's output gate is lesson 4's subject: until that lesson, the part shows neither the gate in its
  // name nor q_proj's width (twice what the heads need, the question lesson 3 ends on).
  function gateShown(part) { return part.id !== "attention" || part.status === "gate"; }

  // What a part's tag says: the part this lesson teaches is "this lesson" alone (no reference to itself); a
  // part whose gate this lesson teaches says so and where the rest of it is taught; any other part, its
  // status and where it is taught.
  function tagText(part) {
    if (part.status === "current") return CW.t(L.status.current);
    if (part.status === "gate") return CW.fill(CW.t(L.gateTag), { where: CW.t(L.lesson[part.id]) });
    return CW.t(L.status[part.status]) + " · " + CW.t(L.lesson[part.id]);
  }

  function partName(part) {
    return CW.t(part.id === "attention" && gateShown(part) ? L.attentionGated : L.parts[part.id]);
  }

  function shapeText(part, lang) {
    if (!gateShown(part)) return "[" + part.shape[0] + "] → [" + part.shape[part.shape.length - 1] + "]";
    var s = part.shape.map(function (n) { return "[" + n + "]"; });
    if (s.length > 2) s[1] = (L.inner[part.id] ? L.inner[part.id] + " " : "") + s[1];
    if (part.id === "add1" || part.id === "add2") return "[" + part.shape[0] + "] + [" + part.shape[0] + "] → [" + part.shape[1] + "]";
    return s.join(" → ");
  }

  function init(root, cfg) {
    L = cfg.labels;
    var lang = CW.lang(), byId = {}, buttons = {};
    cfg.parts.forEach(function (p) { byId[p.id] = p; });
    var out = {};
    function readout(name, label) { return CW.readout(out, name, CW.t(label)); }
    function node(id) {
      var p = byId[id];
      var tag = tagText(p);
      var extra = p.layers ? CW.fill(CW.t(L.layersOf), { n: p.layers.text[lang], L: cfg.layers.text[lang] }) : null;
      var b = CW.el("button", { type: "button", class: "cw-part cw-part-" + (p.status === "gate" ? "current" : p.status),
                                "data-control": "part", "data-part": id,
                                "aria-pressed": "false", onclick: function () { select(id); } }, [
        CW.el("span", { class: "cw-part-name", text: partName(p) }),
        CW.el("span", { class: "cw-part-tag", text: tag + (extra ? " · " + extra : "") })]);
      buttons[id] = b;
      return b;
    }
    function arrow() { return CW.el("div", { class: "cw-arrow", "aria-hidden": "true", text: "↓" }); }
    var flow = CW.el("div", { class: "cw-flow", role: "group", "aria-label": CW.t(L.title) }, [
      node("input"), arrow(), node("norm1"), arrow(),
      CW.el("div", { class: "cw-flow-pair", role: "group", "aria-label": CW.t(L.or) }, [node("attention"), node("gated-deltanet")]),
      arrow(), node("add1"), arrow(), node("norm2"), arrow(), node("ffn"), arrow(), node("add2")]);
    root.appendChild(CW.el("p", { class: "cw-note", text: CW.t(L.title) }));
    root.appendChild(flow);
    root.appendChild(CW.el("p", { class: "cw-note", text: CW.t(L.legend) }));
    root.appendChild(CW.el("div", { class: "cw-readouts" }, [readout("part-name", L.part), readout("part-shape", L.shape),
      readout("part-params", L.params), readout("part-lesson", L.where)]));

    function select(id) {
      var p = byId[id];
      CW.setReadout(out["part-name"], id, partName(p));
      CW.setReadout(out["part-shape"], p.shape, shapeText(p, lang));
      CW.setReadout(out["part-params"], p.params ? p.params.value : 0,
                    p.params ? p.params.text[lang] : CW.t(id === "input" ? L.noneInput : L.none));
      if (p.params) out["part-params"].title = p.params.source[lang]; else out["part-params"].removeAttribute("title");
      CW.setReadout(out["part-lesson"], p.status, tagText(p));
      Object.keys(buttons).forEach(function (k) { buttons[k].setAttribute("aria-pressed", k === id ? "true" : "false"); });
    }
    select(cfg.initial);
  }

  CW.register("decoder-flow", init);
})();
