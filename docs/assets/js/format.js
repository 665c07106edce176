// Number formatting, the same rule as course/core/formats.py (tests/test_format_parity.py runs both):
// grouped thousands, a typographic minus, and rounding half away from zero on the exact binary value,
// which is what toFixed does (1.125 → "1.13", 2.5 → "3", −2.5 → "−3"; 1.005 is 1.00499… → "1.00").
// Loaded by every page before common.js; plain enough to run under Node for the parity test.
(function (root) {
  "use strict";
  var MINUS = "\u2212";
  function group(intPart) { return intPart.replace(/\B(?=(\d\d\d)+(?!\d))/g, ","); }
  function fixed(x, digits) {
    if (!isFinite(x)) return "—";
    var s = Math.abs(x).toFixed(digits);
    var parts = s.split(".");
    var out = group(parts[0]) + (parts.length > 1 ? "." + parts[1] : "");
    if (/^[0.,]*$/.test(out)) return out;  // −0.000 prints without a sign
    return (x < 0 ? MINUS : "") + out;
  }
  function integer(n) { return fixed(n, 0); }
  // x is a fraction (0.616 → "61.6%"), as formats.percent writes it
  function percent(x, digits) { return fixed(100 * x, digits) + "%"; }
  // a value that rounds to zero prints as a plain 0, as the lesson writes vectors
  function vector(xs, digits) {
    return "[" + xs.map(function (v) {
      return /^[0.,]*$/.test(Math.abs(v).toFixed(digits)) ? "0" : fixed(v, digits);
    }).join(", ") + "]";
  }
  // sig significant digits as fixed decimals (formats.significant): 0.001234, 2 → "0.0012"
  function significant(x, sig) {
    if (x === 0 || !isFinite(x)) return fixed(x, 0);
    return fixed(x, Math.max(0, sig - 1 - Math.floor(Math.log10(Math.abs(x)))));
  }
  // two significant digits in the form configs and papers use (formats.scientific2): "3.5e−10", "1.6e17"
  function scientific2(x) {
    if (x === 0 || !isFinite(x)) return fixed(x, 0);
    var parts = Math.abs(x).toExponential(1).split("e");
    var mant = parts[0].replace(/\.?0+$/, ""), exp = parseInt(parts[1], 10);
    return (x < 0 ? MINUS : "") + mant + "e" + String(exp).replace("-", MINUS);
  }
  // fixed(x, digits) where that shows the number, else scientific2 (formats.readable)
  function readable(x, digits, high) {
    if (!isFinite(x) || x === 0) return fixed(x, digits);
    var a = Math.abs(x);
    if (a < Math.pow(10, -digits) || a >= (high == null ? 1e6 : high)) return scientific2(x);
    return fixed(x, digits);
  }
  // parse what a reader typed: accepts "−2", "-2", "2.5", " 3 "
  function parse(s) {
    var v = String(s).trim().replace(MINUS, "-");
    if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(v)) return NaN;
    return Number(v);
  }
  root.CWFormat = { fixed: fixed, integer: integer, percent: percent, vector: vector, parse: parse,
                    scientific2: scientific2, readable: readable, significant: significant };
})(typeof window !== "undefined" ? window : globalThis);
