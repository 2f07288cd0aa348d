/* tablelog: the new-game page (templates/newgame/new.html).
 *
 * The form works without this script (text fields: names, the board as letters, each
 * card by id or description).  With it:
 *  - the game select reloads the page for the chosen game;
 *  - "who starts" shows the names typed; classic Splendor's extra seats and nobles
 *    follow the number of players;
 *  - the board is entered by taps: colours in spiral order, or a colour then its
 *    squares; the letters field stays the one value sent, and counts per colour and what
 *    is still missing are shown against the game's tokens;
 *  - the cards are chosen with the card picker (picker.js): tap a place, then a card;
 *    a chosen card leaves the picker, a tap on a filled place gives it back.
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

  // the cards' places and the picker (used from the players' and the board's code too)
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

  // --- the board -----------------------------------------------------------------------
  var boardSet = form.querySelector(".board-entry");
  var boardInput = document.getElementById("board");
  var squares = [];
  var swatches = [];
  var brush = null; // the colour painted in "paint" mode ("" erases)
  var cursor = 0; // the spiral place (0-based) the next colour goes to in "spiral" mode

  function letters() {
    var text = boardInput.value.toUpperCase().replace(/\s+/g, "");
    var out = [];
    for (var i = 0; i < squares.length; i++) out.push(text.charAt(i) === "." ? "" : text.charAt(i));
    return out;
  }

  function writeLetters(list) {
    // trailing empty places are left out; an empty place before a filled one is "."
    var last = -1;
    list.forEach(function (l, i) { if (l) last = i; });
    var chars = list.slice(0, last + 1).map(function (l) { return l || "."; }).join("");
    var groups = chars.match(/.{1,5}/g) || [];
    boardInput.value = groups.join(" ");
  }

  function mode() {
    var checked = form.querySelector('input[name="board_mode"]:checked');
    return checked ? checked.value : "spiral";
  }

  function colourOf(letter) {
    for (var i = 0; i < swatches.length; i++) {
      if (swatches[i].getAttribute("data-letter") === letter) return swatches[i].getAttribute("data-color");
    }
    return "";
  }

  function drawBoard() {
    var list = letters();
    squares.forEach(function (sq) {
      var i = Number(sq.getAttribute("data-spiral")) - 1;
      var letter = list[i] || "";
      var holder = sq.querySelector(".sq-token");
      holder.textContent = "";
      var colour = colourOf(letter);
      if (letter) {
        var t = document.createElement("span");
        t.className = "token" + (colour ? " t-" + colour : " t-unknown");
        t.textContent = letter;
        holder.appendChild(t);
      }
      sq.classList.toggle("filled", Boolean(letter));
      sq.classList.toggle("cursor", mode() === "spiral" && i === cursor);
      sq.setAttribute("aria-label", sq.getAttribute("data-space") + ", spiral " + (i + 1) +
        (letter ? ", " + (colour || letter) : ", empty"));
    });
    var missing = [];
    var over = [];
    swatches.forEach(function (sw) {
      var letter = sw.getAttribute("data-letter");
      if (!letter) return;
      var total = Number(sw.getAttribute("data-total"));
      var n = list.filter(function (l) { return l === letter; }).length;
      sw.querySelector(".swatch-count").textContent = n + "/" + total;
      sw.classList.toggle("full", n === total);
      sw.classList.toggle("over", n > total);
      if (n < total) missing.push((total - n) + " " + sw.getAttribute("data-color"));
      if (n > total) over.push((n - total) + " " + sw.getAttribute("data-color") + " too many");
    });
    var filled = list.filter(Boolean).length;
    var note = boardSet.querySelector(".board-missing");
    if (filled === squares.length && !missing.length && !over.length) {
      note.textContent = "The board is complete.";
      note.classList.remove("is-error");
    } else {
      note.textContent = filled + " of " + squares.length + " squares" +
        (missing.length ? "; still missing: " + missing.join(", ") : "") +
        (over.length ? "; " + over.join(", ") : "");
      note.classList.toggle("is-error", over.length > 0);
    }
    var hint = boardSet.querySelector(".board-hint");
    if (mode() === "spiral") {
      hint.textContent = cursor < squares.length
        ? "Tap the colour of square " + (cursor + 1) + " of the spiral (tap a square to go back to it)."
        : "All squares are filled; tap a square to change it.";
    } else {
      hint.textContent = brush === null ? "Tap a colour, then the squares that hold it."
        : "Tap the squares that hold " + (brush ? colourOf(brush) : "nothing (erase)") + ".";
    }
    swatches.forEach(function (sw) {
      sw.setAttribute("aria-pressed", String(mode() === "paint" && sw.getAttribute("data-letter") === brush));
    });
    updateReady();
  }

  function nextEmpty(from) {
    var list = letters();
    for (var i = from; i < squares.length; i++) if (!list[i]) return i;
    for (var j = 0; j < from; j++) if (!list[j]) return j;
    return squares.length;
  }

  function place(i, letter) {
    var list = letters();
    list[i] = letter;
    writeLetters(list);
  }

  if (boardSet && boardInput) {
    squares = Array.prototype.slice.call(boardSet.querySelectorAll(".sq"));
    swatches = Array.prototype.slice.call(boardSet.querySelectorAll(".swatch"));
    cursor = nextEmpty(0);
    boardSet.addEventListener("click", function (ev) {
      var sw = ev.target.closest(".swatch");
      var sq = ev.target.closest(".sq");
      if (sw) {
        var letter = sw.getAttribute("data-letter");
        if (mode() === "spiral") {
          if (cursor >= squares.length) cursor = nextEmpty(0);
          if (cursor < squares.length) {
            place(cursor, letter);
            cursor = letter ? nextEmpty(cursor + 1) : cursor;
          }
        } else {
          brush = brush === letter ? null : letter;
        }
        drawBoard();
      } else if (sq) {
        var i = Number(sq.getAttribute("data-spiral")) - 1;
        if (mode() === "spiral") {
          cursor = i;
        } else if (brush !== null) {
          place(i, letters()[i] === brush ? "" : brush);
        }
        drawBoard();
      }
    });
    boardSet.addEventListener("change", function (ev) {
      if (ev.target.name === "board_mode") { cursor = nextEmpty(0); drawBoard(); }
    });
    boardInput.addEventListener("input", function () { cursor = nextEmpty(0); drawBoard(); });
    drawBoard();
  }

  // --- the cards -----------------------------------------------------------------------

  function slotInput(slot) { return slot.querySelector("input"); }
  function slotLevel(slot) { return slot.closest(".slot-row").getAttribute("data-level"); }

  function cardMarkup(id) {
    var pick = pickerEl.querySelector('.pick[data-card="' + id + '"] .card, .pick[data-card="' + id + '"] .royal');
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
    if (boardInput) {
      var filled = letters().filter(Boolean).length;
      if (filled < squares.length) parts.push((squares.length - filled) + " board squares");
    }
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

  updatePlayers();
})();
