// variance-growth: how far the residual stream has spread after n writes. Three curves over n:
//   √(n + 1)        x_0 and n writes, all independent with variance 1 (the assumption behind √(2L + 1))
//   simulator       the stream RMS the chapter's simulator measures (residual on, no norm, no write-back
//                   scaling, its default gain): one run of its Python twin, passed in through data-config
//   independent     x_0 and the simulator's own writes, at the sizes it really wrote, summed as if independent
// The gap between the first two is the writes' size; the gap between the last two, their correlation.
// Twin: lessons/c4_residual/twins.py growth(); formulas.py unit_write_std(), independent_sum_rms().
(function () {
  "use strict";
  var CW = window.CW;

  var L;  // the label table, from data-config (the widget's .labels.json)

  function law(n) { return Math.sqrt(n + 1); }
  // √(RMS(x_0)² + Σ RMS(write)²) over the first n writes, summed in the twin's order
  function independent(start, write, n) {
    var acc = 0;
    for (var l = 0; l < n; l++) acc += write[l] * write[l];
    return Math.sqrt(start * start + acc);
  }

  function init(root, cfg) {
    L = cfg.labels;
    var stream = cfg.stream.value, write = cfg.write.value, N = write.length, digits = cfg.digits;
    var state = { n: cfg.n.value };
    var out = {}, chart = CW.el("div", { class: "cw-chart", role: "img", "aria-label": CW.t(L.chart) });
    function readout(name, label) { return CW.readout(out, name, CW.t(label)); }
    var slider = CW.slider({ label: CW.t(L.writes), control: "writes", min: 1, max: N, step: 1, value: state.n,
                             format: CW.integer, onchange: function (v) { state.n = v; update(); } });
    root.appendChild(CW.el("div", { class: "cw-controls" }, [slider]));
    root.appendChild(CW.el("div", { class: "cw-readouts" }, [
      readout("law", L.law), readout("sim", L.sim), readout("independent", L.independent), readout("write", L.write)]));
    root.appendChild(chart);
    root.appendChild(CW.el("p", { class: "cw-note", text: CW.fill(CW.t(L.note), { gain: cfg.gain.text[CW.lang()] }) }));

    var xs = [], laws = [], indep = [];
    for (var n = 0; n <= N; n++) { xs.push(n); laws.push(law(n)); indep.push(independent(stream[0], write, n)); }

    function draw() {
      var col = CW.colors(), n = state.n;
      CW.plot(chart, [
        { x: xs, y: laws, name: CW.t(L.law), mode: "lines", line: { color: col.b, dash: "dash" } },
        { x: xs, y: stream, name: CW.t(L.sim), mode: "lines", line: { color: col.a } },
        { x: xs, y: indep, name: CW.t(L.independent), mode: "lines", line: { color: col.c, dash: "dot" } },
        { x: [n, n], y: [law(n), stream[n]], name: CW.t(L.now), mode: "markers",
          marker: { color: col.fg, size: 11, symbol: "circle-open" } },
      ], { height: 320, xaxis: { title: { text: CW.t(L.n) } }, yaxis: { title: { text: CW.t(L.rms) }, rangemode: "tozero" } });
    }
    function update() {
      var n = state.n, a = law(n), s = stream[n], i = independent(stream[0], write, n), w = write[n - 1];
      CW.setReadout(out.law, a, CW.fixed(a, digits));
      CW.setReadout(out.sim, s, CW.fixed(s, digits));
      CW.setReadout(out.independent, i, CW.fixed(i, digits));
      CW.setReadout(out.write, w, CW.fixed(w, digits));
      draw();
    }
    draw.root = root;
    CW.onPalette(draw);
    update();
  }

  CW.register("variance-growth", init);
})();
