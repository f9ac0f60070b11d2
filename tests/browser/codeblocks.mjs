// The buttons of code blocks and the book's themes (issue 38), checked on one site by
// check.mjs, all by keyboard:
// - on the first page with a Rust playground block, nothing is asked of the playground until
//   Run is pressed; Run sends the block, its hidden `fn main` included, once, and shows the
//   answer; offline, it says the playground could not be reached; a `no_run` block has no Run
//   (on the first page with one);
// - on the first page with hidden lines, Copy copies the code with them, and the button shows
//   and hides them again (aria-pressed follows);
// - an editable block can be changed and its Undo button puts the code back;
// - a book whose book.toml sets default-theme and preferred-dark-theme starts in them.
// The playground is never really asked: its answer comes from a route in the test.

import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const PLAYGROUND = "https://play.rust-lang.org/evaluate.json";

function htmlFiles(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...htmlFiles(p));
    else if (e.name.endsWith(".html") && !["print.html", "index.html", "404.html", "toc.html"].includes(e.name)) out.push(p);
  }
  return out.sort();
}

/** A context that answers the playground as `answer` says ("ok" or "offline") and records what
 * it was sent; every other request that leaves file:// is refused. */
async function playgroundContext(browser, viewport, state) {
  const context = await browser.newContext({ viewport });
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await context.route("**/*", async (route) => {
    const req = route.request();
    const u = req.url();
    if (u.startsWith("file://") || u.startsWith("data:")) return route.continue();
    if (u === PLAYGROUND && req.method() === "POST") {
      state.sent.push(JSON.parse(req.postData() || "{}"));
      if (state.answer === "offline") return route.abort();
      return route.fulfill({
        status: 200,
        contentType: "application/json",
        headers: { "access-control-allow-origin": "*" },
        body: JSON.stringify({ result: "42\n", error: null }),
      });
    }
    state.other.push(u);
    return route.abort();
  });
  return context;
}

async function press(page, locator) {
  await locator.focus();
  await page.keyboard.press("Enter");
}

async function checkRun(page, label, check, state) {
  const tools = page.locator(".code-tools:has(.code-run)").first();
  check(state.sent.length === 0, `${label}: nothing goes to the playground before Run is pressed`);
  const run = tools.locator(".code-run");
  await press(page, run);
  const result = page.locator(".play-result").first();
  await result.waitFor({ state: "visible" });
  await page.waitForFunction(() => /42|No output/.test(document.querySelector(".play-result")?.innerText ?? ""));
  check(state.sent.length === 1, `${label}: Run sends one request`, `${state.sent.length}`);
  const sent = state.sent[0] || {};
  check(typeof sent.code === "string" && sent.code.includes("fn main"),
    `${label}: the code sent has its fn main, hidden or not`, JSON.stringify(sent));
  check(/^\d{4}$/.test(sent.edition || ""), `${label}: the edition is sent`, sent.edition);
  check((await result.innerText()).includes("42"), `${label}: the playground's answer is shown`);
  state.answer = "offline";
  await press(page, run);
  await page.waitForFunction(() => /could not be reached/.test(document.querySelector(".play-result")?.innerText ?? ""));
  check(true, `${label}: offline, Run says the playground could not be reached`);
}

async function checkNoRun(page, label, check) {
  const noRun = await page.evaluate(() => [...document.querySelectorAll("pre.playground")]
    .filter((pre) => pre.querySelector("code.no_run"))
    .map((pre) => !!pre.previousElementSibling?.querySelector?.(".code-run")));
  check(noRun.length > 0 && noRun.every((hasRun) => !hasRun), `${label}: a no_run block has no Run button`,
    JSON.stringify(noRun));
}

async function checkCopyAndHidden(page, label, check) {
  const pre = page.locator("pre:has(.boring)").first();
  const tools = page.locator(".code-tools:has(.reveal-lines)").first();
  const hiddenText = await pre.evaluate((p) => [...p.querySelectorAll(".boring")].map((b) => b.textContent).join(""));
  const copy = tools.locator(".code-copy");
  if ((await copy.count()) > 0) {
    await press(page, copy);
    await page.waitForTimeout(200);
    const copied = await page.evaluate(() => navigator.clipboard.readText().catch((e) => `failed: ${e}`));
    const lines = hiddenText.split("\n").map((l) => l.trim()).filter((l) => l);
    check(lines.length > 0 && lines.every((l) => copied.includes(l)),
      `${label}: Copy copies the hidden lines too`, copied);
  }
  const reveal = tools.locator(".reveal-lines");
  const shown = () => pre.evaluate((p) => getComputedStyle(p.querySelector(".boring")).display !== "none");
  check(!(await shown()), `${label}: hidden lines start hidden`);
  await press(page, reveal);
  check((await shown()) && (await reveal.getAttribute("aria-pressed")) === "true",
    `${label}: the button shows the hidden lines`);
  await press(page, reveal);
  check(!(await shown()) && (await reveal.getAttribute("aria-pressed")) === "false",
    `${label}: and hides them again`);
}

async function checkEditable(page, label, check) {
  const code = page.locator("code[contenteditable]").first();
  const before = await code.textContent();
  await code.focus();
  await page.keyboard.press("End");
  await page.keyboard.type(" // changed");
  check((await code.textContent()) !== before, `${label}: an editable block takes typing`);
  const undo = page.locator(".code-tools:has(.code-undo) .code-undo").first();
  await press(page, undo);
  check((await code.textContent()) === before, `${label}: Undo changes puts the code back`);
}

async function checkThemes(page, label, check) {
  const themes = await page.evaluate(() => [
    document.documentElement.getAttribute("data-theme-light"),
    document.documentElement.getAttribute("data-theme-dark"),
  ]);
  if (!themes[0]) return;
  for (const [scheme, want] of [["light", themes[0]], ["dark", themes[1]]]) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.reload({ waitUntil: "load" });
    const got = await page.evaluate(() => document.documentElement.getAttribute("data-theme"));
    check(got === want, `${label}: on a ${scheme} system the book's theme is ${want}`, got);
  }
  await page.emulateMedia({ colorScheme: "light" });
}

/** Runs the checks above on the pages of `site` that have what they need. */
export async function checkCodeBlocks(browser, site, check, viewport) {
  const name = path.basename(site);
  const pages = htmlFiles(site).map((f) => [f, fs.readFileSync(f, "utf8")]);
  const state = { sent: [], other: [], answer: "ok" };
  const context = await playgroundContext(browser, viewport, state);
  const page = await context.newPage();
  const find = (needle) => pages.find(([, html]) => html.includes(needle))?.[0];
  const playground = find('class="code playground"');
  const hidden = find('class="boring"');
  const editable = pages.find(([, html]) => html.includes("nimbook-code") && html.includes(" editable"))?.[0];
  if (playground) {
    await page.goto(pathToFileURL(playground).href, { waitUntil: "load" });
    await checkRun(page, `${name}/${path.relative(site, playground)}`, check, state);
  }
  // A page with a code block marked no_run (prose that names `no_run` does not count).
  const noRun = pages.find(([, html]) => /<code[^>]*class="[^"]*\bno_run\b/.test(html))?.[0];
  if (noRun) {
    await page.goto(pathToFileURL(noRun).href, { waitUntil: "load" });
    await checkNoRun(page, `${name}/${path.relative(site, noRun)}`, check);
  }
  if (hidden) {
    await page.goto(pathToFileURL(hidden).href, { waitUntil: "load" });
    await checkCopyAndHidden(page, `${name}/${path.relative(site, hidden)}`, check);
  }
  if (editable && (await page.goto(pathToFileURL(editable).href, { waitUntil: "load" })) &&
      (await page.locator("code[contenteditable]").count()) > 0) {
    await checkEditable(page, `${name}/${path.relative(site, editable)}`, check);
  }
  if (pages.length > 0) {
    await page.goto(pathToFileURL(pages[0][0]).href, { waitUntil: "load" });
    await checkThemes(page, `${name}/${path.relative(site, pages[0][0])}`, check);
  }
  check(state.other.length === 0, `${name}: no request but the playground's leaves file://`, state.other.join(", "));
  await context.close();
  return !!playground;
}
