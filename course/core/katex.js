// Render formulas with the site's vendored KaTeX (run by Node.js from course/core/math.py): reads
// {"katex": PATH, "formulas": [[TEX, DISPLAY], ...]} on stdin, writes the HTML of each, in order, as JSON.
// The options are the ones the pages used when KaTeX ran in the browser (auto-render, throwOnError false).
const chunks = [];
process.stdin.on("data", (c) => chunks.push(c));
process.stdin.on("end", () => {
  const job = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const katex = require(job.katex);
  const out = job.formulas.map(([tex, display]) =>
    katex.renderToString(tex, { displayMode: display, throwOnError: false }));
  process.stdout.write(JSON.stringify(out));
});
