// Moves played out on a table, from the frames the page carries (a <template> the server
// draws from the viewer's own view at each step): each frame's piles come in turn,
// about 300 ms a move, a card that changed piles travelling from where it was;
// a counter, pause, a step and a skip to the end. The game page plays the
// opponent's last turn and then puts its own piles back; the replay plays the steps
// after the one it shows and then opens the step it reached.
window.rbankPlayback = (() => {
  "use strict";
  const MOVE_MS = 300;
  const fill = (text, values) => text.replace(/%\((\w+)\)s/g, (match, key) => String(values[key]));

  // Where each card of the piles about to be replaced stands: [code, pile id, place].
  function places(frame) {
    const found = [];
    for (const pile of frame.children) {
      const current = document.getElementById(pile.id);
      if (!current) continue;
      for (const card of current.querySelectorAll("[data-card]")) {
        found.push([card.dataset.card, pile.id, card.getBoundingClientRect()]);
      }
    }
    return found;
  }

  function put(frame) {
    const from = places(frame);
    for (const pile of frame.children) {
      const current = document.getElementById(pile.id);
      if (!current) continue;
      const copy = pile.cloneNode(true);
      current.replaceWith(copy);
      for (const card of copy.querySelectorAll("[data-card]")) {
        const code = card.dataset.card;
        if (from.some(([c, id]) => c === code && id === pile.id)) continue; // it was here
        const origin = from.find(([c]) => c === code);
        if (!origin) continue;
        const place = card.getBoundingClientRect();
        const dx = origin[2].left - place.left;
        const dy = origin[2].top - place.top;
        card.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], {
          duration: MOVE_MS * 0.8,
          easing: "ease-out",
        });
      }
    }
  }

  // Play the frames of ``template`` on the table in ``wrap`` with the controls of
  // ``bar`` (games/_playback.html). ``restore``: put the table's own piles back at the
  // end; ``onEnd(at)``: called with the number of moves played once it ends.
  return function playback({ template, bar, wrap, restore, onEnd }) {
    const frames = [...template.content.children];
    const moves = frames.length - 1;
    const first = Number(bar.dataset.first || 0); // the counter's number before move 1
    const total = Number(bar.dataset.total || moves);
    const own = new Map(); // each pile's element on the table before the playback
    for (const frame of frames) {
      for (const pile of frame.children) {
        const element = document.getElementById(pile.id);
        if (element && !own.has(pile.id)) own.set(pile.id, element);
      }
    }
    const count = bar.querySelector(".playback-count");
    const shown = bar.querySelector(".playback-move");
    const pause = bar.querySelector(".playback-pause");
    let at = 0;
    let timer = null;
    let paused = false;
    let over = false;

    function label() {
      count.textContent = fill(count.dataset.words, { number: first + at, count: total });
      shown.textContent = frames[at].dataset.move;
    }
    function cancel() {
      window.clearTimeout(timer);
      over = true;
    }
    function finish() {
      if (over) return;
      cancel();
      if (restore) {
        for (const [id, element] of own) {
          const current = document.getElementById(id);
          if (current && current !== element) current.replaceWith(element);
        }
      }
      if (wrap) wrap.classList.remove("playing");
      bar.hidden = true;
      if (onEnd) onEnd(at);
    }
    function next() {
      if (at >= moves) return finish();
      at += 1;
      put(frames[at]);
      label();
      if (!paused) timer = window.setTimeout(next, at >= moves ? 2 * MOVE_MS : MOVE_MS);
    }
    pause.onclick = () => {
      paused = !paused;
      pause.textContent = paused ? pause.dataset.play : pause.dataset.pause;
      window.clearTimeout(timer);
      if (!paused) next();
    };
    bar.querySelector(".playback-step").onclick = () => {
      paused = true;
      pause.textContent = pause.dataset.play;
      window.clearTimeout(timer);
      next();
    };
    bar.querySelector(".playback-skip").onclick = () => {
      at = moves;
      finish();
    };
    if (wrap) wrap.classList.add("playing");
    put(frames[0]);
    label();
    bar.hidden = false;
    timer = window.setTimeout(next, MOVE_MS);
    return { cancel, finish };
  };
})();
