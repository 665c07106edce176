// ring-classifier: can a classifier tell a ring of points from its center? Mode "linear": one line,
// x·(cos θ, sin θ) − b > 0 means ring; the reader turns and shifts it, and the widget also tries every
// line of the controls' grid and reports the best. Mode "relu": k ReLU units with directions θ_i = 2πi/k,
// unit i computes ReLU(u_i·x − t); the point is called ring when their sum is above 0. What every unit
// leaves silent is drawn as the region called center. The points are teaching data drawn with the seeded
// CW.Mulberry32 in the order lessons/c4_ffn/twins.py draws them; twin: ring_points(), line_scores(),
// best_line(), relu_scores(). Every setting comes from the twin's RingSpec through data-config.
(function () {
  "use strict";
  var CW = window.CW;

  var L;  // the label table, from data-config (the widget's .labels.json)
  var CENTER = 0, RING = 1;

  function points(s) {
    var rng = new CW.Mulberry32(s.seed), out = [];
    [CENTER, RING].forEach(function (label) {
      for (var i = 0; i < s.per_class; i++) {
        var u = rng.uniform(), v = rng.uniform();
        var r = label === CENTER ? s.center_radius * Math.sqrt(u)
          : Math.sqrt(s.ring_inner * s.ring_inner + (s.ring_outer * s.ring_outer - s.ring_inner * s.ring_inner) * u);
        var a = 2 * Math.PI * v;
        out.push({ x: r * Math.cos(a), y: r * Math.sin(a), label: label });
      }
    });
    return out;
  }
  function radians(deg) { return deg * Math.PI / 180; }
  function lineScores(pts, deg, b) {
    var c = Math.cos(radians(deg)), s = Math.sin(radians(deg));
    return pts.map(function (p) { return p.x * c + p.y * s - b; });
  }
  function units(k) {
    var u = [];
    for (var i = 0; i < k; i++) u.push([Math.cos(2 * Math.PI * i / k), Math.sin(2 * Math.PI * i / k)]);
    return u;
  }
  function reluScores(pts, k, t) {
    var us = units(k);
    return pts.map(function (p) {
      var s = 0;
      us.forEach(function (u) { s += Math.max(0, p.x * u[0] + p.y * u[1] - t); });
      return s;
    });
  }
  function correct(pts, scores) {
    var n = 0;
    pts.forEach(function (p, i) { if ((scores[i] > 0) === (p.label === RING)) n += 1; });
    return n;
  }
  function offsets(s) {
    var n = Math.round(2 * s.offset_max / s.offset_step), out = [];
    for (var j = 0; j <= n; j++) out.push(-s.offset_max + s.offset_step * j);
    return out;
  }
  // every line of the grid, in the twin's order; the first best one wins
  function bestLine(pts, s) {
    var best = { correct: -1 }, bs = offsets(s);
    for (var deg = 0; deg < 360; deg += s.angle_step) {
      var proj = lineScores(pts, deg, 0);
      for (var j = 0; j < bs.length; j++) {
        var n = 0;
        for (var i = 0; i < pts.length; i++) if ((proj[i] > bs[j]) === (pts[i].label === RING)) n += 1;
        if (n > best.correct) best = { correct: n, angle: deg, offset: bs[j] };
      }
    }
    return best;
  }
  // the part of the view square where u·p ≤ t for every half-plane (u, t): Sutherland–Hodgman clipping
  function silentRegion(halfPlanes, v) {
    var poly = [[-v, -v], [v, -v], [v, v], [-v, v]];
    halfPlanes.forEach(function (h) {
      var u = h[0], t = h[1], next = [];
      function inside(p) { return p[0] * u[0] + p[1] * u[1] <= t; }
      for (var i = 0; i < poly.length; i++) {
        var p = poly[i], q = poly[(i + 1) % poly.length];
        var fp = p[0] * u[0] + p[1] * u[1] - t, fq = q[0] * u[0] + q[1] * u[1] - t;
        if (inside(p)) next.push(p);
        if ((fp <= 0) !== (fq <= 0)) {
          var s = fp / (fp - fq);
          next.push([p[0] + s * (q[0] - p[0]), p[1] + s * (q[1] - p[1])]);
        }
      }
      poly = next;
    });
    return poly;
  }
  // the segment of the line u·p = t inside the view square (for drawing a unit's hinge or the line)
  function segment(u, t, v) {
    var d = [-u[1], u[0]], c = [u[0] * t, u[1] * t];
    return [[c[0] - 2 * v * d[0], c[1] - 2 * v * d[1]], [c[0] + 2 * v * d[0], c[1] + 2 * v * d[1]]];
  }

  function init(root, cfg, mode) {
    L = cfg.labels;
    var s = cfg.spec, relu = mode === "relu", pts = points(s), total = pts.length;
    var state = { angle: s.angle_default, offset: s.offset_default, k: s.k_default };
    var out = {};
    function readout(name, label) { return CW.readout(out, name, CW.t(label)); }
    function pct(v) { return CW.percent(v, cfg.digits); }
    var chart = CW.el("div", { class: "cw-chart", role: "img", "aria-label": CW.t(L.chart) });
    var controls, readouts;
    if (relu) {
      controls = [CW.slider({ label: CW.t(L.k), control: "k", min: s.k_min, max: s.k_max, step: 1, value: state.k,
                              format: CW.integer, onchange: function (v) { state.k = v; update(); } })];
      readouts = [readout("correct", L.correct), readout("accuracy", L.accuracy),
                  readout("missed-ring", L.missedRing), readout("missed-center", L.missedCenter)];
    } else {
      var angle = CW.slider({ label: CW.t(L.angle), control: "angle", min: 0, max: 360 - s.angle_step, step: s.angle_step,
                              value: state.angle, format: CW.integer, onchange: function (v) { state.angle = v; update(); } });
      var offset = CW.slider({ label: CW.t(L.offset), control: "offset", min: -s.offset_max, max: s.offset_max,
                               step: s.offset_step, value: state.offset, format: function (v) { return CW.fixed(v, 1); },
                               onchange: function (v) { state.offset = v; update(); } });
      var best = bestLine(pts, s);
      var show = CW.el("button", { type: "button", class: "md-button cw-button", "data-control": "show-best", text: CW.t(L.showBest),
                                   onclick: function () {
                                     state.angle = best.angle; state.offset = best.offset;
                                     angle.set(best.angle); offset.set(best.offset); update();
                                   } });
      controls = [angle, offset, CW.el("div", { class: "cw-buttons" }, show)];
      readouts = [readout("correct", L.correct), readout("accuracy", L.accuracy),
                  readout("best-correct", L.bestCorrect), readout("best-accuracy", L.bestAccuracy)];
    }
    root.appendChild(CW.el("p", { class: "cw-note", text: CW.t(relu ? L.reluTitle : L.linearTitle) }));
    root.appendChild(CW.el("div", { class: "cw-controls" }, controls));
    root.appendChild(CW.el("div", { class: "cw-readouts" }, readouts));
    root.appendChild(chart);
    root.appendChild(CW.el("p", { class: "cw-note", text: CW.fill(CW.t(L.data), { n: CW.integer(s.per_class) }) }));
    if (!relu) {
      CW.setReadout(out["best-correct"], best.correct, CW.fill(CW.t(L.of), { n: CW.integer(best.correct), total: CW.integer(total) }));
      CW.setReadout(out["best-accuracy"], best.correct / total, pct(best.correct / total));
    }

    function planes() {
      if (relu) return units(state.k).map(function (u) { return [u, s.threshold]; });
      return [[[Math.cos(radians(state.angle)), Math.sin(radians(state.angle))], state.offset]];
    }
    function scores() { return relu ? reluScores(pts, state.k, s.threshold) : lineScores(pts, state.angle, state.offset); }

    function draw() {
      var col = CW.colors(), sc = scores(), v = s.view, hp = planes();
      var region = silentRegion(hp, v), traces = [];
      if (region.length) {
        traces.push({ x: region.map(function (p) { return p[0]; }).concat([region[0][0]]),
                      y: region.map(function (p) { return p[1]; }).concat([region[0][1]]),
                      mode: "lines", fill: "toself", fillcolor: col.a + "22", line: { color: col.a, width: 1 },
                      name: CW.t(L.region), hoverinfo: "skip" });
      }
      hp.forEach(function (h, i) {
        var seg = segment(h[0], h[1], v);
        traces.push({ x: [seg[0][0], seg[1][0]], y: [seg[0][1], seg[1][1]], mode: "lines", hoverinfo: "skip",
                      line: { color: col.fg, width: 1, dash: "dash" }, name: CW.t(relu ? L.hinge : L.line),
                      legendgroup: "hinge", showlegend: i === 0 });
      });
      [{ label: CENTER, name: "center", color: col.a, symbol: "circle" },
       { label: RING, name: "ring", color: col.b, symbol: "diamond" }].forEach(function (c) {
        var mine = pts.filter(function (p) { return p.label === c.label; });
        traces.push({ x: mine.map(function (p) { return p.x; }), y: mine.map(function (p) { return p.y; }), mode: "markers",
                      name: CW.t(L.classes[c.name]), marker: { color: c.color, symbol: c.symbol, size: 11 } });
      });
      var wrong = pts.filter(function (p, i) { return (sc[i] > 0) !== (p.label === RING); });
      traces.push({ x: wrong.map(function (p) { return p.x; }), y: wrong.map(function (p) { return p.y; }), mode: "markers",
                    name: CW.t(L.wrong), hoverinfo: "skip",
                    marker: { color: "rgba(0,0,0,0)", size: 14, line: { color: col.d, width: 2 } } });
      CW.plot(chart, traces, { height: 420, showlegend: true,
                               xaxis: { range: [-v, v], zeroline: false, constrain: "domain" },
                               yaxis: { range: [-v, v], scaleanchor: "x", zeroline: false, constrain: "domain" } });
    }
    function update() {
      var sc = scores(), n = correct(pts, sc);
      CW.setReadout(out.correct, n, CW.fill(CW.t(L.of), { n: CW.integer(n), total: CW.integer(total) }));
      CW.setReadout(out.accuracy, n / total, pct(n / total));
      if (relu) {
        var ring = 0, center = 0;
        pts.forEach(function (p, i) {
          if (p.label === RING && !(sc[i] > 0)) ring += 1;
          if (p.label === CENTER && sc[i] > 0) center += 1;
        });
        CW.setReadout(out["missed-ring"], ring, CW.integer(ring));
        CW.setReadout(out["missed-center"], center, CW.integer(center));
      }
      draw();
    }
    draw.root = root;
    CW.onPalette(draw);
    update();
    // the improved plan sits in a content tab that is hidden at first, where the chart has no width to take:
    // fit it to its box once the tab shows it (and whenever the box changes size)
    if (window.ResizeObserver) {
      new ResizeObserver(function () {
        if (chart.offsetWidth && window.Plotly && chart.data) CW.track(window.Plotly.Plots.resize(chart));
      }).observe(chart);
    }
  }

  CW.register("ring-classifier", init);
})();
