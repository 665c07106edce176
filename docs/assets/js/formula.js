// Formulas whose terms explain themselves. Markup (written in the page, in the page's language):
//   <span data-term="NAME" tabindex="0" role="button">…</span>   a term of the formula
//   <div data-term-text="NAME" hidden>…</div>                      what NAME is and why it is there
//   <div data-readout="term-explanation" aria-live="polite">…</div> where the explanation appears
// Click, keyboard focus, Enter or Space on a term shows its text. Re-initialized on every page switch.
(function () {
  function show(root, term) {
    var name = term.getAttribute("data-term");
    var text = root.querySelector('[data-term-text="' + name + '"]');
    var out = root.querySelector('[data-readout="term-explanation"]');
    if (!text || !out) return;
    out.innerHTML = text.innerHTML;
    out.setAttribute("data-showing", name);
    root.querySelectorAll("[data-term]").forEach(function (t) {
      var on = t.getAttribute("data-term") === name;
      t.classList.toggle("is-active", on);
      t.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }
  function init(root) {
    if (root.dataset.formulaReady) return;
    root.dataset.formulaReady = "1";
    root.querySelectorAll("[data-term]").forEach(function (t) {
      t.setAttribute("aria-pressed", "false");
      t.addEventListener("click", function () { show(root, t); });
      t.addEventListener("focus", function () { show(root, t); });
      t.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); show(root, t); }
      });
    });
  }
  document$.subscribe(function () {
    document.querySelectorAll("[data-formula]").forEach(init);
  });
})();
