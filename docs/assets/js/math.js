// The formulas come rendered by the build (course/core/math.py: KaTeX's HTML, the tables of contents' too).
// A display formula wider than its column shrinks to fit (down to 70%, which
// is enough on a 390 px phone), and only past that scrolls sideways in its own box, which the keyboard
// can then reach; measured again whenever its column changes width (a window resized, a content tab shown:
// a formula in a hidden tab has no width to measure until its tab is selected).
(function () {
  function fitOne(el) {
    var k = el.querySelector(".katex-display > .katex");
    if (!k || !el.clientWidth) return;   // not rendered yet, or hidden (no width to fit)
    k.style.fontSize = "";
    // the box's own scroll width counts too: the display block's margins can overflow where the formula fits
    var room = el.clientWidth, need = Math.max(k.scrollWidth, el.scrollWidth);
    if (need > room) k.style.fontSize = Math.max(0.7, room / need) * 100 + "%";
    var scrolls = Math.max(k.scrollWidth, el.scrollWidth) > el.clientWidth + 1, tex = el.querySelector("annotation");
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
  // each formula is measured when a reader comes near it (CW.whenNear, common.js), not all at once on load
  var near = [];
  function fit() { near.forEach(fitOne); }
  document$.subscribe(function () {
    near = [];
    if (watch) watch.disconnect();
    document.querySelectorAll("div.arithmatex").forEach(function (el) {
      CW.whenNear(el, function () {
        near.push(el);
        if (watch) watch.observe(el); else fitOne(el);   // the observer measures it once at the start
      });
    });
    // KaTeX's fonts may arrive after the first measurement and widen a formula: measure again then
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(fit);
  });
  if (!watch) window.addEventListener("resize", function () { requestAnimationFrame(fit); });
})();
