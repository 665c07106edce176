// residual-paths: a stack of n residual blocks x + F(x), unrolled into the 2^n paths from x_0 to x_n (the
// view of Veit et al. 2016). Each path either passes through a block or goes around it. Pressing a block
// takes it out; the paths that never pass through any block taken out stay lit, and are counted.
// Twin: lessons/c4_residual/twins.py paths() and paths_around(), formulas.py path_count(), paths_skipping()
// and path_lengths(). The default and largest n come from the registry (paths.default_blocks,
// paths.max_blocks) via data-config.
(function () {
  "use strict";
  var CW = window.CW;

  var L;  // the label table, from data-config (the widget's .labels.json)
  var SUB = "₀₁₂₃₄₅₆₇₈₉";
  function sub(k) { return String(k).split("").map(function (c) { return SUB[Number(c)]; }).join(""); }

  // every path through n blocks as the list of blocks it passes through (1-based), shortest first, then
  // in the order of the block numbers: the order of twins.paths()
  function paths(n) {
    var out = [];
    for (var mask = 0; mask < Math.pow(2, n); mask++) {
      var p = [];
      for (var b = 0; b < n; b++) if ((mask >> b) & 1) p.push(b + 1);
      out.push(p);
    }
    return out.sort(function (a, b) {
      if (a.length !== b.length) return a.length - b.length;
      for (var i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
      return 0;
    });
  }
  function avoids(p, out) { return p.every(function (b) { return !out[b]; }); }

  function init(root, cfg) {
    L = cfg.labels;
    var state = { n: cfg.blocks.value, out: {} };
    var values = {};
    function readout(name, label) { return CW.readout(values, name, CW.t(label)); }
    var slider = CW.slider({ label: CW.t(L.blocks), control: "blocks", min: 1, max: cfg.maxBlocks.value, step: 1,
                             value: state.n, format: CW.integer,
                             onchange: function (v) { state.n = v; state.out = {}; build(); } });
    var group = CW.el("div", { class: "cw-buttons", role: "group", "aria-label": CW.t(L.take) });
    var list = CW.el("ol", { class: "cw-paths", "data-readout": "paths-list", "aria-label": CW.t(L.list) });
    var tbody = CW.el("tbody", {});
    var table = CW.el("table", { class: "cw-table", "data-readout": "lengths" }, [
      CW.el("caption", { text: CW.t(L.lengths) }),
      CW.el("thead", {}, CW.el("tr", {}, [L.colLength, L.colAll, L.colLit].map(function (h) {
        return CW.el("th", { scope: "col", text: CW.t(h) });
      }))),
      tbody]);

    root.appendChild(CW.el("div", { class: "cw-controls" }, [slider]));
    root.appendChild(CW.el("p", { class: "cw-note", text: CW.t(L.take) }));
    root.appendChild(group);
    root.appendChild(CW.el("div", { class: "cw-readouts" }, [
      readout("paths", L.paths), readout("taken-out", L.takenOut), readout("paths-around", L.around)]));
    root.appendChild(CW.el("div", { class: "cw-paths-wrap" }, [list, CW.el("div", { class: "cw-scroll" }, table)]));

    function pathText(p) {
      var steps = ["x" + sub(0)].concat(p.map(function (b) { return "F" + sub(b); }));
      return steps.join(" → ") + " → x" + sub(state.n) + (p.length ? "" : " (" + CW.t(L.identity) + ")");
    }

    function build() {
      group.textContent = "";
      for (var b = 1; b <= state.n; b++) {
        (function (block) {
          var button = CW.el("button", { type: "button", class: "md-button cw-button cw-block", "data-control": "block",
                                         "data-block": block, "aria-pressed": "false",
                                         "aria-label": CW.fill(CW.t(L.blockName), { l: block }), text: "F" + sub(block) });
          button.addEventListener("click", function () {
            state.out[block] = !state.out[block];
            update();
          });
          group.appendChild(button);
        })(b);
      }
      update();
    }

    function update() {
      var all = paths(state.n), lit = 0, taken = 0, byLength = [], litByLength = [];
      for (var k = 0; k <= state.n; k++) { byLength.push(0); litByLength.push(0); }
      group.querySelectorAll("[data-block]").forEach(function (btn) {
        var on = !!state.out[Number(btn.getAttribute("data-block"))];
        btn.setAttribute("aria-pressed", on ? "true" : "false");
        btn.classList.toggle("cw-block-out", on);
        if (on) taken += 1;
      });
      list.textContent = "";
      all.forEach(function (p) {
        var ok = avoids(p, state.out);
        byLength[p.length] += 1;
        if (ok) { lit += 1; litByLength[p.length] += 1; }
        var cells = [];
        for (var b = 1; b <= state.n; b++) {
          var through = p.indexOf(b) >= 0;
          cells.push(CW.el("span", { class: "cw-step " + (through ? "cw-step-through" : "cw-step-around"),
                                     "aria-hidden": "true", text: through ? "F" + sub(b) : "·" }));
        }
        list.appendChild(CW.el("li", { class: "cw-path" + (ok ? " cw-path-lit" : ""), "data-path": p.join(","),
                                       "data-lit": ok ? "true" : "false" },
          [CW.el("span", { class: "cw-path-steps" }, cells), CW.el("span", { class: "cw-path-text", text: pathText(p) })]));
      });
      tbody.textContent = "";
      for (k = 0; k <= state.n; k++) {
        tbody.appendChild(CW.el("tr", {}, [CW.el("th", { scope: "row", text: CW.integer(k) }),
          CW.el("td", { text: CW.integer(byLength[k]) }), CW.el("td", { text: CW.integer(litByLength[k]) })]));
      }
      table.setAttribute("data-value", JSON.stringify({ all: byLength, lit: litByLength }));
      CW.setReadout(values.paths, all.length, CW.integer(all.length));
      CW.setReadout(values["taken-out"], taken, CW.integer(taken));
      CW.setReadout(values["paths-around"], lit, CW.integer(lit));
    }
    build();
  }

  CW.register("residual-paths", init);
})();
