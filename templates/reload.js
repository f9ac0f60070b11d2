// nimbook serve: live reload. `nimbook serve` adds this script to every HTML page as it sends
// it (never to the written site), with the site version and the version endpoint as data-
// attributes of the script element. The page polls the endpoint and reloads when the version
// changes, that is after a successful rebuild.
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script) return;
  var version = script.getAttribute("data-version");
  var endpoint = script.getAttribute("data-endpoint");
  function poll() {
    fetch(endpoint, { cache: "no-store" })
      .then(function (r) {
        return r.text();
      })
      .then(function (t) {
        if (t !== version) {
          location.reload();
        } else {
          setTimeout(poll, 300);
        }
      })
      .catch(function () {
        setTimeout(poll, 1000);
      });
  }
  setTimeout(poll, 300);
})();
