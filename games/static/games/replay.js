// The replay page: the arrow keys step back and on; "Play from here" (or P) plays the
// steps after this one on the table (playback.js) and opens the step it reached. With
// reduced motion it opens the last of them at once.
(() => {
  "use strict";
  const button = document.getElementById("replay-play");
  const open = (step) => {
    const url = new URL(window.location.href);
    url.searchParams.set("step", String(step));
    window.location.assign(url.toString());
  };
  function play() {
    const template = document.getElementById("turn-frames");
    const bar = document.getElementById("playback");
    if (!template || !bar || !window.rbankPlayback || !bar.hidden) return;
    const from = Number(bar.dataset.first);
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return open(button.dataset.end);
    button.hidden = true;
    window.rbankPlayback({
      template,
      bar,
      wrap: document.querySelector(".table-wrap"),
      restore: false,
      onEnd: (at) => open(from + at),
    });
    bar.querySelector(".playback-pause").focus();
  }
  if (button) {
    button.hidden = false;
    button.addEventListener("click", play);
  }
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, textarea, select") || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "p" || event.key === "P") {
      if (button) play();
      return;
    }
    const link = document.getElementById(event.key === "ArrowLeft" ? "prev-step" : event.key === "ArrowRight" ? "next-step" : "");
    if (link) link.click();
  });
})();
