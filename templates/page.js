// nimbook's page script: the sidebar toggle, the theme choice, keyboard access to boxes that
// scroll sideways, and the buttons of code blocks. No libraries, and no network unless the
// reader runs a Rust example: it works from file://, and in a handout (which has no sidebar and
// no theme choice) only the scroll boxes and hidden lines apply.
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
  // The script in <head> has already applied a stored choice before the first paint. Following
  // the system means the book's theme for a light or a dark system: by default light and dark,
  // unless book.toml chose others (data-theme-light and data-theme-dark on <html>).
  var darkSystem = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  function followSystem() {
    var light = html.getAttribute("data-theme-light");
    var dark = html.getAttribute("data-theme-dark");
    if (!light && !dark) html.removeAttribute("data-theme");
    else html.setAttribute("data-theme", darkSystem && darkSystem.matches ? dark : light);
  }

  function setupTheme() {
    var select = document.getElementById("theme");
    if (!select) return;
    var choice = stored();
    select.value = choice === "light" || choice === "dark" ? choice : "system";
    if (darkSystem && html.hasAttribute("data-theme-light")) {
      var onSystem = function () { if (select.value === "system") followSystem(); };
      if (darkSystem.addEventListener) darkSystem.addEventListener("change", onSystem);
      else if (darkSystem.addListener) darkSystem.addListener(onSystem);
    }
    select.addEventListener("change", function () {
      var v = select.value;
      if (v === "light" || v === "dark") html.setAttribute("data-theme", v);
      else followSystem();
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

  // ---- Code blocks: copy, hidden lines, and Rust run on the playground ------------------
  // Each code block gets a row of buttons above it, all reachable by Tab and named by their
  // text: Run (a Rust playground block, not `no_run`), Copy (the whole code, hidden lines
  // included, so that what is pasted compiles), Show hidden lines (mdBook's `# ` lines) and, for
  // a block the reader may edit, Undo changes. Nothing goes to the network until Run is pressed,
  // so a page works offline; the answer is shown under the block and read out. In a handout
  // only the hidden lines can be shown.
  var PLAYGROUND = "https://play.rust-lang.org/evaluate.json";
  var codeMeta = document.querySelector('meta[name="nimbook-code"]');
  var codeFlags = (codeMeta && codeMeta.getAttribute("content") || "").split(" ");

  function toolButton(bar, label, cls, onPress) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = cls;
    button.textContent = label;
    button.addEventListener("click", function () { onPress(button); });
    bar.appendChild(button);
    return button;
  }

  function copyText(text, done) {
    function fallback() {
      var area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.style.position = "fixed";
      area.style.opacity = "0";
      document.body.appendChild(area);
      area.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      document.body.removeChild(area);
      done(ok);
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () { done(true); }, fallback);
    } else {
      fallback();
    }
  }

  // The playground's answer for the code of `code` (its edition from the class editionYYYY).
  function run(code, result) {
    var text = code.textContent;
    var edition = "2015";
    code.classList.forEach(function (c) { if (/^edition\d{4}$/.test(c)) edition = c.slice(7); });
    var body = JSON.stringify({
      version: text.indexOf("#![feature") >= 0 ? "nightly" : "stable",
      optimize: "0", code: text, edition: edition,
    });
    result.hidden = false;
    result.firstChild.textContent = "Running…";
    var timeout = new Promise(function (_, reject) {
      setTimeout(function () { reject(new Error("no answer within 15 seconds")); }, 15000);
    });
    var ask = fetch(PLAYGROUND, {
      method: "POST", mode: "cors", headers: { "Content-Type": "application/json" }, body: body,
    }).then(function (r) { return r.json(); });
    Promise.race([ask, timeout]).then(function (answer) {
      var out = (answer.result || "") + (answer.error ? "\n" + answer.error : "");
      result.firstChild.textContent = out.trim() === "" ? "No output" : out;
    }, function (e) {
      result.firstChild.textContent = "The Rust playground could not be reached: " + e.message;
    });
  }

  function setupCodeBlock(pre, handout) {
    var code = pre.querySelector("code");
    var hidden = !!pre.querySelector(".boring");
    if (handout && !hidden) return;
    var bar = document.createElement("div");
    bar.className = "code-tools";
    bar.setAttribute("role", "group");
    bar.setAttribute("aria-label", "Code block");
    if (!handout && pre.classList.contains("playground") && !code.classList.contains("no_run")) {
      var result = document.createElement("div");
      result.className = "play-result";
      result.setAttribute("role", "status");
      result.hidden = true;
      result.appendChild(document.createElement("pre"));
      result.firstChild.setAttribute("aria-label", "Output of the code");
      pre.parentNode.insertBefore(result, pre.nextSibling);
      toolButton(bar, "Run", "code-run", function () { run(code, result); });
    }
    if (!handout && codeFlags.indexOf("nocopy") < 0) {
      toolButton(bar, "Copy", "code-copy", function (button) {
        copyText(code.textContent, function (ok) {
          button.textContent = ok ? "Copied" : "Copy failed";
          setTimeout(function () { button.textContent = "Copy"; }, 1500);
        });
      });
    }
    if (hidden) {
      var reveal = toolButton(bar, "Show hidden lines", "reveal-lines", function (button) {
        var shown = pre.classList.toggle("show-boring");
        button.textContent = shown ? "Hide hidden lines" : "Show hidden lines";
        button.setAttribute("aria-pressed", shown ? "true" : "false");
      });
      reveal.setAttribute("aria-pressed", "false");
    }
    if (!handout && codeFlags.indexOf("edit") >= 0 && code.classList.contains("editable")) {
      var original = code.innerHTML;
      code.setAttribute("contenteditable", "true");
      code.setAttribute("spellcheck", "false");
      code.setAttribute("role", "textbox");
      code.setAttribute("aria-multiline", "true");
      code.setAttribute("aria-label", "Code, editable");
      // Ctrl+Enter runs it, as in mdBook's editor.
      code.addEventListener("keydown", function (e) {
        var runButton = bar.querySelector(".code-run");
        if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && runButton) {
          e.preventDefault();
          runButton.click();
        }
      });
      toolButton(bar, "Undo changes", "code-undo", function () { code.innerHTML = original; });
    }
    if (bar.firstChild) pre.parentNode.insertBefore(bar, pre);
  }

  function setupCodeBlocks() {
    var handout = document.body.classList.contains("handout");
    var blocks = document.querySelectorAll("pre.code, .lesson pre:not([class])");
    Array.prototype.forEach.call(blocks, function (pre) {
      if (pre.querySelector("code")) setupCodeBlock(pre, handout);
    });
  }

  function init() {
    setupCodeBlocks();
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
