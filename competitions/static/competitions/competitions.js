// The form that makes a competition: only the chosen format's part shows (the rounds of
// a Swiss, a league's divisions...). Without this script every part shows, each field
// named with its format.
(() => {
  "use strict";
  const format = document.querySelector("select[name=format]");
  if (!format) return;
  const show = () => {
    for (const part of document.querySelectorAll(".format-part")) {
      part.hidden = !part.dataset.formats.split(" ").includes(format.value);
    }
  };
  format.addEventListener("change", show);
  show();
})();
