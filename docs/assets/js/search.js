// Search on a bilingual site, with mkdocs-material's own search worker and index (no fork of either).
// Loaded right before Material's bundle, both deferred (overrides/main.html); it adapts four things Material does
// not let a configuration change, and the site works the same without it (only search gets worse):
//
// 1. The index is fetched when the reader opens search (focus, click or a shortcut on the search box),
//    not with every page: Material requests it as soon as a page loads. The request is held, not changed.
// 2. The one index the i18n plugin writes holds both languages; a page's search gets the entries of its
//    own language (the other language's pages live under their prefix, "en/"), and previews of prose:
//    notebook code (<pre>), "In [1]:" prompts and "Copied!" buttons are dropped from the entries' text.
//    A build step that wrote one index per language would let this part go.
// 3. Material reads the query on `keyup`. Text committed by a Chinese input method, pasted, or typed on a
//    phone's keyboard may come with no keyup carrying it, so the query stayed unsent ("残差" found nothing
//    until a space was typed); every `input` outside a composition, and every compositionend, is passed
//    on as a keyup.
// 4. Material's search worker cuts a Chinese query into the wrong words ("归一化" into "归" and "一"), and
//    fails a query lunr cannot parse ("~a", "a^b"): search-worker.js, beside this script, runs Material's
//    worker with both fixed, and is started in its place.
(function () {
  "use strict";
  var INDEX = /(^|\/)search\/search_index\.json$/;
  var WORKER = /\/workers\/search\.[\w.]+\.js$/;
  var here = document.currentScript ? document.currentScript.src : location.href;

  // ---------------------------------------------------------------- 4. the worker, fixed
  var Native = window.Worker;
  if (Native) {
    window.Worker = function (url, options) {
      var href = new URL(String(url), document.baseURI).href;   // as the browser would (the 404 page sets a <base>)
      if (WORKER.test(href.split(/[?#]/)[0])) href = new URL("search-worker.js", here).href + "#" + encodeURIComponent(href);
      return new Native(href, options);
    };
    window.Worker.prototype = Native.prototype;
  }

  // ---------------------------------------------------------------- 3. the query, however it was typed
  function passOn(e) {
    var el = e.target;
    if (!el.matches || !el.matches(".md-search__input") || e.isComposing) return;
    el.dispatchEvent(new KeyboardEvent("keyup", { bubbles: true }));
  }
  document.addEventListener("input", passOn, true);
  document.addEventListener("compositionend", passOn, true);

  // ---------------------------------------------------------------- 1. fetched when search opens
  var opened = new Promise(function (resolve) {
    if (/[?&]q=/.test(location.search)) return resolve();   // a deep link opens search at once
    function onSearch(e) { if (e.target.closest && e.target.closest(".md-search, label[for='__search']")) resolve(); }
    document.addEventListener("focusin", onSearch, true);
    document.addEventListener("click", onSearch, true);
    document.addEventListener("change", function (e) { if (e.target.id === "__search" && e.target.checked) resolve(); }, true);
  });

  // ---------------------------------------------------------------- 2. the page's language, prose previews
  function siteRoot() {
    var cfg = document.getElementById("__config");
    var base = cfg ? JSON.parse(cfg.textContent).base : ".";
    return new URL(base.replace(/\/?$/, "/"), location.href).href;
  }
  // the path prefix of each language's pages ("" for the default, "en/"), from the alternate links
  function prefixes() {
    var root = siteRoot(), out = {};
    document.querySelectorAll("link[rel=alternate][hreflang]").forEach(function (l) {
      var href = new URL(l.getAttribute("href"), location.href).href;
      if (href.indexOf(root) === 0) out[l.getAttribute("hreflang")] = href.slice(root.length).replace(/index\.html$/, "");
    });
    return out;
  }
  function pageLanguage(known) {
    var lang = (document.documentElement.getAttribute("lang") || "").toLowerCase();
    return Object.keys(known).filter(function (k) { return lang.indexOf(k) === 0; })[0];
  }
  // a notebook's code cell reaches the index twice, as <pre> and as the highlighted copy's bare text
  function prose(text) {
    var blocks = [];
    text = text.replace(/<pre>([\s\S]*?)<\/pre>/g, function (m, code) {
      blocks.push(code.replace(/\s+/g, " ").trim());
      return " ";
    }).replace(/\s+/g, " ");
    blocks.forEach(function (b) { if (b.length > 8) text = text.split(b).join(" "); });
    return text.replace(/\b(In|Out)\s*\[\s*\d*\s*\]:/g, " ").replace(/\bCopied!/g, " ").replace(/\s{2,}/g, " ").trim();
  }
  function forThisPage(index) {
    var known = prefixes(), lang = pageLanguage(known);
    if (lang == null) return index;
    var own = known[lang], others = Object.keys(known).map(function (k) { return known[k]; })
      .filter(function (p) { return p && p !== own && p.indexOf(own) === 0; });
    var docs = index.docs.filter(function (d) {
      var loc = d.location || "";
      return loc.indexOf(own) === 0 && !others.some(function (p) { return loc.indexOf(p) === 0; });
    }).map(function (d) {
      var out = Object.assign({}, d, { title: (d.title || "").replace(/\s*¶$/, "") });
      if (typeof d.text === "string") out.text = prose(d.text);
      return out;
    });
    return Object.assign({}, index, { docs: docs });
  }

  // Material asks for the index with XMLHttpRequest; hold that request until search opens, then hand it
  // the page's part of the index (from a blob: URL, so Material reads it as it reads the file).
  var open = XMLHttpRequest.prototype.open, send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method, url) {
    this._searchIndex = INDEX.test(String(url).split(/[?#]/)[0]) ? String(url) : null;
    return open.apply(this, arguments);
  };
  XMLHttpRequest.prototype.send = function () {
    var xhr = this, url = xhr._searchIndex;
    if (!url) return send.apply(xhr, arguments);
    xhr._searchIndex = null;
    opened
      .then(function () { return fetch(url); })
      .then(function (r) { if (!r.ok) throw new Error(r.statusText); return r.json(); })
      .then(function (index) {
        var blob = URL.createObjectURL(new Blob([JSON.stringify(forThisPage(index))], { type: "application/json" }));
        xhr.addEventListener("loadend", function () { URL.revokeObjectURL(blob); });
        open.call(xhr, "GET", blob);
        send.call(xhr);
      })
      .catch(function () { open.call(xhr, "GET", url); send.call(xhr); });  // Material reports what fails
  };
})();
