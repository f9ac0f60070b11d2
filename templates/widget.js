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

  // ---- Keyboard ----------------------------------------------------------------------
  // Every place a move can start (a heap, a standing pin) is a slider: Tab reaches it, the arrow
  // keys (and Home/End) choose how much the move takes, shown on the board as a preview, and
  // Enter or Space plays it. The board is drawn anew after each move, so the widget puts focus
  // back on the same heap or pin (or the nearest one left).
  function slider(node, key, max, value, describe, preview, play) {
    node.setAttribute("role", "slider");
    node.tabIndex = 0;
    node.setAttribute("data-key", String(key));
    node.setAttribute("aria-valuemin", "1");
    node.setAttribute("aria-valuemax", String(max));
    // The preview shows only while the keyboard is on this heap or pin.
    function set(v) {
      v = Math.max(1, Math.min(max, v));
      node.setAttribute("aria-valuenow", String(v));
      node.setAttribute("aria-valuetext", describe(v));
      if (document.activeElement === node) preview(v);
    }
    set(value);
    node.addEventListener("keydown", function (e) {
      var v = Number(node.getAttribute("aria-valuenow"));
      var next = e.key === "ArrowUp" || e.key === "ArrowRight" ? v + 1
        : e.key === "ArrowDown" || e.key === "ArrowLeft" ? v - 1
        : e.key === "Home" ? 1
        : e.key === "End" ? max
        : null;
      if (next !== null) {
        set(next);
        e.preventDefault();
      } else if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        play(v);
      }
    });
    node.addEventListener("focus", function () { preview(Number(node.getAttribute("aria-valuenow"))); });
    node.addEventListener("blur", function () { preview(0); });
    return set;
  }

  // ---- Nim ------------------------------------------------------------------------------
  var nimRules = {
    help: "Click a counter to take it and every counter above it, or Tab to a heap, choose how many to take with the arrow keys and press Enter.",
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
    // Draws the heaps; returns a function that sets the slider of a hinted move.
    render: function (board, heaps, hint, play) {
      var wrap = el("div", "nw-heaps");
      wrap.setAttribute("role", "group");
      wrap.setAttribute("aria-label", "Heaps");
      var setters = {};
      heaps.forEach(function (h, i) {
        var col = el("div", "nw-heap");
        var stack = el("div", "nw-stack");
        var counters = [];
        for (var k = h - 1; k >= 0; k--) {
          (function (k) {
            var c = el("span", "nw-counter");
            c.title = "Take " + (h - k) + " from heap " + (i + 1);
            if (hint && hint.heap === i && k >= hint.to) c.classList.add("hint");
            c.addEventListener("click", function () { play({ heap: i, to: k }); });
            c.addEventListener("mouseenter", function () { mark(h - k); });
            c.addEventListener("mouseleave", function () { mark(0); });
            counters.push(c);
            stack.appendChild(c);
          })(k);
        }
        // counters[0] is the top counter; a move that takes `take` marks the top `take` of them.
        function mark(take) {
          counters.forEach(function (c, j) { c.classList.toggle("take", j < take); });
        }
        if (h > 0) {
          stack.setAttribute("aria-label", "Heap " + (i + 1) + " of " + h);
          setters[i] = slider(stack, i, h, 1, function (take) {
            return "take " + take + " of " + h + " counter" + (h === 1 ? "" : "s");
          }, mark, function (take) { play({ heap: i, to: h - take }); });
        }
        col.appendChild(stack);
        var size = el("div", "nw-size", String(h));
        size.setAttribute("aria-hidden", "true");
        col.appendChild(size);
        wrap.appendChild(col);
      });
      board.appendChild(wrap);
      return function (m) {
        if (setters[m.heap]) setters[m.heap](heaps[m.heap] - m.to);
        return m.heap;
      };
    }
  };

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
    function describe(m) {
      return m.count === 1 ? "knock down pin " + (m.at + 1)
        : "knock down pins " + (m.at + 1) + " and " + (m.at + 2);
    }
    return {
      help: "Click a pin to knock it down, or the small bar between two standing pins to knock down both; or Tab to a pin, choose one pin or two with the arrow keys and press Enter.",
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
      describe: function (pins, m) { return describe(m); },
      render: function (board, pins, hint, play) {
        var row = el("div", "nw-pins");
        row.setAttribute("role", "group");
        row.setAttribute("aria-label", "Pins");
        var nodes = [];
        var setters = {};
        function mark(at, count) {
          nodes.forEach(function (n, j) { n.classList.toggle("take", j >= at && j < at + count); });
        }
        pins.forEach(function (up, i) {
          var b = el("span", "nw-pin" + (up ? "" : " down"));
          nodes.push(b);
          if (hint && i >= hint.at && i < hint.at + hint.count) b.classList.add("hint");
          if (up) {
            var both = i + 1 < pins.length && pins[i + 1];
            b.title = "Knock down pin " + (i + 1);
            b.setAttribute("aria-label", "Pin " + (i + 1));
            b.addEventListener("click", function () { play({ at: i, count: 1 }); });
            setters[i] = slider(b, i, both ? 2 : 1, 1, function (count) {
              return describe({ at: i, count: count });
            }, function (count) { mark(i, count); }, function (count) { play({ at: i, count: count }); });
          } else {
            b.setAttribute("role", "img");
            b.setAttribute("aria-label", "Pin " + (i + 1) + " is down");
          }
          row.appendChild(b);
          if (i + 1 < pins.length) {
            // The bar between two pins is for the mouse; the keyboard takes two pins with the
            // left pin's slider.
            var pair = el("span", "nw-pair");
            pair.setAttribute("aria-hidden", "true");
            if (up && pins[i + 1]) {
              pair.classList.add("open");
              pair.title = "Knock down pins " + (i + 1) + " and " + (i + 2);
              pair.addEventListener("click", function () { play({ at: i, count: 2 }); });
              pair.addEventListener("mouseenter", function () { mark(i, 2); });
              pair.addEventListener("mouseleave", function () { mark(0, 0); });
            }
            row.appendChild(pair);
          }
        });
        board.appendChild(row);
        return function (m) {
          if (setters[m.at]) setters[m.at](m.count);
          return m.at;
        };
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

    board.tabIndex = -1;
    var setHint = null;

    function draw(message) {
      // Where the keyboard was on the board, to put it back after the board is drawn anew.
      var active = document.activeElement;
      var hadFocus = board.contains(active);
      var focusKey = hadFocus && active.hasAttribute("data-key") ? Number(active.getAttribute("data-key")) : null;
      board.textContent = "";
      setHint = rules.render(board, state, hint, studentMove);
      var sliders = board.querySelectorAll("[role=slider]");
      Array.prototype.forEach.call(sliders, function (s) {
        if (turn !== "you") s.setAttribute("aria-disabled", "true");
      });
      hintButton.disabled = turn !== "you";
      status.textContent = message;
      root.setAttribute("data-turn", turn);
      if (hadFocus) {
        // The same heap or pin, else the nearest one left (the one before it on a tie); the
        // board itself when no move is left.
        var target = board, best = Infinity;
        Array.prototype.forEach.call(sliders, function (s) {
          var k = Number(s.getAttribute("data-key"));
          var d = focusKey === null ? 0 : Math.abs(k - focusKey) + (k > focusKey ? 0.5 : 0);
          if (d < best) { best = d; target = s; }
        });
        target.focus();
      }
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
        draw("Winning move: " + rules.describe(state, m) + " (highlighted, and chosen on its heap or pin: Enter there plays it). It leaves a P-position.");
        if (setHint) setHint(m);
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
