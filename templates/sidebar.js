// nimbook sidebar. The table of contents is written once, into toc.js (window.nimbookToc, HTML
// with links relative to the site root), instead of into every page: a copy per page made the
// site grow with the square of the number of chapters. This script puts it into the sidebar of
// the page that loads it, makes its links relative to that page, marks the current chapter, and
// gives every chapter with sub-chapters a button that folds them. It runs as the page is parsed,
// so the sidebar is there at first paint; without JavaScript the sidebar keeps its link to
// toc.html, the same table of contents as a page, with every section shown.
(function () {
  "use strict";
  var script = document.currentScript;
  var nav = document.getElementById("sidebar");
  var toc = window.nimbookToc;
  if (!script || !nav || typeof toc !== "string") return;
  var root = script.getAttribute("data-root") || "";
  var current = script.getAttribute("data-current") || "";
  nav.innerHTML = toc;
  var links = nav.getElementsByTagName("a");
  var here = null;
  for (var i = 0; i < links.length; i++) {
    var a = links[i];
    var url = a.getAttribute("href") || "";
    if (url === current) {
      here = a;
      a.setAttribute("aria-current", "page");
      a.parentNode.classList.add("current");
    }
    a.setAttribute("href", root + url);
  }

  // ---- Folding ---------------------------------------------------------------------------
  // As mdBook does with `[output.html.fold]`: with folding on, a section starts unfolded when
  // its chapter is fewer than `level` levels deep, or is the current chapter or one above it;
  // with folding off, every section starts unfolded. The button says its state in
  // aria-expanded; the state is the `folded` class on the chapter's item (style.css).
  var list = nav.querySelector("ol.toc");
  var levelText = list ? list.getAttribute("data-unfolded-levels") : null;
  var unfoldedLevels = levelText === null ? Infinity : Number(levelText);
  var onPath = {};
  for (var up = here && here.parentNode; up && up !== nav; up = up.parentNode) {
    if (up.tagName === "LI" && up.id) onPath[up.id] = true;
  }

  function setFolded(item, button, folded) {
    item.classList.toggle("folded", folded);
    button.setAttribute("aria-expanded", folded ? "false" : "true");
  }

  var sections = nav.querySelectorAll("ol.section");
  for (var s = 0; s < sections.length; s++) {
    var section = sections[s];
    var item = section.parentNode;
    if (!item || item.tagName !== "LI" || !item.id) continue;
    var level = 0;
    for (var p = item.parentNode; p && p !== list; p = p.parentNode) {
      if (p.tagName === "OL") level++;
    }
    var label = item.firstElementChild;
    var name = label && label !== section ? label.textContent : "this chapter";
    section.id = item.id + "-sections";
    var button = document.createElement("button");
    button.type = "button";
    button.className = "fold";
    button.setAttribute("aria-controls", section.id);
    button.setAttribute("aria-label", "Sub-chapters of " + name);
    button.innerHTML = '<span aria-hidden="true">\u203a</span>';
    item.insertBefore(button, section);
    item.classList.add("has-sections");
    setFolded(item, button, !(level < unfoldedLevels || onPath[item.id]));
    button.addEventListener("click", function (e) {
      var b = e.currentTarget;
      setFolded(b.parentNode, b, b.getAttribute("aria-expanded") === "true");
    });
  }

  // Bring the current chapter into view.
  if (here) {
    var top = here.getBoundingClientRect().top - nav.getBoundingClientRect().top +
      nav.scrollTop - nav.clientHeight / 3;
    if (top > 0) nav.scrollTop = top;
  }
})();
