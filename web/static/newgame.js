/* tablelog: the new-game page (templates/newgame/new.html).
 *
 * The form works without this script (text fields: names, each setup line that is not
 * cards, each card by id or description).  With it:
 *  - the game select reloads the page for the chosen game;
 *  - "who starts" shows the names typed; the seats past a game's minimum, and a row of
 *    cards laid out per player, follow the number of players;
 *  - the cards are chosen with the card picker (picker.js): tap a place, then a card;
 *    a chosen card leaves the picker, a tap on a filled place gives it back;
 *  - a game's setup widget (its static/setup.js, loaded before this script) says what it
 *    still misses through window.tablelog.setup (each ``{missing: function () {...}}``,
 *    a few words or ""), and announces a change with a "setup:change" event on the form.
 * No inline script or style (CSP). */
(function () {
  "use strict";

  var form = document.querySelector(".newgame-form");
  if (!form) return;

  // --- the game ------------------------------------------------------------------------
  var kindForm = document.querySelector(".kind-form");
  var kindSelect = document.getElementById("kind-select");
  if (kindForm && kindSelect) {
    kindForm.classList.add("auto");
    kindSelect.addEventListener("change", function () { kindForm.submit(); });
  }

  // the cards' places and the picker (used from the players' code too)
  var pickerEl = form.querySelector("[data-picker]");
  var picker = pickerEl && pickerEl.tablelogPicker;
  var slots = Array.prototype.slice.call(form.querySelectorAll(".slot"));
  var active = null;

  // --- players and who starts ------------------------------------------------------------
  var nameInputs = Array.prototype.slice.call(form.querySelectorAll(".player-fields input"));
  var seatChoices = Array.prototype.slice.call(form.querySelectorAll(".choice[data-seat]"));

  function players() {
    var n = 0;
    nameInputs.forEach(function (input, i) {
      if (input.value.trim()) n = i + 1;
    });
    var min = nameInputs.filter(function (i) { return i.required; }).length;
    return Math.max(n, min);
  }

  function updatePlayers() {
    var n = players();
    nameInputs.forEach(function (input, i) {
      var label = form.querySelector('[data-seat-name="' + (i + 1) + '"]');
      if (label) label.textContent = input.value.trim() || "Player " + (i + 1);
    });
    seatChoices.forEach(function (choice) {
      var seat = Number(choice.getAttribute("data-seat"));
      choice.hidden = seat > n;
      var radio = choice.querySelector("input");
      if (seat > n && radio.checked) {
        radio.checked = false;
        form.querySelector('.choice[data-seat="1"] input').checked = true;
      }
    });
    Array.prototype.forEach.call(form.querySelectorAll(".slot-row"), function (row) {
      var perSeat = Number(row.getAttribute("data-per-seat"));
      if (!perSeat) return;
      var count = Number(row.getAttribute("data-count")) + perSeat * n;
      Array.prototype.forEach.call(row.querySelectorAll(".slot"), function (slot) {
        var off = Number(slot.getAttribute("data-index")) > count;
        slot.hidden = off;
        if (off) clearSlot(slot);
      });
    });
    syncTaken();
    updateReady();
  }
  nameInputs.forEach(function (input) { input.addEventListener("input", updatePlayers); });

  // --- the cards -----------------------------------------------------------------------

  function slotInput(slot) { return slot.querySelector("input"); }
  function slotLevel(slot) { return slot.closest(".slot-row").getAttribute("data-level"); }

  function cardMarkup(id) {
    var pick = pickerEl.querySelector('.pick[data-card="' + id + '"] .pickable');
    return pick ? pick.cloneNode(true) : null;
  }

  function drawSlot(slot) {
    var button = slot.querySelector(".slot-pick");
    var id = slotInput(slot).value.trim();
    var card = id ? cardMarkup(id) : null;
    button.textContent = "";
    if (card) {
      card.classList.remove("pickable");
      button.appendChild(card);
    } else {
      var empty = document.createElement("span");
      empty.className = "slot-empty";
      empty.textContent = slot.getAttribute("data-index");
      button.appendChild(empty);
    }
    slot.classList.toggle("filled", Boolean(card));
  }

  function clearSlot(slot) {
    slotInput(slot).value = "";
    drawSlot(slot);
  }

  function openSlots() {
    return slots.filter(function (s) { return !s.hidden; });
  }

  function syncTaken() {
    if (!picker) return;
    var ids = openSlots().map(function (s) { return slotInput(s).value.trim(); }).filter(Boolean);
    picker.setTaken(ids);
  }

  function activate(slot) {
    slots.forEach(function (s) { s.classList.toggle("active", s === slot); });
    active = slot;
    if (!picker) return;
    picker.setLevel(slot ? slotLevel(slot) : "");
    // every place filled: the picker steps aside until a place is tapped again
    pickerEl.hidden = !slot;
  }

  function firstEmpty(level) {
    var open = openSlots();
    for (var i = 0; i < open.length; i++) {
      if ((level === undefined || slotLevel(open[i]) === String(level)) && !slotInput(open[i]).value.trim()) return open[i];
    }
    return null;
  }

  function updateReady() {
    var note = form.querySelector(".ready-note");
    if (!note) return;
    var open = openSlots();
    var emptyCards = open.filter(function (s) { return !slotInput(s).value.trim(); }).length;
    var parts = [];
    ((window.tablelog && window.tablelog.setup) || []).forEach(function (widget) {
      var missing = widget.missing();
      if (missing) parts.push(missing);
    });
    if (emptyCards) parts.push(emptyCards + " card" + (emptyCards === 1 ? "" : "s"));
    note.textContent = parts.length ? "Still to enter: " + parts.join(", ") + "." : "Ready.";
  }

  if (picker) {
    slots.forEach(function (slot) {
      drawSlot(slot);
      // a text the server could not read as one card is dropped: the picker replaces it
      if (!slot.classList.contains("filled")) slotInput(slot).value = "";
      slot.querySelector(".slot-pick").addEventListener("click", function () {
        if (slotInput(slot).value.trim()) {
          clearSlot(slot);
          syncTaken();
          updateReady();
        }
        activate(slot);
      });
    });
    pickerEl.addEventListener("picker:pick", function (ev) {
      var level = String(ev.detail.level);
      var slot = active && slotLevel(active) === level && !active.hidden ? active : firstEmpty(level);
      if (!slot) {
        pickerEl.querySelector(".picker-msg").textContent = "Every place of that level is filled: tap one to change it.";
        return;
      }
      slotInput(slot).value = ev.detail.id;
      drawSlot(slot);
      slot.classList.remove("has-error");
      var error = form.querySelector('[data-error-for="' + slotInput(slot).name + '"]');
      if (error) error.hidden = true;
      syncTaken();
      var next = firstEmpty(level) || firstEmpty();
      activate(next);
      var q = pickerEl.querySelector(".picker-q");
      if (q.value) { q.value = ""; picker.search(""); }
      updateReady();
    });
    activate(firstEmpty());
  }

  // one tap creates one game: the button is off while the form is on its way
  form.addEventListener("submit", function () {
    var button = form.querySelector('button[type="submit"]');
    setTimeout(function () { button.disabled = true; button.textContent = "Creating\u2026"; }, 0);
  });
  window.addEventListener("pageshow", function () { // back to the page from the history
    var button = form.querySelector('button[type="submit"]');
    button.disabled = false;
    button.textContent = "Create the game";
  });

  form.addEventListener("setup:change", updateReady);
  updatePlayers();
})();
