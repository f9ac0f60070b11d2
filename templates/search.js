// nimbook search. The index is a script (searchindex.js) that sets window.nimbookSearchIndex,
// so search works from file:// with no server: no fetch, no external script, no framework.
// Keys: "/" focuses the box, arrows move through the results, Enter opens one, Escape closes.
(function () {
  "use strict";
  var script = document.currentScript;
  var root = (script && script.getAttribute("data-root")) || "";
  var MAX_RESULTS = 20;
  var SNIPPET = 90;

  function init() {
    var index = window.nimbookSearchIndex;
    var box = document.getElementById("search");
    var list = document.getElementById("search-results");
    if (!box || !list || !index) return;
    // The weights of a match, the most results, and how words match, from [output.html.search]:
    // `and`, a result holds every word (else any); `expand`, a word matches the words it begins.
    var w = index.w || { heading: 8, title: 4, text: 1, limit: MAX_RESULTS, and: true, expand: true };
    var everyWord = w.and !== false;
    var expand = w.expand !== false;
    var WORD = /[\p{L}\p{N}_]/u;
    var wrap = box.parentNode;
    wrap.hidden = false;

    // Lower-cased copies, made once.
    var pages = index.pages.map(function (p) {
      return { title: p.t, url: p.u, low: p.t.toLowerCase() };
    });
    var sections = index.sections.map(function (s) {
      return { page: s.p, heading: s.h, anchor: s.a, text: s.x,
               lowHeading: s.h.toLowerCase(), lowText: s.x.toLowerCase() };
    });
    var active = -1;

    function terms(q) {
      return q.toLowerCase().split(/\s+/).filter(function (t) { return t.length > 0; });
    }

    // Where term t first occurs in low at or after from, as a word or the start of one (with
    // expand), or -1.
    function find(low, t, from) {
      var at = low.indexOf(t, from);
      while (at >= 0) {
        var starts = at === 0 || !WORD.test(low.charAt(at - 1)) || !WORD.test(t.charAt(0));
        var end = at + t.length;
        var ends = expand || end >= low.length || !WORD.test(low.charAt(end)) ||
          !WORD.test(t.charAt(t.length - 1));
        if (starts && ends) return at;
        at = low.indexOf(t, at + 1);
      }
      return -1;
    }

    function search(q) {
      var ts = terms(q);
      if (ts.length === 0) return [];
      var hits = [];
      var titleOnlyShown = {};
      sections.forEach(function (s, order) {
        var page = pages[s.page];
        var score = 0;
        var inBody = false;
        var first = -1;
        var found = 0;
        for (var i = 0; i < ts.length; i++) {
          var t = ts[i];
          var inTitle = find(page.low, t, 0) >= 0;
          var inHeading = find(s.lowHeading, t, 0) >= 0;
          var at = find(s.lowText, t, 0);
          if (!inTitle && !inHeading && at < 0) {
            if (everyWord) return;
            continue;
          }
          found++;
          if (inHeading || at >= 0) inBody = true;
          if (at >= 0 && (first < 0 || at < first)) first = at;
          score += (inHeading ? w.heading : 0) + (inTitle ? w.title : 0) + (at >= 0 ? w.text : 0);
        }
        if (found === 0) return;
        // A page whose title matches is listed once, not once per section.
        if (!inBody) {
          if (titleOnlyShown[s.page]) return;
          titleOnlyShown[s.page] = true;
        }
        hits.push({ s: s, score: score, at: first, order: order });
      });
      hits.sort(function (a, b) { return b.score - a.score || a.order - b.order; });
      return hits.slice(0, w.limit).map(function (h) {
        h.terms = ts;
        return h;
      });
    }

    // Appends text to el with every occurrence of a term wrapped in <mark>.
    function marked(el, text, ts) {
      var low = text.toLowerCase();
      var pos = 0;
      while (pos < text.length) {
        var best = -1, len = 0;
        ts.forEach(function (t) {
          var at = find(low, t, pos);
          if (at >= 0 && (best < 0 || at < best)) { best = at; len = t.length; }
        });
        if (best < 0) break;
        el.appendChild(document.createTextNode(text.slice(pos, best)));
        var m = document.createElement("mark");
        m.textContent = text.slice(best, best + len);
        el.appendChild(m);
        pos = best + len;
      }
      el.appendChild(document.createTextNode(text.slice(pos)));
    }

    function snippet(text, at) {
      if (at < 0) return text.slice(0, SNIPPET) + (text.length > SNIPPET ? "…" : "");
      var start = Math.max(0, at - 30);
      var end = Math.min(text.length, start + SNIPPET);
      return (start > 0 ? "…" : "") + text.slice(start, end) + (end < text.length ? "…" : "");
    }

    function show(hits) {
      list.textContent = "";
      active = -1;
      if (box.value.trim() === "") {
        list.hidden = true;
        box.setAttribute("aria-expanded", "false");
        return;
      }
      if (hits.length === 0) {
        var none = document.createElement("li");
        none.className = "search-none";
        none.textContent = "No results";
        list.appendChild(none);
      }
      hits.forEach(function (h, i) {
        var page = pages[h.s.page];
        var li = document.createElement("li");
        li.setAttribute("role", "option");
        li.id = "search-result-" + i;
        var a = document.createElement("a");
        a.href = root + page.url + (h.s.anchor ? "#" + encodeURIComponent(h.s.anchor) : "");
        a.tabIndex = -1;
        var head = document.createElement("span");
        head.className = "search-page";
        marked(head, page.title, h.terms);
        a.appendChild(head);
        if (h.s.heading && h.s.heading !== page.title) {
          var sep = document.createElement("span");
          sep.className = "search-heading";
          sep.appendChild(document.createTextNode(" › "));
          marked(sep, h.s.heading, h.terms);
          a.appendChild(sep);
        }
        if (h.s.text) {
          var snip = document.createElement("span");
          snip.className = "search-snippet";
          marked(snip, snippet(h.s.text, h.at), h.terms);
          a.appendChild(snip);
        }
        li.appendChild(a);
        list.appendChild(li);
      });
      list.hidden = false;
      box.setAttribute("aria-expanded", "true");
    }

    function options() {
      return list.querySelectorAll("li[role=option]");
    }

    function select(i) {
      var opts = options();
      if (opts.length === 0) return;
      active = (i + opts.length) % opts.length;
      opts.forEach(function (o, k) {
        o.classList.toggle("active", k === active);
        o.setAttribute("aria-selected", k === active ? "true" : "false");
      });
      box.setAttribute("aria-activedescendant", opts[active].id);
      opts[active].scrollIntoView({ block: "nearest" });
    }

    box.addEventListener("input", function () { show(search(box.value)); });
    box.addEventListener("focus", function () { if (box.value) show(search(box.value)); });
    box.addEventListener("keydown", function (e) {
      if (e.key === "ArrowDown") { select(active + 1); e.preventDefault(); }
      else if (e.key === "ArrowUp") { select(active - 1); e.preventDefault(); }
      else if (e.key === "Enter") {
        var opts = options();
        var pick = opts[active >= 0 ? active : 0];
        if (pick) { window.location.href = pick.querySelector("a").href; }
        e.preventDefault();
      } else if (e.key === "Escape") {
        box.value = "";
        show([]);
        box.blur();
      }
    });
    document.addEventListener("keydown", function (e) {
      var t = e.target;
      var typing = t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.isContentEditable);
      if (e.key === "/" && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) {
        box.focus();
        e.preventDefault();
      }
    });
    document.addEventListener("click", function (e) {
      if (!wrap.contains(e.target)) { list.hidden = true; box.setAttribute("aria-expanded", "false"); }
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
