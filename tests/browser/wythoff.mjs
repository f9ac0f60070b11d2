// Wythoff's game in the play widget: the queen on a board, by mouse and by keyboard. Used by
// check.mjs for every Wythoff widget of every site; run alone on one page while working on
// the widget:
//
//   node wythoff.mjs PAGE.html [--out DIR]
//
// The oracles are written here from the rules, never read from the page's script or data: the
// queen's moves come from this file's own move generator, and the losing squares from
// Wythoff's theorem, (⌊kφ⌋, ⌊kφ²⌋) = (⌊(k + √(5k²))/2⌋, that + k), in integer arithmetic.

import { pathToFileURL } from "node:url";

/** The integer square root of a non-negative safe integer, exactly. */
function isqrt(n) {
  let r = Math.floor(Math.sqrt(n));
  while (r * r > n) r--;
  while ((r + 1) * (r + 1) <= n) r++;
  return r;
}

/** Whether (x, y) is a losing square by Wythoff's theorem. */
export function losing(x, y) {
  const [a, b] = [Math.min(x, y), Math.max(x, y)];
  const k = b - a;
  return a === Math.floor((k + isqrt(5 * k * k)) / 2);
}

/** The squares the queen at (x, y) can reach, by the rules: left, down, diagonally down-left. */
export function reachable(x, y) {
  const out = new Set();
  for (let k = 1; k <= x; k++) out.add(`${x - k},${y}`);
  for (let k = 1; k <= y; k++) out.add(`${x},${y - k}`);
  for (let k = 1; k <= Math.min(x, y); k++) out.add(`${x - k},${y - k}`);
  return out;
}

/** The widget's state as the page shows it: the queen's square, the squares offered as
 *  moves with their labels, the turn, the status line and where the keyboard is. */
async function look(w) {
  return w.evaluate((el) => {
    const q = el.querySelector(".nw-square.queen");
    const a = document.activeElement;
    return {
      queen: q ? q.getAttribute("data-key") : null,
      queenLabel: q ? q.getAttribute("aria-label") : null,
      offered: [...el.querySelectorAll(".nw-square.reach")].map((c) => [c.getAttribute("data-key"), c.getAttribute("aria-label")]),
      stops: el.querySelectorAll(".nim-widget-board [tabindex='0']").length,
      turn: el.getAttribute("data-turn"),
      status: el.querySelector(".nim-widget-status").textContent,
      focus: el.querySelector(".nim-widget-board").contains(a) ? a.getAttribute("data-key") : null,
      focusMove: a.hasAttribute("data-move"),
      hint: el.querySelector(".nw-square.hint")?.getAttribute("data-key") ?? null,
      hintDisabled: el.querySelector(".nw-button").disabled,
    };
  });
}

async function settled(page, w) {
  await page.waitForFunction((el) => ["you", "over"].includes(el.getAttribute("data-turn")),
    await w.elementHandle(), { timeout: 5000 }).catch(() => {});
}

const key = (s) => s.split(",").map(Number);

/** The board offers exactly the rules' moves, each a labelled square, and one Tab stop. */
function boardProblems(s) {
  const problems = [];
  if (!s.queen) return ["no queen on the board"];
  const [x, y] = key(s.queen);
  const want = reachable(x, y);
  const got = new Set(s.offered.map(([k]) => k));
  if (got.size !== want.size || [...want].some((k) => !got.has(k))) {
    problems.push(`the queen at ${s.queen} is offered ${[...got].join(" ")}, the rules give ${[...want].join(" ")}`);
  }
  for (const [k, label] of s.offered) {
    const [cx, cy] = key(k);
    if (label !== `Move queen to column ${cx}, row ${cy}`) problems.push(`square ${k} is labelled "${label}"`);
  }
  if (s.queenLabel !== `The queen, at column ${x}, row ${y}`) problems.push(`the queen is labelled "${s.queenLabel}"`);
  if (s.stops !== 1) problems.push(`${s.stops} Tab stops on the board, not 1`);
  return problems;
}

/**
 * Checks one Wythoff widget: the engine's values it carries against the theorem, a game by
 * mouse in which the student plays badly and the computer moves to a losing square every time
 * and wins, the arrow keys, and a game by keyboard in which the student follows the hint and
 * wins. `check(ok, what, detail)` records a result.
 */
export async function checkWythoff(page, label, w, check) {
  await w.scrollIntoViewIfNeeded();
  // The values the build embedded: value 0 exactly on the theorem's losing squares.
  const grundy = JSON.parse(await w.getAttribute("data-grundy"));
  const wrong = [];
  grundy.forEach((col, x) => col.forEach((v, y) => { if ((v === 0) !== losing(x, y)) wrong.push(`${x},${y}`); }));
  check(wrong.length === 0, `${label}: the engine's losing squares are Wythoff's pairs`, wrong.join(" "));

  // By mouse: always one square towards the corner (a poor move unless it happens to win).
  const newGame = w.getByRole("button", { name: "New game" });
  await newGame.click();
  const problems = [];
  let s = await look(w);
  problems.push(...boardProblems(s));
  let computerMoves = 0;
  for (let n = 0; n < 60 && s.turn === "you"; n++) {
    const [x, y] = key(s.queen);
    const target = x >= y ? `${x - 1},${y}` : `${x},${y - 1}`;
    await w.locator(`.nw-square[data-key="${target}"]`).click();
    const said = await w.locator(".nim-widget-status").textContent();
    if (!said.startsWith("You chose to move the queen")) problems.push(`a click is announced as "${said}"`);
    await settled(page, w);
    s = await look(w);
    if (s.turn === "over") break;
    const before = losing(...key(target));
    if (!before && !losing(...key(s.queen))) {
      problems.push(`the computer left ${target} for ${s.queen}, not a losing square`);
    }
    if (!/^The computer chose to move the queen .*Your turn\.$/.test(s.status)) problems.push(`the computer's move is announced as "${s.status}"`);
    computerMoves++;
    problems.push(...boardProblems(s));
  }
  check(s.turn === "over" && /The computer wins/.test(s.status) && problems.length === 0,
    `${label}: a game by mouse, ${computerMoves} computer moves each to a losing square, the computer wins and says so`,
    problems.slice(0, 5).join("; ") || s.status);
  check(s.offered.length === 0 && s.hintDisabled && s.queen === "0,0",
    `${label}: at the end the queen is in the corner, no square is offered and the hint is off`, JSON.stringify(s));

  // By keyboard: Tab reaches the board once, the arrow keys move among the squares.
  await newGame.focus();
  await page.keyboard.press("Enter");
  s = await look(w);
  await w.evaluate((el) => { const t = el.querySelector(".nim-widget-title"); t.tabIndex = -1; t.focus(); });
  await page.keyboard.press("Tab");
  s = await look(w);
  const [qx, qy] = key(s.queen);
  check(s.focus === `${qx - 1},${qy}` && s.focusMove, `${label}: Tab reaches the square left of the queen`, JSON.stringify(s.focus));
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowLeft");
  s = await look(w);
  check(s.focus === `${qx - 2},${qy - 1}` && !s.focusMove, `${label}: the arrow keys move between squares, also out of reach`, s.focus);
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  s = await look(w);
  check(s.focus === `${qx},${qy - 1}` && s.focusMove, `${label}: the arrow keys stop at the board's edge`, s.focus);
  await page.keyboard.press("Enter");
  check((await look(w)).status.startsWith(`You chose to move the queen 1 square down, to column ${qx}, row ${qy - 1}`),
    `${label}: Enter plays the focused square`, (await look(w)).status);
  await settled(page, w);

  // Then a new game, the hint each turn, played from the keyboard: from a winning square the
  // student must win (from a losing one the computer must).
  await newGame.focus();
  await page.keyboard.press("Enter");
  s = await look(w);
  const startWins = !losing(...key(s.queen));
  await w.evaluate((el) => { const t = el.querySelector(".nim-widget-title"); t.tabIndex = -1; t.focus(); });
  await page.keyboard.press("Tab");
  const kp = [];
  s = await look(w);
  for (let n = 0; n < 60 && s.turn === "you"; n++) {
    if (!s.focus) { kp.push(`focus left the board (${JSON.stringify(s)})`); break; }
    for (let k = 0; k < 10 && !(await page.evaluate(() => document.activeElement.textContent === "Show me the winning move")); k++) {
      await page.keyboard.press("Tab");
    }
    await page.keyboard.press("Enter");
    s = await look(w);
    if (!s.hint) {
      // The student stands on a losing square: the hint says so, and any move will do.
      if (!/P-position/.test(s.status)) kp.push(`no hint and no word why: "${s.status}"`);
      await page.keyboard.press("Shift+Tab");
    } else {
      if (!losing(...key(s.hint)) || !reachable(...key(s.queen)).has(s.hint)) kp.push(`the hint ${s.hint} from ${s.queen} is no winning move`);
      for (let k = 0; k < 4 && !(await look(w)).focus; k++) await page.keyboard.press("Shift+Tab");
      s = await look(w);
      if (s.focus !== s.hint) kp.push(`Shift+Tab comes back to ${s.focus}, not the hinted ${s.hint}`);
    }
    await page.keyboard.press("Enter");
    await settled(page, w);
    s = await look(w);
    if (!s.focus) kp.push(`after the move focus is off the board`);
    if (s.turn === "you") kp.push(...boardProblems(s));
  }
  check(s.turn === "over" && (startWins ? /You win!/ : /The computer wins/).test(s.status) && kp.length === 0,
    `${label}: a game by keyboard following the hint, ${startWins ? "the student" : "the computer"} wins and the live region says so`,
    kp.slice(0, 5).join("; ") || s.status);
  const live = await w.locator(".nim-widget-status").getAttribute("aria-live");
  check(live === "polite", `${label}: the status line is a live region`, live);
  await newGame.click();
}

// Run alone: node wythoff.mjs PAGE.html [--out DIR]
if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { chromium } = await import("playwright-core");
  const path = await import("node:path");
  const args = process.argv.slice(2);
  const file = path.resolve(args[0]);
  const out = args[1] === "--out" ? path.resolve(args[2]) : null;
  let failed = 0;
  const check = (ok, what, detail = "") => {
    if (!ok) failed++;
    console.log(`${ok ? "ok  " : "FAIL"}  ${what}${!ok && detail ? `: ${detail}` : ""}`);
  };
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium" });
  for (const width of [1280, 390]) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    page.on("pageerror", (e) => check(false, `no script error`, e.message));
    await page.goto(pathToFileURL(file).href);
    const widgets = page.locator('.nim-widget[data-game="wythoff"]');
    const n = await widgets.count();
    check(n > 0, `${width} px: the page has a Wythoff widget`);
    for (let i = 0; i < n; i++) {
      const w = widgets.nth(i);
      const fits = await w.evaluate((el) => {
        const b = el.getBoundingClientRect(), sq = el.querySelector(".nw-square").getBoundingClientRect();
        return { fits: b.right <= document.documentElement.clientWidth && el.scrollWidth <= el.clientWidth + 1,
          square: Math.round(sq.width), page: document.documentElement.scrollWidth };
      });
      check(fits.fits && fits.page <= width, `${width} px: widget ${i + 1} fits without sideways scrolling`, JSON.stringify(fits));
      console.log(`      squares of ${fits.square} px`);
      if (out) {
        await w.scrollIntoViewIfNeeded();
        await page.screenshot({ path: path.join(out, `wythoff-${width}.png`) });
      }
      await checkWythoff(page, `${width} px: widget ${i + 1}`, w, check);
    }
    await page.close();
  }
  await browser.close();
  process.exit(failed ? 1 : 0);
}
