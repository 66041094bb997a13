// The new-game form: the clock's fields for the chosen time control only (days per
// turn, or the bank's days). Without this script every field shows, and the server
// reads only those of the chosen control.
(() => {
  "use strict";
  const form = document.querySelector("form.new-game");
  const control = form && form.querySelector("select[name=control]");
  if (!control) return;
  const fieldsOf = {
    per_turn: ["days_per_turn"],
    bank: ["bank_initial_days", "bank_increment_days"],
  };

  function show() {
    for (const [choice, names] of Object.entries(fieldsOf)) {
      for (const name of names) {
        const field = form.querySelector(`.field[data-field="${name}"]`);
        // A field with an error stays in sight, whatever is chosen.
        if (field) field.hidden = control.value !== choice && !field.querySelector(".error");
      }
    }
  }
  control.addEventListener("change", show);
  show();
})();
