// The page's nimber implementation (templates/exercise.js) against nimbook's Rust engine.
//
//   node exercise-engine.mjs NIMBOOK_BINARY [CASES_PER_KIND]
//
// For each practice kind it draws random cases (10 000 by default), asks the engine for every
// answer through one `nimbook calc -` run, and compares. The engine is the oracle: the script's
// answers are never used to decide what is right.
//   nim-sum, nim-product: operands of 1 to 64 bits, the bit length itself drawn at random, so
//     small and large operands are both common;
//   inverse: non-zero operands likewise;
//   grundy: a random game and heap; the script's move generator and mex, applied to the
//     engine's values of the smaller heaps, must give the engine's value of the heap.
// It also feeds malformed answers to the answer parser, which must refuse them without throwing.

import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = process.argv[2];
const cases = Number(process.argv[3] || 10000);
if (!bin || !(cases > 0)) {
  console.error("usage: node exercise-engine.mjs NIMBOOK_BINARY [CASES_PER_KIND]");
  process.exit(2);
}

const sandbox = { BigInt, Math, JSON, Number, String, Array, Uint32Array };
sandbox.globalThis = sandbox;
vm.createContext(sandbox);
vm.runInContext(fs.readFileSync(path.join(here, "../../templates/exercise.js"), "utf8"), sandbox);
const N = sandbox.nimbookNimber;

let passed = 0;
let failed = 0;
function check(ok, what, detail = "") {
  if (ok) { passed++; console.log(`ok    ${what}`); }
  else { failed++; console.log(`FAIL  ${what}${detail ? `: ${detail}` : ""}`); }
}

// A fixed seed, so a failure can be replayed (xorshift64*).
let state = 0x9e3779b97f4a7c15n;
function next64() {
  state ^= state >> 12n; state ^= (state << 25n) & 0xffffffffffffffffn; state ^= state >> 27n;
  return (state * 0x2545f4914f6cdd1dn) & 0xffffffffffffffffn;
}
function operand(nonzero) {
  for (;;) {
    const bits = 1n + next64() % 64n;
    const x = next64() & ((1n << bits) - 1n);
    if (!nonzero || x !== 0n) return x;
  }
}

/** Runs `nimbook calc -` on the lines; returns one answer per line. */
function engine(lines) {
  const r = spawnSync(bin, ["calc", "-"], { input: lines.join("\n") + "\n", maxBuffer: 1 << 28 });
  const out = r.stdout.toString().split("\n");
  if (r.status !== 0 || out.length < lines.length) {
    console.error(r.stderr.toString().slice(0, 2000));
    throw new Error(`nimbook calc exited with ${r.status} and ${out.length - 1} answers for ${lines.length} lines`);
  }
  return out.slice(0, lines.length);
}

function compare(kind, items, expr, js) {
  const answers = engine(items.map(expr));
  let bad = null, wrong = 0;
  items.forEach((it, i) => {
    const mine = String(js(it));
    if (mine !== answers[i]) { wrong++; if (!bad) bad = `${expr(it)}: engine ${answers[i]}, script ${mine}`; }
  });
  check(wrong === 0, `${kind}: ${items.length} random cases agree with the engine`, `${wrong} differ, e.g. ${bad}`);
}

const pairs = Array.from({ length: cases }, () => [operand(false), operand(false)]);
compare("nim-sum", pairs, ([a, b]) => `${a} + ${b}`, ([a, b]) => N.add(a, b));
compare("nim-product", pairs.map(() => [operand(false), operand(false)]), ([a, b]) => `${a} * ${b}`, ([a, b]) => N.mul(a, b));
compare("inverse", Array.from({ length: cases }, () => operand(true)), (a) => `inv(${a})`, (a) => N.inv(a));

// Grundy: the engine's table of each game, then random heaps.
const MAXHEAP = 120;
const games = [
  { rule: "077", call: (n) => `kayles(${n})` },
  { rule: "007", call: (n) => `dawsons_kayles(${n})` },
  { rule: "grundys_game", call: (n) => `grundys_game(${n})` },
  { rule: "0137", call: (n) => `octal("0.137", ${n})` },
  { rule: "4", call: (n) => `octal("4.0", ${n})` },
  { rule: "0156", call: (n) => `octal("0.156", ${n})` },
];
for (const g of games) {
  g.table = engine(Array.from({ length: MAXHEAP + 1 }, (_, n) => `grundy(${g.call(n)})`)).map(Number);
}
const heaps = Array.from({ length: cases }, () => {
  const g = games[Number(next64() % BigInt(games.length))];
  return { g, n: 1 + Number(next64() % BigInt(MAXHEAP)) };
});
compare("grundy", heaps, ({ g, n }) => `grundy(${g.call(n)})`, ({ g, n }) => N.grundyByMex(g.rule, g.table, n));

// Malformed answers are refused politely, never thrown.
for (const bad of ["abc", "1e9999", "", "   ", "-3", "0x", "12.5", "0xZZ", "9".repeat(5000), "\u0000", "१२"]) {
  let r;
  try { r = N.parseAnswer(bad, "number"); } catch (e) { r = { ok: true, threw: String(e) }; }
  check(r.ok === false && typeof r.message === "string" && r.message.length > 0,
    `the answer ${JSON.stringify(bad.slice(0, 12))} is refused with a message`, JSON.stringify(r));
}
for (const [good, value] of [["13", 13n], ["0xD", 13n], [" 0x0d ", 13n], ["0", 0n]]) {
  const r = N.parseAnswer(good, "number");
  check(r.ok && r.value === value, `the answer ${JSON.stringify(good)} reads as ${value}`, JSON.stringify(String(r.value)));
}

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
