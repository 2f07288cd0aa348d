/* Splendor Duel on the new-game page: the board's setup widget (templates/setup.html).
 * The board is entered by taps: colours in spiral order, or a colour then its squares;
 * the letters field stays the one value sent, and counts per colour and what is still
 * missing are shown against the game's tokens.  The page's script (web/static/newgame.js,
 * loaded after this one) asks window.tablelog.setup what is still missing and hears of a
 * change by the "setup:change" event on the form.  No inline script or style (CSP). */
(function () {
  "use strict";

  var form = document.querySelector(".newgame-form");
  if (!form) return;

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
    form.dispatchEvent(new CustomEvent("setup:change"));
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

  function missing() {
    var filled = letters().filter(Boolean).length;
    return filled < squares.length ? (squares.length - filled) + " board squares" : "";
  }

  if (boardSet && boardInput) {
    var tablelog = window.tablelog = window.tablelog || {};
    tablelog.setup = tablelog.setup || [];
    tablelog.setup.push({ missing: missing });
  }
})();
