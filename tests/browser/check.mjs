// A real-browser test of a built nimbook site and a handout, in headless Chromium.
//
//   node check.mjs --site DIR [--site DIR ...] --handout FILE.html [--handout FILE.html ...]
//                  [--lesson-handouts DIR] [--out DIR]
//                  [--serve NIMBOOK_BINARY --serve-book BOOK_DIR] [--nimbook NIMBOOK_BINARY]
//
// Every page is opened from file:// with no server. The test fails if any request leaves
// file:// (or data:), if a page logs a console error or throws, if MathML is missing or not laid
// out, if searching for "Fermat" does not lead to the page that contains it, or if a Nim widget
// (class "nim-widget") does not answer a click. Screenshots go to the --out folder.
//
// Accessibility (WCAG 2.1 AA): axe-core runs with the tags wcag2a, wcag2aa, wcag21a and wcag21aa
// on every page of every site and on every handout, in the light and the dark theme, at 1280 px
// (and its scroll-box rule again at 390 px); a violation fails the test and names the rule, the
// page and the element. At 390 px no page may scroll sideways, every widget must fit, and no
// formula in running text may be taller than three lines (a wide one scrolls in its own box). Every
// play widget is played to the end with the keyboard alone (focus stays on the board, every move
// is announced in the live region, the hint works); a Wythoff widget by mouse and by keyboard,
// against the theorem's losing squares (wythoff.mjs). The sidebar toggle, the theme choice (kept
// across pages, applied before the first paint), visible focus and the index's chapter numbers
// are checked on the first site. On every site whose chapters have sub-chapters, the sidebar's
// sections fold by keyboard and start folded as the book's [output.html.fold] says.
// On every site, the buttons of code blocks (codeblocks.mjs): Run asks the playground only when
// pressed, Copy copies hidden lines too, the hidden lines show and hide, Undo restores an
// editable block; and a book's own default themes apply.
// In every handout, each url(#…) and href="#…" must name an id in
// the same file. A handout named FILE.answers.html is a teacher's answer key (`handout
// --answers`): it is checked the same way, but holds the key instead of lessons.
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
import { checkWythoff } from "./wythoff.mjs";
import { checkCodeBlocks } from "./codeblocks.mjs";

const args = process.argv.slice(2);
const sites = [];
const handouts = [];
let lessonHandouts = null;
let out = path.resolve("target/browser-test");
let serveBin = null;
let serveBook = null;
let nimbookBin = null;
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--site") sites.push(path.resolve(args[++i]));
  else if (args[i] === "--handout") handouts.push(path.resolve(args[++i]));
  else if (args[i] === "--lesson-handouts") lessonHandouts = path.resolve(args[++i]);
  else if (args[i] === "--out") out = path.resolve(args[++i]);
  else if (args[i] === "--serve") serveBin = path.resolve(args[++i]);
  else if (args[i] === "--serve-book") serveBook = path.resolve(args[++i]);
  else if (args[i] === "--nimbook") nimbookBin = path.resolve(args[++i]);
  else { console.error(`unknown argument ${args[i]}`); process.exit(2); }
}
if (sites.length === 0 || handouts.length === 0) {
  console.error("usage: node check.mjs --site DIR [--site DIR ...] --handout FILE.html [--out DIR]");
  process.exit(2);
}
fs.mkdirSync(out, { recursive: true });

// Never hang: the whole run has a hard limit (axe on a few hundred pages takes minutes).
const watchdog = setTimeout(() => {
  console.error("browser test: timed out after 40 minutes");
  process.exit(3);
}, 2_400_000);
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

async function newContext(viewport = WIDE) {
  const context = await browser.newContext({ viewport });
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
    const move = w.locator(".nim-widget-board .nw-counter, .nim-widget-board .nw-pin:not(.down), .nim-widget-board .nw-square.reach").first();
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

// ---- Accessibility ----------------------------------------------------------------------

const AXE_SOURCE = fs.readFileSync(new URL("./node_modules/axe-core/axe.min.js", import.meta.url), "utf8");
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const WIDE = { width: 1280, height: 850 };
const PHONE = { width: 390, height: 844 };

/** Waits until the page has settled: fonts loaded (they change the width of formulas) and two
 *  frames drawn (page.js marks the scroll boxes in a frame callback). */
async function settle(page) {
  await page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });
}

/** Runs axe-core on the page as it is; one check, which fails naming the rule, the page and
 *  the element of every violation found. `rules` narrows the run to some rules. */
async function axeCheck(page, label, rules = null) {
  if (!(await page.evaluate(() => typeof window.axe === "object"))) {
    await page.addScriptTag({ content: AXE_SOURCE });
  }
  const result = await page.evaluate(async ({ tags, rules }) => {
    // No preload: axe would fetch the stylesheets again, which file:// refuses.
    const options = { resultTypes: ["violations"], preload: false };
    options.runOnly = rules ? { type: "rule", values: rules } : { type: "tag", values: tags };
    const r = await window.axe.run(document, options);
    return r.violations.map((v) => ({
      id: v.id, impact: v.impact,
      nodes: v.nodes.map((n) => ({ target: n.target.join(" "), html: n.html.slice(0, 160),
        summary: (n.failureSummary || "").replace(/\s+/g, " ").slice(0, 240) })),
    }));
  }, { tags: AXE_TAGS, rules });
  const lines = [];
  for (const v of result) {
    for (const n of v.nodes) lines.push(`\n      rule ${v.id} (${v.impact}) at ${n.target}: ${n.html}\n        ${n.summary}`);
  }
  check(result.length === 0, `${label}: axe finds no WCAG 2.1 AA violation`,
    lines.slice(0, 12).join("") + (lines.length > 12 ? `\n      … and ${lines.length - 12} more` : ""));
  return result.length === 0;
}

/** At the current (phone) width: the page does not scroll sideways and every widget fits. */
async function checkFits(page, label) {
  const r = await page.evaluate(() => {
    const doc = document.documentElement;
    const wide = [];
    // What sticks out, for the message: the widest elements that are not inside a scroll box.
    if (doc.scrollWidth > doc.clientWidth) {
      for (const e of document.querySelectorAll("body *")) {
        const b = e.getBoundingClientRect();
        if (b.right > doc.clientWidth + 1 && !e.closest("[data-scroll-box]")) {
          wide.push(`${e.tagName.toLowerCase()}.${[...e.classList].join(".")} (right edge ${Math.round(b.right)})`);
          if (wide.length >= 5) break;
        }
      }
    }
    const widgets = [...document.querySelectorAll(".nim-widget")].map((w) => {
      const b = w.getBoundingClientRect();
      return b.left >= 0 && b.right <= doc.clientWidth + 1 && w.scrollWidth <= w.clientWidth + 1;
    });
    // A formula in running text keeps its MathML layout: a wide one scrolls in a box instead of
    // breaking into a stack of tokens, one per line. Three lines of text is taller than any
    // formula of the course set inline (a fraction is under two).
    const tall = [];
    for (const m of document.querySelectorAll("math:not([display=block])")) {
      const b = m.getBoundingClientRect();
      let block = m.parentElement;
      while (block && getComputedStyle(block).display.startsWith("inline")) block = block.parentElement;
      const s = getComputedStyle(block || document.body);
      const line = parseFloat(s.lineHeight) || 1.2 * parseFloat(s.fontSize);
      if (b.height > 3 * line) {
        const tex = m.querySelector('annotation[encoding="application/x-tex"]')?.textContent ?? m.textContent;
        tall.push(`${Math.round(b.width)}×${Math.round(b.height)} px (lines of ${Math.round(line)} px): ${tex.slice(0, 60)}`);
      }
    }
    return { scrollWidth: doc.scrollWidth, width: doc.clientWidth, wide, widgets, tall };
  });
  check(r.tall.length === 0, `${label}: no formula in running text is taller than three lines at ${PHONE.width} px`,
    r.tall.slice(0, 5).join("; ") + (r.tall.length > 5 ? ` … and ${r.tall.length - 5} more` : ""));
  check(r.scrollWidth <= r.width, `${label}: no sideways scroll at ${PHONE.width} px`,
    `page is ${r.scrollWidth} px wide in ${r.width}: ${r.wide.join(", ")}`);
  if (r.widgets.length > 0) {
    check(r.widgets.every((x) => x), `${label}: every widget fits at ${PHONE.width} px`,
      JSON.stringify(r.widgets));
  }
}

/** Where the keyboard is: inside which widget part, and what the focused element says. */
async function focusIn(page, widget) {
  return widget.evaluate((w) => {
    const a = document.activeElement;
    return {
      onBoard: w.querySelector(".nim-widget-board").contains(a),
      slider: a.getAttribute("role") === "slider",
      hint: a.textContent === "Show me the winning move",
      newGame: a.textContent === "New game",
      value: a.getAttribute("aria-valuetext"),
    };
  });
}

/** Plays one whole game in a widget with the keyboard alone: Tab reaches a heap or pin, the
 *  arrow keys choose the move (previewed on the board), Enter plays it, the hint answers, focus
 *  stays on the board, and every move (the student's and the computer's) is announced in the
 *  live region. Ends with a new game chosen from the keyboard. */
async function playByKeyboard(page, label, w) {
  // The queen's board is a grid, not sliders: wythoff.mjs plays it by mouse and by keyboard.
  if ((await w.getAttribute("data-game")) === "wythoff") return checkWythoff(page, label, w, check);
  const status = w.locator(".nim-widget-status");
  const live = await status.evaluate((e) => e.getAttribute("aria-live") || (e.getAttribute("role") === "status" ? "polite" : ""));
  check(live === "polite", `${label}: the widget's status is a live region`, live);
  // Start just before the board: the title takes focus for the test only.
  await w.evaluate((el) => { const t = el.querySelector(".nim-widget-title"); t.tabIndex = -1; t.focus(); });
  await page.keyboard.press("Tab");
  let f = await focusIn(page, w);
  check(f.onBoard && f.slider, `${label}: Tab reaches a heap or a pin`, JSON.stringify(f));
  if (!f.slider) return;
  // The hint, from the keyboard: Tab on to the button, Enter, then back to the board.
  for (let k = 0; k < 40 && !(f = await focusIn(page, w)).hint; k++) await page.keyboard.press("Tab");
  check(f.hint, `${label}: Tab reaches the hint button`);
  await page.keyboard.press("Enter");
  const hinted = await status.textContent();
  check(/Winning move|P-position/.test(hinted), `${label}: the hint answers from the keyboard`, hinted);
  for (let k = 0; k < 40 && !(f = await focusIn(page, w)).onBoard; k++) await page.keyboard.press("Shift+Tab");
  check(f.onBoard && f.slider, `${label}: Shift+Tab goes back to the board`, JSON.stringify(f));
  const problems = [];
  let moves = 0;
  let previewed = false;
  for (; moves < 100; moves++) {
    f = await focusIn(page, w);
    if (!f.onBoard || !f.slider) { problems.push(`move ${moves + 1}: focus is not on a heap or pin`); break; }
    const before = f.value;
    await page.keyboard.press("End");
    f = await focusIn(page, w);
    const taken = await w.evaluate((el) => el.querySelectorAll(".nim-widget-board .take").length);
    if (moves === 0) {
      previewed = f.value !== null && taken > 0;
      check(previewed, `${label}: the arrow keys choose the move and the board previews it`,
        `${before} → ${f.value}, ${taken} marked`);
    }
    await page.keyboard.press("Enter");
    const said = await status.textContent();
    if (!/^You chose to /.test(said)) problems.push(`move ${moves + 1}: the live region says "${said}"`);
    await page.waitForFunction((el) => ["you", "over"].includes(el.getAttribute("data-turn")), await w.elementHandle(), { timeout: 5000 }).catch(() => {});
    const turn = await w.getAttribute("data-turn");
    const answer = await status.textContent();
    f = await focusIn(page, w);
    if (!f.onBoard) problems.push(`move ${moves + 1}: focus left the board`);
    if (turn === "over") {
      if (!/You win|computer wins/.test(answer)) problems.push(`the end is not announced: "${answer}"`);
      moves++;
      break;
    }
    if (turn !== "you") { problems.push(`move ${moves + 1}: the turn did not come back (${turn})`); break; }
    if (!/^The computer chose to /.test(answer)) problems.push(`move ${moves + 1}: the computer's move is not announced: "${answer}"`);
  }
  const over = (await w.getAttribute("data-turn")) === "over";
  check(over && problems.length === 0,
    `${label}: a whole game played by keyboard (${moves} moves, focus on the board, every move announced)`,
    problems.join("; ") || (over ? "" : "the game did not end"));
  // A new game, from the keyboard.
  for (let k = 0; k < 40 && !(f = await focusIn(page, w)).newGame; k++) await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  check((await w.getAttribute("data-turn")) === "you", `${label}: New game from the keyboard`);
}

/** Every in-file reference of a handout names an id that exists: href="#…" and every url(#…)
 *  in an attribute (SVG markers, fills, clip paths, style). */
async function checkInFileRefs(page, label) {
  const bad = await page.evaluate(() => {
    const ids = new Set([...document.querySelectorAll("[id]")].map((e) => e.id));
    const out = [];
    let refs = 0;
    for (const e of document.querySelectorAll("*")) {
      for (const a of e.attributes) {
        const names = [];
        if ((a.name === "href" || a.name === "xlink:href") && a.value.startsWith("#") && a.value.length > 1) {
          names.push(a.value.slice(1));
        }
        for (const m of a.value.matchAll(/url\(\s*['"]?#([^'")\s]+)/g)) names.push(m[1]);
        for (const n of names) {
          refs++;
          let id = n;
          try { id = decodeURIComponent(n); } catch { /* keep it as written */ }
          if (!ids.has(id)) out.push(`<${e.tagName.toLowerCase()} ${a.name}="${a.value}">`);
        }
      }
    }
    return { refs, out };
  });
  check(bad.out.length === 0, `${label}: all ${bad.refs} in-file references (href="#…", url(#…)) name an id in the file`,
    bad.out.slice(0, 10).join(", "));
}

/** The background of the page, as "dark" or "light". */
async function shade(page) {
  return page.evaluate(() => {
    const m = getComputedStyle(document.body).backgroundColor.match(/\d+(\.\d+)?/g).map(Number);
    return (0.2126 * m[0] + 0.7152 * m[1] + 0.0722 * m[2]) / 255 < 0.4 ? "dark" : "light";
  });
}

/** The reader's controls on one site: the sidebar toggle at both widths, the theme choice (kept
 *  across pages, applied before the first paint), visible focus, and the index's numbers. */
/** 404.html as a web server serves it: for a missing URL deep in the site, with its styles and
 * scripts found from the site URL (`/`), and accessible like every other page. */
async function check404(site, name) {
  const http = await import("node:http");
  const types = { ".html": "text/html", ".css": "text/css", ".js": "text/javascript", ".woff2": "font/woff2" };
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url, "http://x").pathname).replace(/^\/+/, "");
    const file = path.join(site, rel);
    if (!rel.includes("..") && fs.existsSync(file) && fs.statSync(file).isFile()) {
      res.writeHead(200, { "content-type": types[path.extname(file)] ?? "application/octet-stream" });
      res.end(fs.readFileSync(file));
    } else {
      res.writeHead(404, { "content-type": "text/html" });
      res.end(fs.readFileSync(path.join(site, "404.html")));
    }
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const context = await browser.newContext({ viewport: WIDE });
  await context.route("**/*", (route) => {
    const u = route.request().url();
    return u.startsWith(origin) || u.startsWith("data:") ? route.continue() : route.abort();
  });
  const p = await openPage(context, `${name}/404.html (served for ${"/no/such/page.html"})`);
  p.page.on("requestfailed", (r) => p.problems.errors.push(`failed to load ${r.url()}`));
  p.page.on("response", (r) => {
    if (r.status() === 404 && !r.url().endsWith("/no/such/page.html")) p.problems.errors.push(`404 for ${r.url()}`);
  });
  await p.page.goto(`${origin}/no/such/page.html`, { waitUntil: "load" });
  await settle(p.page);
  const styled = await p.page.evaluate(() => getComputedStyle(document.body).fontFamily);
  check(!/^Times|^serif$/.test(styled), `${p.label}: its stylesheet is found from a folder that does not exist`, styled);
  // Its requests go to the test's own server, and the page itself is answered with status 404.
  p.problems.external = p.problems.external.filter((u) => !u.startsWith(origin));
  p.problems.errors = p.problems.errors.filter((e) => !/status of 404/.test(e));
  await axeCheck(p.page, `${p.label} (light, ${WIDE.width} px)`);
  await p.page.emulateMedia({ colorScheme: "dark" });
  await settle(p.page);
  await axeCheck(p.page, `${p.label} (dark, ${WIDE.width} px)`);
  finish(p);
  await context.close();
  server.close();
}

async function checkReaderControls(site, name) {
  const pages = htmlFiles(site);
  const lesson = pages.find(isLessonPage) ?? pages[0];
  const lessonUrl = pathToFileURL(lesson).href;
  const indexUrl = pathToFileURL(path.join(site, "index.html")).href;

  // The sidebar toggle, wide: open, and a real button that says so.
  {
    const context = await newContext();
    const p = await openPage(context, `${name}: sidebar toggle at ${WIDE.width} px`);
    await p.page.goto(lessonUrl);
    const button = p.page.locator("#nav-button");
    const tag = await button.evaluate((b) => b.tagName);
    const name_ = await button.evaluate((b) => b.innerText || b.getAttribute("aria-label"));
    const controls = await button.getAttribute("aria-controls");
    check(tag === "BUTTON" && /table of contents/i.test(name_) && controls === "sidebar",
      `${p.label}: a <button> named "Table of contents" that controls the sidebar`, `${tag} "${name_}" → ${controls}`);
    const state = async () => ({
      expanded: await button.getAttribute("aria-expanded"),
      shown: await p.page.locator("#sidebar").isVisible(),
    });
    let s = await state();
    check(s.expanded === "true" && s.shown, `${p.label}: open at first, and aria-expanded says so`, JSON.stringify(s));
    await button.focus();
    await p.page.keyboard.press("Enter");
    s = await state();
    check(s.expanded === "false" && !s.shown, `${p.label}: Enter closes it, and aria-expanded says so`, JSON.stringify(s));
    await p.page.keyboard.press("Enter");
    s = await state();
    check(s.expanded === "true" && s.shown, `${p.label}: Enter opens it again`, JSON.stringify(s));
    finish(p);
    await context.close();
  }
  // The sidebar toggle on a phone: closed, opens over the page, Escape closes it.
  {
    const context = await newContext(PHONE);
    const p = await openPage(context, `${name}: sidebar toggle at ${PHONE.width} px`);
    await p.page.goto(lessonUrl);
    await settle(p.page);
    const button = p.page.locator("#nav-button");
    const state = async () => ({
      expanded: await button.getAttribute("aria-expanded"),
      shown: await p.page.locator("#sidebar").isVisible(),
    });
    let s = await state();
    check(s.expanded === "false" && !s.shown, `${p.label}: closed at first, and aria-expanded says so`, JSON.stringify(s));
    await p.page.screenshot({ path: path.join(out, `${name}-phone-${PHONE.width}.png`) });
    await button.focus();
    await p.page.keyboard.press("Enter");
    s = await state();
    const box = await p.page.locator("#sidebar").boundingBox();
    check(s.expanded === "true" && s.shown && box && box.x >= 0 && box.x + box.width <= PHONE.width,
      `${p.label}: Enter opens it, on screen`, JSON.stringify({ ...s, box }));
    await p.page.screenshot({ path: path.join(out, `${name}-phone-${PHONE.width}-sidebar.png`) });
    for (let k = 0; k < 10 && !(await p.page.evaluate(() => document.getElementById("sidebar").contains(document.activeElement))); k++) {
      await p.page.keyboard.press("Tab");
    }
    await p.page.keyboard.press("Escape");
    s = await state();
    const back = await p.page.evaluate(() => document.activeElement?.id);
    check(s.expanded === "false" && !s.shown && back === "nav-button",
      `${p.label}: Escape closes it and puts focus back on the button`, JSON.stringify({ ...s, back }));
    finish(p);
    await context.close();
  }
  // The theme: a choice of three, kept from page to page, applied before the first paint.
  {
    const context = await newContext();
    // What the theme is when the first stylesheet is parsed, that is before anything is drawn.
    await context.addInitScript(() => {
      window.nimbookThemeAtFirstStyle = "not seen";
      const seen = new MutationObserver(() => {
        if (document.querySelector("link[rel=stylesheet]")) {
          window.nimbookThemeAtFirstStyle = document.documentElement.getAttribute("data-theme");
          seen.disconnect();
        }
      });
      seen.observe(document, { childList: true, subtree: true });
    });
    const p = await openPage(context, `${name}: theme choice`);
    await p.page.emulateMedia({ colorScheme: "light" });
    await p.page.goto(indexUrl);
    const select = p.page.locator("#theme");
    check(await select.isVisible(), `${p.label}: offered`);
    const label = await select.evaluate((s) => s.labels[0]?.querySelector(".visually-hidden")?.textContent);
    check(label === "Colour theme", `${p.label}: labelled`, label);
    check((await select.inputValue()) === "system", `${p.label}: follows the system at first`);
    // From the keyboard: focus, then the arrow keys pick the next options.
    await select.focus();
    await p.page.keyboard.press("ArrowDown");
    await p.page.keyboard.press("ArrowDown");
    check((await select.inputValue()) === "dark" && (await shade(p.page)) === "dark",
      `${p.label}: the keyboard chooses dark`, `${await select.inputValue()}, ${await shade(p.page)}`);
    await p.page.goto(lessonUrl);
    const at = await p.page.evaluate(() => window.nimbookThemeAtFirstStyle);
    check(at === "dark", `${p.label}: the next page is dark before its first paint (no flash)`, String(at));
    check((await p.page.locator("#theme").inputValue()) === "dark", `${p.label}: the choice is remembered from file://`);
    await p.page.screenshot({ path: path.join(out, `${name}-dark-${WIDE.width}.png`) });
    await p.page.selectOption("#theme", "light");
    await p.page.emulateMedia({ colorScheme: "dark" });
    check((await shade(p.page)) === "light", `${p.label}: light wins over a dark system`);
    await p.page.selectOption("#theme", "system");
    check((await shade(p.page)) === "dark", `${p.label}: "system" follows a dark system`);
    await p.page.emulateMedia({ colorScheme: "light" });
    check((await shade(p.page)) === "light", `${p.label}: "system" follows a light system`);
    await p.page.reload();
    check((await p.page.locator("#theme").inputValue()) === "system", `${p.label}: "system" is remembered too`);
    finish(p);
    await context.close();
  }
  // Visible focus: the first Tab stops of a lesson each draw an outline; the index numbers
  // its chapters once.
  {
    const context = await newContext();
    const p = await openPage(context, `${name}: focus`);
    await p.page.goto(lessonUrl);
    await settle(p.page);
    const unseen = [];
    let stops = 0;
    for (; stops < 60; stops++) {
      await p.page.keyboard.press("Tab");
      const r = await p.page.evaluate(() => {
        const a = document.activeElement;
        if (!a || a === document.body) return null;
        const s = getComputedStyle(a);
        const ring = (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2) || s.boxShadow !== "none";
        return { ring, what: `${a.tagName.toLowerCase()}${a.id ? "#" + a.id : ""} "${(a.textContent || "").trim().slice(0, 30)}"` };
      });
      if (!r) break;
      if (!r.ring) unseen.push(r.what);
    }
    check(stops > 3 && unseen.length === 0, `${p.label}: each of the first ${stops} Tab stops shows a focus ring`, unseen.join(", "));
    // The generated front page lists the chapters; a book whose front page is a lesson of its
    // own (the guide's README.md) has no such list to check.
    const first = await p.page.goto(indexUrl).then(() => p.page.evaluate(() => {
      if (!document.querySelector("article.index")) return "lesson";
      const li = document.querySelector(".contents li a")?.closest("li");
      if (!li) return null;
      const s = getComputedStyle(li);
      return { marker: s.display === "list-item" && s.listStyleType !== "none", text: li.innerText };
    }));
    if (first !== "lesson") {
      check(first !== null && !(first.marker && /^\d/.test(first.text)),
        `${name}: the index numbers each chapter once`, JSON.stringify(first));
    }
    finish(p);
    await context.close();
  }
}

// How many levels of the sidebar start unfolded on each site, from its book.toml's
// [output.html.fold] (mdBook's meaning); a site not named has folding off: every level.
const FOLD_LEVELS = { folding: 1, "rust-by-example": 0 };
// What the sidebar of the folding fixture shows, page by page (chapter titles, in order).
const FOLDING_FIXTURE_SHOWS = {
  "intro.html": ["Introduction", "Games", "Nim", "Kayles", "Fields", "Squares"],
  "fields/roots.html": ["Introduction", "Games", "Nim", "Kayles", "Fields", "Squares", "Roots"],
  "games/nim.html": ["Introduction", "Games", "Nim", "Heaps", "Kayles", "Fields", "Squares"],
};

/** The sidebar's sections fold. A chapter with sub-chapters has a real button with
 *  aria-expanded that folds them, from the keyboard, with a focus ring. A section starts unfolded
 *  when its chapter is less than the site's fold level deep, or holds the current chapter (so the
 *  current chapter stays marked and in view); otherwise folded. Without JavaScript, toc.html
 *  shows every chapter. */
async function checkFolding(site, name) {
  const toc = pathToFileURL(path.join(site, "toc.html")).href;
  const plain = await browser.newContext({ javaScriptEnabled: false });
  const q = await plain.newPage();
  await q.goto(toc);
  const listed = await q.evaluate(() => {
    const links = [...document.querySelectorAll("article a")];
    const depth = (a) => { let d = 0; for (let e = a; e; e = e.parentElement) if (e.matches("ol.section")) d++; return d; };
    return {
      sections: document.querySelectorAll("article ol.section").length,
      hidden: links.filter((a) => a.getClientRects().length === 0).map((a) => a.textContent),
      top: links.filter((a) => depth(a) === 0).map((a) => a.getAttribute("href")),
      deepest: links.map((a) => [depth(a), a.getAttribute("href")]).sort((x, y) => y[0] - x[0])[0]?.[1],
    };
  });
  await plain.close();
  if (listed.sections === 0) return;
  check(listed.hidden.length === 0, `${name}: without JavaScript toc.html shows every chapter`, listed.hidden.join(", "));
  const levels = name in FOLD_LEVELS ? FOLD_LEVELS[name] : null;
  const context = await newContext();
  const targets = name === "folding" ? Object.keys(FOLDING_FIXTURE_SHOWS)
    : [...new Set([listed.top.find((h) => h !== "index.html"), listed.deepest].filter(Boolean))];
  for (const rel of targets) {
    const p = await openPage(context, `${name}/${rel}: sidebar folding`);
    await p.page.goto(pathToFileURL(path.join(site, decodeURIComponent(rel))).href);
    const r = await p.page.evaluate((levels) => {
      const nav = document.getElementById("sidebar");
      const here = nav.querySelector('a[aria-current="page"]');
      const level = (li) => { let d = 0; for (let e = li.parentElement; e && e !== nav; e = e.parentElement) if (e.matches("ol.section")) d++; return d; };
      const opens = (li) => levels === null || level(li) < levels || (here !== null && li.contains(here));
      const problems = [];
      for (const li of nav.querySelectorAll("li")) {
        const section = li.querySelector(":scope > ol.section");
        if (!section) continue;
        const title = li.querySelector(":scope > a, :scope > span")?.textContent.trim();
        const button = li.querySelector(":scope > button");
        const want = opens(li);
        if (!button) { problems.push(`${title}: no fold button`); continue; }
        if (button.getAttribute("aria-expanded") !== String(want)) problems.push(`${title}: aria-expanded ${button.getAttribute("aria-expanded")}, expected ${want}`);
        if (button.getAttribute("aria-controls") !== section.id) problems.push(`${title}: aria-controls does not name its section`);
        if (!button.getAttribute("aria-label")?.includes(title.replace(/^[\d.]+\s*/, ""))) problems.push(`${title}: button named "${button.getAttribute("aria-label")}"`);
      }
      for (const a of nav.querySelectorAll("li > a")) {
        let want = true;
        for (let li = a.parentElement.parentElement.closest("li"); li && nav.contains(li); li = li.parentElement.closest("li")) {
          if (!opens(li)) want = false;
        }
        const shown = a.getClientRects().length > 0;
        if (shown !== want) problems.push(`${a.textContent.trim()}: ${shown ? "shown" : "hidden"}, expected ${want ? "shown" : "hidden"}`);
      }
      const shown = [...nav.querySelectorAll("li > a")].filter((a) => a.getClientRects().length > 0)
        .map((a) => a.textContent.trim().replace(/^[\d.]+\s*/, ""));
      const hereBox = here && here.getBoundingClientRect();
      const navBox = nav.getBoundingClientRect();
      return { problems, shown, here: here && here.getAttribute("href"), current: here?.parentElement.classList.contains("current"),
        inView: hereBox !== null && hereBox.top >= navBox.top && hereBox.bottom <= navBox.bottom };
    }, levels);
    check(r.problems.length === 0, `${p.label}: sections start folded as [output.html.fold] says`, r.problems.slice(0, 8).join("; "));
    check(r.here !== null && r.current && r.inView, `${p.label}: the current chapter is marked and in view`, JSON.stringify(r));
    if (name === "folding") {
      check(JSON.stringify(r.shown) === JSON.stringify(FOLDING_FIXTURE_SHOWS[rel]),
        `${p.label}: shows the chapters it should`, `${r.shown.join(", ")}; expected ${FOLDING_FIXTURE_SHOWS[rel].join(", ")}`);
    }
    finish(p);
    await p.page.close();
  }
  // The keyboard: Tab from a chapter's link reaches its fold button, which shows a focus ring;
  // Enter and Space fold and unfold, and focus stays on the button.
  const p = await openPage(context, `${name}: fold buttons by keyboard`);
  await p.page.goto(pathToFileURL(path.join(site, decodeURIComponent(targets[0]))).href);
  const item = p.page.locator("#sidebar li:has(> button.fold)").first();
  await item.locator(":scope > a, :scope > span").first().focus();
  await p.page.keyboard.press("Tab");
  const state = () => p.page.evaluate(() => {
    const b = document.activeElement;
    const li = b.parentElement;
    const s = getComputedStyle(b);
    const child = li.querySelector(":scope > ol.section > li > a, :scope > ol.section > li > span");
    return { tag: b.tagName, fold: b.classList.contains("fold"), expanded: b.getAttribute("aria-expanded"),
      ring: s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2,
      childShown: child !== null && child.getClientRects().length > 0 };
  });
  const s0 = await state();
  check(s0.tag === "BUTTON" && s0.fold && s0.ring, `${p.label}: Tab reaches the fold button, with a focus ring`, JSON.stringify(s0));
  await p.page.screenshot({ path: path.join(out, `${name}-sidebar-folding.png`) });
  await p.page.keyboard.press("Enter");
  const s1 = await state();
  check(s1.fold && s1.expanded !== s0.expanded && s1.childShown === (s1.expanded === "true"),
    `${p.label}: Enter ${s0.expanded === "true" ? "folds" : "unfolds"} the section`, JSON.stringify([s0, s1]));
  await p.page.keyboard.press("Space");
  const s2 = await state();
  check(s2.fold && s2.expanded === s0.expanded && s2.childShown === (s2.expanded === "true"),
    `${p.label}: Space turns it back`, JSON.stringify([s1, s2]));
  finish(p);
  await context.close();
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

/** Pages of a site that are not lessons: the front page, the contents, print.html (every
 * lesson at once), results.html (the book's named results), 404.html (served for missing URLs, so its links start at the site URL) and
 * redirect pages (a meta refresh to a moved page). */
function isLessonPage(file) {
  if (["index.html", "toc.html", "404.html", "print.html", "results.html"].includes(path.basename(file))) return false;
  return redirectTarget(file) === null;
}

/** The URL a redirect page sends the reader to, or null for any other page. */
function redirectTarget(file) {
  const m = fs.readFileSync(file, "utf8").slice(0, 2000)
    .match(/<meta http-equiv="refresh" content="0; URL=([^"]*)"/i);
  return m ? m[1].replace(/&amp;/g, "&") : null;
}

let searchedSomewhere = false;
let playgroundChecked = false;
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
  const badLang = [];
  let shotWidget = false;
  for (const file of pages) {
    const rel = path.relative(site, file);
    // 404.html is served for a missing URL anywhere in the site, so its links start at the site
    // URL; it is opened over HTTP below, not from file://.
    if (rel === "404.html") continue;
    // A redirect page (mdBook's [output.html.redirect]) leaves at once: its target must exist.
    const target = redirectTarget(file);
    if (target !== null) {
      const to = /^[a-z]+:/i.test(target) ? null : path.resolve(path.dirname(file), target.split("#")[0]);
      check(to === null || fs.existsSync(to), `${name}/${rel}: redirects to a page of the site`, target);
      continue;
    }
    const shot = rel.replace(/[\\/]/g, "_").replace(/\.html$/, "");
    const p = await openPage(context, `${name}/${rel}`);
    await p.page.emulateMedia({ colorScheme: "light" });
    await p.page.goto(pathToFileURL(file).href, { waitUntil: "load" });
    await settle(p.page);
    const text = await p.page.evaluate(() => document.querySelector("main")?.innerText ?? "");
    // print.html holds every lesson at once and is not a search result, as in mdBook; nor is
    // results.html, which only repeats the titles of the lessons' named results.
    // Search ignores case, so a page with "fermat(2)" is a page with the word.
    const notSearched = rel === "print.html" || rel === "results.html";
    if (text.toLowerCase().includes(SEARCH_WORD.toLowerCase()) && !notSearched) {
      withWord.push(pathToFileURL(file).href);
    }
    const langDir = await p.page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]);
    if (!langDir[0] || !["ltr", "rtl"].includes(langDir[1])) badLang.push(`${rel} (${langDir})`);
    // WCAG 2.1 AA in both themes, before anything on the page is touched.
    await axeCheck(p.page, `${p.label} (light, ${WIDE.width} px)`);
    await p.page.emulateMedia({ colorScheme: "dark" });
    await settle(p.page);
    await axeCheck(p.page, `${p.label} (dark, ${WIDE.width} px)`);
    await p.page.emulateMedia({ colorScheme: "light" });
    const widgets = await p.page.locator(".nim-widget").count();
    const hasMath = (await p.page.locator("math").count()) > 0;
    if ((!mathChecked && hasMath) || (!shotWidget && widgets > 0) || rel === "index.html") {
      await p.page.screenshot({ path: path.join(out, `${name}-${shot}-${WIDE.width}.png`) });
    }
    if (!mathChecked && hasMath) {
      await checkMath(p.page, p.label);
      mathChecked = true;
    }
    // A phone: nothing scrolls sideways, the widgets fit, and the boxes that now scroll can be
    // reached by keyboard.
    await p.page.setViewportSize(PHONE);
    await settle(p.page);
    await checkFits(p.page, p.label);
    await axeCheck(p.page, `${p.label} (scroll boxes at ${PHONE.width} px)`, ["scrollable-region-focusable"]);
    if ((!shotWidget && widgets > 0) || rel === "index.html") {
      await p.page.screenshot({ path: path.join(out, `${name}-${shot}-${PHONE.width}.png`), fullPage: widgets === 0 });
      if (widgets > 0) {
        await p.page.locator(".nim-widget").first().scrollIntoViewIfNeeded();
        await p.page.screenshot({ path: path.join(out, `${name}-${shot}-widget-${PHONE.width}.png`) });
      }
    }
    await p.page.setViewportSize(WIDE);
    for (let i = 0; i < widgets; i++) {
      await playByKeyboard(p.page, `${p.label}: widget ${i + 1}`, p.page.locator(".nim-widget").nth(i));
    }
    if (!shotWidget && widgets > 0) {
      shotWidget = true;
      await p.page.screenshot({ path: path.join(out, `${name}-${shot}-after-keyboard-game.png`) });
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
  check(badLang.length === 0, `${name}: every page has lang and dir`, badLang.join(", "));
  // The course and the fixture books have math; a real mdBook book may have none (Rust by Example).
  const mathInSource = pages.some((f) => fs.readFileSync(f, "utf8").includes("<math"));
  check(mathChecked || (!mathInSource && site !== sites[0]), `${name}: some page has MathML`);
  if (fs.existsSync(path.join(site, "404.html"))) await check404(site, name);

  // The sidebar: the table of contents comes from toc.js (one copy for the whole site), with
  // the current chapter marked; without JavaScript the sidebar links to toc.html instead.
  const lessonPage = pages.filter(isLessonPage).pop();
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

  await checkFolding(site, name);

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
    check(landed.toLowerCase().includes(SEARCH_WORD.toLowerCase()),
      `${name}: Enter opens a page that contains "${SEARCH_WORD}"`);
    await p.page.screenshot({ path: path.join(out, `${name}-search-result.png`) });
    finish(p);
  }
  await context.close();
  if (await checkCodeBlocks(browser, site, check, WIDE)) playgroundChecked = true;
}
check(playgroundChecked, "some site has a Rust playground block, and its buttons were pressed");
await checkReaderControls(sites[0], path.basename(sites[0]));
check(searchedSomewhere, `some site has a page with "${SEARCH_WORD}" to search for`);
check(widgetsPlayed > 0, "some page has a play widget, and it was played", `${widgetsPlayed} widgets`);
if (nimbookBin) {
  for (const kind of ["number", "outcome", "choice", "practice"]) {
    check(exerciseKinds.has(kind), `an exercise of kind ${kind} was answered right and wrong with the keyboard`);
  }
  check(progressChecked, "progress marks were checked on some page");
}

// One-lesson handouts (a folder of them): every in-file reference resolves, nothing fails.
if (lessonHandouts) {
  const context = await newContext();
  const files = htmlFiles(lessonHandouts);
  check(files.length > 0, `one-lesson handouts in ${lessonHandouts}`, `${files.length}`);
  for (const file of files) {
    const p = await openPage(context, `handout ${path.basename(file)}`);
    await p.page.goto(pathToFileURL(file).href, { waitUntil: "load" });
    await checkInFileRefs(p.page, p.label);
    finish(p);
    await p.page.close();
  }
  await context.close();
}

// The handouts: one file each, nothing loaded from anywhere else, printable, accessible.
for (const handout of handouts) {
  const context = await newContext();
  const p = await openPage(context, `handout ${path.basename(handout)}`);
  await p.page.emulateMedia({ colorScheme: "light" });
  await p.page.goto(pathToFileURL(handout).href, { waitUntil: "load" });
  await settle(p.page);
  await checkInFileRefs(p.page, p.label);
  await axeCheck(p.page, `${p.label} (light, ${WIDE.width} px)`);
  await p.page.emulateMedia({ colorScheme: "dark" });
  await settle(p.page);
  await axeCheck(p.page, `${p.label} (dark, ${WIDE.width} px)`);
  await p.page.emulateMedia({ colorScheme: "light" });
  await p.page.setViewportSize(PHONE);
  await settle(p.page);
  await checkFits(p.page, p.label);
  await axeCheck(p.page, `${p.label} (scroll boxes at ${PHONE.width} px)`, ["scrollable-region-focusable"]);
  await p.page.screenshot({ path: path.join(out, `handout-${PHONE.width}.png`) });
  await p.page.setViewportSize(WIDE);
  const sheets = await p.page.evaluate(() => [...document.styleSheets].map((s) => s.href));
  check(sheets.length > 0 && sheets.every((h) => h === null),
    `${p.label}: every stylesheet is inline`, JSON.stringify(sheets));
  await checkMath(p.page, p.label);
  await checkWidget(p.page, p.label);
  // A teacher's answer key (`handout --answers`, FILE.answers.html) holds no lessons, only the key.
  const teachersKey = handout.endsWith(".answers.html");
  if (teachersKey) {
    const items = await p.page.locator("#answer-key li").count();
    check(items > 0, `${p.label}: the teacher's key lists the exercises`, `${items}`);
  } else {
    const lessons = await p.page.locator("article.handout-lesson").count();
    check(lessons > 0, `${p.label}: has lessons`, `${lessons}`);
  }
  await p.page.screenshot({ path: path.join(out, teachersKey ? "answer-key-screen.png" : "handout-screen.png") });
  await p.page.emulateMedia({ media: "print" });
  const breaks = await p.page.evaluate(() =>
    [...document.querySelectorAll("article.handout-lesson")].map((a) => getComputedStyle(a).breakBefore));
  check(teachersKey || (breaks.length > 0 && breaks.every((b) => b === "page")),
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
