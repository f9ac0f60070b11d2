// nimbook's play widget: turns each `.nim-widget` block (written by `play(...)`) into a game
// against the computer. No libraries, no network: it works from file://.
//
// The page carries the game in data- attributes. For Kayles the Grundy values of rows of
// 0 … n pins, and for Wythoff's game the values of every square of the board, were computed by
// nimbook's engine when the site was built (data-grundy); the computer and the hint button only
// take nim-sums of those values, or look for a square of value 0.
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


  // ---- Wythoff's game -------------------------------------------------------------------
  // A queen on a board of columns 0 … a and rows 0 … b moves left, down or diagonally
  // down-left; whoever puts it in the corner (0, 0) wins. The position is [column, row], and
  // values[column][row] is the engine's Grundy value of that square. The board is a grid
  // (role="grid") with one Tab stop: the arrow keys move among its squares, Home and End to
  // the ends of a row, and Enter or Space moves the queen to the square, when she can reach it.
  function makeWythoff(values) {
    function v(x, y) { return values[x] && values[x][y] !== undefined ? values[x][y] : NaN; }
    function reach(q, x, y) {
      var dx = q[0] - x, dy = q[1] - y;
      return dx >= 0 && dy >= 0 && dx + dy > 0 && (dx === 0 || dy === 0 || dx === dy);
    }
    function moves(q) {
      var out = [];
      for (var k = 1; k <= q[0]; k++) out.push([q[0] - k, q[1]]);
      for (k = 1; k <= q[1]; k++) out.push([q[0], q[1] - k]);
      for (k = 1; k <= Math.min(q[0], q[1]); k++) out.push([q[0] - k, q[1] - k]);
      return out;
    }
    function square(x, y) { return "column " + x + ", row " + y; }
    return {
      help: "Click a square the queen can reach (any distance left, down, or diagonally down and left), or Tab to the board, choose a square with the arrow keys and press Enter. The corner, column 0, row 0, is the last square.",
      start: function (root) { return parse(root.getAttribute("data-queen"), [0, 0]).map(Number); },
      over: function (q) { return q[0] === 0 && q[1] === 0; },
      winning: function (q) {
        if (v(q[0], q[1]) === 0) return null;
        var ms = moves(q);
        for (var i = 0; i < ms.length; i++) if (v(ms[i][0], ms[i][1]) === 0) return ms[i];
        return null;
      },
      // One square towards the corner along the longer side.
      anyMove: function (q) { return q[0] >= q[1] ? [q[0] - 1, q[1]] : [q[0], q[1] - 1]; },
      apply: function (q, m) { return m.slice(); },
      describe: function (q, m) {
        var dx = q[0] - m[0], dy = q[1] - m[1], k = Math.max(dx, dy);
        var way = dx && dy ? "diagonally down-left" : dx ? "left" : "down";
        return "move the queen " + k + " square" + (k === 1 ? "" : "s") + " " + way + ", to " + square(m[0], m[1]);
      },
      render: function (board, q, hint, play) {
        var cols = values.length, rows = cols ? values[0].length : 0;
        var grid = el("table", "nw-queen-board");
        grid.setAttribute("role", "grid");
        grid.setAttribute("aria-label", "Board of " + cols + " columns and " + rows + " rows, the queen at " + square(q[0], q[1]) +
          ". Arrow keys move between squares; Enter moves the queen.");
        grid.style.setProperty("--cols", String(cols + 1));
        var cells = {}, rover = null;
        function key(x, y) { return x + "," + y; }
        function rove(c) {
          if (rover) rover.tabIndex = -1;
          rover = c;
          c.tabIndex = 0;
        }
        for (var y = rows - 1; y >= 0; y--) {
          var tr = el("tr");
          var head = el("th", "nw-axis", String(y));
          head.setAttribute("scope", "row");
          head.setAttribute("aria-label", "row " + y);
          tr.appendChild(head);
          for (var x = 0; x < cols; x++) {
            (function (x, y) {
              var td = el("td", "nw-square");
              td.setAttribute("role", "gridcell");
              td.setAttribute("data-key", key(x, y));
              td.tabIndex = -1;
              var sq = el("span", "nw-sq");
              td.appendChild(sq);
              var here = x === q[0] && y === q[1];
              if (here) {
                td.classList.add("queen");
                td.setAttribute("aria-label", "The queen, at " + square(x, y));
                td.setAttribute("aria-disabled", "true");
                // The HTML parser puts <svg> in the SVG namespace by itself.
                sq.innerHTML = '<svg class="nw-crown" viewBox="-10 -10 20 20" aria-hidden="true">' +
                  '<path d="M-7 4L-8.5 -5L-3.5 -0.5L0 -8L3.5 -0.5L8.5 -5L7 4Z"/><rect x="-7" y="5" width="14" height="3"/></svg>';
              } else if (reach(q, x, y)) {
                td.classList.add("reach");
                td.setAttribute("data-move", "");
                td.setAttribute("aria-label", "Move queen to " + square(x, y));
                td.title = "Move the queen to " + square(x, y);
                if (hint && hint[0] === x && hint[1] === y) td.classList.add("hint");
                td.addEventListener("click", function () { play([x, y]); });
              } else {
                td.setAttribute("aria-label", square(x, y) + ", out of the queen's reach");
                td.setAttribute("aria-disabled", "true");
              }
              cells[key(x, y)] = td;
              tr.appendChild(td);
            })(x, y);
          }
          grid.appendChild(tr);
        }
        var foot = el("tr");
        var corner = el("td", "nw-axis");
        corner.setAttribute("aria-hidden", "true");
        foot.appendChild(corner);
        for (var c = 0; c < cols; c++) {
          var h = el("th", "nw-axis", String(c));
          h.setAttribute("scope", "col");
          h.setAttribute("aria-label", "column " + c);
          foot.appendChild(h);
        }
        grid.appendChild(foot);
        // The Tab stop: the hinted square, else the square next to the queen on her left (or
        // below), else the queen herself.
        var first = (hint && cells[key(hint[0], hint[1])]) || cells[key(q[0] - 1, q[1])] ||
          cells[key(q[0], q[1] - 1)] || cells[key(q[0], q[1])];
        if (first) rove(first);
        grid.addEventListener("focusin", function (e) {
          if (e.target.getAttribute && e.target.getAttribute("role") === "gridcell") rove(e.target);
        });
        grid.addEventListener("keydown", function (e) {
          var at = e.target.getAttribute && e.target.getAttribute("data-key");
          if (!at) return;
          var p = at.split(",").map(Number), nx = p[0], ny = p[1];
          if (e.key === "ArrowLeft") nx--;
          else if (e.key === "ArrowRight") nx++;
          else if (e.key === "ArrowUp") ny++;
          else if (e.key === "ArrowDown") ny--;
          else if (e.key === "Home") nx = 0;
          else if (e.key === "End") nx = cols - 1;
          else if (e.key === "Enter" || e.key === " ") {
            e.preventDefault();
            if (e.target.hasAttribute("data-move")) play([p[0], p[1]]);
            return;
          } else return;
          e.preventDefault();
          var next = cells[key(nx, ny)];
          if (next) { rove(next); next.focus(); }
        });
        board.appendChild(grid);
        return function (m) {
          var c = cells[key(m[0], m[1])];
          if (c) rove(c);
          return key(m[0], m[1]);
        };
      },
      // After a redraw: the hinted square, else the reachable square nearest to where the
      // keyboard was, else the grid's Tab stop.
      focus: function (board, focusKey) {
        var hinted = board.querySelector(".nw-square.hint");
        if (hinted) return hinted;
        var p = focusKey ? String(focusKey).split(",").map(Number) : null;
        var best = null, dist = Infinity;
        Array.prototype.forEach.call(board.querySelectorAll(".nw-square.reach"), function (c) {
          var k = c.getAttribute("data-key").split(",").map(Number);
          var d = p ? Math.abs(k[0] - p[0]) + Math.abs(k[1] - p[1]) : 0;
          if (d < dist) { dist = d; best = c; }
        });
        return best || board.querySelector(".nw-square[tabindex='0']");
      }
    };
  }

  // ---- The widget -----------------------------------------------------------------------
  function setup(root) {
    var kind = root.getAttribute("data-game");
    var rules = kind === "nim" ? nimRules
      : kind === "kayles" ? makeKayles(parse(root.getAttribute("data-grundy"), []).map(Number))
      : kind === "wythoff" ? makeWythoff(parse(root.getAttribute("data-grundy"), []).map(function (c) {
        return Array.isArray(c) ? c.map(Number) : [];
      }))
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
      var focusKey = hadFocus && active.hasAttribute("data-key") ? active.getAttribute("data-key") : null;
      board.textContent = "";
      setHint = rules.render(board, state, hint, studentMove);
      var sliders = board.querySelectorAll("[role=slider]");
      Array.prototype.forEach.call(board.querySelectorAll("[role=slider], [data-move]"), function (s) {
        if (turn !== "you") s.setAttribute("aria-disabled", "true");
      });
      hintButton.disabled = turn !== "you";
      status.textContent = message;
      root.setAttribute("data-turn", turn);
      if (hadFocus && rules.focus) {
        (rules.focus(board, focusKey) || board).focus();
      } else if (hadFocus) {
        // The same heap or pin, else the nearest one left (the one before it on a tie); the
        // board itself when no move is left.
        var target = board, best = Infinity, from = Number(focusKey);
        Array.prototype.forEach.call(sliders, function (s) {
          var k = Number(s.getAttribute("data-key"));
          var d = focusKey === null ? 0 : Math.abs(k - from) + (k > from ? 0.5 : 0);
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
        draw("Winning move: " + rules.describe(state, m) + " (highlighted, and " + (rules.focus ? "the board's Tab stop" : "chosen on its heap or pin") + ": Enter there plays it). It leaves a P-position.");
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
