// The installable app, on every page: the service worker registered (the shell and the
// pages last seen kept for offline use: /sw.js), a line saying so when the page shown
// is a copy because the network is gone, the browser's "Install" offered where it has
// one, and the pages kept forgotten when the player signs out.
(function () {
  "use strict";
  if ("serviceWorker" in navigator && document.documentElement.dataset.worker) {
    navigator.serviceWorker.register(document.documentElement.dataset.worker).catch(function () {});
  }

  var deferred = null;
  window.addEventListener("beforeinstallprompt", function (event) {
    event.preventDefault();
    deferred = event;
    var button = document.getElementById("install-app");
    if (button) button.hidden = false;
  });

  document.addEventListener("DOMContentLoaded", function () {
    var banner = document.getElementById("offline-banner");
    function show() { if (banner) banner.hidden = navigator.onLine; }
    show();
    window.addEventListener("online", show);
    window.addEventListener("offline", show);

    var install = document.getElementById("install-app");
    if (install) {
      install.addEventListener("click", function () {
        if (!deferred) return;
        deferred.prompt();
        deferred.userChoice.finally(function () { deferred = null; install.hidden = true; });
      });
    }

    var logout = document.querySelector("form[data-logout]");
    if (logout && navigator.serviceWorker && navigator.serviceWorker.controller) {
      logout.addEventListener("submit", function () {
        navigator.serviceWorker.controller.postMessage({ type: "forget" });
      });
    }
  });
})();
