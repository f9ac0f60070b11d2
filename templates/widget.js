// nimbook's play widget: turns each `.nim-widget` block (written by `play(...)`) into a game
// against the computer. No libraries, no network: it works from file://.
//
// The page carries the game in data- attributes. For Kayles the Grundy values of rows of
// 0 … n pins were computed by nimbook's engine when the site was built (data-grundy); the
// computer and the hint button only take nim-sums of those values.
(function () {
  "use strict";

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function parse(json, fallback) {
    try {
      var v = JSON.parse(json);
      return Array.isArray(v) ? v : fallback;
    } catch (e) {
      return fallback;
    }
  }

  // ---- Nim ------------------------------------------------------------------------------
  var nimRules = {
    help: "Click a counter to take it and every counter above it.",
    start: function (root) {
      return parse(root.getAttribute("data-heaps"), []).map(Number);
    },
    over: function (heaps) {
      return heaps.every(function (h) { return h === 0; });
    },
    // A winning move {heap, to}, or null in a P-position.
    winning: function (heaps) {
      var s = heaps.reduce(function (a, h) { return a ^ h; }, 0);
      if (s === 0) return null;
      for (var i = 0; i < heaps.length; i++) {
        if ((heaps[i] ^ s) < heaps[i]) return { heap: i, to: heaps[i] ^ s };
      }
      return null;
    },
    // Any legal move (for the computer in a P-position): one counter from the largest heap.
    anyMove: function (heaps) {
      var best = 0;
      for (var i = 1; i < heaps.length; i++) if (heaps[i] > heaps[best]) best = i;
      return { heap: best, to: heaps[best] - 1 };
    },
    apply: function (heaps, m) {
      var next = heaps.slice();
      next[m.heap] = m.to;
      return next;
    },
    describe: function (heaps, m) {
      var k = heaps[m.heap] - m.to;
      return "take " + k + " counter" + (k === 1 ? "" : "s") + " from heap " + (m.heap + 1);
    },
    render: function (board, heaps, hint, play) {
      var wrap = el("div", "nw-heaps");
      heaps.forEach(function (h, i) {
        var col = el("div", "nw-heap");
        var stack = el("div", "nw-stack");
        for (var k = h - 1; k >= 0; k--) {
          (function (k) {
            var b = el("button", "nw-counter");
            b.type = "button";
            var take = h - k;
            b.title = "Take " + take + " from heap " + (i + 1);
            b.setAttribute("aria-label", b.title);
            b.setAttribute("data-heap", String(i));
            b.setAttribute("data-index", String(k));
            if (hint && hint.heap === i && k >= hint.to) b.classList.add("hint");
            b.addEventListener("click", function () { play({ heap: i, to: k }); });
            b.addEventListener("mouseenter", function () { mark(stack, k, true); });
            b.addEventListener("mouseleave", function () { mark(stack, k, false); });
            stack.appendChild(b);
          })(k);
        }
        col.appendChild(stack);
        col.appendChild(el("div", "nw-size", String(h)));
        wrap.appendChild(col);
      });
      board.appendChild(wrap);
    }
  };

  function mark(stack, k, on) {
    Array.prototype.forEach.call(stack.children, function (c) {
      if (Number(c.getAttribute("data-index")) >= k) c.classList.toggle("take", on);
    });
  }

  // ---- Kayles ---------------------------------------------------------------------------
  // A position is an array of booleans (pin standing). A move knocks down pin i, or pins i and
  // i + 1 when both stand.
  function segments(pins) {
    var out = [], start = -1;
    for (var i = 0; i <= pins.length; i++) {
      if (i < pins.length && pins[i]) {
        if (start < 0) start = i;
      } else if (start >= 0) {
        out.push([start, i - start]);
        start = -1;
      }
    }
    return out;
  }

  function makeKayles(grundy) {
    function g(n) { return n < grundy.length ? grundy[n] : NaN; }
    function value(pins) {
      return segments(pins).reduce(function (a, s) { return a ^ g(s[1]); }, 0);
    }
    function moves(pins) {
      var out = [];
      for (var i = 0; i < pins.length; i++) {
        if (!pins[i]) continue;
        out.push({ at: i, count: 1 });
        if (i + 1 < pins.length && pins[i + 1]) out.push({ at: i, count: 2 });
      }
      return out;
    }
    return {
      help: "Click a pin to knock it down, or the small bar between two standing pins to knock down both.",
      start: function (root) {
        var n = Number(root.getAttribute("data-pins")) || 0;
        var p = [];
        for (var i = 0; i < n; i++) p.push(true);
        return p;
      },
      over: function (pins) { return pins.every(function (x) { return !x; }); },
      winning: function (pins) {
        if (value(pins) === 0) return null;
        var ms = moves(pins);
        for (var i = 0; i < ms.length; i++) {
          if (value(this.apply(pins, ms[i])) === 0) return ms[i];
        }
        return null;
      },
      anyMove: function (pins) {
        var segs = segments(pins), best = segs[0];
        segs.forEach(function (s) { if (s[1] > best[1]) best = s; });
        return { at: best[0] + best[1] - 1, count: 1 };
      },
      apply: function (pins, m) {
        var next = pins.slice();
        for (var k = 0; k < m.count; k++) next[m.at + k] = false;
        return next;
      },
      describe: function (pins, m) {
        return m.count === 1 ? "knock down pin " + (m.at + 1)
          : "knock down pins " + (m.at + 1) + " and " + (m.at + 2);
      },
      render: function (board, pins, hint, play) {
        var row = el("div", "nw-pins");
        pins.forEach(function (up, i) {
          var b = el("button", "nw-pin" + (up ? "" : " down"));
          b.type = "button";
          b.disabled = !up;
          b.title = up ? "Knock down pin " + (i + 1) : "Pin " + (i + 1) + " is down";
          b.setAttribute("aria-label", b.title);
          if (hint && i >= hint.at && i < hint.at + hint.count) b.classList.add("hint");
          b.addEventListener("click", function () { play({ at: i, count: 1 }); });
          row.appendChild(b);
          if (i + 1 < pins.length) {
            var pair = el("button", "nw-pair");
            pair.type = "button";
            var both = up && pins[i + 1];
            pair.disabled = !both;
            pair.title = both ? "Knock down pins " + (i + 1) + " and " + (i + 2) : "";
            pair.setAttribute("aria-label", both ? pair.title : "no move here");
            pair.addEventListener("click", function () { play({ at: i, count: 2 }); });
            pair.addEventListener("mouseenter", function () {
              if (!pair.disabled) { b.classList.add("take"); if (b.nextSibling && b.nextSibling.nextSibling) b.nextSibling.nextSibling.classList.add("take"); }
            });
            pair.addEventListener("mouseleave", function () {
              b.classList.remove("take");
              if (b.nextSibling && b.nextSibling.nextSibling) b.nextSibling.nextSibling.classList.remove("take");
            });
            row.appendChild(pair);
          }
        });
        board.appendChild(row);
      }
    };
  }

  // ---- The widget -----------------------------------------------------------------------
  function setup(root) {
    var kind = root.getAttribute("data-game");
    var rules = kind === "nim" ? nimRules
      : kind === "kayles" ? makeKayles(parse(root.getAttribute("data-grundy"), []).map(Number))
      : null;
    if (!rules) return;
    var board = root.querySelector(".nim-widget-board");
    var status = root.querySelector(".nim-widget-status");
    var controls = root.querySelector(".nim-widget-controls");
    if (!board || !status || !controls) return;
    var state, turn, hint, busy, timer;

    var hintButton = el("button", "nw-button", "Show me the winning move");
    hintButton.type = "button";
    var newButton = el("button", "nw-button", "New game");
    newButton.type = "button";
    controls.textContent = "";
    controls.appendChild(hintButton);
    controls.appendChild(newButton);

    function draw(message) {
      board.textContent = "";
      rules.render(board, state, hint, studentMove);
      var buttons = board.querySelectorAll("button");
      Array.prototype.forEach.call(buttons, function (b) {
        if (turn !== "you") b.disabled = true;
      });
      hintButton.disabled = turn !== "you";
      status.textContent = message;
      root.setAttribute("data-turn", turn);
    }

    function reset() {
      if (timer) clearTimeout(timer);
      state = rules.start(root);
      turn = "you";
      hint = null;
      busy = false;
      draw("Your turn: you move first. " + rules.help + " Whoever makes the last move wins.");
    }

    function studentMove(m) {
      if (turn !== "you" || busy) return;
      var said = rules.describe(state, m);
      state = rules.apply(state, m);
      hint = null;
      if (rules.over(state)) {
        turn = "over";
        draw("You chose to " + said + ", the last move. You win!");
        return;
      }
      turn = "computer";
      busy = true;
      draw("You chose to " + said + ". The computer is thinking…");
      timer = setTimeout(computerMove, 500);
    }

    function computerMove() {
      busy = false;
      var m = rules.winning(state) || rules.anyMove(state);
      var said = rules.describe(state, m);
      state = rules.apply(state, m);
      if (rules.over(state)) {
        turn = "over";
        draw("The computer chose to " + said + ", the last move. The computer wins. Press New game to try again.");
        return;
      }
      turn = "you";
      draw("The computer chose to " + said + ". Your turn.");
    }

    hintButton.addEventListener("click", function () {
      if (turn !== "you") return;
      var m = rules.winning(state);
      if (m) {
        hint = m;
        draw("Winning move: " + rules.describe(state, m) + " (highlighted). It leaves a P-position.");
      } else {
        hint = null;
        draw("This is a P-position: every move loses against perfect play. Move anyway and hope the computer slips (it won't).");
      }
    });
    newButton.addEventListener("click", reset);
    root.classList.add("ready");
    reset();
  }

  function init() {
    Array.prototype.forEach.call(document.querySelectorAll(".nim-widget"), setup);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
