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
// It also feeds malformed answers to the answer parser, which must refuse them without throwing,
// and checks the script's SHA-256 (graded mode) against FIPS 180-2's vectors and Node's own
// crypto on random strings of every length around the block boundaries, Unicode included.

import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
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

// SHA-256, for graded mode: the published vectors, then Node's crypto as the oracle.
for (const [text, digest] of [
  ["abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
  ["", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
  ["abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"],
  ["a".repeat(1000000), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"],
]) {
  check(N.sha256(text) === digest, `sha256 of the FIPS vector of ${text.length} characters`, N.sha256(text));
}
{
  const alphabet = ["a", "Z", "0", " ", "\n", "#", "é", "⊕", "ω", "𝔽", "\u0000"];
  let bad = null, wrong = 0;
  for (let len = 0; len < 200; len++) {
    for (let k = 0; k < 5; k++) {
      let text = "";
      for (let i = 0; i < len; i++) text += alphabet[Number(next64() % BigInt(alphabet.length))];
      const want = createHash("sha256").update(text, "utf8").digest("hex");
      if (N.sha256(text) !== want) { wrong++; if (!bad) bad = JSON.stringify(text); }
    }
  }
  check(wrong === 0, "sha256 agrees with Node's crypto on 1000 random strings of 0 to 199 characters", `${wrong} differ, e.g. ${bad}`);
}
// Canonical answers: a choice is a set, in ascending order whatever the order of selection.
check(N.canonical("choice", ["10", "2", "0"]) === "0,2,10", "a choice's answer is its set in ascending order");
check(N.canonical("choice", []) === "", "the empty choice is the empty string");
check(N.canonical("number", 12n) === "12", "a number's answer is its decimal digits");
{
  const salt = "Book/a.md#exercise-2";
  const hash = createHash("sha256").update(`${salt}\n1,3`, "utf8").digest("hex");
  check(N.isRight("choice", null, salt, hash, ["3", "1"]) && !N.isRight("choice", null, salt, hash, ["1"]),
    "graded: a choice is right by its salted hash, in any order of selection");
  const num = createHash("sha256").update(`${salt}\n13`, "utf8").digest("hex");
  check(N.isRight("number", null, salt, num, 13n) && !N.isRight("number", null, salt, num, 14n),
    "graded: a number is right by its salted hash");
  check(N.isRight("number", "13", null, null, 13n) && N.isRight("choice", ["1", "3"], null, null, ["3", "1"]),
    "shown: answers are compared with data-answer");
}

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
