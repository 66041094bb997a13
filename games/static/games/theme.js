// The light or dark theme the player chose with the header's switch, kept in this
// browser; without a choice the system's setting decides (site.css). Loaded in the
// page's head so the chosen theme is set before anything is painted.
(function () {
  "use strict";
  var KEY = "rbank-theme";
  var ORDER = ["system", "light", "dark"];

  function chosen() {
    try {
      var theme = localStorage.getItem(KEY);
      return theme === "light" || theme === "dark" ? theme : "system";
    } catch (e) {
      return "system";
    }
  }

  function apply(theme) {
    if (theme === "system") delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
  }

  apply(chosen());

  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("theme-switch");
    if (!button) return;
    function show() {
      button.textContent = button.dataset[chosen()];
    }
    button.hidden = false;
    show();
    button.addEventListener("click", function () {
      var next = ORDER[(ORDER.indexOf(chosen()) + 1) % ORDER.length];
      try {
        if (next === "system") localStorage.removeItem(KEY);
        else localStorage.setItem(KEY, next);
      } catch (e) {
        /* storage refused: the choice lasts for this page only */
      }
      apply(next);
      show();
    });
  });
})();
