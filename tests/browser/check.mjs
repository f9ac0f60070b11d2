// A real-browser test of a built nimbook site and a handout, in headless Chromium.
//
//   node check.mjs --site DIR [--site DIR ...] --handout FILE.html [--out DIR]
//                  [--serve NIMBOOK_BINARY --serve-book BOOK_DIR] [--nimbook NIMBOOK_BINARY]
//
// Every page is opened from file:// with no server. The test fails if any request leaves
// file:// (or data:), if a page logs a console error or throws, if MathML is missing or not laid
// out, if searching for "Fermat" does not lead to the page that contains it, or if a Nim widget
// (class "nim-widget") does not answer a click. Screenshots go to the --out folder.
// With --serve, it also starts `nimbook serve -p 0` on a copy of BOOK_DIR, opens a page over
// HTTP, edits a lesson and expects the open page to reload by itself.
//
// With --nimbook, the exercises on every page are answered with the keyboard only, right and
// wrong, once per kind (exercises.mjs), with practice answers from `nimbook calc`; progress
// marks, their survival across a reload, and the reset button are checked on one page.
//
// Chromium is the system's (/usr/bin/chromium); Playwright never downloads a browser here.

import { chromium } from "playwright-core";
import fs from "node:fs";
import path from "node:path";
import os from "node:os";
import { spawn } from "node:child_process";
import { pathToFileURL } from "node:url";
import { checkExercises, checkProgress } from "./exercises.mjs";

const args = process.argv.slice(2);
const sites = [];
let handout = null;
let out = path.resolve("target/browser-test");
let serveBin = null;
let serveBook = null;
let nimbookBin = null;
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--site") sites.push(path.resolve(args[++i]));
  else if (args[i] === "--handout") handout = path.resolve(args[++i]);
  else if (args[i] === "--out") out = path.resolve(args[++i]);
  else if (args[i] === "--serve") serveBin = path.resolve(args[++i]);
  else if (args[i] === "--serve-book") serveBook = path.resolve(args[++i]);
  else if (args[i] === "--nimbook") nimbookBin = path.resolve(args[++i]);
  else { console.error(`unknown argument ${args[i]}`); process.exit(2); }
}
if (sites.length === 0 || !handout) {
  console.error("usage: node check.mjs --site DIR [--site DIR ...] --handout FILE.html [--out DIR]");
  process.exit(2);
}
fs.mkdirSync(out, { recursive: true });

// Never hang: the whole run has a hard limit.
const watchdog = setTimeout(() => {
  console.error("browser test: timed out after 300 s");
  process.exit(3);
}, 300_000);
watchdog.unref();

let passed = 0;
let failed = 0;
function check(ok, what, detail = "") {
  if (ok) { passed++; console.log(`ok    ${what}`); }
  else { failed++; console.log(`FAIL  ${what}${detail ? `: ${detail}` : ""}`); }
}

const SEARCH_WORD = "Fermat";
let widgetsPlayed = 0;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  timeout: 60_000,
  args: [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
  ],
});

/** A page that records every request that leaves file:// and every console error. */
async function openPage(context, label) {
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const problems = { external: [], errors: [], all: [] };
  page.on("request", (r) => {
    const u = r.url();
    problems.all.push(u);
    if (!u.startsWith("file://") && !u.startsWith("data:") && !u.startsWith("about:")) {
      problems.external.push(u);
    }
  });
  page.on("console", (m) => { if (m.type() === "error") problems.errors.push(m.text()); });
  page.on("pageerror", (e) => problems.errors.push(String(e)));
  page.on("requestfailed", (r) => {
    const u = r.url();
    if (u.startsWith("file://")) problems.errors.push(`failed to load ${u}: ${r.failure()?.errorText}`);
  });
  return { page, problems, label };
}

async function newContext() {
  const context = await browser.newContext({ viewport: { width: 1200, height: 850 } });
  // Belt and braces: anything not on file:// is refused before it leaves the browser.
  await context.route("**/*", (route) => {
    const u = route.request().url();
    if (u.startsWith("file://") || u.startsWith("data:")) return route.continue();
    return route.abort();
  });
  return context;
}

function finish({ problems, label }) {
  check(problems.external.length === 0, `${label}: no request leaves file://`,
    problems.external.join(", "));
  check(problems.errors.length === 0, `${label}: no console error`, problems.errors.join(" | "));
}

/** MathML present and laid out: a <math> element with a nonzero box, and the math font used. */
async function checkMath(page, label) {
  const count = await page.locator("math").count();
  check(count > 0, `${label}: has MathML`, `${count} <math> elements`);
  if (count === 0) return;
  const box = await page.locator("math").first().boundingBox();
  check(box !== null && box.width > 0 && box.height > 0, `${label}: <math> is laid out`,
    JSON.stringify(box));
  const fontOk = await page.evaluate(async () => {
    await document.fonts.ready;
    await document.fonts.load('16px "Latin Modern Math"', "∑");
    return [...document.fonts].some((f) => f.family.includes("Latin Modern Math") && f.status === "loaded");
  });
  check(fontOk, `${label}: the math font loads from the page's own files`);
}

/** Plays one move in every widget on the page: the student clicks a counter or pin, the
 *  computer must answer (the turn comes back to the student or the game is over), and the hint
 *  button must answer too. Returns the number of widgets checked. */
async function checkWidget(page, label) {
  const widgets = page.locator(".nim-widget");
  const count = await widgets.count();
  for (let i = 0; i < count; i++) {
    const w = widgets.nth(i);
    await w.scrollIntoViewIfNeeded();
    const status = w.locator(".nim-widget-status");
    const move = w.locator(".nim-widget-board button:not([disabled])").first();
    check((await move.count()) > 0, `${label}: widget ${i + 1} offers a move`);
    if ((await move.count()) === 0) continue;
    const before = await status.textContent();
    await move.click();
    await page.waitForFunction(
      (el) => ["you", "over"].includes(el.getAttribute("data-turn")) &&
        !el.querySelector(".nim-widget-status").textContent.includes("thinking"),
      await w.elementHandle(), { timeout: 5000 }).catch(() => {});
    const after = await status.textContent();
    check(after !== before && /computer chose|You win/.test(after),
      `${label}: widget ${i + 1} answers a click with the computer's move`, after);
    const hint = w.getByRole("button", { name: "Show me the winning move" });
    if ((await hint.count()) > 0 && !(await hint.isDisabled())) {
      await hint.click();
      const said = await status.textContent();
      check(/Winning move|P-position/.test(said), `${label}: widget ${i + 1} hint answers`, said);
    }
  }
  return count;
}

/** The pages of a built site: every .html file, by path relative to the site. */
function htmlFiles(dir) {
  const found = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...htmlFiles(p));
    else if (entry.name.endsWith(".html")) found.push(p);
  }
  return found.sort();
}

let searchedSomewhere = false;
// Exercise kinds answered so far (each once, on the first page that has one).
const exerciseKinds = new Set();
let progressChecked = false;

for (const site of sites) {
  const name = path.basename(site);
  const context = await newContext();
  const pages = htmlFiles(site);
  check(pages.length > 0, `${name}: the site has pages`);
  // Which pages show the word, as the reader sees them (innerText, not the markup).
  const withWord = [];
  let mathChecked = false;
  for (const file of pages) {
    const rel = path.relative(site, file);
    const p = await openPage(context, `${name}/${rel}`);
    await p.page.goto(pathToFileURL(file).href, { waitUntil: "load" });
    const text = await p.page.evaluate(() => document.querySelector("main")?.innerText ?? "");
    if (text.includes(SEARCH_WORD)) withWord.push(pathToFileURL(file).href);
    if (!mathChecked && (await p.page.locator("math").count()) > 0) {
      await checkMath(p.page, p.label);
      await p.page.screenshot({ path: path.join(out, `${name}-${rel.replace(/[\\/]/g, "_")}.png`) });
      mathChecked = true;
    }
    widgetsPlayed += await checkWidget(p.page, p.label);
    if (nimbookBin && (await p.page.locator(".nim-exercise, .nim-practice").count()) > 0) {
      const before = exerciseKinds.size;
      await checkExercises(p.page, p.label, check, exerciseKinds, nimbookBin);
      if (exerciseKinds.size > before) {
        await p.page.screenshot({ path: path.join(out, `${name}-exercises-${rel.replace(/[\\/]/g, "_")}.png`), fullPage: true });
      }
      if (!progressChecked && (await p.page.locator(".nim-exercise.solved").count()) > 0 &&
          (await p.page.locator(".sidebar").count()) > 0) {
        await checkProgress(p.page, p.label, check);
        progressChecked = true;
      }
    }
    finish(p);
    await p.page.close();
  }
  check(mathChecked, `${name}: some page has MathML`);

  // The sidebar: the table of contents comes from toc.js (one copy for the whole site), with
  // the current chapter marked; without JavaScript the sidebar links to toc.html instead.
  const lessonPage = pages.filter((f) => !["index.html", "toc.html", "404.html", "print.html"]
    .includes(path.basename(f))).pop();
  if (lessonPage) {
    const url = pathToFileURL(lessonPage).href;
    const p = await openPage(context, `${name}: sidebar`);
    await p.page.goto(url);
    const side = await p.page.evaluate(() => {
      const links = [...document.querySelectorAll("#sidebar a")];
      const here = document.querySelector('#sidebar a[aria-current="page"]');
      return { count: links.length, here: here && here.href };
    });
    await p.page.goto(pathToFileURL(path.join(site, "toc.html")).href);
    const listed = await p.page.locator("article a").count();
    check(side.count > 0 && side.count === listed,
      `${name}: the sidebar lists every chapter of toc.html`, `${side.count} vs ${listed}`);
    check(side.here === url, `${name}: the sidebar marks the current chapter`, `${side.here}`);
    finish(p);
    const plain = await browser.newContext({ javaScriptEnabled: false });
    const q = await plain.newPage();
    await q.goto(url);
    const fallback = await q.locator("#sidebar a").evaluateAll((as) => as.map((a) => a.href));
    check(fallback.length === 1 && fallback[0].endsWith("/toc.html"),
      `${name}: without JavaScript the sidebar links to toc.html`, fallback.join(", "));
    await plain.close();
  }

  if (withWord.length === 0) {
    console.log(`note  ${name}: no page contains "${SEARCH_WORD}", so search is checked on another site`);
  } else {
    searchedSomewhere = true;
    // Search from the index page: "/" focuses the box, typing lists results.
    const p = await openPage(context, `${name}: search`);
    await p.page.goto(pathToFileURL(path.join(site, "index.html")).href);
    await p.page.keyboard.press("/");
    const focused = await p.page.evaluate(() => document.activeElement?.id);
    check(focused === "search", `${name}: "/" focuses the search box`, `focused: ${focused}`);
    await p.page.keyboard.type(SEARCH_WORD);
    const results = p.page.locator("#search-results li[role=option] a");
    await results.first().waitFor({ state: "visible" });
    const hrefs = await results.evaluateAll((as) => as.map((a) => a.href));
    const pagesFound = hrefs.map((h) => h.split("#")[0]);
    check(withWord.every((w) => pagesFound.includes(w)),
      `${name}: search for "${SEARCH_WORD}" lists every page that contains it`,
      `found ${pagesFound.join(", ")}; expected ${withWord.join(", ")}`);
    check(pagesFound.every((f) => withWord.includes(f)),
      `${name}: search lists no page without the word`, pagesFound.join(", "));
    await p.page.screenshot({ path: path.join(out, `${name}-search.png`) });
    // Keyboard: first result, Enter, and we are on the page with the word.
    await p.page.keyboard.press("ArrowDown");
    await Promise.all([p.page.waitForURL((u) => withWord.includes(u.href.split("#")[0])),
      p.page.keyboard.press("Enter")]);
    const landed = await p.page.evaluate(() => document.querySelector("main")?.innerText ?? "");
    check(landed.includes(SEARCH_WORD), `${name}: Enter opens a page that contains "${SEARCH_WORD}"`);
    await p.page.screenshot({ path: path.join(out, `${name}-search-result.png`) });
    finish(p);
  }
  await context.close();
}
check(searchedSomewhere, `some site has a page with "${SEARCH_WORD}" to search for`);
check(widgetsPlayed > 0, "some page has a play widget, and it was played", `${widgetsPlayed} widgets`);
if (nimbookBin) {
  for (const kind of ["number", "outcome", "choice", "practice"]) {
    check(exerciseKinds.has(kind), `an exercise of kind ${kind} was answered right and wrong with the keyboard`);
  }
  check(progressChecked, "progress marks were checked on some page");
}

// The handout: one file, nothing loaded from anywhere else, printable.
{
  const context = await newContext();
  const p = await openPage(context, `handout ${path.basename(handout)}`);
  await p.page.goto(pathToFileURL(handout).href, { waitUntil: "load" });
  const sheets = await p.page.evaluate(() => [...document.styleSheets].map((s) => s.href));
  check(sheets.length > 0 && sheets.every((h) => h === null),
    `${p.label}: every stylesheet is inline`, JSON.stringify(sheets));
  await checkMath(p.page, p.label);
  await checkWidget(p.page, p.label);
  const lessons = await p.page.locator("article.handout-lesson").count();
  check(lessons > 0, `${p.label}: has lessons`, `${lessons}`);
  await p.page.screenshot({ path: path.join(out, "handout-screen.png") });
  await p.page.emulateMedia({ media: "print" });
  const breaks = await p.page.evaluate(() =>
    [...document.querySelectorAll("article.handout-lesson")].map((a) => getComputedStyle(a).breakBefore));
  check(breaks.length > 0 && breaks.every((b) => b === "page"),
    `${p.label}: each lesson starts a printed page`, breaks.join(", "));
  const hidden = await p.page.evaluate(() =>
    [...document.querySelectorAll(".anchor")].every((a) => getComputedStyle(a).display === "none"));
  check(hidden, `${p.label}: heading anchors are hidden in print`);
  await p.page.screenshot({ path: path.join(out, "handout-print.png"), fullPage: false });
  await p.page.pdf({ path: path.join(out, "handout.pdf"), format: "A4" });
  // Loading the file from disk needs no request beyond the file itself.
  const files = p.problems.all.filter((u) => u !== pathToFileURL(handout).href && !u.startsWith("data:"));
  check(files.length === 0, `${p.label}: loads nothing but itself`, files.join(", "));
  finish(p);
  await context.close();
}

// Live reload over `nimbook serve`.
if (serveBin && serveBook) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "nimbook-serve-"));
  fs.cpSync(serveBook, tmp, { recursive: true });
  const server = spawn(serveBin, ["serve", "-p", "0", tmp], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  server.stderr.on("data", (d) => { stderr += d; });
  try {
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no address after 60 s: ${stderr}`)), 60_000);
      let buf = "";
      server.stdout.on("data", (d) => {
        buf += d;
        const m = buf.match(/serving at (http:\/\/127\.0\.0\.1:\d+\/)/);
        if (m) { clearTimeout(timer); resolve(m[1]); }
      });
      server.on("exit", () => reject(new Error(`nimbook serve exited: ${stderr}`)));
    });
    check(url.startsWith("http://127.0.0.1:"), "serve: listens on 127.0.0.1 only", url);
    const context = await browser.newContext({ viewport: { width: 1200, height: 850 } });
    const p = await openPage(context, "serve");
    const lesson = fs.readdirSync(path.join(tmp, "content")).filter((f) => f.endsWith(".md") && f !== "SUMMARY.md").sort()[0];
    const pageUrl = url + lesson.replace(/\.md$/, ".html");
    await p.page.goto(pageUrl, { waitUntil: "load" });
    const marker = `Edited while open ${Date.now()}`;
    fs.appendFileSync(path.join(tmp, "content", lesson), `\n${marker}\n`);
    let reloaded = true;
    try {
      await p.page.waitForFunction((m) => document.body.innerText.includes(m), marker, { timeout: 30_000 });
    } catch { reloaded = false; }
    check(reloaded, "serve: an open page reloads after a lesson is edited", stderr.trim().split("\n").pop());
    await p.page.screenshot({ path: path.join(out, "serve-live-reload.png") });
    const outside = p.problems.all.filter((u) => !u.startsWith(url) && !u.startsWith("data:"));
    check(outside.length === 0, "serve: every request stays on the preview server", outside.join(", "));
    check(p.problems.errors.length === 0, "serve: no console error", p.problems.errors.join(" | "));
    await context.close();
  } catch (e) {
    check(false, "serve: live reload", String(e));
  } finally {
    server.kill();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await browser.close();
console.log(`screenshots in ${out}`);
console.log(`browser: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
