// One tab stop per paragraph for the registry's numbers (.reg-num, course/core/shortcodes.py): a lesson
// page holds some 300 of them, each focusable for its provenance, and a keyboard reader tabbing to a
// widget went through all of them. Now the first number of a paragraph (a list item, a table cell, a
// heading) is the tab stop; the arrow keys move among that paragraph's numbers (Home and End to its first
// and last); the number last visited stays the paragraph's tab stop. Every number keeps its tooltip and
// its accessible name, and the page says once, to assistive technology, how to move among them.
// The tooltip: the build writes a number's provenance, in the reader's words, as its data-tip (not a title:
// Material's tooltips open below, over the next line or row); this script shows it in one box, on hover,
// on keyboard focus and on a tap (a tap focuses the number), above the number's line (below it when there
// is no room above), never wider than the screen, so it hides neither the number's line nor the row after.
// Escape, a tap elsewhere or leaving the number closes it.
(function () {
  "use strict";
  var BLOCK = "p, li, td, th, dd, dt, caption, figcaption, summary, h1, h2, h3, h4, h5, h6, .cw-note, .admonition-title";
  function groupOf(el) { return el.closest(BLOCK) || el.parentElement; }
  function members(block) {
    return [].filter.call(block.querySelectorAll(".reg-num"), function (n) { return groupOf(n) === block; });
  }
  function init() {
    // the sentence, in the page's language, is written by the build on every page with numbers
    // (course/core/site.py, number_keys_hint)
    if (document.querySelector(".reg-num") && !document.getElementById("reg-num-hint")) {
      console.error("course: this page has numbers but no #reg-num-hint to tell how to move among them");
    }
    var seen = new Set();
    document.querySelectorAll(".reg-num").forEach(function (n) {
      var block = groupOf(n);
      if (seen.has(block)) return;
      seen.add(block);
      var all = members(block);
      all.forEach(function (m, i) {
        m.tabIndex = i === 0 ? 0 : -1;
        if (all.length > 1) m.setAttribute("aria-describedby", "reg-num-hint");
      });
    });
  }
  var box = null, shown = null, GAP = 6, EDGE = 8;
  function tipBox() {
    if (!box || !box.isConnected) {
      box = document.createElement("div");
      box.className = "reg-num-tip";
      box.setAttribute("aria-hidden", "true");   // the number's accessible name already says it
      box.hidden = true;
      document.body.appendChild(box);
    }
    return box;
  }
  function show(n) {
    if (!n.dataset.tip) return;
    var t = tipBox(), width = document.documentElement.clientWidth;
    shown = n;
    t.textContent = n.dataset.tip;
    t.style.maxWidth = Math.min(320, width - 2 * EDGE) + "px";
    t.style.left = "0px"; t.style.top = "0px";
    t.hidden = false;
    var r = n.getClientRects()[0] || n.getBoundingClientRect(), b = t.getBoundingClientRect();
    var left = Math.max(EDGE, Math.min(r.left + r.width / 2 - b.width / 2, width - EDGE - b.width));
    var top = r.top - GAP - b.height >= EDGE ? r.top - GAP - b.height : r.bottom + GAP;
    t.classList.toggle("below", top > r.top);
    t.style.left = left + window.scrollX + "px";
    t.style.top = top + window.scrollY + "px";
  }
  function hide(n) {
    if (!box || (n && n !== shown)) return;
    box.hidden = true;
    shown = null;
  }
  function numberOf(e) { return e.target.closest ? e.target.closest(".reg-num") : null; }
  document.addEventListener("mouseover", function (e) { var n = numberOf(e); if (n) show(n); });
  document.addEventListener("mouseout", function (e) {
    var n = numberOf(e);
    if (n && !n.contains(e.relatedTarget)) {
      if (document.activeElement !== n) hide(n);
      else show(n);
    }
  });
  document.addEventListener("focusout", function (e) { var n = numberOf(e); if (n) hide(n); });
  window.addEventListener("resize", function () { if (shown) show(shown); });
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && shown) hide();
  });
  document.addEventListener("keydown", function (e) {
    var n = e.target;
    if (!n.classList || !n.classList.contains("reg-num") || e.altKey || e.ctrlKey || e.metaKey) return;
    var all = members(groupOf(n)), i = all.indexOf(n), j = i;
    if (e.key === "ArrowRight" || e.key === "ArrowDown") j = Math.min(all.length - 1, i + 1);
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") j = Math.max(0, i - 1);
    else if (e.key === "Home") j = 0;
    else if (e.key === "End") j = all.length - 1;
    else return;
    e.preventDefault();
    if (j === i) return;
    all[i].tabIndex = -1;
    all[j].tabIndex = 0;
    all[j].focus();
  });
  // a number reached by pointer or by a link becomes its paragraph's tab stop
  document.addEventListener("focusin", function (e) {
    var n = e.target;
    if (!n.classList || !n.classList.contains("reg-num")) return;
    members(groupOf(n)).forEach(function (m) { m.tabIndex = m === n ? 0 : -1; });
    show(n);
  });
  if (window.document$ && document$.subscribe) document$.subscribe(init);
  else document.addEventListener("DOMContentLoaded", init);
})();
