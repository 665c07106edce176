// Check-yourself questions (course/core/questions.py writes them; `<!-- question:ID -->` places one). Each
// <div data-question> holds its question, a form the page shows once this script runs, a status line and
// the worked route, which stays hidden until the reader has tried once (right or wrong). A number's answer
// comes in data-target with data-tolerance (half a unit of the shown number's last digit) and the text
// around it (data-before, data-after); a choice's in data-answer. The verdicts' words are in data-say, in
// the page's language. parse() and accepts() twin course/core/questions.py's (tests/test_questions.py runs
// both under Node); nothing here knows a lesson or a language.
(function (root) {
  "use strict";
  var MINUSES = /[\u2212\u2012\u2013\ufe63\uff0d]/g, SPACES = /[\s,'\u00a0\u2009\u202f]/g;
  var PLAIN = /^[-+]?(\d+\.?\d*|\.\d+)$/;

  function plain(s) { return String(s).normalize("NFKC").replace(MINUSES, "-").replace(SPACES, ""); }
  // what a reader typed, as a number (null if it is none): full-width digits, grouping commas and spaces, a
  // typographic minus and the answer's own unit around it are allowed
  function parse(typed, t) {
    var s = plain(typed), before = plain(t.before || ""), after = plain(t.after || "");
    if (after && s.length >= after.length && s.slice(s.length - after.length) === after) s = s.slice(0, s.length - after.length);
    if (before && s.indexOf(before) === 0) s = s.slice(before.length);
    return PLAIN.test(s) ? Number(s) : null;
  }
  // true (right), false (wrong) or null (no number)
  function accepts(typed, t) {
    var x = parse(typed, t);
    if (x === null) return null;
    return Math.abs(x - t.value) <= t.tolerance * (1 + 1e-9) + 1e-12 * Math.abs(t.value);
  }
  root.CWQuestions = { plain: plain, parse: parse, accepts: accepts };
  if (typeof document === "undefined") return;   // under Node (the parity test): the functions only

  function init(q) {
    if (q.getAttribute("data-ready") === "true") return;
    var say = JSON.parse(q.getAttribute("data-say") || "{}");
    var form = q.querySelector(".cq-form"), verdict = q.querySelector(".cq-verdict");
    var route = q.querySelector(".cq-route"), input = q.querySelector(".cq-input");
    form.hidden = false;
    route.hidden = true;   // the worked route waits for an attempt
    function show(right) {
      q.setAttribute("data-attempted", "true");
      q.setAttribute("data-verdict", right ? "right" : "wrong");
      verdict.textContent = right ? say.right : say.wrong;
      route.hidden = false;
    }
    function check() {
      if (q.getAttribute("data-kind") === "number") {
        var t = { value: Number(q.getAttribute("data-target")), tolerance: Number(q.getAttribute("data-tolerance")),
                  before: q.getAttribute("data-before") || "", after: q.getAttribute("data-after") || "" };
        var ok = accepts(input.value, t);
        if (ok === null) { q.setAttribute("data-verdict", "none"); verdict.textContent = say.not_a_number; return; }
        show(ok);
      } else {
        var picked = q.querySelector("input[type=radio]:checked");
        if (!picked) { q.setAttribute("data-verdict", "none"); verdict.textContent = say.choose; return; }
        show(picked.value === q.getAttribute("data-answer"));
      }
    }
    q.querySelector(".cq-check").addEventListener("click", check);
    if (input) input.addEventListener("keydown", function (e) { if (e.key === "Enter") { e.preventDefault(); check(); } });
    q.setAttribute("data-ready", "true");
  }
  function initAll() { document.querySelectorAll("[data-question]").forEach(init); }
  if (root.document$ && typeof root.document$.subscribe === "function") root.document$.subscribe(initAll);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", initAll);
  else initAll();
})(typeof window !== "undefined" ? window : globalThis);
