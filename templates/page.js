// nimbook's page script: the sidebar toggle, the theme choice, and keyboard access to boxes that
// scroll sideways. No libraries, no network: it works from file://, and in a handout (which has
// no sidebar and no theme choice) only the scroll boxes apply.
(function () {
  "use strict";
  var html = document.documentElement;
  var THEME_KEY = "nimbook-theme";

  function stored() {
    try {
      return localStorage.getItem(THEME_KEY);
    } catch (e) {
      return null;
    }
  }

  // ---- Theme: light, dark, or follow the system ----------------------------------------
  // The script in <head> has already applied a stored choice before the first paint.
  function setupTheme() {
    var select = document.getElementById("theme");
    if (!select) return;
    var choice = stored();
    select.value = choice === "light" || choice === "dark" ? choice : "system";
    select.addEventListener("change", function () {
      var v = select.value;
      if (v === "light" || v === "dark") html.setAttribute("data-theme", v);
      else html.removeAttribute("data-theme");
      try {
        localStorage.setItem(THEME_KEY, v);
      } catch (e) {
        // Storage refused (private mode): the choice holds for this page only.
      }
    });
    select.parentNode.hidden = false;
  }

  // ---- The sidebar toggle ----------------------------------------------------------------
  // Open by default on wide screens and closed on narrow ones (style.css); a press of the button
  // flips what the reader sees, and aria-expanded always says what is on screen.
  function setupSidebar() {
    var button = document.getElementById("nav-button");
    var sidebar = document.getElementById("sidebar");
    if (!button || !sidebar) return;
    function isOpen() {
      return getComputedStyle(sidebar).display !== "none";
    }
    function sync() {
      var open = isOpen();
      button.setAttribute("aria-expanded", open ? "true" : "false");
      button.title = open ? "Hide the table of contents" : "Show the table of contents";
    }
    button.addEventListener("click", function () {
      html.setAttribute("data-nav", isOpen() ? "closed" : "open");
      sync();
    });
    // On a narrow screen the open sidebar covers the page: Escape closes it.
    document.addEventListener("keydown", function (e) {
      var covers = window.matchMedia && window.matchMedia("(max-width: 60rem)").matches;
      if (e.key === "Escape" && covers && isOpen()) {
        html.setAttribute("data-nav", "closed");
        sync();
        button.focus();
      }
    });
    if (window.matchMedia) {
      var narrow = window.matchMedia("(max-width: 60rem)");
      var onChange = function () {
        // A choice made at one width means nothing at the other.
        html.removeAttribute("data-nav");
        sync();
      };
      if (narrow.addEventListener) narrow.addEventListener("change", onChange);
      else if (narrow.addListener) narrow.addListener(onChange);
    }
    button.hidden = false;
    sync();
  }

  // ---- Scroll boxes --------------------------------------------------------------------
  // Code, formulas and tables scroll inside their own boxes instead of widening the page. A box
  // that actually overflows must be reachable by keyboard (WCAG 2.1.1), so it becomes a Tab stop;
  // one that fits is left alone, so that it adds no stop.
  var SCROLLERS = "pre, math, .formula-scroll, .table-wrap, .nim-table-wrap, .nim-figure-scroll";
  var LABELS = { PRE: "Code", DIV: "Table", SPAN: "Formula" };

  // A formula in running text cannot wrap: one wider than its line goes into a box of its own
  // that scrolls (class formula-scroll). The box is a <span> around the <math>, because a <math>
  // that is itself an inline-block loses its MathML layout in Chromium and falls apart into a
  // column of tokens, one per line. Only the wide ones, because a scrolling box sits on the line
  // differently; a formula that fits again (a wider window) leaves its box.
  function fitWideFormulas() {
    var formulas = Array.prototype.slice.call(document.querySelectorAll("math:not([display=block])"));
    // Measured all at once (one layout, not one per formula). The box does not narrow the
    // formula inside it, so a boxed formula measures at its natural width too.
    var wide = formulas.map(function (m) {
      // The line's width is the nearest block's: an inline parent has no width of its own.
      var block = m.parentElement;
      while (block && getComputedStyle(block).display.indexOf("inline") === 0) block = block.parentElement;
      var width = Math.max(m.getBoundingClientRect().width, m.scrollWidth);
      return !!block && width > block.clientWidth + 1;
    });
    formulas.forEach(function (m, i) {
      var box = m.parentElement;
      var boxed = box && box.classList.contains("formula-scroll");
      if (wide[i] && !boxed) {
        box = document.createElement("span");
        box.className = "formula-scroll";
        m.parentNode.insertBefore(box, m);
        box.appendChild(m);
      } else if (!wide[i] && boxed) {
        box.parentNode.insertBefore(m, box);
        box.parentNode.removeChild(box);
      }
    });
  }

  function markScrollBoxes() {
    fitWideFormulas();
    var boxes = document.querySelectorAll(SCROLLERS);
    Array.prototype.forEach.call(boxes, function (box) {
      var style = getComputedStyle(box);
      var scrolls = (style.overflowX === "auto" || style.overflowX === "scroll") &&
        box.scrollWidth > box.clientWidth + 1;
      var marked = box.hasAttribute("data-scroll-box");
      if (scrolls && !marked) {
        box.setAttribute("data-scroll-box", "");
        if (!box.hasAttribute("tabindex")) {
          box.setAttribute("tabindex", "0");
          box.setAttribute("data-scroll-tabindex", "");
        }
        // A formula is named by its own content; a code or table box gets a name of its kind.
        if (box.namespaceURI !== "http://www.w3.org/1998/Math/MathML" && !box.hasAttribute("aria-label")) {
          var figure = box.classList.contains("nim-figure-scroll");
          box.setAttribute("role", "group");
          box.setAttribute("aria-label", (figure ? "Figure" : LABELS[box.tagName] || "Box") + ", scrolls sideways");
          box.setAttribute("data-scroll-label", "");
        }
      } else if (!scrolls && marked) {
        box.removeAttribute("data-scroll-box");
        if (box.hasAttribute("data-scroll-tabindex")) {
          box.removeAttribute("tabindex");
          box.removeAttribute("data-scroll-tabindex");
        }
        if (box.hasAttribute("data-scroll-label")) {
          box.removeAttribute("role");
          box.removeAttribute("aria-label");
          box.removeAttribute("data-scroll-label");
        }
      }
    });
  }

  var pending = 0;
  function markSoon() {
    if (pending) return;
    pending = window.requestAnimationFrame(function () {
      pending = 0;
      markScrollBoxes();
    });
  }

  // ---- Hidden lines of code (mdBook's `# ` lines): a button shows or hides them ----------
  function setupHiddenLines() {
    var blocks = document.querySelectorAll("pre");
    Array.prototype.forEach.call(blocks, function (pre) {
      if (!pre.querySelector(".boring")) return;
      var button = document.createElement("button");
      button.type = "button";
      button.className = "reveal-lines";
      button.textContent = "Show hidden lines";
      button.addEventListener("click", function () {
        var shown = pre.classList.toggle("show-boring");
        button.textContent = shown ? "Hide hidden lines" : "Show hidden lines";
      });
      pre.parentNode.insertBefore(button, pre);
    });
  }

  function init() {
    setupHiddenLines();
    setupTheme();
    setupSidebar();
    markScrollBoxes();
    window.addEventListener("resize", markSoon);
    // The math font changes the width of every formula once it has loaded.
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(markSoon);
    window.addEventListener("load", markSoon);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
