// nimbook's exercises: answers typed on the page, multiple choice, endless practice, and the
// progress marks in the sidebar. No libraries, no network: it works from file://.
//
// The answers of `exercise` and `choice` blocks were computed by nimbook's engine when the site
// was built (data-answer; in graded mode only a salted hash of it, data-hash). Practice problems are drawn here, so their answers come from the
// small nimber implementation below (BigInt, any size), which tests/browser/exercise-engine.mjs
// checks against the engine on random cases; Grundy practice uses the values the build embeds
// (data-grundy) and only generates moves and takes a mex here.
//
// Outside a browser (Node, for that check) only `nimbookNimber` is defined.
(function (global) {
  "use strict";

  // ---- Nimbers ----------------------------------------------------------------------------
  // a ⊗ b in the field of 2^(2^k) elements: write a = a1·F ⊕ a0 with the Fermat 2-power
  // F = 2^(2^(k−1)); then, because F ⊗ F = F ⊕ F/2,
  //   a ⊗ b = ((a1 ⊕ a0)(b1 ⊕ b0) ⊕ a0b0)·F ⊕ a0b0 ⊕ (a1b1 ⊗ F/2),
  // three half-size products and one product by F/2 (Karatsuba over the halves).

  // Below 2^32 in plain numbers (bit operations are exact there).
  function mulSmall(a, b, k) {
    if (k === 0) return a & b;
    var h = 1 << (k - 1);
    var mask = (1 << h) - 1;
    var a1 = a >>> h, a0 = a & mask, b1 = b >>> h, b0 = b & mask;
    var p0 = mulSmall(a0, b0, k - 1);
    if (a1 === 0 && b1 === 0) return p0;
    var p1 = mulSmall(a1, b1, k - 1);
    var c = mulSmall(a1 ^ a0, b1 ^ b0, k - 1);
    var high = c ^ p0;
    var low = p0 ^ mulSmall(p1, 1 << (h - 1), k - 1);
    return ((high << h) >>> 0 | low) >>> 0;
  }

  // The least k with x < 2^(2^k).
  function level(x) {
    var bits = x === 0n ? 0 : x.toString(2).length;
    var k = 0;
    while ((1 << k) < bits) k++;
    return k;
  }

  function mulAt(a, b, k) {
    if (k <= 5) return BigInt(mulSmall(Number(a), Number(b), k));
    var h = BigInt(1 << (k - 1));
    var mask = (1n << h) - 1n;
    var a1 = a >> h, a0 = a & mask, b1 = b >> h, b0 = b & mask;
    var p0 = mulAt(a0, b0, k - 1);
    if (a1 === 0n && b1 === 0n) return p0;
    var p1 = mulAt(a1, b1, k - 1);
    var c = mulAt(a1 ^ a0, b1 ^ b0, k - 1);
    var high = c ^ p0;
    var low = p0 ^ mulAt(p1, 1n << (h - 1n), k - 1);
    return (high << h) | low;
  }

  function nimAdd(a, b) { return BigInt(a) ^ BigInt(b); }

  function nimMul(a, b) {
    a = BigInt(a); b = BigInt(b);
    return mulAt(a, b, level(a > b ? a : b));
  }

  // a⁻¹ = a^(2^(2^k) − 2) = a^2 ⊗ a^4 ⊗ … ⊗ a^(2^(2^k − 1)) in GF(2^(2^k)); null for 0.
  function nimInv(a) {
    a = BigInt(a);
    if (a === 0n) return null;
    var k = level(a), x = a, r = 1n;
    for (var i = 1; i < (1 << k); i++) {
      x = mulAt(x, x, k);
      r = mulAt(r, x, k);
    }
    return r;
  }

  function mex(values) {
    var seen = {};
    values.forEach(function (v) { seen[v] = true; });
    var m = 0;
    while (seen[m]) m++;
    return m;
  }

  // The options of a heap of n, each a list of the heaps left: for an octal code d0.d1d2…
  // (rule "077" for Kayles) digit dk allows removing k tokens, leaving no heap (bit 1), one
  // heap (bit 2) or two heaps (bit 4); rule "grundys_game" splits a heap into two unequal ones.
  function heapOptions(rule, n) {
    var out = [];
    if (rule === "grundys_game") {
      for (var a = 1; 2 * a < n; a++) out.push([a, n - a]);
      return out;
    }
    for (var k = 0; k < rule.length && k <= n; k++) {
      var d = rule.charCodeAt(k) - 48, m = n - k;
      if ((d & 1) && m === 0) out.push([]);
      if ((d & 2) && m > 0) out.push([m]);
      if ((d & 4) && m >= 2) for (var s = 1; s <= m / 2; s++) out.push([s, m - s]);
    }
    return out;
  }

  // The Grundy value of a heap of n from the values of smaller heaps: the mex of the options.
  function grundyByMex(rule, table, n) {
    return mex(heapOptions(rule, n).map(function (o) {
      return o.reduce(function (acc, h) { return acc ^ table[h]; }, 0);
    }));
  }

  // A student's answer: {ok: true, value} or {ok: false, message}. Never throws.
  var MAX_DIGITS = 2000;
  function parseAnswer(text, kind) {
    var t = String(text === undefined || text === null ? "" : text).trim();
    if (t === "") return { ok: false, message: "The answer box is empty. Type your answer, then press Enter." };
    if (kind === "outcome") {
      var o = t.toUpperCase().replace(/-POSITION$/, "");
      if (o === "P" || o === "N" || o === "D") return { ok: true, value: o };
      return { ok: false, message: "Please answer P or N (or D, a draw, in a loopy game)." };
    }
    if (kind === "truth") {
      var l = t.toLowerCase();
      if (l === "true" || l === "yes") return { ok: true, value: "true" };
      if (l === "false" || l === "no") return { ok: true, value: "false" };
      return { ok: false, message: "Please answer true or false." };
    }
    if (t.length > MAX_DIGITS) return { ok: false, message: "That number is far too long; no answer here has more than " + MAX_DIGITS + " digits." };
    if (/^[0-9]+$/.test(t) || /^0[xX][0-9a-fA-F]+$/.test(t)) return { ok: true, value: BigInt(t) };
    return {
      ok: false,
      message: "“" + (t.length > 24 ? t.slice(0, 24) + "…" : t) + "” is not a whole number. Type it in decimal, such as 13, or in hexadecimal after 0x, such as 0xD."
    };
  }

  // ---- Graded mode -------------------------------------------------------------------------
  // With `[nimbook] answers = "hidden"` a question carries data-salt and data-hash instead of
  // data-answer: the SHA-256 of the salt, a line feed and the answer in canonical form (see
  // src/site/lesson/directives/exercise/graded.rs). SHA-256 is written out here because
  // crypto.subtle exists only in secure contexts, which a handout opened from file:// is not in
  // every browser, and because it is asynchronous.
  var K = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
  ];

  // A string's UTF-8 bytes.
  function utf8(text) {
    var out = [];
    for (var i = 0; i < text.length; i++) {
      var c = text.codePointAt(i);
      if (c > 0xffff) i++;
      if (c < 0x80) out.push(c);
      else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
      else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    }
    return out;
  }

  // SHA-256 (FIPS 180-4) of a string's UTF-8 bytes, as 64 lowercase hexadecimal digits.
  function sha256(text) {
    var bytes = utf8(text), n = bytes.length;
    // Padding: a one bit, zeros, and the length in bits as a 64-bit big-endian number.
    bytes.push(0x80);
    while (bytes.length % 64 !== 56) bytes.push(0);
    var hi = Math.floor(n / 0x20000000), lo = (n * 8) >>> 0;
    bytes.push((hi >>> 24) & 255, (hi >>> 16) & 255, (hi >>> 8) & 255, hi & 255,
      (lo >>> 24) & 255, (lo >>> 16) & 255, (lo >>> 8) & 255, lo & 255);
    var h = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    var w = new Array(64);
    function rotr(x, r) { return (x >>> r) | (x << (32 - r)); }
    for (var off = 0; off < bytes.length; off += 64) {
      for (var t = 0; t < 16; t++) {
        var j = off + 4 * t;
        w[t] = ((bytes[j] << 24) | (bytes[j + 1] << 16) | (bytes[j + 2] << 8) | bytes[j + 3]) >>> 0;
      }
      for (t = 16; t < 64; t++) {
        var s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >>> 3);
        var s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >>> 10);
        w[t] = (w[t - 16] + s0 + w[t - 7] + s1) >>> 0;
      }
      var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
      for (t = 0; t < 64; t++) {
        var t1 = (k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t]) >>> 0;
        var t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
        k = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
      }
      h[0] = (h[0] + a) >>> 0; h[1] = (h[1] + b) >>> 0; h[2] = (h[2] + c) >>> 0; h[3] = (h[3] + d) >>> 0;
      h[4] = (h[4] + e) >>> 0; h[5] = (h[5] + f) >>> 0; h[6] = (h[6] + g) >>> 0; h[7] = (h[7] + k) >>> 0;
    }
    return h.map(function (x) { return ("00000000" + x.toString(16)).slice(-8); }).join("");
  }

  // The canonical form of an answer, as graded.rs writes it: a number in decimal, an outcome
  // as its capital letter, a truth value as true or false, a choice as the positions of the
  // selected options, ascending, joined by commas.
  function canonical(kind, value) {
    if (kind === "choice") {
      return value.map(Number).sort(function (x, y) { return x - y; }).join(",");
    }
    return String(value);
  }

  // Whether `value` (a parsed answer, or for a choice the selected positions) is right for the
  // question `box` describes: its data-answer, or in graded mode its salted hash.
  function isRight(kind, key, salt, hash, value) {
    if (hash !== null) return sha256(salt + "\n" + canonical(kind, value)) === hash.toLowerCase();
    if (kind === "choice") return canonical(kind, value) === canonical(kind, key);
    if (kind === "number") return /^[0-9]+$/.test(key) && value === BigInt(key);
    return value === key;
  }

  var api = {
    add: nimAdd, mul: nimMul, inv: nimInv, mex: mex,
    heapOptions: heapOptions, grundyByMex: grundyByMex, parseAnswer: parseAnswer,
    sha256: sha256, canonical: canonical, isRight: isRight
  };
  global.nimbookNimber = api;
  if (typeof document === "undefined") return;

  // ---- The page ---------------------------------------------------------------------------
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // Progress is kept per book, in localStorage when the browser allows it (Chromium does from
  // file://), else for this visit only.
  var script = document.currentScript;
  var rootAttr = script && script.getAttribute("data-root");
  var rootUrl = rootAttr !== null && rootAttr !== undefined ? new URL(rootAttr || "./", location.href).href : null;
  function lessonKey(href) {
    var u = new URL(href, location.href);
    u.hash = ""; u.search = "";
    var s = u.href;
    if (rootUrl && s.indexOf(rootUrl) === 0) s = s.slice(rootUrl.length);
    if (s === "" ) s = "index.html";
    return s;
  }
  var STORE = "nimbook-progress " + (rootUrl || lessonKey(location.href));
  var memory = {};
  function load() {
    try {
      var v = JSON.parse(window.localStorage.getItem(STORE) || "{}");
      return v && typeof v === "object" ? v : {};
    } catch (e) {
      return memory;
    }
  }
  function save(p) {
    memory = p;
    try { window.localStorage.setItem(STORE, JSON.stringify(p)); } catch (e) { /* kept in memory */ }
  }
  var here = lessonKey(location.href);
  function solved(id) {
    var p = load();
    return Array.isArray(p[here]) && p[here].indexOf(id) >= 0;
  }
  function markSolved(id) {
    var p = load();
    var list = Array.isArray(p[here]) ? p[here] : [];
    if (list.indexOf(id) < 0) list.push(id);
    p[here] = list;
    save(p);
    updateMarks();
  }

  function updateMarks() {
    var p = load();
    var items = document.querySelectorAll(".sidebar li[data-exercises]");
    Array.prototype.forEach.call(items, function (li) {
      var total = Number(li.getAttribute("data-exercises"));
      // The item's own link: a chapter's item also holds its sub-chapters' items.
      var a = li.querySelector(":scope > a");
      if (!a) return;
      Array.prototype.forEach.call(a.querySelectorAll(".progress-mark"), function (m) { m.remove(); });
      if (!(total > 0)) return;
      var list = p[lessonKey(a.getAttribute("href"))];
      var done = Array.isArray(list) ? Math.min(list.length, total) : 0;
      if (done === 0) return;
      var mark = el("span", "progress-mark" + (done === total ? " complete" : ""));
      var shown = el("span", null, done === total ? "✓" : done + "/" + total);
      shown.setAttribute("aria-hidden", "true");
      mark.setAttribute("title", done + " of " + total + " exercises solved");
      mark.appendChild(shown);
      mark.appendChild(el("span", "visually-hidden", " (" + done + " of " + total + " exercises solved)"));
      a.appendChild(mark);
    });
  }

  function addReset() {
    var nav = document.querySelector(".sidebar");
    if (!nav || !nav.querySelector("li[data-exercises]")) return;
    var box = el("div", "progress-reset");
    var button = el("button", null, "Reset exercise progress");
    button.type = "button";
    var status = el("p", "progress-status");
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    button.addEventListener("click", function () {
      save({});
      updateMarks();
      Array.prototype.forEach.call(document.querySelectorAll(".nim-exercise.solved"), function (s) {
        s.classList.remove("solved");
      });
      status.textContent = "Progress reset: no exercise is marked solved.";
    });
    box.appendChild(button);
    box.appendChild(status);
    nav.appendChild(box);
  }

  function tell(box, text, good) {
    var f = box.querySelector(".nim-exercise-feedback");
    if (!f) return;
    f.textContent = text;
    f.classList.toggle("right", good === true);
    f.classList.toggle("wrong", good === false);
  }

  function showHint(box) {
    var h = box.querySelector(".nim-exercise-hint");
    if (h && h.childNodes.length) h.hidden = false;
  }

  function setupExercise(box) {
    var form = box.querySelector("form");
    var input = box.querySelector("input[type=text]");
    if (!form || !input) return;
    var kind = box.getAttribute("data-kind");
    var key = box.getAttribute("data-answer");
    var salt = box.getAttribute("data-salt"), hash = box.getAttribute("data-hash");
    var answer = box.querySelector(".nim-exercise-answer");
    if (answer) answer.hidden = true;
    form.hidden = false;
    if (solved(box.id)) box.classList.add("solved");
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var r = parseAnswer(input.value, kind);
      if (!r.ok) { tell(box, r.message, null); return; }
      if (isRight(kind, key, salt, hash, r.value)) {
        tell(box, "Right: the answer is " + r.value + ".", true);
        box.classList.add("solved");
        markSolved(box.id);
      } else {
        tell(box, "Not quite: " + (kind === "number" ? r.value.toString() : r.value) + " is not the answer. " +
          (box.querySelector(".nim-exercise-hint") ? "A hint is shown below. " : "") + "Try again.", false);
        showHint(box);
        if (answer) answer.hidden = false;
      }
    });
  }

  function setupChoice(box) {
    var form = box.querySelector("form");
    var button = box.querySelector("button[type=submit]");
    if (!form || !button) return;
    var key = (box.getAttribute("data-answer") || "").split(",").filter(function (s) { return s !== ""; });
    var salt = box.getAttribute("data-salt"), hash = box.getAttribute("data-hash");
    var answer = box.querySelector(".nim-exercise-answer");
    if (answer) answer.hidden = true;
    button.hidden = false;
    if (solved(box.id)) box.classList.add("solved");
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var picked = Array.prototype.filter.call(form.querySelectorAll("input[type=checkbox]"), function (c) {
        return c.checked;
      }).map(function (c) { return c.value; });
      if (isRight("choice", key, salt, hash, picked)) {
        tell(box, picked.length === 0 ? "Right: none of the options is correct." :
          "Right: you selected exactly the correct options.", true);
        box.classList.add("solved");
        markSolved(box.id);
      } else if (hash !== null) {
        // Graded: the page cannot tell which options are wrong, only that the set is.
        tell(box, "Not quite: that is not exactly the set of correct options. A hint is shown below. Try again.", false);
        showHint(box);
      } else {
        var missing = key.filter(function (v) { return picked.indexOf(v) < 0; }).length;
        var extra = picked.filter(function (v) { return key.indexOf(v) < 0; }).length;
        var parts = [];
        if (extra) parts.push(extra + " selected option" + (extra === 1 ? " is" : "s are") + " not correct");
        if (missing) parts.push(missing + " correct option" + (missing === 1 ? " is" : "s are") + " not selected");
        tell(box, "Not quite: " + parts.join(", and ") + ". A hint is shown below. Try again.", false);
        showHint(box);
        if (answer) answer.hidden = false;
      }
    });
  }

  // ---- Practice ---------------------------------------------------------------------------
  function randomBelow(n) {
    // n is a BigInt ≥ 1; 32 random bits at a time, then reduced (the bias is below 2^-32).
    var bits = n.toString(2).length + 32, r = 0n;
    for (var i = 0; i < bits; i += 32) {
      var w = 0;
      if (global.crypto && global.crypto.getRandomValues) {
        var a = new Uint32Array(1);
        global.crypto.getRandomValues(a);
        w = a[0];
      } else {
        w = Math.floor(Math.random() * 4294967296);
      }
      r = (r << 32n) | BigInt(w);
    }
    return r % n;
  }

  function bitsOf(x) {
    var out = [];
    for (var i = 0; x >> BigInt(i) > 0n; i++) if ((x >> BigInt(i)) & 1n) out.push(1n << BigInt(i));
    return out.reverse();
  }

  function hintLines(box, lines) {
    var h = box.querySelector(".nim-exercise-hint");
    if (!h) return;
    h.textContent = "";
    h.appendChild(el("p", "nim-hint-title", "Hint"));
    lines.forEach(function (l) { h.appendChild(el("p", "nim-hint-line", l)); });
  }

  var MAX_TERMS = 36;
  function draw(kind, max, box) {
    var p = {};
    if (kind === "nim-sum" || kind === "nim-product") {
      p.a = randomBelow(max); p.b = randomBelow(max);
      var sym = kind === "nim-sum" ? " ⊕ " : " ⊗ ";
      p.text = "Compute " + p.a + sym + p.b + ".";
      if (kind === "nim-sum") {
        p.answer = nimAdd(p.a, p.b);
        var w = Math.max(1, p.answer.toString(2).length, p.a.toString(2).length, p.b.toString(2).length);
        var bin = function (x) { return x.toString(2).padStart(w, "0"); };
        p.hint = [
          "Write both numbers in binary and add each column without carrying:",
          "  " + bin(p.a) + " = " + p.a,
          "⊕ " + bin(p.b) + " = " + p.b,
          "= " + bin(p.answer) + " = " + p.answer
        ];
      } else {
        p.answer = nimMul(p.a, p.b);
        var ba = bitsOf(p.a), bb = bitsOf(p.b);
        if (ba.length === 0 || bb.length === 0) {
          p.hint = ["A product with 0 is 0."];
        } else if (ba.length * bb.length > MAX_TERMS) {
          p.hint = [
            "Split each factor at the largest Fermat 2-power F = 2^(2^k) below it: a = a₁·F ⊕ a₀.",
            "Then a ⊗ b = (a₁b₁ ⊕ a₁b₀ ⊕ a₀b₁)·F ⊕ a₀b₀ ⊕ a₁b₁ ⊗ F/2, because F ⊗ F = F ⊕ F/2."
          ];
        } else {
          var terms = [], values = [];
          ba.forEach(function (x) { bb.forEach(function (y) { terms.push(x + "⊗" + y); values.push(nimMul(x, y)); }); });
          p.hint = [
            "Split both factors into powers of two and distribute:",
            p.a + " ⊗ " + p.b + " = (" + ba.join(" ⊕ ") + ") ⊗ (" + bb.join(" ⊕ ") + ")",
            "= " + terms.join(" ⊕ "),
            "= " + values.join(" ⊕ "),
            "(a product of powers of two: write each as a product of distinct Fermat 2-powers 2, 4, 16, 256, …, and use F ⊗ F = F ⊕ F/2)"
          ];
        }
      }
    } else if (kind === "inverse") {
      p.a = 1n + randomBelow(max - 1n);
      p.text = "Find the nim-inverse of " + p.a + ": the x with " + p.a + " ⊗ x = 1.";
      p.answer = nimInv(p.a);
      var k = level(p.a), size = 1 << k;
      p.hint = [
        p.a + " lies in the field of 2^" + size + " elements, where every non-zero a has a^(2^" + size + " − 1) = 1.",
        "So a⁻¹ = a^(2^" + size + " − 2) = a^2 ⊗ a^4 ⊗ … ⊗ a^(2^" + (size - 1) + "), and you can check your answer x by computing " + p.a + " ⊗ x."
      ];
    } else {
      var table = [];
      try { table = JSON.parse(box.getAttribute("data-grundy") || "[]"); } catch (e) { table = []; }
      var rule = box.getAttribute("data-rule") || "";
      var game = box.getAttribute("data-game") || "the game";
      p.n = 1 + Number(randomBelow(BigInt(Math.max(1, Number(max)))));
      p.text = "What is the Grundy value of a heap of " + p.n + " in " + game + "?";
      p.answer = BigInt(table[p.n] === undefined ? 0 : table[p.n]);
      var opts = heapOptions(rule, p.n);
      var shown = opts.slice(0, 40).map(function (o) {
        var v = o.reduce(function (acc, h) { return acc ^ table[h]; }, 0);
        return (o.length === 0 ? "nothing left" : o.join(" + ")) + " → " + v;
      });
      p.hint = ["The moves from a heap of " + p.n + " (heaps left → their value, the nim-sum of the parts):"]
        .concat(opts.length ? [shown.join("; ") + (opts.length > 40 ? "; …" : "")] : ["no moves"])
        .concat(["The Grundy value is the mex: the least number not among those values."]);
    }
    return p;
  }

  function setupPractice(box) {
    var form = box.querySelector("form");
    var input = box.querySelector("input[type=text]");
    var problem = box.querySelector(".nim-practice-problem");
    var next = box.querySelector(".nim-practice-new");
    if (!form || !input || !problem || !next) return;
    var kind = box.getAttribute("data-practice");
    var max;
    try { max = BigInt(box.getAttribute("data-max") || "16"); } catch (e) { max = 16n; }
    if (max < 2n) max = 2n;
    var current = null, tried = 0, right = 0;
    function fresh() {
      current = draw(kind, max, box);
      problem.textContent = current.text;
      input.value = "";
      var h = box.querySelector(".nim-exercise-hint");
      if (h) { h.hidden = true; h.textContent = ""; }
    }
    form.hidden = false;
    fresh();
    next.addEventListener("click", function () {
      fresh();
      tell(box, "A new problem: " + current.text, null);
      input.focus();
    });
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var r = parseAnswer(input.value, "number");
      if (!r.ok) { tell(box, r.message, null); return; }
      tried++;
      if (r.value === current.answer) {
        right++;
        tell(box, "Right: the answer is " + current.answer + ". (" + right + " right of " + tried + " tries.) Press New problem for another.", true);
      } else {
        tell(box, "Not quite: " + r.value + " is not the answer. A hint is shown below. Try again.", false);
        hintLines(box, current.hint);
        box.querySelector(".nim-exercise-hint").hidden = false;
      }
    });
  }

  function start() {
    Array.prototype.forEach.call(document.querySelectorAll(".nim-exercise[data-kind]"), function (box) {
      try {
        if (box.getAttribute("data-kind") === "choice") setupChoice(box); else setupExercise(box);
      } catch (e) { /* a broken block keeps its static form */ }
    });
    Array.prototype.forEach.call(document.querySelectorAll(".nim-practice[data-practice]"), function (box) {
      try { setupPractice(box); } catch (e) { /* as above */ }
    });
    addReset();
    updateMarks();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})(typeof window !== "undefined" ? window : globalThis);
