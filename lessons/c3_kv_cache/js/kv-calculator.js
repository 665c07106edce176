// kv-calculator: what each model keeps, per batch of sequences, to generate its next token. The reader picks
// models, the context length, the batch and the bytes per entry; a table gives each model's cache split by
// what its layers keep (every token, a window, compressed entries, a fixed linear-attention state) and the
// total, with a bar per model. Twin: lessons/c3_kv_cache/twins.py cache_bytes(): a part keeps
// batch × bytes × layers × entries × positions(T), positions being T, min(T, window), ⌊T / ratio⌋ or 1.
// Every model's parts come from its config through data-config; nothing here is a model's size.
(function () {
  "use strict";
  var CW = window.CW;

  function positions(part, T) {
    if (part.grows === "every") return T;
    if (part.grows === "window") return Math.min(T, part.span);
    if (part.grows === "strided") return Math.floor(T / part.span);
    return 1;
  }
  // bytes by group, and the total (twin: cache_bytes)
  function cacheBytes(model, groups, T, batch, bytes) {
    var out = {};
    groups.forEach(function (g) { out[g] = 0; });
    model.parts.forEach(function (p) { out[p.group] += batch * bytes * p.layers * p.entries * positions(p, T); });
    out.total = groups.reduce(function (s, g) { return s + out[g]; }, 0);
    return out;
  }

  function init(root, cfg) {
    var L = cfg.labels, S = cfg.size, groups = cfg.groups;
    var state = { exp: cfg.initial.context_exponent, batchExp: cfg.initial.batch_exponent,
                  bytes: cfg.initial.bytes_per_entry, on: {} };
    cfg.initial.models.forEach(function (id) { state.on[id] = true; });
    function size(b) {
      return b >= S.gb ? CW.fixed(b / S.gb, S.gbDigits) + " GB" : CW.fixed(b / S.mb, S.mbDigits) + " MB";
    }
    function name(m) { return m.id === "anchor" ? CW.fill(CW.t(L.anchorTag), { name: m.name }) : m.name; }

    var picks = CW.el("fieldset", { class: "cw-models" }, [CW.el("legend", { text: CW.t(L.models) })].concat(
      cfg.models.map(function (m) {
        var t = CW.toggle({ label: name(m), control: "model-" + m.id, checked: !!state.on[m.id],
                            onchange: function (v) { state.on[m.id] = v; update(); } });
        t.input.setAttribute("data-model", m.id);
        return t;
      })));
    var context = CW.slider({ label: CW.t(L.context), control: "context", min: cfg.contextExponents[0],
                              max: cfg.contextExponents[1], step: 1, value: state.exp,
                              format: function (e) { return CW.integer(Math.pow(cfg.base, e)); },
                              onchange: function (e) { state.exp = e; update(); } });
    var batch = CW.slider({ label: CW.t(L.batch), control: "batch", min: cfg.batchExponents[0], max: cfg.batchExponents[1],
                            step: 1, value: state.batchExp, format: function (e) { return CW.integer(Math.pow(cfg.base, e)); },
                            onchange: function (e) { state.batchExp = e; update(); } });
    var group = CW.uid("cw-bytes");
    var bytes = CW.el("fieldset", { class: "cw-form" }, [CW.el("legend", { text: CW.t(L.bytes) })].concat(
      cfg.bytesPerEntry.map(function (b) {
        var id = CW.uid("cw-b");
        var r = CW.el("input", { type: "radio", name: group, id: id, value: b, "data-control": "bytes",
                                 checked: b === state.bytes });
        r.addEventListener("change", function () { if (r.checked) { state.bytes = b; update(); } });
        return CW.el("div", { class: "cw-radio" }, [r, CW.el("label", { for: id, text: CW.t(L.bytesNames[String(b)]) })]);
      })));

    var head = CW.el("tr", null, [CW.el("th", { scope: "col", text: CW.t(L.model) })].concat(
      groups.map(function (g) {
        return CW.el("th", { scope: "col" }, [CW.el("span", { class: "kv-swatch kv-" + g, "aria-hidden": "true" }), CW.t(L.groups[g])]);
      }),
      [CW.el("th", { scope: "col", text: CW.t(L.total) }), CW.el("th", { scope: "col", "aria-hidden": "true" })]));
    var body = CW.el("tbody");
    var table = CW.el("table", { class: "kv-table" }, [CW.el("caption", { text: CW.t(L.caption) }), CW.el("thead", null, [head]), body]);

    root.appendChild(CW.el("p", { class: "cw-note", text: CW.t(L.title) }));
    root.appendChild(picks);
    root.appendChild(CW.el("div", { class: "cw-controls" }, [context, batch, bytes]));
    // a region the keyboard can reach, since it may scroll sideways on a narrow screen
    root.appendChild(CW.el("div", { class: "cw-scroll kv-scroll", tabindex: "0", role: "region", "aria-label": CW.t(L.caption) }, [table]));
    root.appendChild(CW.el("p", { class: "cw-note", text: CW.t(L.note) }));

    // one row per model, made once; a move of a control updates the shown rows in place
    var rows = {};
    cfg.models.forEach(function (m) {
      var cells = {}, segs = {};
      var tds = groups.map(function (g) {
        cells[g] = CW.el("output", { "data-readout": g + "." + m.id });
        return CW.el("td", null, [cells[g]]);
      });
      cells.total = CW.el("output", { "data-readout": "total." + m.id });
      var bar = CW.el("div", { class: "kv-bar" }, groups.map(function (g) {
        segs[g] = CW.el("span", { class: "kv-" + g });
        return segs[g];
      }));
      var mark = CW.el("abbr", { class: "kv-beyond", title: m.max == null ? "" : CW.fill(CW.t(L.beyond), { max: CW.integer(m.max) }),
                                 text: "†", hidden: true });
      var tr = CW.el("tr", { "data-model": m.id, hidden: true },
                     [CW.el("th", { scope: "row" }, [name(m), " ", mark])].concat(tds, [CW.el("td", null, [cells.total]),
                     CW.el("td", { class: "kv-bar-cell", "aria-hidden": "true" }, [bar])]));
      body.appendChild(tr);
      rows[m.id] = { tr: tr, cells: cells, segs: segs, mark: mark };
    });

    function update() {
      var T = Math.pow(cfg.base, state.exp), B = Math.pow(cfg.base, state.batchExp);
      var shown = cfg.models.filter(function (m) { return state.on[m.id]; });
      var sizes = shown.map(function (m) { return cacheBytes(m, groups, T, B, state.bytes); });
      var most = Math.max.apply(null, sizes.map(function (s) { return s.total; }).concat([1]));
      cfg.models.forEach(function (m) {
        var r = rows[m.id];
        if (!state.on[m.id]) { if (!r.tr.hidden) r.tr.hidden = true; r.tr.removeAttribute("data-shown"); return; }
        r.tr.hidden = false;
        r.tr.setAttribute("data-shown", "true");
      });
      shown.forEach(function (m, i) {
        var r = rows[m.id], s = sizes[i], beyond = m.max != null && T > m.max;
        r.tr.setAttribute("data-beyond", beyond ? "true" : "false");
        r.mark.hidden = !beyond;
        groups.forEach(function (g) {
          CW.setReadout(r.cells[g], s[g], s[g] ? size(s[g]) : CW.t(L.none));
          r.segs[g].style.width = (cfg.percent * s[g] / most) + "%";
        });
        CW.setReadout(r.cells.total, s.total, size(s.total));
      });
    }
    update();
  }

  CW.register("kv-calculator", init);
})();
