// The game page: pick a card and a destination (click, keyboard or drag), post the
// move, swap in the table the server sends back; follow the player's event stream
// (or poll, when there is none) while the opponent plays;
// count the deadline down. Every action is a plain form underneath, so the page
// also works without this script. What it says comes from the page, in the page's
// language (the "table-words" JSON, games/views.py), its %(name)s placeholders filled in.
(() => {
  "use strict";
  const game = document.getElementById("game");
  const wordsData = document.getElementById("table-words");
  if (!game || !wordsData) return;
  const words = JSON.parse(wordsData.textContent);
  const fill = (text, values) => text.replace(/%\((\w+)\)s/g, (match, key) => String(values[key]));
  let selected = null;

  const state = () => document.getElementById("game-state");
  const legalMoves = () => {
    const data = document.getElementById("legal-moves");
    return data ? JSON.parse(data.textContent) : [];
  };
  const say = (text) => {
    const hint = document.getElementById("hint");
    if (hint) hint.textContent = text;
  };
  const pileName = (pile) => pile.dataset.label || pile.getAttribute("aria-label").split(":")[0];

  function clearSelection() {
    if (selected) {
      selected.classList.remove("selected");
      selected.removeAttribute("aria-pressed");
    }
    for (const pile of game.querySelectorAll(".pile.target")) {
      pile.classList.remove("target");
      pile.removeAttribute("aria-description");
    }
    selected = null;
  }

  function select(pile) {
    clearSelection();
    selected = pile;
    pile.classList.add("selected");
    pile.setAttribute("aria-pressed", "true");
    const moves = legalMoves();
    let targets = 0;
    for (const other of game.querySelectorAll("button.pile[data-name]")) {
      if (moves.includes(`${pile.dataset.name}-${other.dataset.name}`)) {
        other.classList.add("target");
        other.setAttribute("aria-description", words.target);
        targets += 1;
      }
    }
    const picked = !targets ? words.picked_nowhere : targets > 1 ? words.picked_other : words.picked_one;
    say(fill(picked, { pile: pileName(pile), count: targets }));
  }

  async function post(form, submitter, moves) {
    const data = new FormData(form, submitter);
    if (moves !== undefined) data.set("moves", moves);
    const focused = document.activeElement && document.activeElement.id;
    // The typed line decides what the box shows next when it is what was posted (the
    // server sends a refused line back, a played one is gone); any other action (a
    // click, a button) leaves in the box whatever was being typed.
    const box = document.getElementById("moves-input");
    const keep = box && !(form.id === "move-form" && moves === undefined) ? box.value : null;
    let response;
    try {
      // The attribute, not the property: a control named "action" would hide the property.
      response = await fetch(form.getAttribute("action"), {
        method: "POST",
        body: data,
        headers: { "X-Requested-With": "fetch" },
        credentials: "same-origin",
      });
    } catch (error) {
      say(words.unreachable);
      return;
    }
    const type = response.headers.get("Content-Type") || "";
    if (!type.startsWith("text/html") || response.status >= 500) {
      say(fill(words.answered, { status: response.status }));
      return;
    }
    swap(await response.text(), focused);
    const again = document.getElementById("moves-input");
    if (again && keep !== null) again.value = keep;
  }

  function swap(html, focusedId) {
    selected = null;
    game.innerHTML = html;
    const refusal = document.getElementById("refusal");
    const again = focusedId && document.getElementById(focusedId);
    if (again) again.focus();
    else if (refusal) refusal.focus();
    countdown();
  }

  function play(moves) {
    const form = document.getElementById("move-form");
    if (form) post(form, null, moves);
  }

  game.addEventListener("click", (event) => {
    const pile = event.target.closest("button.pile[data-name]");
    if (!pile) return;
    event.preventDefault();
    const name = pile.dataset.name;
    if (name === "T") {
      clearSelection();
      play("T");
    } else if (name === "R" && !selected && legalMoves().includes("TR")) {
      // Foster's stock (V14): a click on its face-down top turns it up.
      play("TR");
    } else if (selected === pile) {
      clearSelection();
      say(words.cancelled);
    } else if (selected) {
      const move = `${selected.dataset.name}-${name}`;
      clearSelection();
      play(move);
    } else if (pile.querySelector(".card:not(.back)")) {
      select(pile);
    }
  });

  game.addEventListener("submit", (event) => {
    const form = event.target.closest("form.js-action");
    if (!form) return;
    event.preventDefault();
    clearSelection();
    post(form, event.submitter);
  });

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && selected) {
      clearSelection();
      say(words.cancelled);
    } else if (
      (event.key === "t" || event.key === "T") &&
      !event.target.closest("input, textarea, select") &&
      legalMoves().includes("T")
    ) {
      play("T");
    }
  });

  // Drag and drop: the same two steps as two clicks.
  game.addEventListener("dragstart", (event) => {
    const pile = event.target.closest("button.pile[data-name]");
    if (!pile || pile.dataset.name === "T") return;
    select(pile);
    event.dataTransfer.setData("text/plain", pile.dataset.name);
    event.dataTransfer.effectAllowed = "move";
  });
  game.addEventListener("dragover", (event) => {
    if (selected && event.target.closest("button.pile[data-name]")) event.preventDefault();
  });
  game.addEventListener("drop", (event) => {
    const pile = event.target.closest("button.pile[data-name]");
    if (!pile || !selected || pile === selected) return;
    event.preventDefault();
    const move = `${selected.dataset.name}-${pile.dataset.name}`;
    clearSelection();
    play(move);
  });

  // The table as the server has it now, if the game has moved on since this page's version.
  // ``fresh``: an event said so, and the server must look at the game, not its cache
  // (the event may be out before the cache has the new version).
  async function refresh(fresh = false) {
    const current = state();
    if (!current) return;
    try {
      const url = `${current.dataset.tableUrl}?version=${current.dataset.version}${fresh ? "&fresh=1" : ""}`;
      const response = await fetch(url, { headers: { "X-Requested-With": "fetch" } });
      if (response.status === 200) swap(await response.text(), null);
    } catch (error) {
      // Offline for a moment: the stream's next event, or the next poll, tries again.
    }
  }

  // The player's event stream tells the page at once when the game moves on; while it
  // is down (a server without streams, a network change) the page asks every 20 s.
  let streaming = false;
  if (window.EventSource && game.dataset.streamUrl) {
    const stream = new EventSource(game.dataset.streamUrl);
    const gameId = Number(game.dataset.game);
    const onEvent = (message) => {
      const event = JSON.parse(message.data);
      const current = state();
      if (!current || event.game !== gameId) return;
      // The player's own moves come back as events too: their page has them already.
      if (message.type === "move" && current.dataset.myTurn === "1") return;
      if (event.version > Number(current.dataset.version)) refresh(true);
    };
    for (const kind of ["move", "your_turn", "stop_called", "stalemate_offered", "game_over"]) {
      stream.addEventListener(kind, onEvent);
    }
    stream.addEventListener("open", () => {
      if (!streaming) refresh(); // whatever happened while it was down
      streaming = true;
    });
    stream.addEventListener("error", () => {
      streaming = false; // the browser reconnects on its own, unless the server refused
    });
  }

  // While the opponent plays and no stream is open, ask now and then.
  function poll() {
    const current = state();
    if (
      !streaming &&
      current &&
      current.dataset.playing === "1" &&
      current.dataset.myTurn === "0" &&
      !document.hidden
    ) {
      refresh();
    }
    window.setTimeout(poll, 20000);
  }
  window.setTimeout(poll, 20000);

  // Only the time left is counted here: the deadline itself is written by the server in
  // the player's own time zone (the profile's), which the browser's may not be.
  function countdown() {
    for (const span of game.querySelectorAll(".countdown[data-deadline]")) {
      const left = Math.max(0, Date.parse(span.dataset.deadline) - Date.now());
      const s = Math.floor(left / 1000);
      const d = Math.floor(s / 86400);
      const hms = [Math.floor(s / 3600) % 24, Math.floor(s / 60) % 60, s % 60]
        .map((n) => String(n).padStart(2, "0"))
        .join(":");
      span.textContent = !left
        ? words.time_up
        : fill(d ? words.left_days : words.left, { days: d, time: hms });
    }
  }
  countdown();
  window.setInterval(countdown, 1000);
})();
