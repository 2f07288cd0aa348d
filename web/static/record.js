// tablelog: logging a game by tapping the table.  The page works without this script (the
// form takes one decision in notation); here every decision is built from the game's legal
// choices, which travel with the page in a JSON block (#record-data): tap what a decision
// touches on the table (the targets of its choice), confirm it at the bottom, and the same
// form is posted with fetch.
//
// This script speaks only the contract (seats, decisions with their targets, the
// observations due, the card look-up).  What is the game's own comes with the page: its
// widgets' data (``widgets``: which families are built by tapping the table, offered as
// buttons or logged at once, a piece taken as tapped, its colour letters, the hints,
// the pick list, the discard, a draw typed as a string; docs/games.md) and, where the game has one, its script's
// hooks (window.tablelog.widgets[kind], loaded before this one).  After each answer the page is fetched again and
// redrawn: the server's page is the one source of truth.
//
// A club's Wi-Fi drops out: every decision goes first into a queue kept in the browser's
// storage (localStorage: a plain-HTTP address has no service worker), under an id the page
// chose, then is sent in order with the step it expects.  Without a connection the queue
// waits (and survives a reload); an answer lost on the way is harmless, the same id sent
// again being answered "already stored".  Another phone's move logged meanwhile is shown
// beside the waiting ones, and the player chooses.
(function () {
  "use strict";

  // The game's widgets (data.widgets): each list of families as a set.
  function widget(name) { return (data && data.widgets && data.widgets[name]) || {}; }
  var families = null;  // the sets of family(), for the data they were made of
  function family(name) {
    if (!families || families.data !== data) families = { data: data, sets: {} };
    var set = families.sets[name];
    if (!set) {
      set = families.sets[name] = {};
      ((data && data.widgets && data.widgets[name]) || []).forEach(function (g) { set[g] = 1; });
    }
    return set;
  }
  // Families of decisions built by tapping pieces on the table.
  function onTable(group) { return !!family("on_table")[group]; }
  // Families offered as buttons in the sheet when due ...
  function asButton(group) { return !!family("as_buttons")[group]; }
  // ... of which these are logged by their tap (nothing else to choose with them).
  function atOnce(group) { return !!family("at_once")[group]; }
  // The game's script's hooks, if it has one.
  function hooks() {
    var all = window.tablelog && window.tablelog.widgets;
    return (data && all && all[data.kind]) || {};
  }
  // ``{name}`` in a text of the game's widgets, from ``values``.
  function fill(text, values) {
    return String(text || "").replace(/\{(\w+)\}/g, function (m, k) { return values[k] !== undefined ? values[k] : m; });
  }

  var data = null;     // the page's JSON block
  var sel = [];        // the targets tapped so far (a multiset, in tapping order)
  var chosen = null;   // the choice to confirm, when picked from buttons or alternatives
  var mode = null;     // null (the table), "repl", "discard", "pick"
  var pickList = [];   // the choices of a pick list (a reveal, a blind reserve shown)
  var pickTitle = "";
  var query = "";
  var found = null;    // the ids the game's card look-up found for the query (null: none asked)
  var foundError = ""; // what the look-up said of a word printed on no card
  var lookUps = 0;     // look-ups asked: only the last one's answer is shown
  var lookUpTimer = null;
  var drawn = [];      // a draw (the game's ``draw`` widget): the letters drawn so far, in order
  var replError = "";  // what the typed draw has that the pool has not
  var replFocus = false; // the typed draw keeps the keyboard while it is redrawn
  var message = null;  // what the last answer said: {kind, ...}
  var undoAsk = false;
  var busy = false;
  var queue = [];      // the decisions not yet stored: {id, move, expect, as_played}
  var sending = false; // one of them is on its way
  var offline = false; // the last attempt found no connection
  var stale = false;   // the table drawn is older than what was stored (no page since)
  var paused = false;  // a waiting decision was refused: the rest wait for the player
  var sent = [];       // the texts stored since the page was last drawn

  function root() { return document.getElementById("record"); }
  function sheet() { return document.getElementById("rec-sheet"); }

  function csrf() {
    var m = document.querySelector('meta[name="csrf-token"]');
    return m ? m.getAttribute("content") : "";
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  function button(cls, text, onTap) {
    var b = el("button", cls, text);
    b.type = "button";
    b.addEventListener("click", function (ev) { ev.preventDefault(); if (!busy) onTap(); });
    return b;
  }

  // --- matching the selection against the choices -------------------------------------

  function counts(list) {
    var m = {};
    list.forEach(function (t) { m[t] = (m[t] || 0) + 1; });
    return m;
  }

  function within(small, big) {
    for (var k in small) if ((big[k] || 0) < small[k]) return false;
    return true;
  }

  function isHidden(t) { return t.indexOf("hidden-") === 0; }

  function tableChoices() {
    return data.choices.filter(function (c) {
      return onTable(c.group) && !c.targets.some(isHidden);
    });
  }

  function candidates(selection) {
    var want = counts(selection);
    return tableChoices().filter(function (c) { return within(want, counts(c.targets)); });
  }

  function exact(selection) {
    return candidates(selection).filter(function (c) { return c.targets.length === selection.length; });
  }

  function sameKind(a, b) {
    return a.group === b.group && a.targets.slice().sort().join(" ") === b.targets.slice().sort().join(" ");
  }

  // The decision to confirm now and its alternatives (the other payments of a purchase).
  function current() {
    var ex = exact(sel);
    if (chosen) {
      var alts = ex.filter(function (c) { return sameKind(c, chosen); });
      return { choice: chosen, alts: alts.length > 1 ? alts : [] };
    }
    if (!ex.length) return null;
    var first = ex[0];
    var same = ex.filter(function (c) { return sameKind(c, first); });
    return { choice: first, alts: same.length > 1 ? same : [] };
  }

  // The piece a decision starts from when it has one (the game's ``starts``: its first or
  // last target, when it has several): a decision that needs it is not meant until it is
  // tapped.
  function starter(c) {
    var which = widget("starts")[c.group];
    if (!which || c.targets.length < 2) return null;
    return which === "last" ? c.targets[c.targets.length - 1] : c.targets[0];
  }

  // The decision the selection completes with nothing left to choose (three tokens in a
  // line, a card with one way to pay): logged at its last tap, no confirm.
  function complete() {
    var ex = exact(sel);
    if (ex.length !== 1) return null;
    var longer = candidates(sel).filter(function (c) {
      if (c.targets.length <= sel.length) return false;
      var s0 = starter(c);
      return !(s0 && sel.indexOf(s0) < 0);
    });
    return longer.length ? null : ex[0];
  }

  // The piece every decision due shares, where the game's ``given`` names it for their
  // family (family → its "first" or "last" target: the card drawn, which a row then
  // takes): taken as tapped when the page is drawn, so the one tap left builds the
  // decision.  [] when the decisions due are not all of such a family, or differ in it.
  function given() {
    var which = widget("given"), piece = null;
    var all = data.phase === "playing" && data.choices.length > 0 && data.choices.every(function (c) {
      var w = which[c.group];
      if (!w || !onTable(c.group) || c.targets.length < 2) return false;
      var t = w === "last" ? c.targets[c.targets.length - 1] : c.targets[0];
      if (piece === null) piece = t;
      return t === piece;
    });
    return all ? [piece] : [];
  }

  function isGiven(selection) {
    var g = given();
    return selection.length === g.length && selection.every(function (t, i) { return t === g[i]; });
  }

  function isPickGroup(group) {
    return (widget("pick").groups || []).indexOf(group) >= 0;
  }

  function groups() {
    var g = {};
    data.choices.forEach(function (c) { g[c.group] = (g[c.group] || 0) + 1; });
    return g;
  }

  // --- drawing ----------------------------------------------------------------------------

  function paintTargets() {
    var r = root();
    var lit = {};
    if (mode === null && data.phase === "playing" && !queue.length && !stale) {
      var selCount = counts(sel);
      candidates(sel).forEach(function (c) {
        var left = Object.assign({}, selCount);
        c.targets.forEach(function (t) {
          if (left[t]) left[t] -= 1; else lit[t] = 1;
        });
      });
      if (!sel.length) {
        data.observations.forEach(function (o) { lit[o.targets[0]] = 1; });
        data.choices.forEach(function (c) { if (isHidden(c.targets[0] || "")) lit[c.targets[0]] = 1; });
      }
    }
    var next = mode === "repl" ? replSpaces()[drawn.length] : null;
    r.querySelectorAll("[data-target]").forEach(function (e) {
      var t = e.getAttribute("data-target");
      var isSel = sel.indexOf(t) >= 0 && mode === null;
      var picked = mode === null ? sel.filter(function (x) { return x === t; }).length : 0;
      e.classList.toggle("sel", isSel);
      // lit: a tap adds it (again, when a decision takes two of it)
      e.classList.toggle("lit", !!lit[t]);
      if (picked > 1) e.setAttribute("data-picked", String(picked));
      else e.removeAttribute("data-picked");
      e.classList.toggle("dim", !isSel && !lit[t] && !(next && e === next));
      e.classList.toggle("next", !!(next && e === next));
      e.setAttribute("aria-pressed", isSel ? "true" : "false");
    });
    r.querySelectorAll("[data-draw] .drawn").forEach(function (d) { d.remove(); });
    if (mode === "repl") {
      var spaces = replSpaces();
      drawn.forEach(function (letter, i) {
        if (spaces[i]) {
          var tok = el("span", "token drawn t-" + colourName(letter), letter);
          spaces[i].insertBefore(tok, spaces[i].firstChild);
        }
      });
    }
  }

  function colourName(letter) {
    var found = (data.pool || []).filter(function (t) { return t.letter === letter; })[0];
    if (found) return found.color;
    return widget("letters")[letter] || "none";
  }

  function token(letter) {
    return el("span", "token t-" + colourName(letter), letter);
  }

  function citation(v) {
    if (v.citation) return v.citation;
    var rule = v.rule;
    var section = typeof rule === "string" ? rule : rule && rule.section;
    var page = v.page || (rule && rule.page);
    return [page ? "p." + page : "", section || ""].filter(Boolean).join(", ");
  }

  function drawMessage(box) {
    if (!message) return;
    var m = message;
    if (m.kind === "done") {
      box.appendChild(el("p", "done", m.text));
      return;
    }
    if (m.kind === "unlit") {
      var u = el("div", "notice unlit");
      var line = el("p", "why", (m.move ? m.move + ": " : "") + m.text);
      if (m.cite) line.appendChild(el("cite", "", " " + m.cite));
      u.appendChild(line);
      if (m.move) {
        var tryB = button("btn try-anyway", "Try ", function () { submit(m.move, false); });
        tryB.appendChild(el("code", "", m.move));
        tryB.appendChild(document.createTextNode(" anyway"));
        tryB.setAttribute("data-text", m.move);
        u.appendChild(tryB);
      }
      if (m.restart) {
        u.appendChild(button("btn restart", "Start again from " + m.target, function () {
          sel = [m.target]; message = null; render();
        }));
      }
      box.appendChild(u);
      return;
    }
    if (m.kind === "notice") {
      var n = el("div", "notice");
      n.appendChild(el("p", "", m.text));
      if (m.logged && m.logged.length) {
        var ul = el("ul", "");
        m.logged.forEach(function (r) { ul.appendChild(el("li", "", "step " + r.step + ": " + (r.who ? r.who + " " : "") + r.text)); });
        n.appendChild(ul);
      }
      box.appendChild(n);
      return;
    }
    var d = el("div", "refused");
    d.setAttribute("role", "alert");
    var p = el("p", "");
    p.appendChild(el("b", "", m.title + ". "));
    p.appendChild(document.createTextNode(m.move ? m.move : ""));
    d.appendChild(p);
    if (m.column) d.appendChild(el("p", "", "At column " + m.column + ": " + (m.text || "")));
    else if (m.text && !(m.violations && m.violations.length)) d.appendChild(el("p", "", m.text));
    if (m.violations && m.violations.length) {
      var ul2 = el("ul", "violations");
      m.violations.forEach(function (v) {
        var li = el("li", "", v.message);
        var c = citation(v);
        if (c) li.appendChild(el("cite", "", c));
        ul2.appendChild(li);
      });
      d.appendChild(ul2);
    }
    if (m.completions && m.completions.length) {
      // The legal decisions that complete what was typed (a part left out): log one.
      d.appendChild(el("p", "rec-meant", "Did you mean:"));
      var list = el("div", "rec-completions");
      m.completions.forEach(function (text) {
        var b = button("btn big completion", "Log ", function () { submit(text, false); });
        b.appendChild(el("code", "", text));
        b.setAttribute("data-text", text);
        list.appendChild(b);
      });
      d.appendChild(list);
    }
    if (m.asPlayed) {
      d.appendChild(button("btn warn as-played", "Record it as played (flagged)", function () {
        submit(m.move, true);
      }));
    }
    box.appendChild(d);
  }

  function drawConfirm(box, cur) {
    var c = cur.choice;
    var b = button("confirm", c.label, function () { submit(c.text, false); });
    b.setAttribute("data-text", c.text);
    b.appendChild(el("code", "", c.text));
    box.appendChild(b);
    if (cur.alts.length) {
      box.appendChild(el("p", "hint", "Or pay another way (a tap logs it):"));
      var row = el("div", "row alts");
      cur.alts.forEach(function (a) {
        var words = a.label.indexOf(" paying ") >= 0 ? a.label.split(" paying ")[1] : a.text;
        var alt = button("alt" + (a.text === c.text ? " on" : ""), "", function () {
          submit(a.text, false);
        });
        alt.setAttribute("data-text", a.text);
        alt.setAttribute("aria-label", "pay " + words);
        paymentChips(alt, a.text, words);
        row.appendChild(alt);
      });
      box.appendChild(row);
    }
  }

  // A payment as token discs with their counts, where the game's script reads them from
  // the decision's text (its hook ``payment(text)``: ``[[letter, count], ...]``); else
  // its words.
  function paymentChips(into, text, words) {
    var h = hooks();
    var parts = (h.payment && h.payment(text)) || [];
    if (!parts.length) { into.appendChild(el("span", "", words)); return; }
    parts.forEach(function (p) {
      var chip = el("span", "chip");
      chip.appendChild(token(p[0]));
      var n = String(p[1] || "");
      if (n && n !== "1") chip.appendChild(el("b", "", "×" + n));
      into.appendChild(chip);
    });
  }

  function drawTable(box) {
    var g = groups();
    var cur = current();
    if (cur) drawConfirm(box, cur);
    else if (data.phase === "playing") {
      var onTable = tableChoices().length;
      box.appendChild(el("p", "hint", onTable
        ? (sel.length && !isGiven(sel) ? "Tap more to complete the decision, or tap again to let go." : hintFor(g))
        : data.due));
    }
    var row = el("div", "row");
    var draw = widget("draw");
    if (draw.group && g[draw.group]) {
      row.appendChild(button("btn repl-start", draw.start, function () {
        mode = "repl"; drawn = []; replError = ""; replFocus = true; sel = []; chosen = null; message = null;
        fillRest();
        render();
        var board = root().querySelector(".rec-board");
        if (board) board.scrollIntoView({ block: "start" });
      }));
    }
    data.choices.forEach(function (c) {
      if (!asButton(c.group)) return;
      var on = chosen && chosen.text === c.text;
      var b = button("choice" + (on ? " on" : ""), c.label, function () {
        // a family logged at once: one tap logs it; another (giving up the game) asks first
        if (atOnce(c.group)) { submit(c.text, false); return; }
        chosen = c; sel = []; message = null; render();
      });
      b.setAttribute("aria-pressed", on ? "true" : "false");
      b.setAttribute("data-text", c.text);
      row.appendChild(b);
    });
    if ((sel.length && !isGiven(sel)) || chosen) {
      row.appendChild(button("btn clear", "Clear", function () { sel = given(); chosen = null; message = null; render(); }));
    }
    if (row.childNodes.length) box.appendChild(row);
  }

  // What to tap, from the game's hints: each said when one of its families is due.
  function hintFor(g) {
    var bits = [];
    (data.widgets.hints || []).forEach(function (h) {
      if (h[0].some(function (group) { return g[group]; })) bits.push(h[1]);
    });
    if (!bits.length) return data.due;
    var s = bits.join(", ");
    return s.charAt(0).toUpperCase() + s.slice(1) + ".";
  }

  // A draw (the game's ``draw`` widget): the pool's pieces go onto the places the table
  // marks ``data-draw``, in the order of their numbers.
  function replSpaces() {
    var spaces = Array.prototype.slice.call(root().querySelectorAll("[data-draw]"));
    spaces.sort(function (a, b) { return (+a.getAttribute("data-draw")) - (+b.getAttribute("data-draw")); });
    return spaces.slice(0, poolTotal());
  }

  function poolTotal() {
    return (data.pool || []).reduce(function (n, t) { return n + t.n; }, 0);
  }

  // What the pool still holds once ``list`` is drawn from it, by colour letter.
  function poolLeft(list) {
    var left = {};
    (data.pool || []).forEach(function (t) { left[t.letter] = t.n; });
    list.forEach(function (l) { left[l] -= 1; });
    return left;
  }

  // When what is left in the pool is one colour, the rest of the draw is known.
  function fillRest() {
    var left = poolLeft(drawn);
    var colours = Object.keys(left).filter(function (l) { return left[l] > 0; });
    if (colours.length === 1) for (var i = left[colours[0]]; i > 0; i--) drawn.push(colours[0]);
  }

  // The draw typed as a string (``WBRKP``): the letters the pool can give, in order; the
  // first it cannot give is named.
  function typedDraw(text) {
    var left = poolLeft([]);
    var out = [];
    var bad = "";
    text.toUpperCase().replace(/[^A-Z]/g, "").split("").forEach(function (l) {
      if (bad || out.length >= poolTotal()) return;
      if ((left[l] || 0) > 0) { left[l] -= 1; out.push(l); } else bad = l;
    });
    return { drawn: out, bad: bad };
  }

  function drawRepl(box) {
    var draw = widget("draw");
    var total = poolTotal();
    var spaces = replSpaces();
    var left = poolLeft(drawn);
    var full = drawn.length >= total;
    var input = el("input", "repl-typed");
    input.type = "text";
    input.value = drawn.join("");
    input.setAttribute("autocomplete", "off");
    input.setAttribute("autocapitalize", "characters");
    input.setAttribute("spellcheck", "false");
    input.setAttribute("aria-label", draw.typed);
    input.placeholder = "type them: " + (data.pool || []).map(function (t) { return t.letter; }).join("");
    input.addEventListener("input", function () {
      var t = typedDraw(input.value);
      drawn = t.drawn;
      replError = t.bad ? fill(draw.lacks, { letter: t.bad, colour: colourName(t.bad) }) + (drawn.length ? "after " + drawn.join("") : "") : "";
      if (!t.bad) fillRest();
      replFocus = true;
      render();
    });
    input.addEventListener("keydown", function (ev) {
      if (ev.key === "Enter") { ev.preventDefault(); if (drawn.length >= total) submit(draw.verb + " " + drawn.join(""), false); }
    });
    if (full) {
      var text = draw.verb + " " + drawn.join("");
      var ch = data.choices.filter(function (c) { return c.group === draw.group; })[0];
      drawConfirm(box, { choice: { text: text, label: (ch ? ch.label : draw.label) + ": " + drawn.join(" "), group: draw.group, targets: [] }, alts: [] });
    } else {
      var next = spaces[drawn.length];
      box.appendChild(el("p", "hint", fill(draw.hint, {
        total: total, n: drawn.length + 1, next: next ? next.getAttribute("data-target") : draw.next })));
    }
    box.appendChild(input);
    if (replError) box.appendChild(el("p", "repl-error", replError));
    if (!full) {
      var row = el("div", "row colours");
      (data.pool || []).forEach(function (t) {
        if (left[t.letter] <= 0) return;
        var b = button("btn colour", "", function () { drawn.push(t.letter); fillRest(); replError = ""; render(); });
        b.setAttribute("data-letter", t.letter);
        b.setAttribute("aria-label", t.color + " (" + left[t.letter] + " left)");
        b.appendChild(token(t.letter));
        b.appendChild(el("span", "", "×" + left[t.letter]));
        row.appendChild(b);
      });
      box.appendChild(row);
    }
    var d = el("div", "drawn");
    drawn.forEach(function (l) { d.appendChild(token(l)); });
    box.appendChild(d);
    var row2 = el("div", "row");
    if (drawn.length) row2.appendChild(button("btn back", "Back one", function () { drawn.pop(); replError = ""; render(); }));
    row2.appendChild(button("btn cancel", "Cancel", function () { mode = null; drawn = []; replError = ""; render(); }));
    box.appendChild(row2);
  }

  // A discard (the game's ``discard`` widget): tap the colours put back.
  function drawDiscard(box) {
    var options = data.choices.filter(function (c) { return c.group === widget("discard").group; });
    var need = options.length ? options[0].targets.length : 0;
    var have = counts(sel);
    var match = options.filter(function (c) { return c.targets.length === sel.length && within(have, counts(c.targets)); })[0];
    if (match) drawConfirm(box, { choice: match, alts: [] });
    else box.appendChild(el("p", "hint", data.due + ": tap the " + need + " token" + (need === 1 ? "" : "s") + " put back (" + sel.length + " chosen)."));
    var letters = [];
    options.forEach(function (c) { c.targets.forEach(function (t) { if (letters.indexOf(t) < 0) letters.push(t); }); });
    var row = el("div", "row colours");
    letters.forEach(function (l) {
      var more = sel.concat([l]);
      var ok = options.some(function (c) { return within(counts(more), counts(c.targets)); });
      var b = button("btn colour", "", function () {
        if (!ok) return;
        sel = more;
        // the last token put back logs the discard (its colours are all it says)
        var whole = options.filter(function (c) { return c.targets.length === sel.length && within(counts(sel), counts(c.targets)); })[0];
        if (whole) { submit(whole.text, false); return; }
        render();
      });
      b.setAttribute("data-letter", l);
      b.disabled = !ok;
      b.appendChild(token(l));
      b.appendChild(el("span", "", (have[l] || 0) + " of " + held(l)));
      row.appendChild(b);
    });
    box.appendChild(row);
    if (sel.length) box.appendChild(button("btn clear", "Start again", function () { sel = []; render(); }));
  }

  function held(letter) {
    var cell = root().querySelector('.rec-player.to-move .tc[data-color="' + letter + '"] b');
    return cell ? cell.textContent : "?";
  }

  // A list to pick from: a card turned face up (the game's ``pick`` groups), a card the
  // table observed (a face-down card shown).
  function drawPick(box) {
    box.appendChild(el("p", "hint", pickTitle));
    var search = el("input", "");
    search.type = "search";
    search.placeholder = widget("pick").search || "what is printed: green 3 points";
    search.value = query;
    search.setAttribute("aria-label", "search the cards by what is printed on them");
    search.addEventListener("input", function () { query = search.value; lookUp(); });
    box.appendChild(search);
    box.appendChild(el("p", "pickcount"));
    var list = el("div", "picklist");
    box.appendChild(list);
    fillList();
    if (pickList.length && !isPickGroup(pickList[0].group)) {
      box.appendChild(button("btn cancel", "Cancel", function () { mode = null; chosen = null; forget(); render(); }));
    }
  }

  function forget() { query = ""; found = null; foundError = ""; lookUps += 1; }

  // The cards that fit the query, as the game's own look-up reads it (the new-game page's
  // and the command line's): the page never matches words itself.
  function lookUp() {
    clearTimeout(lookUpTimer);
    var q = query.trim();
    var asked = ++lookUps;
    if (!q) { found = null; foundError = ""; fillList(); return; }
    lookUpTimer = setTimeout(function () {
      fetch(data.find + "?q=" + encodeURIComponent(q), { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (r) { return r.json(); })
        .then(function (body) {
          if (asked !== lookUps) return;
          foundError = body.error || "";
          if (!body.error) found = new Set(body.ids || []);
          fillList();
        }, function () {
          if (asked !== lookUps) return;
          foundError = "the search did not answer; try again";
          fillList();
        });
    }, 120);
  }

  function fillList() {
    var box = sheet();
    var list = box && box.querySelector(".picklist");
    if (!list) return;
    list.textContent = "";
    var shown = 0;
    pickList.forEach(function (c) {
      var card = c.targets[c.targets.length - 1];
      var printed = (data.cards || {})[card] || "";
      if (found !== null && !found.has(card)) return;
      shown += 1;
      var short = isPickGroup(c.group) || data.observations.some(function (o) { return o.text === c.text; });
      var b = button("pick", null, function () { submit(c.text, false); });
      var picture = root().querySelector('#rec-pictures [data-card="' + card + '"]');
      if (picture && picture.firstElementChild) {
        var pic = el("span", "pic");
        pic.setAttribute("aria-hidden", "true");
        pic.appendChild(picture.firstElementChild.cloneNode(true));
        b.appendChild(pic);
      }
      b.appendChild(el("span", short ? "cid" : "", short ? card : c.label));
      b.setAttribute("data-text", c.text);
      if (short) b.setAttribute("aria-label", c.label);
      // the words without the id they start with (shown beside them already)
      if (short && printed.indexOf(card + " ") === 0) printed = printed.slice(card.length + 1);
      if (printed) b.appendChild(el("span", "words", printed));
      list.appendChild(b);
    });
    var count = box.querySelector(".pickcount");
    if (count) {
      count.textContent = foundError ? foundError
        : found === null ? ""
        : shown === 0 ? "no card that can be here fits \u201c" + query.trim() + "\u201d"
        : shown === 1 ? "1 card fits" : shown + " cards fit";
    }
  }

  function drawUndo(box) {
    var last = data.last;
    box.appendChild(el("p", "hint", "Take back " + last.says +
      "? It is logged as a correction; nothing is deleted."));
    var row = el("div", "row");
    row.appendChild(button("btn danger undo-yes", "Undo step " + last.step, function () { undo(); }));
    row.appendChild(button("btn undo-no", "Keep it", function () { undoAsk = false; render(); }));
    box.appendChild(row);
  }

  function openTyped() {
    var typed = root().querySelector("details.rec-type");
    if (typed) typed.open = true;
  }

  // What waits to be sent, and (another phone having logged first) the choice between
  // theirs and these.
  function drawQueue(box) {
    var q = el("div", "rec-queue");
    var conflict = queue[0].conflict;
    if (conflict !== undefined) {
      q.classList.add("conflict");
      q.setAttribute("role", "alert");
      q.appendChild(el("p", "", "Another phone logged meanwhile. Which is what was played?"));
      q.appendChild(el("p", "k", "Theirs, logged:"));
      var theirs = el("ul", "theirs");
      data.recent.filter(function (r) { return r.step > conflict; }).forEach(function (r) {
        theirs.appendChild(el("li", "", "step " + r.step + ": " + (r.who ? r.who + " " : "") + r.text));
      });
      q.appendChild(theirs);
      q.appendChild(el("p", "k", "Yours, not sent:"));
    } else {
      q.appendChild(el("p", "waiting", waitingText() + (sending ? " (sending…)" : offline ? ": no connection; they are sent when it returns" : "")));
    }
    var mine = el("ol", "mine");
    queue.forEach(function (item) { mine.appendChild(el("li", "", item.move + (item.as_played ? " (as played)" : ""))); });
    q.appendChild(mine);
    var row = el("div", "row");
    if (conflict !== undefined) {
      row.appendChild(button("btn keep-theirs", "Keep theirs, drop mine", function () {
        queue = []; saveQueue(); message = { kind: "done", text: "Yours dropped; the table is as the other phone logged it." }; render();
      }));
      row.appendChild(button("btn send-mine", "Send mine too, after theirs", function () {
        delete queue[0].conflict; queue[0].expect = data.steps; saveQueue(); flush();
      }));
    } else if (paused) {
      row.appendChild(button("btn send-waiting", "Send the waiting moves", function () { paused = false; flush(); }));
      row.appendChild(button("btn drop-waiting", "Drop them", function () { queue = []; paused = false; saveQueue(); render(); }));
    }
    if (row.childNodes.length) q.appendChild(row);
    box.appendChild(q);
  }

  function render() {
    if (!data) return;
    var g = groups();
    if (mode === null && data.phase === "playing" && data.taps) {
      var discard = widget("discard").group;
      var picks = data.choices.filter(function (c) { return isPickGroup(c.group); });
      if (discard && g[discard]) mode = "discard";
      else if (picks.length) {
        mode = "pick";
        pickList = picks;
        pickTitle = widget("pick").title;
      }
    }
    paintTargets();
    var box = sheet();
    if (!box) return;
    box.textContent = "";
    drawMessage(box);
    // one decision on its way as usual: "Logging…"; more, or no connection: the queue
    var plain = sending && queue.length === 1 && !offline && queue[0].conflict === undefined;
    if (queue.length && !plain) drawQueue(box);
    if (busy || plain) box.appendChild(el("p", "hint", "Logging…"));
    else if (queue.length || stale) {
      if (!sending && queue[0] && queue[0].conflict === undefined) {
        box.appendChild(el("p", "hint", "The table above is as it stood before " + (queue.length ? "the waiting moves" : "the last one") + ": type the next decision in notation below; it is checked when it is sent."));
        openTyped();
      }
    }
    else if (undoAsk && data.last) drawUndo(box);
    else if (!data.taps) { /* the typed form only: the sheet says what the server answered */ }
    else if (data.phase !== "playing") box.appendChild(el("p", "hint", data.due || "The game is over."));
    else if (mode === "repl") {
      drawRepl(box);
      var typed = box.querySelector(".repl-typed");
      if (typed && replFocus) { typed.focus(); typed.setSelectionRange(typed.value.length, typed.value.length); }
    }
    else if (mode === "discard") drawDiscard(box);
    else if (mode === "pick") drawPick(box);
    else drawTable(box);
    box.hidden = !box.childNodes.length;
  }

  // --- tapping the table ----------------------------------------------------------------

  function tap(target) {
    if (busy || !data || data.phase !== "playing") return;
    undoAsk = false;
    message = null;
    if (queue.length || stale) {
      // The table drawn is the one before the waiting moves: what it offers is not due.
      message = { kind: "notice", text: "The table shown is as it stood before the waiting moves: type the next decision below; it is checked when it is sent." };
      openTyped();
      render();
      return;
    }
    // Something is due before the table: say so rather than ignore the tap.
    var first = mode === "repl" ? widget("draw").first
      : mode === "discard" ? widget("discard").first
      : mode === "pick" && pickList.length && isPickGroup(pickList[0].group)
        ? widget("pick").first
        : null;
    if (first) { message = { kind: "notice", text: first }; render(); return; }
    if (isHidden(target)) {
      // A face-down reserve: bought as the card it turns out to be, or shown.
      var bought = data.choices.filter(function (c) { return c.targets[0] === target; });
      var shown = data.observations.filter(function (o) { return o.targets[0] === target; });
      if (bought.length || shown.length) {
        mode = "pick"; pickList = bought.concat(shown); chosen = null; forget();
        pickTitle = bought.length
          ? "Which card is it? Buy it as the card it turns out to be, or log it shown."
          : "Which card is this blind reserve? Tap it once its owner shows it.";
      } else {
        message = { kind: "notice", text: "This face-down card cannot be bought or shown now." };
      }
      render();
      return;
    }
    mode = null;
    chosen = null;
    // A piece tapped again counts twice where a decision takes two of it (two red
    // tokens of the bank), else it is let go.
    var i = sel.indexOf(target);
    if (candidates(sel.concat([target])).length) {
      sel = sel.concat([target]);
    } else if (i >= 0) {
      sel.splice(i, 1);
    } else if (!sel.length && candidates([target]).length) {
      sel = [target];
    } else {
      // not lit: say why rather than start again from it (a button does that)
      tryAnyway(target);
      return;
    }
    var done = complete();
    if (done) { submit(done.text, false); return; }
    render();
    showAboveSheet(root().querySelector('[data-target="' + target + '"]'));
  }

  // --- keeping the next tap in sight -----------------------------------------------------

  // ``e`` scrolled, if need be, to between the sticky top and the sheet at the bottom.
  function showAboveSheet(e) {
    if (!e) return;
    var box = sheet();
    var head = root().querySelector(".rec-top");
    var r = e.getBoundingClientRect();
    var bottom = window.innerHeight - (box && !box.hidden ? box.offsetHeight : 0);
    var top = head ? head.getBoundingClientRect().bottom : 0;
    if (r.bottom > bottom - 6) window.scrollBy(0, Math.min(r.bottom - bottom + 6, r.top - top - 6));
    else if (r.top < top + 6) window.scrollBy(0, r.top - top - 6);
  }

  // After a step: what is due on the table (the game's ``focused`` families: a piece
  // chosen on its own) is brought into view; a turn's action starts from the board's top.
  var turnOf = null;  // the seat whose turn the page last showed
  function showNext() {
    if (mode !== null || queue.length || stale || data.phase !== "playing") return;
    var mover = data.to_move, newTurn = turnOf !== null && mover !== turnOf;
    turnOf = mover;
    var lit = root().querySelector("[data-target].lit");
    if (!lit) return;
    var focus = family("focused");
    var focused = data.choices.length && data.choices.every(function (c) { return focus[c.group] || asButton(c.group); });
    if (focused) { showAboveSheet(lit); return; }
    // another player's turn: the table from its top (the board, the bank), where a turn's
    // first tap usually goes, when the last player left it scrolled above the screen
    if (newTurn) {
      var table = root().querySelector(".rec-table");
      var head = root().querySelector(".rec-top");
      if (!table) return;
      var top = head ? head.getBoundingClientRect().bottom : 0;
      var r = table.getBoundingClientRect();
      if (r.top < top) window.scrollBy(0, r.top - top - 6);
    }
  }

  // --- a piece that is not lit -------------------------------------------------------------

  // The move the selection and the piece tapped would write, as far as the pieces say it:
  // the game's script writes it (its hook ``attempted(targets, choices)``), null if not.
  function attempted(list) {
    var h = hooks();
    return h.attempted ? h.attempted(list, data.choices) : null;
  }

  // Why the rules do not let the piece tapped be part of a decision now: the game's own
  // verdict on the move it would make (its rule and page), and the move to try anyway.
  function tryAnyway(target) {
    var attempt = attempted(sel.concat([target])) || attempted([target]);
    message = { kind: "unlit", target: target, move: attempt, text: "checking…", restart: candidates([target]).length > 0 };
    render();
    showAboveSheet(root().querySelector('[data-target="' + target + '"]'));
    if (!attempt) { message.text = target + " is not part of any legal decision now."; render(); return; }
    if (!data.check) { message.text = attempt + " is not part of any legal decision now."; render(); return; }
    var mine = message;
    fetch(data.check + "?step=" + data.steps + "&move=" + encodeURIComponent(attempt), { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.json(); })
      .then(function (v) {
        if (message !== mine) return;
        var first = (v.violations || [])[0];
        mine.text = first ? first.message : v.error || (v.legal ? "legal, though not as these taps build it" : "not legal here");
        mine.cite = first ? citation(first) : "";
        render();
      }, function () {
        if (message !== mine) return;
        mine.text = "not part of any legal decision now (no connection to ask the rules why)";
        render();
      });
  }

  // --- writing ----------------------------------------------------------------------------

  function post(url, fields) {
    var body = new URLSearchParams();
    Object.keys(fields).forEach(function (k) { body.set(k, fields[k]); });
    body.set("csrf_token", csrf());
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Accept": "application/json", "X-CSRFToken": csrf() },
      body: body,
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (j) { return { status: r.status, body: j }; });
    });
  }

  // --- the queue of decisions not yet stored -----------------------------------------------

  function queueKey() { return "tablelog-queue-" + data.game; }

  function loadQueue() {
    try {
      var q = JSON.parse(window.localStorage.getItem(queueKey()) || "[]");
      queue = Array.isArray(q) ? q : [];
    } catch (e) { queue = []; }
  }

  function saveQueue() {
    try {
      if (queue.length) window.localStorage.setItem(queueKey(), JSON.stringify(queue));
      else window.localStorage.removeItem(queueKey());
    } catch (e) { /* private mode: the queue lives as long as the page */ }
  }

  // An id of the page's own choosing (crypto.randomUUID needs HTTPS; this does not).
  function newId() {
    var bytes = new Uint8Array(12);
    window.crypto.getRandomValues(bytes);
    return "p" + Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  function waitingText() {
    return queue.length + (queue.length === 1 ? " move" : " moves") + " waiting to be sent";
  }

  // A decision goes into the queue, then is sent when its turn comes.
  function submit(text, asPlayed) {
    // the what-if mode (data.whatif): the decision goes into the line in the address,
    // nothing is posted; the next page is the rules' verdict on it
    if (data.whatif) {
      var q = data.whatif.query ? data.whatif.query + "&" : "";
      window.location.assign(data.whatif.taps + "?" + q + "line=" + encodeURIComponent(text));
      return;
    }
    // expect: the steps of the table the player saw (null: right after the one before)
    var item = { id: newId(), move: text, expect: null, as_played: !!asPlayed };
    if (paused) { item.expect = data.steps; queue.unshift(item); }
    else { if (!queue.length) item.expect = data.steps; queue.push(item); }
    saveQueue();
    sel = []; chosen = null; mode = null; message = null; paused = false;
    flush();
  }

  function flush() {
    if (sending || busy || paused || !queue.length || queue[0].conflict !== undefined) { render(); return; }
    var item = queue[0];
    if (item.expect === null) item.expect = data.steps;
    var fields = { move: item.move, expect: String(item.expect), id: item.id };
    if (item.as_played) fields.as_played = "1";
    sending = true;
    message = null;
    render();
    post(data.post, fields).then(function (res) {
      sending = false;
      offline = false;
      sentAnswer(item, res);
    }, function () {
      sending = false;
      offline = true;
      render();
    });
  }

  function sentAnswer(item, res) {
    var s = res.status;
    var b = res.body || {};
    var err = b.error || {};
    if (queue[0] !== item) return;
    if (s === 201 || s === 200) {
      queue.shift();
      if (queue.length) queue[0].expect = b.step;
      saveQueue();
      data.steps = b.step;
      stale = true;
      var texts = b.texts && b.texts.length ? b.texts : [item.move];
      sent.push(texts.join(" · ") + (b.flagged && b.flagged.some(function (f) { return f && f.length; }) ? " (flagged as played though illegal)" : ""));
      if (queue.length) { flush(); return; }
      var done = sent.length > 1 ? "Sent " + sent.length + " waiting moves: " + sent.join(" · ") : "Logged: " + sent[0];
      refresh({ kind: "done", text: done });
      return;
    }
    if (s === 409 && b.step !== undefined && err.title !== "The id is another move's") {
      // Another phone logged first: the table as it stands, then the player's choice.
      item.conflict = item.expect;
      saveQueue();
      refresh(null);
      return;
    }
    if (s === 401 || s === 403) { window.location.reload(); return; }
    // Refused: it is dropped (the player may record it as played); what waited behind it
    // waits for the player.
    queue.shift();
    paused = queue.length > 0;
    saveQueue();
    answer(res, item.move, item.expect);
  }

  function undo() {
    var expect = data.steps;
    busy = true;
    undoAsk = false;
    render();
    var last = data.last;
    post(data.undo, { expect: String(expect) }).then(function (res) {
      if (res.status === 201 && last) {
        busy = false;
        refresh({ kind: "done", text: "Taken back: step " + last.step + ", " + last.text + " (logged as a correction)." });
        return;
      }
      answer(res, "undo", expect);
    }, failed);
  }

  function failed() {
    busy = false;
    message = { kind: "refused", title: "No answer from the server", text: "Nothing was logged; try again." };
    render();
  }

  function answer(res, text, expect) {
    busy = false;
    var s = res.status;
    var b = res.body || {};
    var err = b.error || {};
    if (s === 201) {
      refresh({ kind: "done", text: "Taken back." });
      return;
    }
    if (s === 409 && b.step !== undefined) {
      refresh({ kind: "notice", since: expect, text: "Another phone logged first, so " + text + " was not logged. The table is now as it stands; look, then log again." });
      return;
    }
    if (s === 401 || s === 403) { window.location.reload(); return; }
    var verdict = b.verdict || err.verdict || {};
    message = {
      kind: "refused",
      title: s === 422 ? "Illegal here" : (s === 400 && (b.column || err.column) && !b.incomplete) ? "Cannot read this move" : (err.title || "Refused (" + s + ")"),
      text: err.message || "",
      violations: verdict.violations || [],
      column: s === 400 ? (b.column || err.column) : null,
      move: text === "undo" ? "" : text,
      completions: b.completions || [],
      asPlayed: s === 422 && b.as_played !== false,
    };
    render();
  }

  function refresh(msg) {
    busy = true;
    fetch(data.page, { credentials: "same-origin", headers: { "Accept": "text/html" }, cache: "no-store" })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("record");
        if (!fresh) { window.location.reload(); return; }
        root().replaceWith(document.importNode(fresh, true));
        var meta = doc.querySelector('meta[name="csrf-token"]');
        var mine = document.querySelector('meta[name="csrf-token"]');
        if (meta && mine) mine.setAttribute("content", meta.getAttribute("content"));
        busy = false;
        stale = false;
        sent = [];
        start(msg);
      }, function () {
        // No connection: what was stored is stored; the table is drawn again once it is back.
        busy = false;
        offline = true;
        stale = true;
        if (msg) message = msg;
        render();
      });
  }

  // --- start ------------------------------------------------------------------------------

  function start(msg) {
    var r = root();
    var block = document.getElementById("record-data");
    if (!r || !block) return;
    data = JSON.parse(block.textContent);
    sel = []; chosen = null; mode = null; pickList = []; forget(); drawn = []; undoAsk = false;
    sel = given();
    message = msg || null;
    if (message && message.since !== undefined) {
      message.logged = data.recent.filter(function (x) { return x.step > message.since; });
      r.querySelectorAll(".rec-steps-list li").forEach(function (li) {
        if (+li.getAttribute("data-step") > message.since) li.classList.add("fresh");
      });
    }
    r.classList.add("js");
    var typed = r.querySelector("details.rec-type");
    if (typed && data.taps && !r.querySelector(".rec-refusal")) typed.open = false;
    flush();
    showNext();
  }

  // Back online (or a retry's turn): send what waits, draw the table as it stands.
  function retry() {
    if (!data || busy || sending) return;
    if (queue.length) flush();
    else if (stale) refresh(message);
  }

  // The typed form goes the same way as a tapped decision (its answer in the sheet).
  function onSubmit(ev) {
    var form = ev.target;
    var r = root();
    if (!r || !data || !form.classList || !form.classList.contains("rec-form") || !r.contains(form)) return;
    ev.preventDefault();
    // (by id: in the what-if mode the field is one of the form's "line" fields)
    var input = form.querySelector("#rec-move");
    var move = (input.value || "").trim();
    if (!move || busy) return;
    var played = form.elements.as_played && form.elements.as_played.checked;
    input.value = "";
    if (form.elements.as_played) form.elements.as_played.checked = false;
    submit(move, !!played);
  }

  function onClick(ev) {
    var r = root();
    if (!r || !data) return;
    var undoLink = ev.target.closest && ev.target.closest("a.rec-undo");
    if (undoLink && r.contains(undoLink)) {
      ev.preventDefault();
      if (queue.length || stale) {
        message = { kind: "notice", text: "Undo waits until the moves waiting are sent and the table is drawn again." };
        render();
        return;
      }
      undoAsk = true; message = null; render();
      var s = sheet(); if (s) s.scrollIntoView({ block: "end" });
      return;
    }
    var t = data.taps && ev.target.closest && ev.target.closest("[data-target]");
    if (t && r.contains(t)) { ev.preventDefault(); tap(t.getAttribute("data-target")); }
  }

  function onKey(ev) {
    if (!data || !data.taps) return;
    if (ev.key !== "Enter" && ev.key !== " ") return;
    var t = ev.target.closest && ev.target.closest("[data-target][role=button]");
    if (t && root() && root().contains(t)) { ev.preventDefault(); tap(t.getAttribute("data-target")); }
  }

  // The recorder link carries the key in its fragment (#key=...), never sent in a URL:
  // hand it to the key form, then drop it from the address bar and the history.
  function keyFromLink() {
    var h = window.location.hash;
    if (h.indexOf("#key=") !== 0) return false;
    var key = decodeURIComponent(h.slice(5));
    history.replaceState(null, "", window.location.pathname + window.location.search);
    var form = document.querySelector("#record-key form");
    var input = form && form.querySelector("input[name=key]");
    if (!input || !key) return false;
    input.value = key;
    form.submit();
    return true;
  }

  function init() {
    if (keyFromLink()) return;
    document.addEventListener("click", onClick);
    document.addEventListener("keydown", onKey);
    document.addEventListener("submit", onSubmit);
    window.addEventListener("online", retry);
    window.setInterval(retry, 5000);
    var block = document.getElementById("record-data");
    if (block) { data = JSON.parse(block.textContent); if (!data.whatif) loadQueue(); }
    start(null);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
