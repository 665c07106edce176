// The numbers appendix (course/core/tables.py numbers_appendix): a filter over every row (its key, shown
// text and provenance), a button that opens or closes every group, and a link to one number ("#num-KEY")
// that opens the groups around it. Does nothing on a page without the appendix.
(function () {
  "use strict";
  function openTo(el) {
    for (var d = el && el.closest("details"); d; d = d.parentElement.closest("details")) d.open = true;
  }
  function showHash() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    if (el && el.closest(".numbers-appendix")) { openTo(el); el.scrollIntoView(); }
  }
  function init() {
    var root = document.querySelector(".numbers-appendix");
    if (!root || root.dataset.ready) return;
    root.dataset.ready = "true";
    var tools = root.querySelector(".na-tools"), input = root.querySelector(".na-filter");
    var out = root.querySelector(".na-shown"), toggle = root.querySelector(".na-toggle");
    var rows = [].slice.call(root.querySelectorAll("tbody tr"));
    var texts = rows.map(function (r) { return r.textContent.toLowerCase(); });
    var groups = [].slice.call(root.querySelectorAll("details")).reverse();   // innermost first
    tools.hidden = false;
    var timer = null;
    function apply() {
      var q = input.value.trim().toLowerCase(), n = 0;
      rows.forEach(function (r, i) { var hit = !q || texts[i].indexOf(q) >= 0; r.hidden = !hit; if (hit) n++; });
      groups.forEach(function (g) {
        var any = !q || g.querySelector("tbody tr:not([hidden])");
        g.hidden = !any;
        g.open = !!q && !!any && n <= 400;   // a filter that leaves few rows shows them
      });
      out.textContent = out.dataset.template.replace("{n}", CWFormat.integer(n)).replace("{total}", CWFormat.integer(Number(out.dataset.total)));
    }
    input.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(apply, 120); });
    toggle.addEventListener("click", function () {
      var open = !groups.every(function (g) { return g.hidden || g.open; });
      groups.forEach(function (g) { if (!g.hidden) g.open = open; });
      toggle.textContent = open ? toggle.dataset.close : toggle.dataset.open;
    });
    showHash();
  }
  window.addEventListener("hashchange", showHash);
  if (window.document$ && document$.subscribe) document$.subscribe(init);
  else document.addEventListener("DOMContentLoaded", init);
})();
