// nimbook sidebar. The table of contents is written once, into toc.js (window.nimbookToc, HTML
// with links relative to the site root), instead of into every page: a copy per page made the
// site grow with the square of the number of chapters. This script puts it into the sidebar of
// the page that loads it, makes its links relative to that page, and marks the current chapter.
// It runs as the page is parsed, so the sidebar is there at first paint; without JavaScript the
// sidebar keeps its link to toc.html, the same table of contents as a page.
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
  // Every section of the table stays unfolded; bring the current chapter into view.
  if (here) {
    var top = here.offsetTop - nav.clientHeight / 3;
    if (top > 0) nav.scrollTop = top;
  }
})();
