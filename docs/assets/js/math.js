// The formulas come rendered by the build (course/core/math.py: KaTeX's HTML, the tables of contents' too).
// A display formula is never shrunk: one wider than its column is laid out for it. A formula of several
// equations (what its source separates by a \qquad outside any group) comes from the build also as one line
// per equation (.math-parts, hidden), shown instead of the whole when the whole does not fit; a line still
// too wide breaks after a relation or an operator, as inline math does (course.css lets a display formula
// wrap). Only a part that cannot break (a fraction wider than the column) leaves the formula wider than its
// box; then it scrolls sideways in that box, which shows that it scrolls and which the keyboard can reach.
// Laid out again whenever its column changes width (a window resized, a content tab shown: a formula in a
// hidden tab has no width to measure until its tab is selected); each formula is first measured when a
// reader comes near it (CW.whenNear, common.js), not all at once on load.
(function () {
  function overflows(el) { return el.scrollWidth > el.clientWidth + 1; }
  function lines(el, on) {
    var whole = el.querySelector(":scope > .math-whole"), parts = el.querySelector(":scope > .math-parts");
    if (!whole || !parts) return false;
    whole.hidden = on;
    parts.hidden = !on;
    el.classList.toggle("math-lines", on);
    return true;
  }
  function fitOne(el) {
    if (!el.clientWidth) return;   // hidden (no width to fit)
    el.classList.remove("math-wrap");
    lines(el, false);              // the column may hold it whole now
    if (overflows(el)) {
      lines(el, true);
      el.classList.add("math-wrap");   // and a line still too wide breaks after a relation or an operator
    }
    var scrolls = overflows(el), tex = el.querySelector("annotation");
    el.classList.toggle("math-scroll", scrolls);
    if (scrolls) {
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "region");
      el.setAttribute("aria-label", tex ? tex.textContent : "formula");
    } else {
      ["tabindex", "role", "aria-label"].forEach(function (a) { el.removeAttribute(a); });
    }
  }
  var widths = new WeakMap();
  var watch = window.ResizeObserver && new ResizeObserver(function (entries) {
    entries.forEach(function (entry) {
      var el = entry.target;
      if (widths.get(el) !== el.clientWidth) { widths.set(el, el.clientWidth); fitOne(el); }
    });
  });
  var near = [];
  function fit() { near.forEach(fitOne); }
  document$.subscribe(function () {
    near = [];
    if (watch) watch.disconnect();
    document.querySelectorAll("div.arithmatex").forEach(function (el) {
      CW.whenNear(el, function () {
        el.classList.add("math-near");   // laid out from now on (course.css), so that it can be measured
        near.push(el);
        if (watch) watch.observe(el); else fitOne(el);   // the observer measures it once at the start
      });
    });
    // KaTeX's fonts may arrive after the first measurement and widen a formula: measure again then
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(fit);
  });
  if (!watch) window.addEventListener("resize", function () { requestAnimationFrame(fit); });
})();
