// The exercises of a page, answered with the keyboard only (Tab, typing, Space, Enter), right
// and wrong, once for each kind: a number, an outcome, a truth value, a multiple choice, a
// practice problem; and once more for each kind in graded mode (`[nimbook] answers = "hidden"`),
// where a question carries only a salted SHA-256 of its answer. Used by check.mjs. The answers
// to practice problems come from the engine (`nimbook calc`), never from the page's own script;
// a graded answer is found by hashing every candidate with Node's own crypto (the small answer
// spaces are why graded mode deters rather than keeps a secret).

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";

/** The answer a graded question's hash stands for, in the form data-answer would have had
 * (a number, P/N/D, true/false, or a choice's positions joined by commas); null if none of the
 * candidates matches. */
function gradedAnswer(kind, salt, hash, options) {
  const h = (answer) => createHash("sha256").update(`${salt}\n${answer}`, "utf8").digest("hex");
  let candidates;
  if (kind === "number") candidates = Array.from({ length: 1 << 16 }, (_, i) => String(i));
  else if (kind === "outcome") candidates = ["P", "N", "D"];
  else if (kind === "truth") candidates = ["true", "false"];
  else {
    candidates = Array.from({ length: 1 << options }, (_, mask) =>
      Array.from({ length: options }, (_, i) => i).filter((i) => mask & (1 << i)).join(","));
  }
  return candidates.find((c) => h(c) === hash) ?? null;
}

/** Presses Tab until `target` has the focus (at most `limit` times); true if it got there. */
async function tabTo(page, target, limit = 600) {
  const handle = await target.elementHandle();
  for (let i = 0; i < limit; i++) {
    if (await page.evaluate((el) => document.activeElement === el, handle)) return true;
    await page.keyboard.press("Tab");
  }
  return false;
}

async function feedback(box) {
  const f = box.locator(".nim-exercise-feedback");
  return { text: (await f.textContent()) ?? "", cls: (await f.getAttribute("class")) ?? "" };
}

/** Selects all text of the focused box and types over it. */
async function typeAnswer(page, text) {
  await page.keyboard.press("Control+A");
  await page.keyboard.press("Backspace");
  if (text) await page.keyboard.type(text);
  await page.keyboard.press("Enter");
}

export function engineAnswer(bin, expr) {
  const r = spawnSync(bin, ["calc", expr]);
  return r.status === 0 ? r.stdout.toString().trim() : null;
}

/**
 * Answers the first exercise of each kind on the page that `done` has not seen yet.
 * `done` is a Set of kinds already covered, shared across pages.
 */
export async function checkExercises(page, label, check, done, bin) {
  const boxes = page.locator(".nim-exercise, .nim-practice");
  const count = await boxes.count();
  // Start from the top of the page, so Tab walks the exercises in document order.
  await page.evaluate(() => { document.activeElement?.blur?.(); window.scrollTo(0, 0); });
  for (let i = 0; i < count; i++) {
    const box = boxes.nth(i);
    const kind = (await box.getAttribute("data-practice")) ? "practice" : await box.getAttribute("data-kind");
    const hash = await box.getAttribute("data-hash");
    const mode = hash ? "graded " : "";
    if (done.has(mode + kind)) continue;
    const what = `${label}: ${mode}${kind} exercise ${i + 1}`;
    let key = await box.getAttribute("data-answer");
    if (hash) {
      check(key === null, `${what}: a graded page carries no data-answer`);
      check((await box.locator(".nim-exercise-answer").count()) === 0, `${what}: a graded page has no Show-the-answer box`);
      const options = await box.locator("input[type=checkbox]").count();
      key = gradedAnswer(kind, await box.getAttribute("data-salt"), hash, options);
      check(key !== null, `${what}: some candidate answer matches the hash`);
      if (key === null) continue;
    }
    if (kind === "number" || kind === "outcome" || kind === "truth") {
      const input = box.locator("input[type=text]");
      check(await tabTo(page, input), `${what}: the answer box is reached with Tab`);
      const wrong = kind === "number" ? String(BigInt(key) + 1n)
        : kind === "truth" ? (key === "true" ? "false" : "true") : (key === "P" ? "N" : "P");
      await typeAnswer(page, wrong);
      let f = await feedback(box);
      check(/wrong/.test(f.cls) && /Not quite/.test(f.text), `${what}: a wrong answer is told wrong`, f.text);
      const hint = box.locator(".nim-exercise-hint");
      if ((await hint.count()) > 0) {
        check(await hint.isVisible(), `${what}: a hint appears after a wrong answer`);
      }
      if (hash) {
        check((await box.locator(".nim-exercise-answer").count()) === 0, `${what}: a wrong answer reveals no key`);
      }
      await typeAnswer(page, "1e9999");
      f = await feedback(box);
      check(!/right|wrong/.test(f.cls) && f.text.length > 0, `${what}: a malformed answer is told so`, f.text);
      await typeAnswer(page, "");
      f = await feedback(box);
      check(/empty/.test(f.text), `${what}: an empty answer is told so`, f.text);
      const right = kind === "number" ? `0x${BigInt(key).toString(16)}` : kind === "truth" ? key.toUpperCase() : key.toLowerCase();
      await typeAnswer(page, right);
      f = await feedback(box);
      check(/\bright\b/.test(f.cls) && /Right/.test(f.text), `${what}: the right answer (${right}) is told right`, f.text);
      done.add(mode + kind);
    } else if (kind === "choice") {
      key = (key || "").split(",").filter((s) => s !== "");
      const boxesIn = box.locator("input[type=checkbox]");
      const n = await boxesIn.count();
      const button = box.locator("button[type=submit]");
      // Wrong: the first option toggled the wrong way round, everything else left empty.
      const first = boxesIn.nth(0);
      check(await tabTo(page, first), `${what}: the first option is reached with Tab`);
      const wrongSet = key.includes("0") ? [] : ["0"];
      if (wrongSet.length) await page.keyboard.press("Space");
      if (!key.length && !wrongSet.length) await page.keyboard.press("Space");
      check(await tabTo(page, button), `${what}: the Check button is reached with Tab`);
      await page.keyboard.press("Enter");
      let f = await feedback(box);
      check(/wrong/.test(f.cls) && /Not quite/.test(f.text), `${what}: a wrong selection is told wrong`, f.text);
      // Right: back to the first option, then walk the options with Tab, setting each with Space.
      check(await tabTo(page, first), `${what}: the first option is reached again`);
      for (let j = 0; j < n; j++) {
        const opt = boxesIn.nth(j);
        if (j > 0) await tabTo(page, opt, 10);
        const want = key.includes(String(j));
        if ((await opt.isChecked()) !== want) await page.keyboard.press("Space");
      }
      check(await tabTo(page, button), `${what}: the Check button is reached again`);
      await page.keyboard.press("Enter");
      f = await feedback(box);
      check(/\bright\b/.test(f.cls) && /Right/.test(f.text), `${what}: the correct options are told right`, f.text);
      done.add(mode + kind);
    } else if (kind === "practice") {
      const practice = await box.getAttribute("data-practice");
      const input = box.locator("input[type=text]");
      const problem = ((await box.locator(".nim-practice-problem").textContent()) ?? "").trim();
      let expr = null;
      let m;
      if ((m = problem.match(/^Compute (\d+) ([⊕⊗]) (\d+)\.$/))) expr = `${m[1]} ${m[2]} ${m[3]}`;
      else if ((m = problem.match(/^Find the nim-inverse of (\d+):/))) expr = `inv(${m[1]})`;
      else if ((m = problem.match(/heap of (\d+) in /))) {
        const rule = await box.getAttribute("data-rule");
        expr = rule === "grundys_game" ? `grundy(grundys_game(${m[1]}))`
          : `grundy(octal("${rule[0]}.${rule.slice(1)}", ${m[1]}))`;
      }
      check(expr !== null, `${what} (${practice}): the problem reads as a question`, problem);
      const answer = expr && engineAnswer(bin, expr);
      check(answer !== null && /^\d+$/.test(answer), `${what}: the engine answers ${expr}`, String(answer));
      if (!answer) continue;
      check(await tabTo(page, input), `${what}: the answer box is reached with Tab`);
      await typeAnswer(page, String(BigInt(answer) + 1n));
      let f = await feedback(box);
      check(/wrong/.test(f.cls), `${what}: a wrong answer is told wrong`, f.text);
      check(await box.locator(".nim-exercise-hint").isVisible(), `${what}: a hint appears after a wrong answer`);
      await typeAnswer(page, "abc");
      f = await feedback(box);
      check(/not a whole number/.test(f.text), `${what}: "abc" is told it is not a number`, f.text);
      await typeAnswer(page, answer);
      f = await feedback(box);
      check(/\bright\b/.test(f.cls), `${what}: the engine's answer is told right`, f.text);
      // A new problem, with the keyboard: Tab past Check to "New problem", Enter.
      check(await tabTo(page, box.locator(".nim-practice-new")), `${what}: New problem is reached with Tab`);
      await page.keyboard.press("Enter");
      const after = ((await box.locator(".nim-practice-problem").textContent()) ?? "").trim();
      check(after.length > 0 && /A new problem/.test((await feedback(box)).text), `${what}: New problem draws one`, after);
      done.add(kind);
    }
  }
}

/** Progress: a solved exercise marks its lesson in the sidebar, survives a reload, and the
 * reset button (reached with Tab, pressed with Enter) clears it. */
export async function checkProgress(page, label, check) {
  const marks = page.locator(".sidebar .progress-mark");
  check((await marks.count()) > 0, `${label}: a solved exercise marks the lesson in the sidebar`);
  await page.reload({ waitUntil: "load" });
  check((await page.locator(".nim-exercise.solved").count()) > 0,
    `${label}: solved exercises are remembered after a reload (localStorage from file://)`);
  check((await marks.count()) > 0, `${label}: the sidebar mark is still there after a reload`);
  const reset = page.getByRole("button", { name: "Reset exercise progress" });
  check(await tabTo(page, reset), `${label}: the reset button is reached with Tab`);
  await page.keyboard.press("Enter");
  check((await marks.count()) === 0 && (await page.locator(".nim-exercise.solved").count()) === 0,
    `${label}: reset clears every mark`);
  const status = (await page.locator(".progress-status").textContent()) ?? "";
  check(/reset/i.test(status), `${label}: reset is announced`, status);
}
