// decoder-flow: one decoder layer of the anchor as a data flow (input → norm → attention or Gated DeltaNet
// → add → norm → FFN → add). Every part is a button; pressing it shows the part's shape per token and its
// parameters in one layer. Sizes and counts come from the registry (anchor.hidden_size, anchor.layer.*,
// computed from data/anchor-model.json) through data-config; this file only lays them out.
(function () {
  "use strict";
  var CW = window.CW;

  var L = {
    title: { zh: "一个解码层(点任一环节看形状与参数)", en: "One decoder layer (press a part to see its shape and parameters)" },
    parts: {
      input: { zh: "x_l:残差流里「苹果」的这一行", en: "x_l: the row of 苹果 (apple) in the residual stream" },
      norm1: { zh: "RMSNorm(注意力之前)", en: "RMSNorm (before the token mixer)" },
      attention: { zh: "全注意力(带输出门)", en: "Full attention (with output gate)" },
      "gated-deltanet": { zh: "Gated DeltaNet(线性注意力)", en: "Gated DeltaNet (linear attention)" },
      add1: { zh: "+ 加回残差流", en: "+ add back into the stream" },
      norm2: { zh: "RMSNorm(FFN 之前)", en: "RMSNorm (before the FFN)" },
      ffn: { zh: "FFN(SwiGLU)", en: "FFN (SwiGLU)" },
      add2: { zh: "+ 加回残差流", en: "+ add back into the stream" },
    },
    inner: { attention: "q_proj", ffn: "gate_proj, up_proj" },
    or: { zh: "二选一", en: "one or the other" },
    layersOf: { zh: "{n} / {L} 层", en: "{n} of {L} layers" },
    status: {
      taught: { zh: "已学", en: "learned" },
      current: { zh: "本课", en: "this lesson" },
      later: { zh: "后面再讲", en: "later" },
    },
    lesson: {
      input: { zh: "C4 第 2 课", en: "C4 lesson 2" }, add1: { zh: "C4 第 2 课", en: "C4 lesson 2" },
      add2: { zh: "C4 第 2 课", en: "C4 lesson 2" }, attention: { zh: "C3", en: "C3" },
      ffn: { zh: "C4 第 1 课", en: "C4 lesson 1" }, norm1: { zh: "C4 第 3 课", en: "C4 lesson 3" },
      norm2: { zh: "C4 第 3 课", en: "C4 lesson 3" }, "gated-deltanet": { zh: "C11", en: "C11" },
    },
    part: { zh: "环节", en: "Part" },
    shape: { zh: "每个 token 的形状", en: "Shape per token" },
    params: { zh: "这一层里的参数", en: "Parameters in one layer" },
    where: { zh: "在哪一课", en: "Where it is taught" },
    none: { zh: "无参数(只做加法)", en: "none (an addition has no weights)" },
    noneInput: { zh: "无参数(这是数据,不是权重)", en: "none (this is data, not weights)" },
    legend: { zh: "实线框:已学;高亮:本课;虚线框:后面再讲", en: "Solid: learned; highlighted: this lesson; dashed: later" },
  };

  function shapeText(part, lang) {
    var s = part.shape.map(function (n) { return "[" + n + "]"; });
    if (s.length > 2) s[1] = (L.inner[part.id] ? L.inner[part.id] + " " : "") + s[1];
    if (part.id === "add1" || part.id === "add2") return "[" + part.shape[0] + "] + [" + part.shape[0] + "] → [" + part.shape[1] + "]";
    return s.join(" → ");
  }

  function init(root, cfg) {
    var lang = CW.lang(), byId = {}, buttons = {};
    cfg.parts.forEach(function (p) { byId[p.id] = p; });
    var out = {};
    function readout(name, label) {
      out[name] = CW.el("output", { class: "cw-readout-value", "data-readout": name, "aria-live": "polite" });
      return CW.el("div", { class: "cw-readout" }, [CW.el("span", { class: "cw-readout-label", text: CW.t(label) }), out[name]]);
    }
    function node(id) {
      var p = byId[id];
      var tag = CW.t(L.status[p.status]) + " · " + CW.t(L.lesson[id]);
      var extra = p.layers ? CW.fill(CW.t(L.layersOf), { n: p.layers.text[lang], L: cfg.layers.text[lang] }) : null;
      var b = CW.el("button", { type: "button", class: "cw-part cw-part-" + p.status, "data-control": "part", "data-part": id,
                                "aria-pressed": "false", onclick: function () { select(id); } }, [
        CW.el("span", { class: "cw-part-name", text: CW.t(L.parts[id]) }),
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
      CW.setReadout(out["part-name"], id, CW.t(L.parts[id]));
      CW.setReadout(out["part-shape"], p.shape, shapeText(p, lang));
      CW.setReadout(out["part-params"], p.params ? p.params.value : 0,
                    p.params ? p.params.text[lang] : CW.t(id === "input" ? L.noneInput : L.none));
      if (p.params) out["part-params"].title = p.params.source[lang]; else out["part-params"].removeAttribute("title");
      CW.setReadout(out["part-lesson"], p.status, CW.t(L.status[p.status]) + " · " + CW.t(L.lesson[id]));
      Object.keys(buttons).forEach(function (k) { buttons[k].setAttribute("aria-pressed", k === id ? "true" : "false"); });
    }
    select(cfg.initial);
  }

  CW.register("decoder-flow", init);
})();
