// The game page: pick a card and a destination (click, keyboard or drag), post the
// move (or a message), swap in the table the server sends back; follow the player's
// event stream (or poll, when there is none) for the others' moves and messages;
// count the deadline down. A spectator's page (games/watch.html) uses the same script
// to poll while the game is played. Every action is a plain form underneath, so the
// page also works without this script. What it says comes from the page, in the page's
// language (the "table-words" JSON the page carries), its %(name)s placeholders filled in.
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

  // What the player has under way in the part about to be replaced: the text in the
  // boxes (the moves typed, a message, a Stop! choice), a box ticked or a choice made,
  // the folds open, the focus. The controls of a form just posted are left out: the
  // server says what they hold now (a refused line or message comes back, a played or
  // sent one is gone).
  function underWay(posted) {
    const active = document.activeElement;
    // "#": a control without an id had it (the focus then goes to the status if it is gone).
    const kept = { text: {}, set: {}, open: [], focused: active && game.contains(active) ? active.id || "#" : "" };
    for (const control of game.querySelectorAll("input[id], textarea[id], select[id]")) {
      if (control.type === "hidden" || (posted && control.form === posted)) continue;
      if (control.type === "checkbox" || control.type === "radio") {
        if (control.checked !== control.defaultChecked) kept.set[control.id] = control.checked;
      } else if (control.tagName === "SELECT") {
        if ([...control.options].some((o) => o.selected !== o.defaultSelected)) {
          kept.set[control.id] = control.value;
        }
      } else {
        kept.text[control.id] = [control.value, control.selectionStart, control.selectionEnd];
      }
    }
    for (const fold of game.querySelectorAll("details[open][id]")) kept.open.push(fold.id);
    return kept;
  }

  function putBack(kept) {
    for (const [id, [value, start, end]] of Object.entries(kept.text)) {
      const box = document.getElementById(id);
      if (!box || !("value" in box)) continue;
      box.value = value;
      try {
        box.setSelectionRange(start, end);
      } catch (error) {
        // A control without a text selection: its value is enough.
      }
    }
    for (const [id, value] of Object.entries(kept.set)) {
      const control = document.getElementById(id);
      if (!control) continue;
      if (typeof value === "boolean") control.checked = value;
      else control.value = value;
    }
    for (const id of kept.open) {
      const fold = document.getElementById(id);
      if (fold) fold.open = true;
    }
  }

  async function post(form, submitter, moves) {
    const data = new FormData(form, submitter);
    if (moves !== undefined) data.set("moves", moves);
    // A click or a button leaves in the boxes whatever was being typed; the typed line
    // (or the message) posted is the server's to send back.
    const kept = underWay(moves === undefined ? form : null);
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
    swap(await response.text(), kept, false);
  }

  // The live region outside the replaced part: a screen reader hears each thing once.
  const announcer = document.getElementById("announcer");
  const announce = (text) => {
    if (announcer && text) announcer.textContent = text.replace(/\s+/g, " ").trim();
  };
  // The last of the others' turns announced (where it began): a turn is read out when it
  // arrives, by a poll, the stream or the answer to the player's own move (a computer
  // answers at once), and never again when the same table comes back.
  const news = () => document.getElementById("turn-news");
  let heard = news() ? news().dataset.turn : "";

  // ``quietly``: a poll's or an event's table, which must not move the page or take the
  // focus anywhere it was not.
  function swap(html, kept, quietly) {
    if (show) show.cancel(); // the table it played on is replaced
    show = null;
    selected = null;
    game.innerHTML = html;
    putBack(kept);
    const refusal = document.getElementById("refusal");
    const again = kept.focused && document.getElementById(kept.focused);
    if (again) again.focus({ preventScroll: quietly });
    else if (refusal && !quietly) refusal.focus();
    // The control that had the focus is gone (the turn passed): the game's status
    // takes it, never the page's body.
    else if (kept.focused && !quietly) document.getElementById("status").focus();
    const arrived = news();
    if (refusal && !quietly) announce(refusal.textContent);
    else if (arrived && arrived.dataset.turn !== heard) announce(arrived.textContent);
    if (arrived) heard = arrived.dataset.turn;
    playOut();
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

  // The last turn played out (games/static/games/playback.js), once a turn in this
  // browser; with reduced motion never (the table shows its end, the moves are listed).
  const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
  let show = null; // the playback under way: { cancel, finish }

  function playOut() {
    const template = document.getElementById("turn-frames");
    const bar = document.getElementById("playback");
    if (!template || !bar || !window.rbankPlayback) return;
    const key = `rbank-turn-seen-${game.dataset.game}`;
    try {
      if (localStorage.getItem(key) === bar.dataset.turn) return;
      localStorage.setItem(key, bar.dataset.turn);
    } catch (error) {
      // No storage: the turn plays each time the page opens.
    }
    if (reducedMotion.matches) return;
    show = window.rbankPlayback({
      template,
      bar,
      wrap: game.querySelector(".table-wrap"),
      restore: true,
      onEnd: () => { show = null; },
    });
  }

  // The table as the server has it now, if the game has moved on since this page's
  // stamp: its version, and on a player's page the number of messages (a message moves
  // no version). ``fresh``: an event said so, and the server must look at the game, not
  // its cache (the event may be out before the cache has the new stamp).
  let missed = false; // an event came while a card was picked up: asked again after
  async function refresh(fresh = false) {
    const current = state();
    if (!current) return;
    if (selected) {
      missed = missed || fresh; // not under the player's hand: the next poll asks
      return;
    }
    const count = current.dataset.messages;
    const query = new URLSearchParams({ version: current.dataset.version });
    if (count !== undefined) query.set("messages", count);
    if (fresh) query.set("fresh", "1");
    try {
      const url = `${current.dataset.tableUrl}?${query}`;
      const response = await fetch(url, { headers: { "X-Requested-With": "fetch" } });
      if (response.status === 200 && !selected) swap(await response.text(), underWay(null), true);
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
      // Another player wrote: the version has not moved, the message count has.
      if (message.type === "message") return refresh(true);
      // The player's own moves come back as events too: their page has them already.
      if (message.type === "move" && current.dataset.myTurn === "1") return;
      if (event.version > Number(current.dataset.version)) refresh(true);
    };
    for (const kind of ["move", "your_turn", "stop_called", "stalemate_offered", "game_over", "message"]) {
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

  // While no stream is open, ask now and then: a player's page always (the others may
  // write at any time, and move while it is theirs to), a spectator's while the game is
  // played (``data-polls``); and once after an event missed while a card was picked up.
  function poll() {
    const current = state();
    if (current && current.dataset.polls === "1" && !document.hidden && (!streaming || missed)) {
      const fresh = missed;
      missed = false;
      refresh(fresh);
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
  playOut();
})();
