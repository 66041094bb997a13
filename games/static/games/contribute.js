// The player's contribution to the deal (docs/fair-deal.md): 16 random bytes from the
// browser, drawn afresh as a challenge is made or accepted. Without this script the
// field stays empty and the server draws the contribution, saying so in the record.
"use strict";
(function () {
  function draw() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return (b + 256).toString(16).slice(1);
    }).join("");
  }
  document.addEventListener("submit", function (event) {
    var field = event.target.querySelector && event.target.querySelector("input[data-contribution]");
    if (field && window.crypto && crypto.getRandomValues) field.value = draw();
  }, true);
})();
