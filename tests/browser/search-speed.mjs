// Measures how long a search takes in headless Chromium on a built site, opened from file://.
// A measurement, not a test (speed is never asserted): it prints the median and the slowest time
// of the synchronous input handler of search.js (search plus drawing the results) per query,
// and the time from navigation to the search box being ready.
//
//   node search-speed.mjs SITE_DIR [PAGE] [--runs N] [QUERY ...]

import { chromium } from "playwright-core";
import path from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
let runs = 20;
const rest = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--runs") runs = Number(args[++i]);
  else rest.push(args[i]);
}
if (rest.length === 0) {
  console.error("usage: node search-speed.mjs SITE_DIR [PAGE] [--runs N] [QUERY ...]");
  process.exit(2);
}
const site = path.resolve(rest[0]);
const page = rest[1] && rest[1].endsWith(".html") ? rest[1] : "index.html";
const queries = rest.slice(rest[1] && rest[1].endsWith(".html") ? 2 : 1);
if (queries.length === 0) queries.push("nim", "grundy", "excludant ordinal", "zzzz", "chapter 999");

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium" });
const tab = await browser.newPage();
const start = Date.now();
await tab.goto(pathToFileURL(path.join(site, page)).href);
await tab.waitForFunction(() => {
  const s = document.getElementById("search");
  return s && !s.parentNode.hidden;
});
console.log(`page and search ready in ${Date.now() - start} ms (${page})`);
for (const q of queries) {
  const times = await tab.evaluate(([q, runs]) => {
    const box = document.getElementById("search");
    const out = [];
    for (let i = 0; i < runs; i++) {
      box.value = q;
      const t0 = performance.now();
      box.dispatchEvent(new Event("input"));
      out.push(performance.now() - t0);
      box.value = "";
      box.dispatchEvent(new Event("input"));
    }
    return out;
  }, [q, runs]);
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(`"${q}": median ${median.toFixed(1)} ms, slowest ${times[times.length - 1].toFixed(1)} ms over ${runs} runs`);
}
await browser.close();
