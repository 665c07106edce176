// mkdocs-material's search worker, loaded as it is (no copy of it is kept), with two fixes: a query is
// never one lunr cannot parse, and its Chinese is cut into the right words. search.js starts this script
// instead of Material's worker and names Material's worker after the "#".
//
// lunr reads "~" and "^" as a fuzzy match and a boost, each followed by a number ("term~1", "term^2"); "~a",
// "a~b" or "a^b" made it throw, and Material answered no results with an "Invalid query" warning. Such a
// sign is read as a space: "a~b" searches for "a" and "b".
//
// The index holds Chinese as the words jieba found at build time. Material cuts each Han run of a query into
// words of the index before lunr reads it (in its search(): query.replace(/\p{sc=Han}+/gu, …)), but its cut
// never lets a word end at the run's last character: "门控" was searched as "门", and "归一化" as "归" and
// "一", which matched every word starting with 一 and highlighted each of them. Here a run is cut into the
// longest words of the index, left to right, as course/core/search.py cuts a lesson's subjects; a rest that
// begins a word of the index (a word still being typed) is kept whole, and its wildcard finds the word.
(function () {
  "use strict";
  var material = decodeURIComponent(location.hash.slice(1));
  var SIGN = /[~^](?!\d+(\s|$))/g;   // a fuzzy or boost sign without its number

  // Material answers each message in the listener it adds; a query (the one message whose data is text)
  // reaches it with those signs read as spaces
  var listen = self.addEventListener;
  self.addEventListener = function (type, fn, options) {
    if (type !== "message") return listen.call(self, type, fn, options);
    return listen.call(self, type, function (ev) {
      var m = ev.data;
      return fn(m && typeof m.data === "string" ? { data: Object.assign({}, m, { data: m.data.replace(SIGN, " ") }) } : ev);
    }, options);
  };
  var load = self.importScripts;
  // Material loads its language scripts from paths relative to its own worker
  self.importScripts = function () {
    return load.apply(self, Array.prototype.map.call(arguments, function (u) { return new URL(u, material).href; }));
  };
  self.importScripts(material);

  var HAN = /\p{sc=Han}+/u;
  var words = null, starts = null;   // the index's words, and every start of a Han one
  var build = self.lunr.Builder.prototype.build;
  self.lunr.Builder.prototype.build = function () {
    var index = build.apply(this, arguments);
    words = index.invertedIndex;
    starts = null;
    return index;
  };

  function begins(rest) {
    if (!starts) {
      starts = new Set();
      var whole = new RegExp("^" + HAN.source + "$", "u");
      for (var w in words) {
        if (!whole.test(w)) continue;
        for (var n = 1; n <= w.length; n++) starts.add(w.slice(0, n));
      }
    }
    return starts.has(rest);
  }

  function cut(run) {
    var out = [];
    for (var i = 0; i < run.length;) {
      var rest = run.slice(i);
      if (begins(rest)) { out.push(rest); break; }
      var j = run.length;
      while (j > i + 1 && !(run.slice(i, j) in words)) j--;
      out.push(run.slice(i, j));
      i = j;
    }
    return out;
  }

  // Material's cut is a function it passes to String.prototype.replace with its Han pattern; that one call
  // gets this cut instead. The words are marked off as the index marks them (a zero-width space, one of the
  // separators): Material then splits them into terms as it splits any term, keeping a + or - before them,
  // and gives each its wildcard; "KV缓存" becomes "KV" and "缓存", as jieba cut it in the index.
  var MARK = "\u200b";
  var replace = String.prototype.replace;
  String.prototype.replace = function (pattern, by) {
    if (words && pattern instanceof RegExp && pattern.source === HAN.source && pattern.global && typeof by === "function")
      by = function (run) { return MARK + cut(run).join(MARK) + MARK; };
    return replace.call(this, pattern, by);
  };
})();
