// Render arithmatex's \( \) and \[ \] spans with the site's local KaTeX, on every page switch; and the
// same math in the tables of contents, where the toc extension leaves a heading's formula as its source
// text ("乘 \(1/\sqrt{N}\)"). A display formula is never shrunk: one wider than its column is laid out for
// it. Its equations (what its source separates by a \qquad outside any group) go on lines of their own, and
// a line still too wide breaks after a relation or an operator, as inline math does (course.css lets a
// display formula wrap). Only a part that cannot break (a fraction wider than the column) leaves the
// formula wider than its box; then it scrolls sideways in that box, which shows that it scrolls and which
// the keyboard can reach. Laid out again whenever its column changes width (a window resized, a content
// tab shown: a formula in a hidden tab has no width to measure until its tab is selected).
(function () {
  var opts = {
    delimiters: [
      { left: "\\(", right: "\\)", display: false },
      { left: "\\[", right: "\\]", display: true },
    ],
    throwOnError: false,
  };
  var sources = new WeakMap();   // a display formula's box → its TeX

  // the TeX's equations: split at each \qquad outside braces, \left…\right and environments
  function equations(tex) {
    var parts = [""], depth = 0;
    (tex.match(/\\[a-zA-Z]+|\\.|[{}]|[^\\{}]+/g) || []).forEach(function (token) {
      if (token === "{" || token === "\\left" || token === "\\begin") depth += 1;
      if (token === "}" || token === "\\right" || token === "\\end") depth -= 1;
      if (token === "\\qquad" && depth === 0) parts.push("");
      else parts[parts.length - 1] += token;
    });
    return parts.map(function (p) { return p.trim(); }).filter(Boolean);
  }
  function draw(el, parts) {
    el.textContent = "";
    parts.forEach(function (tex) {
      var line = document.createElement("span");
      katex.render(tex, line, { displayMode: true, throwOnError: false });
      el.appendChild(line);
    });
    el.classList.toggle("math-lines", parts.length > 1);
  }
  function overflows(el) { return el.scrollWidth > el.clientWidth + 1; }

  function fitOne(el) {
    var tex = sources.get(el);
    if (tex === undefined || !el.clientWidth) return;   // not rendered yet, or hidden (no width to fit)
    el.classList.remove("math-wrap");
    if (el.classList.contains("math-lines")) draw(el, [tex]);   // the column may hold it whole now
    if (overflows(el)) {
      var parts = equations(tex);
      if (parts.length > 1) draw(el, parts);
      el.classList.add("math-wrap");   // and a line still too wide breaks after a relation or an operator
    }
    var scrolls = overflows(el);
    el.classList.toggle("math-scroll", scrolls);
    if (scrolls) {
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "region");
      el.setAttribute("aria-label", tex);
    } else {
      ["tabindex", "role", "aria-label"].forEach(function (a) { el.removeAttribute(a); });
    }
  }
  function fit() {
    document.querySelectorAll("div.arithmatex").forEach(fitOne);
  }
  var widths = new WeakMap();
  var watch = window.ResizeObserver && new ResizeObserver(function (entries) {
    entries.forEach(function (entry) {
      var el = entry.target;
      if (widths.get(el) !== el.clientWidth) { widths.set(el, el.clientWidth); fitOne(el); }
    });
  });
  document$.subscribe(function () {
    document.querySelectorAll("div.arithmatex").forEach(function (el) {
      if (sources.has(el)) return;
      var tex = el.textContent.trim().replace(/^\\\[/, "").replace(/\\\]$/, "");
      sources.set(el, tex);
      draw(el, [tex]);
    });
    document.querySelectorAll("span.arithmatex").forEach(function (el) { renderMathInElement(el, opts); });
    document.querySelectorAll(".md-nav__link").forEach(function (el) {
      if (el.textContent.indexOf("\\(") >= 0) renderMathInElement(el, opts);
    });
    fit();
    if (watch) {
      watch.disconnect();
      document.querySelectorAll("div.arithmatex").forEach(function (el) { watch.observe(el); });
    }
    // KaTeX's fonts may arrive after the first measurement and widen a formula: measure again then
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(fit);
  });
  if (!watch) window.addEventListener("resize", function () { requestAnimationFrame(fit); });
})();
